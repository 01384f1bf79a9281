"""The tutor eval: questions in Spanish and English, each with the passage of a document that answers it.

    python -m agents.tutor eval seeds/eval/tutor.jsonl --org acme [--json]

Lines: ``{"question", "lang", "document", "passage"}`` (``passage``: words copied from the answering
chunk). Every question is asked through ``service.run_turn`` as a learner of that language, and scored:

- first_citation: of the questions answered (with a citation), the share whose first citation is the
  chunk that holds ``passage``. An answer of "not found" is counted by ``abstention`` (the share of
  these questions, all answerable, answered with no citation), not as a wrong citation: a tutor that
  abstains when no sentence answers would otherwise be scored as citing wrongly (issue 29).
- language: the answer's own words (its framing, notes and hints: everything but the sentences quoted
  from the sources) are in the question's language.
- precision (offline sentence selection): of the sentences the answer quotes, the share that are
  on-topic. Labelling rule: a quoted sentence is on-topic when it comes from the answering chunk or
  from a chunk under the same heading of the same document; any other quoted sentence is padding.

Questions about documents the organisation does not hold are skipped (and counted).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from agents.offline import detect_language, split_sentences
from agents.retrieval.passages import CITATION_MARKER
from agents.tutor import service
from core.turns import Citations, Token
from storage import documents, sources
from storage.documents import Chunk

_SPACE = re.compile(r"\s+")
_NOTE = re.compile(r"(?<=\])\s*(\([^()]*\))")
RATE_LIMIT = 1_000_000  # the eval asks far more than a person may in a minute


def _plain(text: str) -> str:
    return _SPACE.sub(" ", text or "").strip().lower()


def load(path: str | Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def _answering_chunk(conn, org_id, titles: dict, item: dict):
    document_id = titles.get(item["document"])
    if document_id is None:
        return None, []
    chunks = sources.document_chunks_by_document(conn, org_id, document_id)
    wanted = _plain(item["passage"])
    return next((c for c in chunks if wanted in _plain(c.content)), None), chunks


def _quoted(text: str, chunks: list[Chunk], answering: Chunk) -> list[tuple[str, Chunk]]:
    """The organisation's sentences the answer quotes word for word, in the answer's order, each with
    its chunk (the answering chunk when it holds the sentence too: chunks may overlap). Sentences are
    taken from the chunks, so list items quoted one after another are still told apart."""
    said = _plain(CITATION_MARKER.sub(" ", text))
    found: dict[str, tuple[int, Chunk]] = {}
    for chunk in sorted(chunks, key=lambda c: c.id != answering.id):
        for sentence in split_sentences(chunk.content):
            plain = _plain(sentence)
            at = said.find(plain) if len(plain) > 20 else -1
            if at >= 0 and plain not in found:
                found[plain] = (at, chunk)
    quoted = sorted(found.items(), key=lambda item: item[1][0])
    # a sentence inside a longer quoted one is the same quote
    return [
        (plain, chunk)
        for plain, (at, chunk) in quoted
        if not any(plain != other and plain in other for other, _ in quoted)
    ]


def score_item(deps, user, item: dict, titles: dict, org_chunks) -> dict | None:
    with deps.pool.connection() as conn:
        answering, _ = _answering_chunk(conn, user.org_id, titles, item)
    if answering is None:
        return None
    text, citations = "", []
    for event in service.run_to_answer(deps, user, item["question"], rate_limit=RATE_LIMIT):
        if isinstance(event, Token):
            text += event.text
        elif isinstance(event, Citations):
            citations = event.citations
    first = citations[0] if citations else None
    notes = _NOTE.findall(text)  # "(quoted from the English text …)" after a marker
    body = _NOTE.sub("", text)
    quoted = _quoted(body, org_chunks, answering)
    own = _plain(CITATION_MARKER.sub(" ", body))
    for sentence, _ in quoted:
        own = own.replace(sentence, " ")
    own = " ".join([own, *notes])
    on_topic = [
        s
        for s, chunk in quoted
        if chunk.id == answering.id
        or (chunk.document_id == answering.document_id and chunk.heading == answering.heading)
    ]
    return {
        "question": item["question"],
        "lang": item["lang"],
        "document": item["document"],
        "abstained": first is None,
        "first_citation_ok": bool(first and first.get("source_id") == str(answering.id)),
        "first_citation": first and {"document": first["document"], "section": first["section"]},
        "language_ok": detect_language(own, default="?") == item["lang"],
        "quoted": len(quoted),
        "on_topic": len(on_topic),
        "answer": text,
    }


def evaluate(deps, users_by_language: dict, items: list[dict]) -> dict:
    """Ask every question and return the figures (and each item's result under ``items``)."""
    any_user = next(iter(users_by_language.values()))
    with deps.pool.connection() as conn:
        titles = {d.title: d.id for d in documents.list_documents(conn, any_user.org_id)}
        org_chunks = [
            c
            for document_id in titles.values()
            for c in sources.document_chunks_by_document(conn, any_user.org_id, document_id)
        ]
    results, skipped = [], 0
    for item in items:
        result = score_item(deps, users_by_language[item["lang"]], item, titles, org_chunks)
        if result is None:
            skipped += 1
        else:
            results.append(result)
    n = len(results) or 1
    answered = [r for r in results if not r["abstained"]]
    quoted = sum(r["quoted"] for r in results)
    return {
        "n": len(results),
        "skipped": skipped,
        "by_language": {lang: sum(r["lang"] == lang for r in results) for lang in ("es", "en")},
        "first_citation_accuracy": round(sum(r["first_citation_ok"] for r in answered) / (len(answered) or 1), 3),
        "abstention": round((len(results) - len(answered)) / n, 3),
        "language_match": round(sum(r["language_ok"] for r in results) / n, 3),
        "sentence_precision": round(sum(r["on_topic"] for r in results) / quoted, 3) if quoted else None,
        "sentences_quoted": quoted,
        "items": results,
    }
