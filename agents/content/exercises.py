"""The six exercise types built from source text (offline twin), and checking any exercise against it.

Every answer is a piece of the source: a stated fact, a masked term, a numbered procedure. The
explanation quotes the sentence the answer comes from and cites it, so a reviewer (or a learner) can
verify it.
"""
from __future__ import annotations

import hashlib
import re

from agents.content.text import (Section, citation, content_words, fact_sentences, fold, in_source,
                                 is_customer_facing, item_lists, key_terms, normalized, option_kind, overlap, procedures,
                                 sentences)
from agents.i18n import t

_NUMBER = re.compile(r"\b\d+\b")
_QUOTE = re.compile(r"«([^»]+)»")

def _phrase(key: str, language: str, **params: object) -> str:
    """One of the exercise texts (agents/i18n/messages/content_exercises.py) in the source's language."""
    return t(f"content.exercise.{key}", language, **params)


def _chunks_of(section: Section, snippets: list[str]) -> list[str]:
    """Every chunk of the section holding one of the snippets (a list can run across two chunks)."""
    found = [chunk_id for chunk_id, text in zip(section.chunk_ids, section.texts)
             if any(in_source(snippet, text) for snippet in snippets)]
    return found or section.chunk_ids[:1]


def _chunk_of(section: Section, snippet: str) -> list[str]:
    for chunk_id, text in zip(section.chunk_ids, section.texts):
        if in_source(snippet, text):
            return [chunk_id]
    return section.chunk_ids[:1]


def _stable(seed: str) -> int:
    return int(hashlib.sha1(seed.encode()).hexdigest()[:8], 16)


def _exercise(kind: str, bloom: str, prompt: str, content: dict, explanation: str, chunks: list[str]) -> dict:
    return {"type": kind, "bloom_level": bloom, "prompt": prompt, "content": content,
            "explanation": explanation, "source_chunk_ids": chunks}


def _mask(sentence: str, term: str) -> str | None:
    pattern = re.compile(rf"(?<![\wÀ-ÿ]){re.escape(term)}(?![\wÀ-ÿ])", re.I)
    return pattern.sub("___", sentence, count=1) if pattern.search(sentence) else None


def true_false(section: Section, language: str, used: set[str]) -> list[dict]:
    cite, found = citation(section, language), []
    facts = [s for s in fact_sentences(section.text) if s not in used]
    if facts:
        fact = facts[0]
        used.add(fact)
        found.append(_exercise("true_false", "remember", _phrase("tf_prompt", language),
                               {"statement": fact, "answer": True},
                               _phrase("says", language, q=fact, c=cite), _chunk_of(section, fact)))
    numeric = [s for s in facts[1:] if _NUMBER.search(s)]
    if numeric:
        fact = numeric[0]
        used.add(fact)
        number = _NUMBER.search(fact).group(0)
        wrong = str(int(number) * 2 if int(number) not in (0, 1) else int(number) + 2)
        statement = fact[:_NUMBER.search(fact).start()] + wrong + fact[_NUMBER.search(fact).end():]
        found.append(_exercise("true_false", "understand", _phrase("tf_prompt", language),
                               {"statement": statement, "answer": False},
                               _phrase("changed", language, q=fact, c=cite), _chunk_of(section, fact)))
    return found


def _term_sentence(section: Section, terms: list[str], used: set[str]) -> tuple[str, str] | None:
    for sentence in fact_sentences(section.text):
        if sentence in used:
            continue
        for term in terms:
            if len(term) >= 4 and _mask(sentence, term):
                return sentence, term
        number = re.search(r"\b\d+(?:[.,]\d+)?\b", sentence)
        if number:
            return sentence, number.group(0)
    return None


def fill_blank(section: Section, terms: list[str], language: str, used: set[str]) -> list[dict]:
    picked = _term_sentence(section, terms, used)
    if picked is None:
        return []
    sentence, term = picked
    used.add(sentence)
    return [_exercise("fill_blank", "remember", _phrase("fb_prompt", language),
                      {"text": _mask(sentence, term), "answers": [term]},
                      _phrase("says", language, q=sentence, c=citation(section, language)),
                      _chunk_of(section, sentence))]


def _distractors(term: str, sentence: str, siblings: list[str]) -> list[str]:
    """Three other key terms of the course of the same kind and a similar length, at least one of them no
    shorter than the answer (so the right option is not given away by being the longest)."""
    if term[:1].isdigit():
        value = float(term.replace(",", "."))
        numbers = [value * 2, value * 3, value / 2 if value > 1 else value + 1]
        fmt = (lambda x: str(int(x)) if float(x).is_integer() else f"{x:g}".replace(".", "," if "," in term else "."))
        return [d for d in dict.fromkeys(fmt(n) for n in numbers) if d != term][:3]
    pool = [w for w in dict.fromkeys(siblings) if fold(w) != fold(term) and not _mask(sentence, w)
            and not w[:1].isdigit() and fold(w)[:5] != fold(term)[:5] and 0.5 <= len(w) / len(term) <= 2.0
            and option_kind(w) == option_kind(term)]
    pool = list({fold(w): w for w in reversed(pool)}.values())[::-1]      # "Card" and "card" are one option
    pool.sort(key=lambda w: (abs(len(w) - len(term)), _stable(w + term)))
    picked = pool[:3]
    if picked and all(len(w) < len(term) for w in picked):
        longer = next((w for w in pool[3:] if len(w) >= len(term)), None)
        if longer:
            picked[-1] = longer
    return picked


