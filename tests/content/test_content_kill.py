"""Two `python -m agents.content worker` processes on one database, sharing the task queue: six jobs
finish, each exactly once; a worker SIGKILLed in the middle of generate_modules has its job resumed by
the other one from the checkpoint (modules finished before the kill are not generated again)."""

from __future__ import annotations

import copy
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from agents.content import decisions, service
from agents.llm import LLM, Settings
from storage import jobs
from tests.conftest import make_deps
from tests.fake_openai import Reply

pytestmark = pytest.mark.slow  # tens of seconds: scheduled first (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
OFFLINE = LLM(Settings())
STALE_SECONDS = "3"


def _start_workers(tmp_path: Path, pool, n: int = 2) -> list[subprocess.Popen]:
    env = {**os.environ, "SKILLNET_JOB_STALE_SECONDS": STALE_SECONDS, "PYTHONPATH": str(ROOT)}
    with pool.connection() as conn:
        before = conn.execute("SELECT count(*) FROM procrastinate_workers").fetchone()[0]
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "agents.content", "worker"],
            cwd=ROOT,
            env=env,
            stdout=(tmp_path / f"worker{i}.log").open("w"),
            stderr=subprocess.STDOUT,
        )
        for i in range(n)
    ]
    _wait(lambda: _registered(pool) >= before + n, 180, workers, tmp_path, "both workers registered")
    return workers


def _registered(pool) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) FROM procrastinate_workers").fetchone()[0]


def _stop(workers: list[subprocess.Popen]) -> None:
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)  # procrastinate's own handler: finish, unregister
    for worker in workers:
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:
            worker.kill()


