"""The end of a tutor turn: the answer stored with how it was made, and its Done event."""

from __future__ import annotations

from uuid import UUID

from agents.tutor.state import TutorContext
from core.turns import Done
from storage import attempts as attempt_store
from storage import chat


def finish_turn(
    pool, ctx: TutorContext, session: chat.ChatSession, final: dict, started: float, *, notice: str
) -> Done:
    """Store the answer with how it was made (the chat's metadata) and count a hint given; its Done event."""
    ttft = int((ctx.first_token_at[0] - started) * 1000) if ctx.first_token_at else None
    metadata = {
        "citations": [c.shown() for c in final.get("citations", [])],
        "rung": final.get("rung"),
        "retrieval_source": final.get("retrieval_source"),
        "intent": final.get("intent"),
        "engine": final.get("engine"),
        "language": final.get("language"),
        "retrieval_latency_ms": final.get("retrieval_latency_ms", 0),
        "generation_latency_ms": final.get("generation_latency_ms", 0),
        "ttft_ms": ttft,
        "tokens_used": final.get("tokens_used", 0),
        "low_confidence": final.get("low_confidence", False),
        "removed_citations": final.get("removed_citations", []),
        "suggestions": final.get("suggestions", []),
        "hint_mode": bool(final.get("attempt")),
        "hint_level": final.get("hint_level") or None,
        "rewrites": final.get("rewrites", 0),
        "truncated": bool(notice),
        "notice": notice,
        "fallback": final.get("fallback"),
        "unsupported": final.get("unsupported", []),
        "low_confidence_reason": final.get("low_confidence_reason"),
        "actions": final.get("actions", []),
        # how the answer was adapted to the learner (issue 29): the course they take, its mode, the support level
        "learner": {key: learner[key] for key in ("course_id", "mode", "level")}
        if (learner := final.get("learner"))
        else None,
        "question": final.get("message", ""),
        # the guided exchange: "ask" (the guiding question, the answer waits) or the reply it got
        "guided": final.get("guided_turn") or final.get("guided_reply"),
    }
    with pool.connection() as conn:
        if final.get("attempt"):
            attempt_store.record_hint(conn, ctx.org_id, UUID(final["attempt"]["attempt_id"]))
        saved = chat.add_message(conn, ctx.org_id, session.id, "assistant", final.get("response", ""), metadata)
        if final.get("guide_next") != final.get("guide"):  # the question now pending, or none any more
            chat.update_context(conn, ctx.org_id, session.id, {"guide": final.get("guide_next")})
    # the final text and its language: with the Grounding, Citations and Suggestions before it, everything a
    # client draws the answer from (the chat reads nothing back from the database)
    return Done(
        message_id=str(saved.id),
        text=saved.content,
        language=metadata["language"],
        tokens_used=metadata["tokens_used"],
        retrieval_source=metadata["retrieval_source"],
        retrieval_latency_ms=metadata["retrieval_latency_ms"],
        generation_latency_ms=metadata["generation_latency_ms"],
        ttft_ms=ttft,
        engine=metadata["engine"],
        low_confidence=metadata["low_confidence"],
        fallback=metadata["fallback"] or None,
        low_confidence_reason=metadata["low_confidence_reason"] or None,
        hint_level=metadata["hint_level"],
        notice=notice or None,
        guided=metadata["guided"],
    )