def multiple_choice(section: Section, terms: list[str], siblings: list[str], language: str,
                    used: set[str]) -> list[dict]:
    """A masked key term with distractors taken from sibling terms of the course."""
    usable = [term for term in terms if not term.isdigit()]
    picked = None
    for sentence in fact_sentences(section.text):
        if sentence in used:
            continue
        for term in usable:
            masked = _mask(sentence, term) if len(term) >= 4 else None
            # the rest of the sentence must not give the answer away (another form of the same word)
            if masked and fold(term)[:5] not in {fold(w)[:5] for w in content_words(masked)}:
                picked = sentence, term
                break
        if picked:
            break
    if picked is None:
        return []
    sentence, term = picked
    masked = _mask(sentence, term)
    distractors = _distractors(term, sentence, siblings)
    if len(distractors) < 2:
        return []
    used.add(sentence)
    options = distractors + [term]
    options.sort(key=lambda option: _stable(option + sentence))
    return [_exercise("test", "understand", _phrase("test_prompt", language, s=masked),
                      {"options": options, "answer": options.index(term)},
                      _phrase("says", language, q=sentence, c=citation(section, language)),
                      _chunk_of(section, sentence))]


def _steps_of(section: Section) -> list[str]:
    found = procedures(section.text)
    if found:
        return found[0][:7]
    prose = sentences(section.text)
    return prose[:5] if len(prose) >= 3 else []


def procedure_name(section: Section, steps: list[str]) -> str:
    """What the procedure is about: the sentence that introduces its list ("To return an item: ..."), else
    the section's heading."""
    lines = section.text.splitlines()
    for i, line in enumerate(lines):
        if steps and steps[0] in line:
            before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            if before.endswith(":") and len(before) < 200:
                intro = sentences(before[:-1] + ".") or [before[:-1]]
                return intro[-1].rstrip(".")
            break
    return section.heading


_SEQUENCE_INTRO = re.compile(r"\b(pasos|procedimiento|sigue|siguientes|orden|steps|procedure|follow|in order|"
                             r"as follows)\b", re.I)


def _sequence_of(section: Section) -> list[str]:
    """A real sequence of the text: a numbered list, or a list its introduction calls steps."""
    for numbered, intro, items in item_lists(section.text):
        if numbered or _SEQUENCE_INTRO.search(intro):
            return items[:7]
    return []


def order_steps(section: Section, language: str) -> list[dict]:
    steps = _sequence_of(section)
    if len(steps) < 3:
        return []
    return [_exercise("order_steps", "apply", _phrase("order_prompt", language, h=procedure_name(section, steps)),
                      {"steps": steps},
                      _phrase("order_expl", language, h=section.heading, c=citation(section, language)),
                      _chunks_of(section, steps))]


def practical_case(section: Section, language: str) -> list[dict]:
    steps = _steps_of(section)
    if len(steps) < 2:
        return []
    facts = [s for s in fact_sentences(section.text) if s not in steps]
    fact = facts[0] if facts else steps[0]
    customer = is_customer_facing(section.text)
    who = _phrase("customer" if customer else "colleague", language)
    scenario = _phrase("case", language, who=who, h=section.heading, fact=fact) \
        if customer else _phrase("case_plain", language, h=section.heading, fact=fact)
    model_answer = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
    return [_exercise("practical_case", "analyze" if len(steps) >= 4 else "apply",
                      _phrase("case_prompt", language, h=section.heading),
                      {"scenario": scenario, "rubric": steps, "model_answer": model_answer},
                      _phrase("case_expl", language, h=section.heading, c=citation(section, language)),
                      section.chunk_ids[:3])]


def dialogue(section: Section, language: str, other_steps: list[str]) -> list[dict]:
    """A branching conversation: each turn offers the procedure's next step and a step that is out of place."""
    steps = _steps_of(section)[:4]
    if len(steps) < 2:
        return []
    speaker = _phrase("d_customer", language) if is_customer_facing(section.text) else _phrase("d_colleague", language)
    ids = [f"n{i}" for i in range(len(steps))]
    ids[0] = "start"
    nodes = {}
    for i, step in enumerate(steps):
        wrong = steps[i + 2] if i + 2 < len(steps) else next(
            (s for s in other_steps if s not in steps), steps[i - 1] if i else steps[-1])
        last = i == len(steps) - 1
        options = [{"text": step, "next": None if last else ids[i + 1], "correct": True,
                    "feedback": _phrase("d_done", language) if last else _phrase("d_ok", language)},
                   {"text": wrong, "next": ids[i], "correct": False, "feedback": _phrase("d_wrong", language, s=step)}]
        options.sort(key=lambda option: _stable(option["text"] + str(i)))
        line = _phrase("d_open", language, h=section.heading) if i == 0 else _phrase("d_next", language)
        nodes[ids[i]] = {"speaker": speaker, "text": line, "options": options}
    return [_exercise("dialogue", "apply", _phrase("dialogue_prompt", language, h=section.heading),
                      {"nodes": nodes, "start": "start"},
                      _phrase("case_expl", language, h=section.heading, c=citation(section, language)),
                      section.chunk_ids[:3])]