def _wait(condition, seconds: float, workers, tmp_path: Path, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        for i, worker in enumerate(workers):
            if worker.poll() is not None and worker.returncode != -signal.SIGKILL:
                raise AssertionError((tmp_path / f"worker{i}.log").read_text()[-3000:])
        time.sleep(0.1)
    logs = "\n".join((tmp_path / f"worker{i}.log").read_text()[-1500:] for i in range(len(workers)))
    raise AssertionError(f"timed out waiting for {what}\n{logs}")


def _events(pool, org, job_id):
    with pool.connection() as conn:
        return jobs.list_events(conn, org.id, job_id)


def _statuses(pool, org, job_ids) -> list[str]:
    with pool.connection() as conn:
        return [jobs.get_job(conn, org.id, job_id).status for job_id in job_ids]


def test_two_workers_finish_six_jobs_each_exactly_once(pool, app_deps, studio, tmp_path):
    org, admin, docs = studio
    workers = _start_workers(tmp_path, pool)
    try:
        job_ids = [service.start_job(app_deps, admin, [docs[name]]) for name in sorted(docs) * 2]

        def approve_structure(number, job_id):  # course titles are unique: each job's gets its number
            outline = service.job_view(app_deps, admin, job_id).state["course_outline"]
            decisions.review_structure(
                app_deps, admin, job_id, "edit", outline={**outline, "title": f"{outline['title']} ({number})"}
            )

        def approve_final(number, job_id):
            decisions.review_final(app_deps, admin, job_id, "approve")

        for status, decide in (
            ("awaiting_structure_review", approve_structure),
            ("awaiting_final_review", approve_final),
            ("published", None),
        ):
            _wait(
                lambda status=status: all(s in (status, "failed") for s in _statuses(pool, org, job_ids)),
                600,
                workers,
                tmp_path,
                f"six jobs {status}",
            )
            with pool.connection() as conn:
                errors = [jobs.get_job(conn, org.id, job_id).error for job_id in job_ids]
            assert _statuses(pool, org, job_ids) == [status] * 6, errors
            for number, job_id in enumerate(job_ids, 1):
                if decide:
                    decide(number, job_id)
    finally:
        _stop(workers)

    runs_by_worker = Counter()
    with pool.connection() as conn:
        for job_id in job_ids:
            events = jobs.list_events(conn, org.id, job_id)
            runs = [e.data["worker"] for e in events if e.event_type == "run"]
            assert len(runs) == 3, "one run per stage: start, after each review"
            runs_by_worker.update(runs)
            steps = Counter(e.data.get("step") for e in events if e.event_type == "step")
            assert steps["extracting"] == steps["structuring"] == 1
            assert sum(e.event_type == "completed" for e in events) == 1
            job = jobs.get_job(conn, org.id, job_id)
            courses = conn.execute("SELECT count(*) FROM courses WHERE generation_job_id = %s", (job_id,)).fetchone()
            assert courses[0] == 1 and job.result_course_id is not None
            assert job.attempts == 3
        open_jobs = conn.execute(
            "SELECT count(*) FROM procrastinate_jobs WHERE lock LIKE 'generation:%%' AND status IN ('todo', 'doing')"
        ).fetchone()[0]
    assert open_jobs == 0
    assert len(runs_by_worker) == 2, f"both workers took jobs: {runs_by_worker}"
    print(f"\n6 jobs, 18 runs, by worker: {dict(runs_by_worker)}")


def test_a_killed_worker_has_its_job_resumed_by_the_other_from_the_checkpoint(
    pool, app_deps, studio, fake_openai, tmp_path
):
    org, admin, docs = studio
    job_id = service.start_job(app_deps, admin, [docs["devoluciones.md"]])
    assert service.run_job(make_deps(pool, llm=OFFLINE), org.id, job_id).status == "awaiting_structure_review"
    outline = copy.deepcopy(service.job_view(app_deps, admin, job_id).state["course_outline"])
    base = outline["modules"]
    outline["modules"] = [
        {**copy.deepcopy(base[i % len(base)]), "title": f"Módulo {i + 1}: {base[i % len(base)]['title']}"}
        for i in range(6)
    ]

    # every model call is slow (and malformed): module generation takes seconds, the twins still answer
    fake_openai.responder = lambda request: Reply(text="no json here", delay=0.7)
    workers = _start_workers(tmp_path, pool)
    try:
        decisions.review_structure(app_deps, admin, job_id, "edit", outline=outline)

        def done() -> set:
            return {
                e.data["index"]
                for e in _events(pool, org, job_id)
                if e.event_type == "progress" and e.data["phase"] == "done"
            }

        _wait(done, 300, workers, tmp_path, "a first module generated")
        time.sleep(0.4)  # let the finished modules' writes reach the checkpoint; the next ones run on
        runner = [e.data["worker"] for e in _events(pool, org, job_id) if e.event_type == "run"][-1]
        victim = next(w for w in workers if f":{w.pid}:" in runner)
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        done_before = done()
        assert 1 <= len(done_before) < 6, "killed during generate_modules"
        kill_mark = max(e.id for e in _events(pool, org, job_id))
        killed_at = time.monotonic()

        survivor = next(w for w in workers if w is not victim)
        _wait(
            lambda: _statuses(pool, org, [job_id]) == ["awaiting_final_review"],
            300,
            [survivor],
            tmp_path,
            "the survivor resumes the job",
        )
        resumed_after = time.monotonic() - killed_at
    finally:
        _stop(workers)

    after = [e for e in _events(pool, org, job_id) if e.id > kill_mark]
    resumed_by = [e.data["worker"] for e in after if e.event_type == "run"]
    assert resumed_by and all(f":{survivor.pid}:" in w for w in resumed_by)
    restarted = {e.data["index"] for e in after if e.event_type == "progress" and e.data["phase"] == "started"}
    assert not any(e.event_type == "step" and e.data["step"] in ("extracting", "structuring") for e in after)
    assert done_before - restarted, "modules finished before the kill are not generated again"
    print(
        f"\nkilled with {len(done_before)}/6 modules done; the other worker resumed it "
        f"({len(restarted)} modules run after the kill) and reached the final review {resumed_after:.1f} s later"
    )

    # the model never answered in JSON: every module is the template's, which the admin ticks to publish
    decisions.review_final(app_deps, admin, job_id, "approve", accept_template_modules=True)
    job = service.run_job(make_deps(pool, llm=OFFLINE), org.id, job_id)
    assert job.status == "published"
    with pool.connection() as conn:
        courses = conn.execute("SELECT id FROM courses WHERE generation_job_id = %s", (job_id,)).fetchall()
        modules = conn.execute(
            "SELECT position, title FROM modules WHERE course_id = %s ORDER BY position", (job.result_course_id,)
        ).fetchall()
    assert len(courses) == 1
    assert [title for _, title in modules] == [m["title"] for m in outline["modules"]]
    assert [position for position, _ in modules] == list(range(1, 7))
