"""The helpdesk's tools (deterministic, no LLM): knowledge base, web, existing tickets, filing.

Each tool takes a redacted query, returns plain dicts, and raises ToolError on failure; the graph
wraps every call with its timeout, retries, cache, flag check, metrics and audit line.
"""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

import httpx

from agents.helpdesk import duplicates
from agents.helpdesk.guards import sha
from agents.runtime.deps import AppDeps
from core import config
from storage import tickets


class ToolError(RuntimeError):
    def __init__(self, message: str, *, retryable: bool = False, reason: str = "error"):
        super().__init__(message)
        self.retryable = retryable
        self.reason = reason  # the tool_total{reason} label: error | timeout | unavailable | disabled


@dataclass(frozen=True)
class ToolBudget:
    timeout: float
    retries: int


BUDGETS = {
    "retry_kb": ToolBudget(12.0, 0),
    "web_search": ToolBudget(10.0, 1),
    "search_existing_issues": ToolBudget(8.0, 1),
    "file_ticket": ToolBudget(15.0, 0),  # never auto-retry a write
}
BACKOFF = (0.2, 0.6)
_EXECUTOR = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="helpdesk-tool")


@dataclass
class Toolbox:
    """The four tools, plus which read tools exist at all here (web search needs a provider key)."""

    retry_kb: Callable[[str], list[dict]]
    web_search: Callable[[str], list[dict]]
    search_existing_issues: Callable[[str], list[dict]]
    file_ticket: Callable[[dict, str], dict]
    available: set[str] = field(default_factory=lambda: {"retry_kb", "search_existing_issues", "file_ticket"})


def _raise_for_status(response: httpx.Response, what: str) -> None:
    if response.status_code >= 400:
        raise ToolError(f"{what} answered HTTP {response.status_code}", retryable=response.status_code >= 500)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 2 or w.isdigit()}


def title_overlap(a: str, b: str) -> float:
    wa, wb = _words(a), _words(b)
    return len(wa & wb) / len(wa | wb) if wa and wb else 0.0


# --- knowledge base --------------------------------------------------------------------------------
def kb_search(deps: AppDeps, org_id, query: str) -> list[dict]:
    from agents.retrieval import search

    return [
        {
            "title": hit.document_title,
            "section": hit.heading or "",
            "page": hit.page,
            "content": hit.content,
            "score": float(hit.score),
        }
        for hit in search(org_id, query, k=4, pool=deps.pool, embedder=deps)
    ]


# --- web (Tavily) ----------------------------------------------------------------------------------
def tavily_search(query: str) -> list[dict]:
    response = httpx.post(
        "https://api.tavily.com/search",
        timeout=BUDGETS["web_search"].timeout,
        json={"api_key": config.get("TAVILY_API_KEY"), "query": query, "max_results": 4},
    )
    _raise_for_status(response, "web search")
    return [
        {"title": r.get("title", ""), "url": r.get("url", ""), "content": r.get("content", "")}
        for r in response.json().get("results", [])
    ]


# --- existing tickets ------------------------------------------------------------------------------
TITLE_RESCORED = 10


def local_ticket_search(deps: AppDeps, org_id: UUID, query: str) -> list[dict]:
    """The organisation's tickets most like the report, in any language (agents/helpdesk/duplicates.py);
    "strong" when the centred similarity clears its calibrated threshold."""
    vector = deps.embed_passages([query])[0]
    language = duplicates.text_language(query)
    means = duplicates.language_means(deps)
    with deps.pool.connection() as conn:
        candidates = tickets.duplicate_candidates(conn, org_id, vector)
    scored: list[tuple[float, tickets.Ticket, str | None]] = []
    for candidate in candidates:
        ticket = candidate.ticket
        ticket_language = ticket.language or duplicates.text_language(f"{ticket.title}\n{ticket.body}")
        scored.append(
            (
                duplicates.similarity(vector, language, candidate.embedding, ticket_language, means),
                ticket,
                ticket_language,
            )
        )
    scored.sort(key=lambda item: -item[0])
    for n, (score, ticket, lang) in enumerate(scored[:TITLE_RESCORED]):  # the closest few: their titles too
        title_score = duplicates.similarity(vector, language, duplicates.title_vector(ticket.title, deps), lang, means)
        scored[n] = (max(score, title_score), ticket, lang)
    ranked = sorted(
        ((score, ticket, duplicates.is_duplicate(score, language, lang)) for score, ticket, lang in scored),
        key=lambda item: -item[0],
    )
    return [
        {
            "number": ticket.number,
            "title": ticket.title,
            "body": ticket.body[:600],
            "state": ticket.status,
            "url": ticket.external_url or "",
            "similarity": round(score, 4),
            "strong": strong,
        }
        for score, ticket, strong in ranked[:5]
    ]


def _github_headers() -> dict:
    return {"Authorization": f"Bearer {config.get('GITHUB_TOKEN')}", "Accept": "application/vnd.github+json"}


def github_issue_search(query: str) -> list[dict]:
    repo = config.get("GITHUB_REPO")
    response = httpx.get(
        f"{_github_api()}/search/issues",
        headers=_github_headers(),
        params={"q": f"repo:{repo} is:issue {query}"[:250], "per_page": 5},
        timeout=BUDGETS["search_existing_issues"].timeout,
    )
    _raise_for_status(response, "GitHub search")
    out = []
    for item in response.json().get("items", []):
        overlap = title_overlap(query, item.get("title", ""))
        out.append(
            {
                "number": item["number"],
                "title": item.get("title", ""),
                "body": (item.get("body") or "")[:600],
                "state": item.get("state", ""),
                "url": item.get("html_url", ""),
                "similarity": round(overlap, 4),
                "strong": overlap >= 0.6,
            }
        )
    return out