def build_exercises(sections: list[Section], siblings: list[str], language: str, corpus: list[str],
                    rotation: int = 0) -> list[dict]:
    """Exercises of every type the module's text supports; at least half at apply level or above."""
    if not sections:
        return []
    used: set[str] = set()
    by_steps = sorted(sections, key=lambda s: (-len(procedures(s.text)), s.position))
    procedural = next((s for s in by_steps if len(_steps_of(s)) >= 3), by_steps[0])
    customer = next((s for s in by_steps if is_customer_facing(s.text) and _steps_of(s)), procedural)
    other_steps = [step for s in sections for items in procedures(s.text) for step in items]
    knowledge: list[dict] = []
    for section in sections:
        terms = key_terms(section.text, corpus)
        if not any(e["type"] == "true_false" for e in knowledge):
            knowledge += true_false(section, language, used)[:1]
        if not any(e["type"] == "fill_blank" for e in knowledge):
            knowledge += fill_blank(section, terms, language, used)
        if not any(e["type"] == "test" for e in knowledge):
            knowledge += multiple_choice(section, terms, siblings, language, used)
    ordering = next((found for s in [procedural] + by_steps if (found := order_steps(s, language))), [])
    applied = ordering + practical_case(procedural, language) + dialogue(customer, language, other_steps)
    if len(applied) < len(knowledge):   # keep the Bloom mix: practice outweighs recall; multiple choice first
        order = ("test", "true_false", "fill_blank")       # each module keeps a different recall type first
        order = order[rotation % 3:] + order[:rotation % 3]
        knowledge.sort(key=lambda e: order.index(e["type"]))
        knowledge = knowledge[:max(len(applied), 1)] if applied else knowledge
    return applied + knowledge


# -- checking an exercise against the source --------------------------------------------------------

def _supported(snippet: str, source: str) -> bool:
    """Verbatim in the source, or (a model's paraphrase) nearly all its content words are."""
    return in_source(snippet, source) or overlap(snippet, source) >= 0.8


def _ordered(steps: list[str], source: str) -> bool:
    folded, last = normalized(source), -1
    for step in steps:
        at = folded.find(normalized(step).strip(" ."), last + 1)
        if at < 0:
            return False
        last = at
    return True


def verify_exercise(exercise: dict, source: str) -> str | None:
    """None when the exercise's answer can be checked in the source text; else why it cannot."""
    kind, content = exercise.get("type"), exercise.get("content") or {}
    quotes = _QUOTE.findall(exercise.get("explanation", "")) + _QUOTE.findall(exercise.get("prompt", ""))
    if kind == "true_false":
        statement = content.get("statement", "")
        if content.get("answer") is True:
            return None if _supported(statement, source) else "the true statement is not in the source"
        if in_source(statement, source):
            return "a statement marked false is stated in the source"
        return None if any(in_source(q, source) for q in quotes) or _supported(statement, source) \
            else "the false statement has no source sentence to contrast with"
    if kind == "fill_blank":
        answers = content.get("answers") or [""]
        return None if _supported(content.get("text", "").replace("___", answers[0]), source) \
            else "the completed sentence is not in the source"
    if kind == "test":
        options, answer = content.get("options") or [], content.get("answer")
        masked = next((q for q in quotes if "___" in q), None)
        if masked is None:
            return None if isinstance(answer, int) and _supported(options[answer], source) \
                else "the right option is not supported by the source"
        if not in_source(masked.replace("___", options[answer]), source):
            return "the right option does not complete the source sentence"
        if any(in_source(masked.replace("___", o), source) for i, o in enumerate(options) if i != answer):
            return "more than one option completes the source sentence"
        return None
    if kind == "order_steps":
        steps = content.get("steps") or []
        if all(in_source(s, source) for s in steps):
            return None if _ordered(steps, source) else "the steps are not in the source's order"
        return None if all(_supported(s, source) for s in steps) else "some steps are not in the source"
    if kind == "practical_case":
        rubric = content.get("rubric") or []
        supported = sum(_supported(point, source) for point in rubric)
        return None if rubric and supported * 2 >= len(rubric) else "the rubric is not grounded in the source"
    if kind == "dialogue":
        correct = [o["text"] for node in (content.get("nodes") or {}).values() for o in node.get("options", [])
                   if o.get("correct")]
        return None if correct and all(_supported(t, source) for t in correct) \
            else "the right replies are not grounded in the source"
    return f"unknown exercise type {kind}"
