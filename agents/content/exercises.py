"""Four exercise types built from source text, and the module's mix of all six (the offline twin; verify.py checks any

Every answer is a piece of the source: a fact sentence (stated, or with one fact changed to another of
its kind for a false item), a blanked figure or term, a real sequence, a rule's consequence. The
explanation quotes the sentence the answer comes from and cites it, so a reviewer (or a learner) can
verify it. A type the source can't support is left out (``why_left_out`` says why), never filled.
"""

from __future__ import annotations

import re

from agents.content.distractors import changed_fact, wrong_values
from agents.content.exercise_checks import given_away, steps_cut
from agents.content.exercise_parts import Facts, chunk_of, chunks_of, exercise_dict, masked, phrase, stable_number
from agents.content.facts import (
    figures,
    replace,
    values,
)
from agents.content.rule_exercises import dialogue, practical_case, rules
from agents.content.sections import Section, citation
from agents.content.text import is_whole, item_lists, key_terms


def true_false(facts: Facts, language: str, rotation: int, limit: int = 4) -> list[dict]:
    """A balanced set: true items state a fact sentence as written; false items change one fact of another
    sentence (a figure, a date, a quantifier) to another of its kind from the same document, and the
    explanation quotes the true sentence."""
    found: list[dict] = []
    for sentence, section in facts.fresh():
        if len(found) >= limit:
            break
        cite, false_turn = citation(section, language), (len(found) + rotation) % 2 == 0
        changed = (
            changed_fact(sentence, facts.pool, stable_number(sentence), section.text, facts.source)
            if false_turn
            else None
        )
        if false_turn and changed is None:
            continue
        facts.used.add(sentence)
        if changed:
            found.append(
                exercise_dict(
                    "true_false",
                    "understand",
                    phrase("tf_prompt", language),
                    {"statement": changed[0], "answer": False},
                    phrase("changed", language, q=sentence, c=cite),
                    chunk_of(section, sentence),
                )
            )
        else:
            found.append(
                exercise_dict(
                    "true_false",
                    "remember",
                    phrase("tf_prompt", language),
                    {"statement": sentence, "answer": True},
                    phrase("says", language, q=sentence, c=cite),
                    chunk_of(section, sentence),
                )
            )
    if len({e["content"]["answer"] for e in found}) < 2:
        return []  # one-sided sets teach guessing: none rather than all true
    return found[: len(found) - len(found) % 2] if len(found) > 2 else found


def answer_variants(answer: str) -> list[str]:
    """What a learner may type for the same answer: "30 days", "30"; "$1,200", "1200"; "75 %", "75%"."""
    variants = [answer, answer.replace(" %", "%"), re.sub(r"[$€,]|\s?%", "", answer).strip()]
    number = re.match(r"^[$€]?\s?(\d[\d,.]*)", answer)
    if number:
        variants += [number.group(1), number.group(1).replace(",", "")]
    return list(dict.fromkeys(v for v in variants if v))


def fill_blank(facts: Facts, terms: list[str], language: str) -> list[dict]:
    """A fact sentence with its figure blanked (else one of the section's key terms)."""
    for sentence, section in sorted(facts.fresh(), key=lambda pair: not _askable(pair[0])):
        shown = _askable(sentence)
        answer = (
            shown[0].text
            if shown
            else next(
                (
                    term
                    for term in terms
                    if len(term) >= 5 and (text := masked(sentence, term)) and not given_away(text, term)
                ),
                None,
            )
        )
        if answer is None:
            continue
        text = replace(sentence, shown[0], "___") if shown else masked(sentence, answer)
        if text is None or given_away(text, answer):
            continue  # the rest of the sentence would say the answer
        facts.used.add(sentence)
        return [
            exercise_dict(
                "fill_blank",
                "remember",
                phrase("fb_prompt", language),
                {"text": text, "answers": answer_variants(answer)},
                phrase("says", language, q=sentence, c=citation(section, language)),
                chunk_of(section, sentence),
            )
        ]
    return []


def _askable(sentence: str) -> list:
    """The figures worth asking about: a bare number may be a version or a reference, not a fact."""
    return [v for v in figures(sentence) if v.kind != "amount:count"]


