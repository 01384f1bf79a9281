"""The two exercise types built from the source's rules (a condition or a subject, and its consequence): the
practical case and the conversation (the offline twin; exercises.py builds the other four and the module's mix).

A rule's condition is put to the learner as a situation only when it is one ("If a customer becomes angry");
its subject ("Los vehículos de alquiler") becomes a colleague's question instead, never a "situation"; a
conversation keeps to one section when it can and is titled with every section its turns come from.
"""

from __future__ import annotations

import re
from typing import Any

from agents.content.exercise_parts import Facts, chunk_of, exercise_dict, phrase, stable_number
from agents.content.facts import Rule, is_situation, labelled_rules, rule_of, topic_of
from agents.content.sections import Section, citation
from agents.content.text import fold, is_customer_facing, is_whole, sentences
from agents.offline import split_sentences

# "If immediate travel | Is required, …", "Once approvals | Are received, …": the split took the condition's verb
_CUT_AT_VERB = re.compile(r"(?:Is|Are|Was|Were|Es|Son|Está|Están)\b")


def rules(facts: Facts) -> list[tuple[Rule, Section]]:
    """The module's rules whose condition is a situation to put to a learner (``facts.is_situation``) or a subject a
    colleague can ask about (``facts.topic_of``: asked, never passed off as a situation, "La situación: Los
    vehículos de alquiler"), with a whole consequence; labelled rules ("**Situation**: …") name theirs."""
    every = {s: sec for sec in facts.sections for s in sentences(sec.text) if not re.search(r"[*`]", s)}
    stated = [
        (rule, sec)
        for s, sec in every.items()
        if (rule := rule_of(s))
        and (is_situation(rule.condition) or topic_of(rule.condition))
        and is_whole(rule.consequence)
        and not (is_situation(rule.condition) and _CUT_AT_VERB.match(rule.consequence))
    ]
    return stated + [(rule, sec) for sec in facts.sections for rule in labelled_rules(sec.text, split_sentences)]


def _situation(rule: Rule) -> str:
    condition = rule.condition.rstrip(",. ")
    return condition[:1].upper() + condition[1:]


def _scenario(rule: Rule, heading: str, language: str) -> str:
    if rule.labelled or is_situation(rule.condition):
        return phrase("rule_case", language, s=_situation(rule), h=heading)
    topic = topic_of(rule.condition) or ""
    named = fold(topic) == fold(heading.split(" > ")[-1])  # "what “Award leave” says about award leave"
    return phrase("topic_case_named" if named else "topic_case", language, s=topic, h=heading)


def _turn(rule: Rule, language: str) -> str:
    if rule.labelled or is_situation(rule.condition):
        return phrase("d_situation", language, s=_situation(rule))
    return phrase("d_topic", language, s=topic_of(rule.condition))


def practical_case(facts: Facts, language: str, limit: int = 3) -> list[dict]:
    """A situation from a rule's condition; the answer is the rule's consequence (the rubric point, shown with
    the whole rule once the learner has answered)."""
    found: list[dict] = []
    for rule, section in rules(facts):
        if len(found) >= limit or rule.sentence in facts.used:
            continue
        facts.used.add(rule.sentence)
        found.append(
            exercise_dict(
                "practical_case",
                "apply",
                phrase("case_prompt", language, h=section.heading),
                {
                    "scenario": _scenario(rule, section.heading, language),
                    "rubric": [rule.consequence],
                    "model_answer": rule.sentence,
                },
                phrase("rule_expl", language, q=rule.sentence, c=citation(section, language)),
                chunk_of(section, rule.sentence),
            )
        )
    return found


def dialogue(facts: Facts, language: str, cases: list[dict]) -> list[dict]:
    """A colleague brings the situations of the module's rules one by one, never one a practical case asked (the
    same question twice); each turn offers the rule's consequence and another rule's, both whole sentences; a
    wrong reply says what the source says."""
    asked = {case["content"]["model_answer"] for case in cases}
    every = sorted(
        [(rule, sec) for rule, sec in rules(facts) if rule.sentence not in asked],
        key=lambda pair: pair[0].sentence in facts.used,  # a rule a recall item claimed comes last
    )
    by_section: dict[str, list[tuple[Rule, Section]]] = {}
    for rule, sec in every:
        by_section.setdefault(sec.heading, []).append((rule, sec))
    one_section = max(by_section.values(), key=len, default=[])  # a conversation about one section when it can
    found = (one_section if len(one_section) >= 2 else every)[:3]
    if len(found) < 2 or len({fold(r.consequence) for r, _ in found}) < len(found):
        return []
    used = list({id(sec): sec for _, sec in found}.values())  # the sections its turns come from, in turn order
    section = used[0]
    speaker = phrase("d_customer" if is_customer_facing(section.text) else "d_colleague", language)
    ids = ["start"] + [f"n{i}" for i in range(1, len(found))]
    nodes = {}
    for i, (rule, _) in enumerate(found):
        wrong = found[(i + 1) % len(found)][0].consequence
        last = i == len(found) - 1
        options: list[dict[str, Any]] = [
            {
                "text": rule.consequence,
                "next": None if last else ids[i + 1],
                "correct": True,
                "feedback": phrase("d_rule_done" if last else "d_rule_ok", language),
            },
            {
                "text": wrong,
                "next": ids[i],
                "correct": False,
                "feedback": phrase("d_rule_wrong", language, s=rule.sentence),
            },
        ]
        options.sort(key=lambda option: stable_number(option["text"] + str(i)))
        nodes[ids[i]] = {
            "speaker": speaker,
            "text": _turn(rule, language),
            "options": options,
        }
    facts.used.update(rule.sentence for rule, _ in found)
    chunks = list(dict.fromkeys(c for rule, sec in found for c in chunk_of(sec, rule.sentence)))
    return [
        exercise_dict(
            "dialogue",
            "apply",
            phrase("dialogue_prompt", language, h=" · ".join(sec.heading for sec in used)),
            {"nodes": nodes, "start": "start"},
            phrase("dialogue_expl", language, c=" ".join(citation(sec, language) for sec in used)),
            chunks,
        )
    ]
