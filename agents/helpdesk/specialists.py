"""The specialist nodes: the clarifier asks, the classifier labels, the proposer offers a solution from what the
tools found, link_existing offers a duplicate ticket, and the writer drafts the ticket. Each returns only the keys
it changes."""

from __future__ import annotations

import time

from langgraph.runtime import Runtime

from agents.helpdesk import metrics, prompts, twins
from agents.helpdesk.audit import audit
from agents.helpdesk.guards import redact, sanitise_title, sha, wrap_tool_output
from agents.helpdesk.nodes import (
    charge_tokens,
    context_text,
    language_name,
    log_ids,
    model_for_next_call,
    paused,
    state_language,
    step_record,
)
from agents.helpdesk.state import (
    ClarifyingQuestion,
    Classification,
    HelpdeskContext,
    HelpdeskState,
    TicketDraft,
)
from agents.helpdesk.turns import announce
from agents.i18n import code_label, t


def question_id_for(state: HelpdeskState, kind: str) -> str:
    return sha(f"{state['session_id']}:{state.get('turns_taken', 0)}:{len(state.get('trace', []))}:{kind}", 12)


def clarifier(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    announce("clarifier", state["language"])
    fact = twins.missing_fact(state) or "details"
    system = prompts.CLARIFIER_PROMPT.format(
        preamble=prompts.UNTRUSTED_PREAMBLE, fact=fact, language_name=language_name(state)
    )
    human = context_text(state, ctx.settings)
    llm, timeout = model_for_next_call(state, ctx)
    result = llm.structured(
        "classifier",
        [("system", system), ("human", human)],
        ClarifyingQuestion,
        lambda: twins.clarifying_question(state),
        timeout=timeout,
    )
    question = result.value
    text = redact(question.question)
    position = len(state.get("questions_asked", [])) + 1
    metrics.QUESTIONS.labels(str(position)).inc()
    qid = question_id_for(state, "question")
    audit("agent.awaiting_user", at=ctx.clock(), **log_ids(state), question_id=qid, question_hash=sha(text))
    return {
        "questions_asked": [*state.get("questions_asked", []), text],
        "awaiting_user": {
            "kind": "question",
            "question_id": qid,
            "message": text,
            "choices": [redact(c)[:60] for c in question.choices],
            "fact": fact,
        },
        "tokens_used": state.get("tokens_used", 0)
        + charge_tokens(ctx, "clarifier", system + human, question.model_dump_json()),
        "trace": step_record("clarifier", started, engine=result.engine),
        **paused(state, ctx),
    }


def classifier(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    announce("classifier", state["language"])
    system = prompts.CLASSIFIER_PROMPT.format(preamble=prompts.UNTRUSTED_PREAMBLE)
    human = context_text(state, ctx.settings)
    llm, timeout = model_for_next_call(state, ctx)
    result = llm.structured(
        "classifier",
        [("system", system), ("human", human)],
        Classification,
        lambda: twins.classify(state),
        timeout=timeout,
    )
    value, engine = result.value.model_dump(), result.engine
    rule = twins.classify(state).model_dump()
    overridden = sorted(f for f in twins.decisive_fields(state) if value[f] != rule[f])
    if overridden:  # the same report in another language must classify the same way
        value.update({f: rule[f] for f in overridden})
        engine = f"{engine}+rules({','.join(overridden)})"
    return {
        "classification": value,
        "tokens_used": state.get("tokens_used", 0)
        + charge_tokens(ctx, "classifier", system + human, result.value.model_dump_json()),
        "trace": step_record("classifier", started, engine=engine),
    }


def proposer(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    from agents.offline import extractive_answer

    ctx, started = runtime.context, time.perf_counter()
    announce("proposer", state["language"])
    unproposed = twins.unproposed_source(state)
    if unproposed is None:  # the supervisor proposes only when a source has results not yet proposed
        raise RuntimeError("proposer reached without results to propose")
    source, hits = unproposed
    passages = [(i + 1, f"{h.get('title', '')}: {h.get('content', '')}") for i, h in enumerate(hits[:3])]
    sources = "; ".join(f"[{i}] {h.get('title', '')}" for i, h in enumerate(hits[:3], start=1))

    def twin() -> str:
        answer = extractive_answer(state.get("original_question", ""), passages, ctx.embedder, max_chars=700)
        return f"{answer}\n\n{sources}"

    system = prompts.PROPOSER_PROMPT.format(preamble=prompts.UNTRUSTED_PREAMBLE, language_name=language_name(state))
    human = context_text(
        state,
        ctx.settings,
        wrap_tool_output(source, "\n---\n".join(text for _, text in passages), ctx.settings.tool_output_max_chars),
    )
    llm, timeout = model_for_next_call(state, ctx)
    stream = llm.stream("generator", [("system", system), ("human", human)], twin, timeout=timeout, deadline_s=timeout)
    text = redact("".join(stream).strip())[:1500]
    choices = [
        t("helpdesk.choice_solved", state_language(state)),
        t("helpdesk.choice_not_solved", state_language(state)),
    ]
    return {
        "proposed_solutions": [*state.get("proposed_solutions", []), {"source": source, "text": text}],
        "awaiting_user": {
            "kind": "solution",
            "question_id": question_id_for(state, "solution"),
            "message": text,
            "choices": choices,
        },
        "tokens_used": state.get("tokens_used", 0) + charge_tokens(ctx, "writer", system + human, text),
        "trace": step_record("proposer", started, engine=stream.engine),
        **paused(state, ctx),
    }


def link_existing(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    candidate = twins.strong_duplicate(state)
    if candidate is None:  # the supervisor links only with a strong duplicate
        raise RuntimeError("link_existing reached without a strong duplicate")
    ticket = {k: candidate.get(k) for k in ("number", "title", "state", "url")}
    # Someone else's ticket reads as its title and status only (never its body or reporter).
    message = t(
        "helpdesk.duplicate_offer",
        state_language(state),
        number=ticket["number"],
        title=ticket["title"],
        status=code_label("status", ticket["state"], state_language(state)),
    )
    choices = [t("helpdesk.choice_link", state_language(state)), t("helpdesk.choice_not_same", state_language(state))]
    return {
        "awaiting_user": {
            "kind": "duplicate",
            "question_id": question_id_for(state, "duplicate"),
            "message": message,
            "choices": choices,
            "ticket": ticket,
        },
        "trace": step_record("link_existing", started),
        **paused(state, ctx),
    }


def writer(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    ctx, started = runtime.context, time.perf_counter()
    announce("writer", state["language"])
    updates: dict = {}
    engine = "reused"
    draft = state.get("draft")
    if not draft or state.get("next_action") == "write_draft":
        cls = state.get("classification") or twins.classify(state).model_dump()
        system = prompts.WRITER_PROMPT.format(
            preamble=prompts.UNTRUSTED_PREAMBLE,
            severity=cls["severity"],
            category=cls["category"],
            language_name=language_name(state),
        )
        human = context_text(state, ctx.settings)
        llm, timeout = model_for_next_call(state, ctx)
        result = llm.structured(
            "generator",
            [("system", system), ("human", human)],
            TicketDraft,
            lambda: twins.write_draft(state),
            timeout=timeout,
        )
        value, engine = result.value, result.engine
        draft = {
            "title": sanitise_title(value.title),
            "body": redact(value.body),
            "severity": value.severity,
            "category": value.category,
        }
        updates = {
            "draft": draft,
            "tokens_used": state.get("tokens_used", 0)
            + charge_tokens(ctx, "writer", system + human, value.model_dump_json()),
        }
        audit(
            "agent.draft_ready",
            at=ctx.clock(),
            **log_ids(state),
            title_hash=sha(draft["title"]),
            severity=draft["severity"],
            category=draft["category"],
        )
    return {
        **updates,
        "awaiting_user": {
            "kind": "draft_ready",
            "question_id": question_id_for(state, "draft"),
            "message": "",
            "draft": draft,
        },
        "trace": step_record("writer", started, engine=engine),
        **paused(state, ctx),
    }
