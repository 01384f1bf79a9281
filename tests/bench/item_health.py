"""Benchmark: course health (item analysis) of a 50-exercise course answered by 5,000 learners, beside the
time to read the same attempts alone, in one run.

    python tests/bench/item_health.py [--learners 5000] [--exercises 50] [--retry-share 0.1] [--runs 3]

Builds a throwaway organisation in a fresh database (embedded server, or DATABASE_URL's server): learners
of random ability answer every item once (a right answer more likely the abler they are and the easier
the item), a share of them try again. Times, median of the runs:
- read_attempts_ms: every submitted attempt of the course fetched into Python (the floor any analysis
  outside the database would pay);
- read_first_answers_ms: the first answers only, as storage.item_stats selects them;
- refresh_ms: storage.item_stats.refresh_course, the queue task's work (facility, point-biserial,
  upper-lower, option picks, stored);
- health_ms: agents.content.health.course_health from the stored figures (what a page does);
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


from storage import courses, db, item_stats, lessons, users
from storage import exercises as exercise_store
from tests.bench.scratch import scratch_database

KINDS = ("test", "true_false", "fill_blank")
T0 = datetime(2026, 9, 1, tzinfo=UTC)


def _item(kind: str, n: int) -> dict:
    if kind == "test":
        return {"options": [f"option {n}.{i}" for i in range(4)], "answer": n % 4}
    if kind == "true_false":
        return {"statement": f"Statement {n}.", "answer": n % 2 == 0}
    return {"text": f"Term {n} is ___.", "answers": [f"term{n}"]}


def build(conn, learners: int, exercises: int, retry_share: float) -> tuple[uuid.UUID, uuid.UUID, int]:
    rng = random.Random(31)
    org = users.ensure_org(conn, "bench-items", "Bench Items")
    course_id = courses.create_course(conn, org.id, title="Bench course", language="en", status="published")
    items = []
    per_module = 10
    for m in range(math.ceil(exercises / per_module)):
        module_id = lessons.add_module(conn, org.id, course_id, title=f"Module {m + 1}")
        lesson_id = lessons.add_lesson(conn, org.id, module_id, title=f"Practice {m + 1}", content_type="exercise")
        for n in range(m * per_module, min(exercises, (m + 1) * per_module)):
            kind = KINDS[n % 3]
            content = _item(kind, n)
            items.append(
                (
                    exercise_store.add_exercise(
                        conn, org.id, lesson_id, type=kind, prompt=f"Q{n}?", bloom_level="remember", content=content
                    ),
                    kind,
                    content,
                    rng.gauss(0, 1),
                )
            )
    people = [uuid.uuid4() for _ in range(learners)]
    with (
        conn.cursor() as cur,
        cur.copy("COPY users (id, org_id, email, full_name, role, password_hash) FROM STDIN") as copy,
    ):
        for n, person in enumerate(people):
            copy.write_row((person, org.id, f"l{n}@bench.test", f"Learner {n}", "employee", "x"))
    rows = 0
    with (
        conn.cursor() as cur,
        cur.copy("""COPY exercise_attempts (org_id, user_id, exercise_id, answer, is_correct,
                                           score, started_at, submitted_at) FROM STDIN""") as copy,
    ):
        for n, person in enumerate(people):
            ability = rng.gauss(0, 1)
            for exercise_id, kind, content, difficulty in items:
                at = T0 + timedelta(minutes=n)
                for attempt in range(2 if rng.random() < retry_share else 1):
                    right = rng.random() < 1 / (1 + math.exp(difficulty - ability)) or attempt == 1
                    if kind == "test":
                        answer = (
                            content["answer"] if right else rng.choice([i for i in range(4) if i != content["answer"]])
                        )
                    elif kind == "true_false":
                        answer = content["answer"] if right else not content["answer"]
                    else:
                        answer = [content["answers"][0] if right else "no idea"]
                    copy.write_row(
                        (
                            org.id,
                            person,
                            exercise_id,
                            json.dumps(answer),
                            right,
                            float(right),
                            at,
                            at + timedelta(minutes=1 + attempt),
                        )
                    )
                    rows += 1
    conn.execute("ANALYZE exercise_attempts")
    return org.id, course_id, rows


def _timed(call) -> tuple[float, object]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--learners", type=int, default=5000)
    parser.add_argument("--exercises", type=int, default=50)
    parser.add_argument("--retry-share", type=float, default=0.1)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    with scratch_database("bench_items"):
        pool = db.app_pool()
        with pool.connection() as conn:
            build_ms, (org_id, course_id, rows) = _timed(
                lambda: build(conn, args.learners, args.exercises, args.retry_share)
            )
        from agents.content.health import course_health

        times: dict[str, list[float]] = {
            "read_attempts_ms": [],
            "read_first_answers_ms": [],
            "refresh_ms": [],
            "health_ms": [],
        }
        for _ in range(args.runs):
            with pool.connection() as conn:
                ms, _ = _timed(
                    lambda: conn.execute(
                        """SELECT a.exercise_id, a.user_id, a.score, a.answer, a.submitted_at FROM exercise_attempts a
                       JOIN exercises x ON x.id = a.exercise_id JOIN lessons l ON l.id = x.lesson_id
                       JOIN modules m ON m.id = l.module_id
                       WHERE a.org_id = %s AND m.course_id = %s AND a.submitted_at IS NOT NULL""",
                        (org_id, course_id),
                    ).fetchall()
                )
                times["read_attempts_ms"].append(ms)
                ms, firsts = _timed(lambda: item_stats.first_answers(conn, org_id, course_id))
                times["read_first_answers_ms"].append(ms)
                ms, stored = _timed(lambda: item_stats.refresh_course(conn, org_id, course_id))
                times["refresh_ms"].append(ms)
            ms, health = _timed(lambda: course_health(pool, org_id, course_id, "en", refresh_if_small=False))
            times["health_ms"].append(ms)
        flagged = sum(bool(item.flags) for item in health.items)
        print(
            json.dumps(
                {
                    "learners": args.learners,
                    "exercises": stored,
                    "attempts": rows,
                    "first_answers": len(firsts),
                    "runs": args.runs,
                    "build_s": round(build_ms / 1000, 1),
                    **{key: round(statistics.median(values)) for key, values in times.items()},
                    "flagged": flagged,
                }
            )
        )


if __name__ == "__main__":
    main()
