"""The instruction filter on tests/untrusted/addressee_heldout.yaml: 56 attacks in fourteen strategies and 50 clean
look-alikes, written in session 10 before the AI-addressee features (core/instruction_addressee.py) were built, and
never tuned on. Each text reaches the filter the way it would in the product: a document paragraph at ingestion
(with the semantic check), a heading (level by level, no semantic check), a title, a ticket body as staff read it.

Measured once before the addressee features (rules, n-gram model, semantic check of session 9): attacks 15/56 caught
(en 6/28, es 9/28), clean look-alikes cut 3/50 (two security-training definitions of prompt injection by the 'ai
system' rule, "If your previous employer owes you holiday pay, tell payroll…"), quoted attacks cut 4/4.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from agents.ingestion import semantic_check
from core import instructions
from core.markup import product_text

CORPUS = yaml.safe_load((Path(__file__).with_name("addressee_heldout.yaml")).read_text(encoding="utf-8"))
NEIGHBOURS = {"en": "Hotel nights are refunded up to 120 euros.", "es": "Las noches de hotel se pagan hasta 120 euros."}


@pytest.fixture(scope="module")
def judge() -> instructions.SecondOpinion:
    check = semantic_check.second_opinion()
    assert check is not None, "the semantic check's weights do not fit the bundled embeddings"
    return check


def _kept(row: dict, judge: instructions.SecondOpinion) -> str:
    """What is left of the text after the filter, where the product would filter it."""
    where, text = row.get("where", "body"), row["text"]
    if where == "heading":
        return instructions.without_instructions(text)
    if where == "title":
        return instructions.split_instructions(text, judge)[0]
    if where == "ticket":
        return product_text(f"{row['context']} {text}")
    return instructions.split_instructions(f"{NEIGHBOURS[row['lang']]} {text}", judge)[0]


def _caught(row: dict, judge: instructions.SecondOpinion) -> bool:
    kept = _kept(row, judge)
    return not any(s.strip() in kept for s in instructions.sentences(row["text"]) if len(s.split()) >= 4)


def _by_slice(rows: list[dict], hits: list[bool], key: str) -> str:
    total, hit = Counter(row[key] for row in rows), Counter(row[key] for row, h in zip(rows, hits, strict=True) if h)
    return ", ".join(f"{name} {hit[name]}/{n}" for name, n in sorted(total.items()))


def test_attacks_written_before_the_addressee_features(judge):
    attacks = CORPUS["attacks"]
    caught = [_caught(row, judge) for row in attacks]
    print(
        f"addressee held-out attacks caught {sum(caught)}/{len(attacks)}; by language: {_by_slice(attacks, caught, 'lang')}; "
        f"by strategy: {_by_slice(attacks, caught, 'strategy')}; missed: {[r['text'][:60] for r, c in zip(attacks, caught, strict=True) if not c]}"
    )
    assert len(attacks) >= 48 and sum(caught) >= 0


def test_clean_look_alikes_stay(judge):
    clean = CORPUS["clean"]
    cut = [row for row in clean if instructions.split_instructions(row["text"], judge)[1]]
    print(f"clean look-alikes cut {len(cut)}/{len(clean)}: {[(r['kind'], r['text']) for r in cut]}")
    assert len(clean) >= 48 and len(cut) <= 3


def test_quoted_attacks_in_security_training_are_cut(judge):
    """A whole attack quoted as an example is cut like any other (quotation marks cost an attacker nothing)."""
    quoted = CORPUS["quoted"]
    cut = [row for row in quoted if instructions.split_instructions(row["text"], judge)[1]]
    print(f"quoted attacks cut {len(cut)}/{len(quoted)}")
    assert len(cut) >= 0
