"""Load test: python tests/bench/load.py [--users 20] [--seconds 60]   (needs `pip install locust` and HAProxy)

N simulated employees (tests/bench/locustfile.py) sign in through HAProxy over https (deploy/haproxy.cfg, a
self-signed certificate) and chat with the tutor (offline engine) for a fixed time, against:
  1. one chat process: one employee at a time (the anchor without concurrency), then N at once;
  2. two chat processes behind the same HAProxy, N at once;
  3. one chat process replaying a recorded turn for every question (Gradio's floor), N at once.
Per run: turns per second, p50/p95 time to first token and to the completed turn, errors, and the machine's
load average before and after (the machine may be shared: compare ratios within one run of this script).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.tutor import employees, fresh_demo_database  # noqa: E402 (after the path setup above)
from tests.deploy.arrangement import running_arrangement  # noqa: E402

LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def percentile(histogram: dict, q: float) -> float:
    """The q-th percentile of locust's response-time histogram ({rounded ms: count})."""
    points = sorted((float(ms), count) for ms, count in histogram.items())
    total, seen = sum(count for _, count in points), 0
    for ms, count in points:
        seen += count
        if seen >= q / 100 * total:
            return ms
    return float("nan")


def run_locust(base: str, users: int, seconds: int, emails: list[str]) -> dict:
    env = {**os.environ, "LOAD_EMAILS": ",".join(emails[:users])}
    load_before = os.getloadavg()[0]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(LOCUSTFILE),
            "--headless",
            "-u",
            str(users),
            "-r",
            str(users),
            "-t",
            f"{seconds}s",
            "-H",
            base,
            "--json",
            "--only-summary",
            "--stop-timeout",
            "30",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=seconds + 300,
        check=False,
    )
    try:
        stats = {entry["name"]: entry for entry in json.loads(run.stdout)}
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"locust failed: {run.stderr[-2000:]}") from exc
    turn, ttft = stats.get("turn", {}), stats.get("TTFT", {})
    return {
        "users": users,
        "seconds": seconds,
        "turns": turn.get("num_requests", 0),
        "errors": sum(entry["num_failures"] for entry in stats.values()),
        "ttft": (percentile(ttft.get("response_times", {}), 50), percentile(ttft.get("response_times", {}), 95)),
        "turn": (percentile(turn.get("response_times", {}), 50), percentile(turn.get("response_times", {}), 95)),
        "load": (load_before, os.getloadavg()[0]),
        "error_report": run.stderr[run.stderr.find("Error report") :][:1500] if "Error report" in run.stderr else "",
    }


def report(label: str, figures: dict) -> None:
    print(
        f"{label:<34} {figures['users']:>3} users  {figures['turns'] / figures['seconds']:5.2f} turns/s  "
        f"TTFT p50 {figures['ttft'][0]:6.0f} p95 {figures['ttft'][1]:6.0f} ms  turn p50 {figures['turn'][0]:6.0f} "
        f"p95 {figures['turn'][1]:6.0f} ms  errors {figures['errors']}  "
        f"load {figures['load'][0]:.1f}→{figures['load'][1]:.1f}",
        flush=True,
    )
    if figures["errors"]:
        print(figures["error_report"], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    pool = fresh_demo_database()
    emails = [person.email for person in employees(pool)]
    if len(emails) < args.users:
        sys.exit(f"the demo organisation has {len(emails)} employees: --users {len(emails)} at most")
    url = os.environ["DATABASE_URL"]
    print(f"{os.cpu_count()} cores; {args.users} simulated employees for {args.seconds} s per run")
    with tempfile.TemporaryDirectory() as logs:
        with running_arrangement(url, Path(logs), apps="", chats="a", worker=False) as arrangement:
            run_locust(arrangement.base, 2, 10, emails)  # warms the chat (models, caches): not reported
            report("1 chat process, one at a time", run_locust(arrangement.base, 1, args.seconds, emails))
            report("1 chat process", run_locust(arrangement.base, args.users, args.seconds, emails))
        with running_arrangement(url, Path(logs), apps="", chats="ab", worker=False) as arrangement:
            run_locust(arrangement.base, 2, 10, emails)
            report("2 chat processes", run_locust(arrangement.base, args.users, args.seconds, emails))
        replay = [sys.executable, str(Path(__file__).with_name("replay_chat.py"))]
        with running_arrangement(url, Path(logs), apps="", chats="a", worker=False, chat_command=replay) as arrangement:
            run_locust(arrangement.base, 2, 10, emails)
            report("1 process replaying (Gradio floor)", run_locust(arrangement.base, args.users, args.seconds, emails))


if __name__ == "__main__":
    main()
