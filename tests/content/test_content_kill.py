"""Kill test: a worker process SIGKILLed during generate_modules; the next worker resumes from the checkpoint."""
from __future__ import annotations

import copy
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from agents.content import service
from agents.llm import LLM, Settings
from storage import jobs
from tests.fake_openai import Reply

ROOT = Path(__file__).resolve().parents[2]
OFFLINE = LLM(Settings())


def _worker(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "agents.content", "worker", *args], cwd=ROOT, env=env,
                            stdout=log.open("w"), stderr=subprocess.STDOUT)


def _events(pool, org, job_id):
    with pool.connection() as conn:
        return jobs.list_events(conn, org.id, job_id)


def test_a_killed_worker_resumes_from_its_checkpoint_and_publishes_once(pool, studio, fake_openai, tmp_path,
                                                                       monkeypatch):
    org, admin, docs = studio
    job_id = service.start_job(pool, admin, [docs["devoluciones.md"]])
    assert service.run_job(pool, org.id, job_id, llm=OFFLINE).status == "awaiting_structure_review"
    outline = copy.deepcopy(service.job_view(pool, admin, job_id).state["course_outline"])
    base = outline["modules"]
    outline["modules"] = [{**copy.deepcopy(base[i % len(base)]), "title": f"Módulo {i + 1}: {base[i % len(base)]['title']}"}
                          for i in range(6)]
    service.review_structure(pool, admin, job_id, "edit", outline=outline)

    # every model call is slow (and malformed): module generation takes seconds, the twins still answer
    fake_openai.responder = lambda request: Reply(text="no json here", delay=0.7)
    env = {**os.environ, "SKILLNET_JOB_STALE_SECONDS": "2", "PYTHONPATH": str(ROOT)}
    first = _worker([], env, tmp_path / "first.log")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            done = [e for e in _events(pool, org, job_id) if e.event_type == "progress" and e.data["phase"] == "done"]
            if done:
                time.sleep(0.4)     # let the finished modules' writes reach the checkpoint; the next ones run on
                break
            assert first.poll() is None, (tmp_path / "first.log").read_text()
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    done_before = {e.data["index"] for e in _events(pool, org, job_id)
                   if e.event_type == "progress" and e.data["phase"] == "done"}
    assert 1 <= len(done_before) < 6, "killed during generate_modules"
    with pool.connection() as conn:
        job = jobs.get_job(conn, org.id, job_id)
        assert job.status == "generating" and job.claimed_by is not None
        # the dead worker's claim holds until its heartbeat goes stale: nobody runs the job twice
        assert jobs.claim_job(conn, "intruder", stale_seconds=2) is None
    kill_mark = max(e.id for e in _events(pool, org, job_id))

    time.sleep(2.5)                 # the heartbeat goes stale; the next worker to start takes the job over
    monkeypatch.setenv("SKILLNET_JOB_STALE_SECONDS", "2")
    assert service.run_job(pool, org.id, job_id, llm=OFFLINE).status == "awaiting_final_review"

    after = [e for e in _events(pool, org, job_id) if e.id > kill_mark]
    restarted = {e.data["index"] for e in after if e.event_type == "progress" and e.data["phase"] == "started"}
    assert not any(e.event_type == "step" and e.data["step"] in ("extracting", "structuring") for e in after)
    assert done_before - restarted, "modules finished before the kill are not generated again"

    service.review_final(pool, admin, job_id, "approve")
    job = service.run_job(pool, org.id, job_id, llm=OFFLINE)
    assert job.status == "published"
    with pool.connection() as conn:
        courses = conn.execute("SELECT id FROM courses WHERE generation_job_id = %s", (job_id,)).fetchall()
        modules = conn.execute("SELECT position, title FROM modules WHERE course_id = %s ORDER BY position",
                               (job.result_course_id,)).fetchall()
    assert len(courses) == 1
    assert [title for _, title in modules] == [m["title"] for m in outline["modules"]]
    assert [position for position, _ in modules] == list(range(1, 7))
