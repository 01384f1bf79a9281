"""Benchmark: the skills-matrix page's data + figure path for 500 employees × 60 skills.

    python tests/bench/matrix.py [--employees 500] [--skills 60] [--density 0.6] [--runs 5]

Builds a throwaway organisation in a fresh database (embedded server, or DATABASE_URL's server),
then times what pages/skills_matrix.py does: dashboards.matrix_view (query + heatmap + table) and
the figure's JSON serialisation (what Streamlit ships to the browser). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


from storage import db, users  # noqa: E402
from tests.bench.scratch import scratch_database  # noqa: E402
from tests.people import upsert_user  # noqa: E402


def build(conn, employees: int, skills: int, density: float) -> users.User:
    rng = random.Random(7)
    org = users.ensure_org(conn, "bench-matrix", "Bench Matrix")
    admin = upsert_user(conn, org.id, email="admin@bench.test", full_name="Bench Admin", role="admin", password="bench")
    departments = [f"Department {i}" for i in range(8)]
    people = [(uuid.uuid4(), f"Employee {i:03d}", f"e{i:03d}@bench.test", departments[i % 8]) for i in range(employees)]
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO users (id, org_id, email, full_name, role, password_hash, department)
                           VALUES (%s, %s, %s, %s, 'employee', 'x', %s)""",
            [(pid, org.id, email, name, dept) for pid, name, email, dept in people],
        )
        categories = [
            cur.execute(
                "INSERT INTO skill_categories (org_id, name) VALUES (%s, %s) RETURNING id", (org.id, f"Category {c}")
            ).fetchone()[0]
            for c in range(6)
        ]
        skill_ids = [uuid.uuid4() for _ in range(skills)]
        cur.executemany(
            "INSERT INTO skills (id, org_id, category_id, name) VALUES (%s, %s, %s, %s)",
            [(sid, org.id, categories[i % 6], f"Skill {i:02d}") for i, sid in enumerate(skill_ids)],
        )
        cells = [
            (org.id, pid, sid, rng.choice(("low", "medium", "high")), rng.choice(("checkpoint", "admin")))
            for pid, *_ in people
            for sid in skill_ids
            if rng.random() < density
        ]
        cur.executemany(
            """INSERT INTO user_skills (org_id, user_id, skill_id, level, source)
                           VALUES (%s, %s, %s, %s, %s)""",
            cells,
        )
    return admin


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--employees", type=int, default=500)
    parser.add_argument("--skills", type=int, default=60)
    parser.add_argument("--density", type=float, default=0.6)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    with scratch_database("bench_matrix"):
        with db.app_pool().connection() as conn:
            admin = build(conn, args.employees, args.skills, args.density)
            cells = conn.execute("SELECT count(*) FROM user_skills").fetchone()[0]
        from agents.admin import dashboards
        from agents.runtime.deps import process_deps

        deps = process_deps()
        dashboards.matrix_view(deps, admin)  # warm: imports, pool, plotly validators
        totals, views, serialise = [], [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            view = dashboards.matrix_view(deps, admin)
            built = time.perf_counter()
            view.figure.to_json()
            view.table.to_csv(index=False)
            done = time.perf_counter()
            views.append(built - started)
            serialise.append(done - built)
            totals.append(done - started)
        print(
            json.dumps(
                {
                    "employees": view.shape[0],
                    "skills": view.shape[1],
                    "cells": cells,
                    "runs": args.runs,
                    "data_and_figure_ms_median": round(statistics.median(views) * 1000),
                    "serialise_ms_median": round(statistics.median(serialise) * 1000),
                    "total_ms_median": round(statistics.median(totals) * 1000),
                    "total_ms_max": round(max(totals) * 1000),
                    "budget_ms": 2000,
                }
            )
        )


if __name__ == "__main__":
    main()