def multiple_choice(facts: Facts, language: str) -> list[dict]:
    """A fact asked about: its figure blanked, the options that figure and three wrong values the same document
    states in its unit (``distractors.wrong_values``: the section's own first)."""
    for sentence, section in facts.fresh():
        for value in [v for v in values(sentence) if v.kind not in ("amount:count", "quantifier")]:
            others = wrong_values(value, sentence, facts.pool, section.text, facts.source)
            others = others[:3]
            if len(others) < 2 or all(len(o) < len(value.text) for o in others):
                continue  # the longest option would give the answer away
            facts.used.add(sentence)
            options = sorted(others + [value.text], key=lambda option: stable_number(option + sentence))
            return [
                exercise_dict(
                    "test",
                    "understand",
                    phrase("test_fact_prompt", language, s=replace(sentence, value, "___")),
                    {"options": options, "answer": options.index(value.text)},
                    phrase("says", language, q=sentence, c=citation(section, language)),
                    chunk_of(section, sentence),
                )
            ]
    return []


MAX_STEPS = 10  # a longer procedure is no ordering exercise; a cut one asks "7 steps" of a policy's 8


def _sequence_of(section: Section) -> list[str]:
    """A real sequence of the text, whole: a numbered list, or a list its introduction calls steps."""
    for numbered, intro, items in item_lists(section.text):
        if (numbered or _SEQUENCE_INTRO.search(intro)) and len(items) <= MAX_STEPS:
            return items
    return []


_SEQUENCE_INTRO = re.compile(
    r"\b(pasos|procedimiento|sigue|siguientes pasos|en orden|steps|procedure|follow these|"
    r"in order|as follows)\b",
    re.IGNORECASE,
)


def procedure_name(section: Section, steps: list[str]) -> str:
    """What the procedure is about: the sentence that introduces its list ("To return an item: ..."), else
    the section's heading."""
    for _numbered, intro, items in item_lists(section.text):
        if items[: len(steps)] == steps[: len(items)] and intro and is_whole(intro):
            return intro.rstrip(":")
    return section.heading


def order_steps(section: Section, language: str, corpus: list[str]) -> list[dict]:
    steps = _sequence_of(section)
    if len(steps) < 3 or steps_cut(steps, corpus):
        return []  # the document's list is longer than this section shows
    return [
        exercise_dict(
            "order_steps",
            "apply",
            phrase("order_prompt", language, h=procedure_name(section, steps)),
            {"steps": steps},
            phrase("order_expl", language, h=section.heading, c=citation(section, language)),
            chunks_of(section, steps),
        )
    ]


def build_exercises(
    sections: list[Section], siblings: list[str], language: str, corpus: list[str], rotation: int = 0
) -> list[dict]:
    """Exercises of every type the module's text supports, right by construction; practice (apply level)
    before recall, and a recall type left out rather than filled with something the text does not say.
    ``siblings`` (other themes' terms) are no longer distractors: options come from the document's facts."""
    if not sections:
        return []
    facts = Facts(sections, corpus)
    # recall claims its sentences first: it needs figures with others of their kind, which rules can spare
    tf_set = true_false(facts, language, rotation, limit=2)
    units = {
        "test": multiple_choice(facts, language),
        "fill_blank": fill_blank(facts, key_terms("\n\n".join(s.text for s in sections), corpus), language),
        "true_false": tf_set,
    }
    applied = next((found for s in sections if (found := order_steps(s, language, corpus))), [])
    # each rule is practised once: of three rules or more the cases leave two to the conversation
    count = len(rules(facts))
    cases = practical_case(facts, language, limit=min(3, count - 2) if count >= 3 else 3)
    applied += cases + dialogue(facts, language, cases)
    # the Bloom mix: recall never outweighs practice (one item when there is no practice); each module puts
    # multiple choice or true/false first, by turns; a true/false set is kept or cut by pairs (its balance is
    # its point); a blank only where there is room left
    room = max(len(applied), 1)
    recall: list[dict] = []
    order = ("test", "true_false", "fill_blank") if rotation % 2 == 0 else ("true_false", "test", "fill_blank")
    for kind in order if applied or rotation % 2 == 0 else ():
        if units[kind] and len(recall) + len(units[kind]) <= room:
            recall += units[kind]
    if not recall and tf_set and (applied or rotation % 2 == 0):
        recall = tf_set[:1]  # alternating false and true across modules keeps the course balanced
    extra = true_false(facts, language, rotation, limit=2) if len(tf_set) == 2 and room - len(recall) >= 2 else []
    return applied + recall + extra


_WHY_NOT = {
    "order_steps": "no_sequence",
    "practical_case": "no_rule",
    "dialogue": "no_rules",
    "true_false": "no_changeable_fact",
    "test": "no_same_kind",
    "fill_blank": "no_fact",
}


def why_left_out(kind: str, language: str) -> str:
    """Why the offline twin made no exercise of ``kind`` from a source (said in the review, not filled)."""
    return phrase(f"why_{_WHY_NOT[kind]}", language)