# --- filing ----------------------------------------------------------------------------------------
def _ticket_dict(ticket, created: bool) -> dict:
    return {
        "id": str(ticket.id),
        "number": ticket.number,
        "title": ticket.title,
        "status": ticket.status,
        "url": ticket.external_url or "",
        "created": created,
    }


def _create_row(
    deps: AppDeps,
    org_id: UUID,
    user_id: UUID,
    draft: dict,
    idempotency_key: str,
    *,
    source: str,
    filing_state: str,
    footer_hash: str | None = None,
):
    context = draft.get("context") or {}
    # The vector duplicate search compares: the title and the person's own words, not the draft's
    # headings and traceability footer.
    text = f"{draft['title']}\n{context.get('problem') or draft['body']}"
    vector = deps.embed_passages([text])[0]
    with deps.pool.connection() as conn:
        return tickets.create(
            conn,
            org_id,
            title=draft["title"],
            body=draft["body"],
            severity=draft["severity"],
            category=draft["category"],
            created_by=user_id,
            source=source,
            idempotency_key=idempotency_key,
            embedding=vector,
            language=duplicates.text_language(text),
            snapshot=context.get("snapshot"),
            facts=context.get("facts"),
            steps=context.get("steps"),
            session_id=UUID(context["session_id"]) if context.get("session_id") else None,
            filing_state=filing_state,
            footer_hash=footer_hash,
        )


def file_local_ticket(deps: AppDeps, org_id: UUID, user_id: UUID, draft: dict, idempotency_key: str) -> dict:
    ticket, created = _create_row(
        deps, org_id, user_id, draft, idempotency_key, source="helpdesk", filing_state="complete"
    )
    return _ticket_dict(ticket, created)


def _github_api() -> str:
    return config.get("GITHUB_API_URL").rstrip("/")


def _find_filed_issue(footer_hash: str) -> str | None:
    """The URL of the issue whose body carries this footer hash (filed before a crash), else None."""
    response = httpx.get(
        f"{_github_api()}/search/issues",
        headers=_github_headers(),
        params={"q": f'repo:{config.get("GITHUB_REPO")} is:issue in:body "{footer_hash}"'},
        timeout=BUDGETS["search_existing_issues"].timeout,
    )
    _raise_for_status(response, "GitHub search")
    return next(
        (item.get("html_url") for item in response.json().get("items", []) if footer_hash in (item.get("body") or "")),
        None,
    )


def file_github_issue(deps: AppDeps, org_id: UUID, user_id: UUID, draft: dict, idempotency_key: str) -> dict:
    """Exactly once: the local row (idempotency key, footer hash) is committed before the POST and
    completed after it. A re-confirm that finds the row still pending asks GitHub for the footer hash
    first, so an issue created just before a crash is adopted, never filed twice."""
    footer_hash = sha(idempotency_key, 20)
    with deps.pool.connection() as conn:
        ticket = tickets.get_by_key(conn, org_id, idempotency_key)
    if ticket is not None and ticket.filing_state == "complete":
        return _ticket_dict(ticket, False)
    if ticket is None:
        ticket, _ = _create_row(
            deps,
            org_id,
            user_id,
            draft,
            idempotency_key,
            source="github",
            filing_state="pending",
            footer_hash=footer_hash,
        )
        url = None
    else:
        url = _find_filed_issue(footer_hash)
    if url is None:
        response = httpx.post(
            f"{_github_api()}/repos/{config.get('GITHUB_REPO')}/issues",
            headers=_github_headers(),
            timeout=BUDGETS["file_ticket"].timeout,
            json={
                "title": draft["title"],
                "body": f"{draft['body']}\nskillnet_ref: {footer_hash}",
                "labels": [draft["severity"], draft["category"]],
            },
        )
        _raise_for_status(response, "GitHub")
        url = response.json().get("html_url")
    with deps.pool.connection() as conn:
        return _ticket_dict(tickets.complete_filing(conn, org_id, ticket.id, url), True)


def github_configured() -> bool:
    return bool(config.get("GITHUB_TOKEN") and config.get("GITHUB_REPO"))


def default_toolbox(deps: AppDeps, org_id: UUID, user_id: UUID) -> Toolbox:
    """The production tools for one user of one organisation."""
    github = github_configured()
    available = {"retry_kb", "search_existing_issues", "file_ticket"}
    if config.get("TAVILY_API_KEY"):
        available.add("web_search")

    def unavailable(query: str) -> list[dict]:
        raise ToolError("web search is not configured", reason="unavailable")

    return Toolbox(
        retry_kb=lambda q: kb_search(deps, org_id, q),
        web_search=tavily_search if "web_search" in available else unavailable,
        search_existing_issues=github_issue_search if github else (lambda q: local_ticket_search(deps, org_id, q)),
        file_ticket=(lambda d, k: (file_github_issue if github else file_local_ticket)(deps, org_id, user_id, d, k)),
        available=available,
    )


def call_with_budget(name: str, fn: Callable, *args):
    """``fn(*args)`` under the tool's timeout, retried (200 ms, 600 ms) only on retryable failures."""
    import time

    budget = BUDGETS[name]
    for attempt in range(budget.retries + 1):
        future = _EXECUTOR.submit(fn, *args)
        try:
            return future.result(timeout=budget.timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ToolError(f"{name} timed out after {budget.timeout:g}s", reason="timeout") from None
        except ToolError as exc:
            if not exc.retryable or attempt == budget.retries:
                raise
        except httpx.HTTPError as exc:
            if attempt == budget.retries:
                raise ToolError(f"{name}: {type(exc).__name__}", retryable=True) from exc
        time.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
    raise AssertionError("unreachable")
