"""Prometheus counters and histograms of spec 001 "Metrics" (prefix chatbot_helpdesk_agent_)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

P = "chatbot_helpdesk_agent_"

STARTED = Counter(P + "started_total", "Helpdesk sessions started", ["trigger"])
STEPS = Counter(P + "step_total", "Graph steps", ["step", "outcome"])
TOOLS = Counter(P + "tool_total", "Tool calls", ["tool", "outcome", "reason"])
OUTCOMES = Counter(P + "outcome_total", "Terminal outcomes", ["outcome"])
SESSION_DEDUP = Counter(P + "session_dedup_total", "Idempotent replays of a session start")
ACL_VIOLATIONS = Counter(P + "session_acl_violation_total", "Access to another user's session")
INJECTION_BLOCKED = Counter(P + "prompt_injection_blocked_total", "Untrusted text neutralised or rejected")
QUESTIONS = Counter(P + "clarifying_questions_total", "Clarifying questions asked", ["position"])
DAILY_CAP_REFUSALS = Counter(P + "daily_cap_refusals_total", "Starts refused by the per-user daily cap")
TOKENS = Counter(P + "tokens_used_total", "Model tokens by role", ["role"])
CHECKPOINTS = Counter(P + "checkpoint_total", "Checkpoint operations", ["op", "outcome"])

SESSION_LATENCY = Histogram(
    P + "session_latency_seconds", "Start to outcome", buckets=(1, 5, 15, 30, 60, 120, 300, 900, 3600)
)
TURN_LATENCY = Histogram(
    P + "turn_latency_seconds", "One graph step", ["phase"], buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20)
)
TURNS_PER_SESSION = Histogram(
    P + "turns_per_session", "Supervisor turns per finished session", buckets=(1, 2, 3, 4, 5, 6, 8, 10)
)
QUESTIONS_PER_SESSION = Histogram(
    P + "user_questions_per_session", "Questions per finished session", buckets=(0, 1, 2, 3)
)
