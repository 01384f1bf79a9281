"""Where the "not found" answer points, replayed: python tests/bench/pointer_replay.py FILE

FILE is a recording of tests/bench/answer_replay.py (`record`): every train question with the passages its turn
retrieved. For the answerable questions the tutor refused there, the closest-material pointer
(agents/tutor/closest.py) is computed again from those passages, as the turn does, and judged per slice (older
= the documents' wording, s16-s20 = an employee's): does it name the labelled document; is that document among
the passages at all; is a section named, and is it the heading of a chunk that answers (one holding every fact);
is the passage it reads first an answering chunk whether or not its heading is named. `--variant=` product (the
code as it is), heading (session 21's: the passage's first heading), part (the part holding most words, gated on
that part alone), document (any section of the chosen document), group (any part of the document's retrieved
passages); `--show` prints the wrong sections of the tuned slices.
"""

from __future__ import annotations

import pickle
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents.runtime.deps import process_deps  # noqa: E402
from agents.tutor import answer_eval  # noqa: E402
from agents.tutor.closest import (  # noqa: E402
    SECTION_SHARE,
    TERMS_WEIGHT,
    _document_text,
    _split,
    _weighted_share,
    closest_document,
    corpus_views,
    section_to_read,
)
from agents.tutor.key_terms import key_terms  # noqa: E402
from storage import documents, sources, users  # noqa: E402
from tests.bench.answer_replay import QUESTIONS, SLICES, slice_of  # noqa: E402

COLUMNS = ("refused", "doc retrieved", "doc named", "section named", "section right", "reads an answering chunk")


def parts(heading: str, content: str, spans) -> list[tuple[str, str]]:
    """A chunk's sections as (the heading a person looks for, its text): one, or one per heading it packs."""
    return _split(heading, content, [(int(offset), path) for offset, path, *_ in spans or ()])


def _answering(conn, org_id, titles: dict, item: dict) -> tuple[set[str], set[str]]:
    """The answering chunks of the item's document, and the headings they are under (the part of a chunk packing
    several sections that holds every fact, else every heading of the chunk)."""
    document_id = titles.get(item["document"])
    if document_id is None:
        return set(), set()
    chunks = [
        c
        for c in sources.document_chunks_by_document(conn, org_id, document_id)
        if all(answer_eval.held(c.content, item["facts"]))
    ]
    headings: set[str] = set()
    for chunk in chunks:
        split = parts(chunk.heading, chunk.content, chunk.heading_spans)
        holding = [h for h, text in split if all(answer_eval.held(text, item["facts"]))]
        headings.update(holding or [h for h, _ in split])
    return {str(c.id) for c in chunks}, headings


def _section(variant: str, conn, org_id, question: str, best, rarity, passages=()) -> str:
    """The section the pointer names, as the variant chooses it."""
    terms = key_terms(question)
    if variant == "product":  # agents/tutor/closest.py as it is
        return section_to_read(question, best, rarity)
    if variant == "heading":  # session 21's: the passage's first heading, when the whole passage holds the words
        held = _weighted_share(terms, _document_text([best]), rarity)
        heading = best.section.split(" > ")[-1].strip()
        return heading if held >= SECTION_SHARE and heading != best.document else ""
    if variant == "part":  # the part holding most of the words, named when that part alone holds SECTION_SHARE
        split = parts(best.section, best.text, list(best.sections))
        held, heading = max(((_weighted_share(terms, f"{h} {x}", rarity), h) for h, x in split), key=lambda s: s[0])
        return heading if held >= SECTION_SHARE and heading != best.document else ""
    if variant == "group":  # every part of the document's retrieved passages, voted as closest_document votes
        voted = [
            ((p.score or 0.0) + TERMS_WEIGHT * _weighted_share(terms, f"{heading} {text}", rarity), heading, text)
            for p in passages
            if p.document == best.document
            for heading, text in parts(p.section, p.text, list(p.sections))
        ]
        _, heading, text = max(voted, key=lambda v: v[0])
        held = _weighted_share(terms, f"{heading} {text}", rarity)
        return heading if held >= SECTION_SHARE and heading != best.document else ""
    # "document": every part of the chosen document
    document_id = sources.chunk_document_id(conn, org_id, best.source_id)
    chunks = sources.document_chunks_by_document(conn, org_id, document_id)
    split = [part for c in chunks for part in parts(c.heading, c.content, c.heading_spans)]
    scored = [(_weighted_share(terms, f"{heading} {text}", rarity), heading) for heading, text in split]
    held, heading = max(scored, key=lambda s: s[0])
    return heading if held >= SECTION_SHARE and heading != best.document else ""


def judge(path: Path, variant: str, show: bool) -> None:
    recorded = pickle.loads(path.read_bytes())
    deps = process_deps()
    with deps.pool.connection() as conn:
        org_id = users.get_user_by_email(conn, "lucia@acme.test").org_id
        titles = {d.title: d.id for d in documents.list_documents(conn, org_id)}
    rarity, sections = corpus_views(deps.pool, org_id)
    items = {item["id"]: item for item in answer_eval.load(QUESTIONS, "train")}
    counts: Counter = Counter()
    for row in recorded["report"]["items"]:
        item, passages = items.get(row["id"]), recorded["passages"].get(row["question"])
        if item is None or not item["document"] or not row["tutor"]["abstained"] or not passages:
            continue
        best = closest_document(item["question"], list(passages), rarity, sections)
        with deps.pool.connection() as conn:
            answering, headings = _answering(conn, org_id, titles, item)
            section = _section(variant, conn, org_id, item["question"], best, rarity, passages) if best else ""
        right_document = bool(best) and best.document == item["document"]
        found = {
            "refused": True,
            "doc retrieved": any(p.document == item["document"] for p in passages),
            "doc named": right_document,
            "section named": bool(section) and right_document,
            "section right": bool(section) and right_document and section in headings,
            "reads an answering chunk": bool(best) and best.source_id in answering,
        }
        for column, ok in found.items():
            counts[slice_of(row), column] += ok
            counts[item["lang"], column] += ok
        tuned = slice_of(row) in ("older", "s16", "s17", "s18")  # s19 and s20 confirm: not read
        if show and tuned and right_document and section and not found["section right"]:
            where = f"{best.document} › {section or '-'}" if best else "-"
            print(f"[{slice_of(row)}] {item['question']}\n  named {where}\n  wanted {item['document']} › {headings}")
    print(f"variant {variant}\n{'slice':6} " + " ".join(f"{c:>14}" for c in COLUMNS))
    for name in (*SLICES[:-1], "all", "es", "en"):
        chosen = SLICES[:-1] if name == "all" else (name,)
        print(f"{name:6} " + " ".join(f"{sum(counts[s, c] for s in chosen):>14}" for c in COLUMNS))


if __name__ == "__main__":
    variant = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--variant=")), "product")
    judge(Path(sys.argv[1]), variant, "--show" in sys.argv)
