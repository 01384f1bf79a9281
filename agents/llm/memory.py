"""Conversation memory and token budgets (000 §3).

The last turns stay raw; older ones live in a summary cached on the session. The summary is only
regenerated when a whole batch of turns has aged out, so most turns cost no summarising call.
Budgets start from an 8K-friendly split and scale with the model's context window.
"""

from __future__ import annotations

from uuid import UUID

from psycopg_pool import ConnectionPool

from agents.i18n import language_name, t
from agents.llm import count_tokens, prompts
from agents.llm.client import LLM
from storage import chat
from storage.db import reading

RAW_TURNS = 6  # messages kept verbatim
SUMMARY_BATCH = 6  # the summary is rebuilt once this many more messages have aged out

TOKEN_BUDGET = {
    "system_prompt": 400,
    "history": 2000,
    "retrieved_context": 3000,
    "user_message": 200,
    "generation_reserve": 2000,
}
MODEL_CONTEXT_LIMITS = {
    "gpt-4o": 128_000,
    "gpt-4o-mini": 128_000,
    "gpt-4.1": 1_000_000,
    "gpt-4.1-mini": 1_000_000,
    "gpt-5": 400_000,
    "gpt-5-mini": 400_000,
    "deepseek-chat": 64_000,
    "deepseek-v3": 64_000,
    "llama3.1": 128_000,
    "qwen2.5": 32_000,
    "default": 16_000,
}


SLOW_MODEL_CAPS = {"history": 600, "retrieved_context": 1000}  # prompt reading dominates a slow model's TTFT


def budgets_for(engine: str, context_tokens: int | None = None, slow: bool = False) -> dict[str, int]:
    """Token budgets for the model behind ``engine`` ("offline" or "openai:<model>"); a probed
    ``context_tokens`` beats the name table, and a window smaller than the default split shrinks it.
    A slow model (probed) reads less history and context."""
    budgets = _window_budgets(engine, context_tokens)
    if slow:
        budgets.update({key: min(budgets[key], cap) for key, cap in SLOW_MODEL_CAPS.items()})
    return budgets


def _window_budgets(engine: str, context_tokens: int | None) -> dict[str, int]:
    model = engine.split(":", 1)[1] if ":" in engine else "default"
    limit = context_tokens or next(
        (value for name, value in MODEL_CONTEXT_LIMITS.items() if model.startswith(name)),
        MODEL_CONTEXT_LIMITS["default"],
    )
    total = sum(TOKEN_BUDGET.values())
    if limit < total:  # small local models (llama.cpp defaults to 2048): every variable part shrinks
        share = limit / total
        return {
            key: value if key in ("system_prompt", "user_message") else max(128, int(value * share))
            for key, value in TOKEN_BUDGET.items()
        }
    if limit <= 16_000:
        return dict(TOKEN_BUDGET)
    scale = min(10.0, limit / 16_000)
    return {
        "system_prompt": 400,
        "history": int(2000 * scale),
        "retrieved_context": int(3000 * scale),
        "user_message": 200,
        "generation_reserve": int(2000 * min(2.0, scale)),
    }


def _summary_twin(previous: str | None, turns: list[chat.ChatTurn], language: str) -> str:
    """Offline summary: the questions asked, in order (the answers can be re-asked; questions carry topic)."""
    questions = [" ".join(t.content.split())[:120] for t in turns if t.role == "user"]
    label = t("tutor.earlier_topics", language)
    parts = [previous] if previous else []
    if questions:
        parts.append(f"{label}: " + "; ".join(questions) + ".")
    return " ".join(parts)


def summarise(llm: LLM, previous: str | None, turns: list[chat.ChatTurn], language: str) -> str:
    transcript = "\n".join(f"{'Employee' if t.role == 'user' else 'Tutor'}: {t.content}" for t in turns)
    earlier = f"Earlier summary: {previous}\n\n" if previous else ""
    content = prompts.SUMMARIZE.format(language_name=language_name(language), previous=earlier, transcript=transcript)
    stream = llm.stream(
        "summarizer", [{"role": "user", "content": content}], twin=lambda: _summary_twin(previous, turns, language)
    )
    return "".join(stream).strip()


def prepare_history(
    pool: ConnectionPool, llm: LLM, org_id: UUID, session: chat.ChatSession, language: str, budget_tokens: int
) -> tuple[list[dict], str | None]:
    """(recent raw turns, summary of the older ones), refreshing the cached summary when a batch aged out.
    Read, release the connection, summarise (a model call), then save the summary."""
    with reading(pool) as conn:
        messages = chat.list_turns(conn, org_id, session.id)
    summary, covered = session.summary, session.summary_turn_count
    if len(messages) - covered >= RAW_TURNS + SUMMARY_BATCH:
        upto = len(messages) - RAW_TURNS
        summary = summarise(llm, summary, messages[covered:upto], language)
        with pool.connection() as conn:
            chat.set_summary(conn, org_id, session.id, summary, upto)
        covered = upto
    recent = [{"role": m.role, "content": m.content} for m in messages[covered:]]
    while len(recent) > 1 and sum(count_tokens(t["content"]) for t in recent) > budget_tokens:
        recent.pop(0)
    return recent, summary
