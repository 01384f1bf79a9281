"""The facts a sentence states, each with its kind: what exercises change, ask about and blank out.

A value is a figure with its unit (days with days, dollars with dollars, percentages with percentages), a
year, a month, a weekday or a quantifier ("every", "never", "todos"). Figures inside a name stay out:
"37signals", "401(k)", "GS-15", "WorkLife4You" and phone numbers are not values. A rule is a sentence
with a condition and its consequence ("If you make the maximum salary, you cannot receive comp time").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.text import MONTHS_EN, MONTHS_ES, NUMBER_WORDS, TIME_UNITS, alternation, fold

_UNITS = {
    "time": r"(?:working |business |calendar |consecutive |natural |hábiles |naturales )?(?:"
    + alternation(TIME_UNITS)
    + r"|pay periods?|jornadas?)(?: (?:hábiles|naturales|laborables))?",
    "money": r"(?:dollars?|euros?|cents?|USD|EUR|€|\$)",
    "measure": r"(?:km/h|km|kg|cm|mm|m|metros?|kilos?|kilómetros?|kilometers?|kilometres?|miles?|litros?|liters?|"
    r"litres?|ºC|°C|dB|kW|people|personas|employees|empleados|times|veces|sessions|sesiones)",
}
_NUMBER_WORDS = alternation(NUMBER_WORDS + " eleven fifteen twenty thirty uno una once quince veinte treinta")
_MONTHS_EN, _MONTHS_ES = alternation(MONTHS_EN), alternation(MONTHS_ES)
_VALUE = re.compile(
    r"(?P<date>\b(?:"
    + _MONTHS_EN
    + r")\s\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s(?:19|20)\d\d\b)?|\b\d{1,2}\s(?:"
    + _MONTHS_EN
    + r")\b(?:\s(?:19|20)\d\d\b)?|\b\d{1,2}\sde\s(?:"
    + _MONTHS_ES
    + r")\b(?:\sde\s(?:19|20)\d\d\b)?)"
    r"|(?P<money>(?<![\w.,$€])[$€]\s?\d+(?:,\d{3})*(?:\.\d+)?(?:\s?(?:million|k|millones))?(?![\w(]))"
    r"|(?P<percent>(?<![\w.,-])\d+(?:[.,]\d+)?\s?%)"
    r"|(?P<amount>(?<![\w.,:$€/+-])(?:\d+(?:[.,]\d+)?|(?i:" + _NUMBER_WORDS + r"))"
    r"(?:(?:\s?|-)(?P<unit>(?i:"
    + _UNITS["time"]
    + "|"
    + _UNITS["money"]
    + "|"
    + _UNITS["measure"]
    + r")))?(?![\w(]|-\w|[.,]\d|\)\s?\d|/\d|:\d))"
    r"|(?P<month>\b(?:" + _MONTHS_EN + "|" + _MONTHS_ES + r")\b)"
    r"|(?P<weekday>\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|lunes|martes|miércoles|jueves|"
    r"viernes|sábado|domingo)\b)"
    r"|(?P<quantifier>\b(?i:every|all|never|always|no one|nobody|todos|todas|ningún|ninguna|nunca|siempre|nadie)\b)"
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")


@dataclass(frozen=True)
class Value:
    text: str
    kind: str
    start: int
    end: int


def _amount_kind(unit: str | None) -> str:
    if not unit:
        return "amount:count"
    folded = fold(unit)
    if re.search(r"dollar|euro|cent|usd|eur|€|\$", folded):
        return "amount:money"
    if re.fullmatch(_UNITS["time"], unit, re.IGNORECASE):
        return "amount:time"  # periods with periods: days, weeks, hours are one kind of answer
    return "amount:" + folded.split()[0].rstrip("s")[:4]


def values(sentence: str) -> list[Value]:
    """The sentence's values in order, each with its kind ("amount:day", "amount:money", "percent", "year"…)."""
    found = []
    for match in _VALUE.finditer(sentence):
        text = match.group(0).strip()
        if match.group("money"):
            kind = "amount:money"
        elif match.group("percent"):
            kind = "percent"
        elif match.group("amount"):
            bare = match.group("unit") is None
            if bare and _YEAR.match(text):
                kind = "year"
            elif bare and not text[0].isdigit():
                continue  # "one" alone is a pronoun more often than a figure
            else:
                kind = _amount_kind(match.group("unit"))
        else:
            kind = next(k for k in ("date", "month", "weekday", "quantifier") if match.group(k))
        found.append(Value(text, kind, match.start(), match.start() + len(text)))
    return found


def figures(sentence: str) -> list[Value]:
    """The sentence's figures: amounts, percentages, money, years, dates (not months, weekdays or quantifiers)."""
    return [v for v in values(sentence) if v.kind.startswith("amount") or v.kind in ("percent", "year", "date")]


def replace(sentence: str, value: Value, other: str) -> str:
    return sentence[: value.start] + other + sentence[value.end :]


def value_pool(sentences: list[str]) -> dict[str, list[str]]:
    """Every distinct value of the sentences, by kind (the document's own figures, for distractors)."""
    pool: dict[str, list[str]] = {}
    for sentence in sentences:
        for value in values(sentence):
            same = pool.setdefault(value.kind, [])
            if all(fold(v) != fold(value.text) for v in same):
                same.append(value.text)
    return pool


_CONDITION = re.compile(
    r"^(?P<cond>(?:If|When|Whenever|Unless|Once|For|During|Within|After|Before|Si|Cuando|"
    r"En caso de que|Siempre que|Dentro de|Después de|Antes de|Tras|"
    r"En (?:los|las|el|la) |Durante|Para)\b[^.;!?:]{6,200}?),"
    r"\s+(?P<then>(?!(?i:and|or|but|nor|y|e|o|u|ni|pero)\b)[^.;!?]{8,240}[.!]?)$"
)  # "If you continue to accrue, and you do not use them, you forfeit": the condition runs to its last clause
_CONDITION_AFTER = re.compile(
    r"^(?P<then>[A-ZÁÉÍÓÚ][^.;!?]{8,200}?),?\s+(?P<cond>(?:if|when|unless|once|before|si|cuando|"
    r"antes de|salvo que|salvo|excepto|a menos que|siempre que)\b[^.;!?]{6,200})[.!]?$"
)
# "Refunds above 500 EUR need the approval of the store manager": a threshold is a condition too
_THRESHOLD = re.compile(
    r"^(?P<cond>[A-ZÁÉÍÓÚ][^,;:.]{3,80}?\b(?:above|below|over|under|between|more than|less than|"
    r"up to|longer than|shorter than|de más de|de menos de|superiores? a|inferiores? a|entre|hasta)"
    r"\s[^,;:]{1,40}?)\s+(?P<then>(?:needs?|requires?|must|may|can|cannot|are|is|get|need to|"
    r"necesitan?|requieren?|deben?|pueden?|se)\b[^;]{6,200})$"
)
# "Broken equipment must be reported to the IT helpdesk within 24 hours": what the subject must do
_OBLIGATION = re.compile(
    r"^(?P<cond>[A-ZÁÉÍÓÚ][^,;:]{3,70}?)\s+(?P<then>(?:must|should|has to|have to|is to be|are to be|"
    r"debe|deben|no debe|no deben|tiene que|tienen que|(?:is|are) (?:not )?(?!when\b|then\b)\w+(?:ed|en)|"
    r"(?:no )?se \w+(?:an|en|a|e))\b[^;]{6,220})$"
)
_PRONOUN = re.compile(
    r"(?:you|we|they|it|he|she|this|that|these|those|there|usted|ustedes|nosotros|ellos|ellas|"
    r"esto|eso|este|esta)\b",
    re.IGNORECASE,
)
_MODAL = re.compile(
    r"\b(?:must|need|cannot|can't|can|will|should|may|required|debe|deben|puede|pueden|tiene que|"
    r"tienen que|hay que|se)\b",
    re.IGNORECASE,
)
_EXCEPTION = re.compile(r"(?:unless|salvo|excepto|a menos|siempre que|except)", re.IGNORECASE)
_NEGATION = re.compile(r"(?:not|no|never|nunca|salvo|unless|except|excepto|a menos)\b", re.IGNORECASE)
# "Las tarjetas regalo nunca | se reembolsan en efectivo": a split after an adverb turns the rule into its opposite
_SPLIT_ADVERB = re.compile(
    r"\b(?:not|no|never|nunca|jamás|always|siempre|only|solo|sólo|also|también|tampoco|ya)$", re.IGNORECASE
)


@dataclass(frozen=True)
class Rule:
    sentence: str
    condition: str
    consequence: str
    labelled: bool = False  # the source names its situation ("**Situation**: …")


def rule_of(sentence: str) -> Rule | None:
    """(condition, consequence) of a sentence that states one, else None."""
    text = sentence.strip()
    if "**" in text or not stands_alone(text):
        return None
    rule = _rule(text)
    balanced = rule and all(part.count("(") == part.count(")") for part in (rule.condition, rule.consequence))
    return rule if balanced else None


_CONTEXT_OPENER = re.compile(
    r"^(?:Otherwise|However|Also|Therefore|Then|This|That|These|Those|It|They|There|"
    r"Such|Both|Either|Instead|In this case|In that case|De lo contrario|Sin embargo|"
    r"Además|Por tanto|Por lo tanto|Entonces|Esto|Eso|Estos|Estas|Ello|En ese caso|"
    r"En este caso|Tampoco|También)\b",
    re.IGNORECASE,
)


# A situation a learner can picture starts as one ("If a customer becomes angry", "Cuando un viaje obliga a
# pernoctar"); a rule's subject ("Los vehículos de alquiler", "Staff") or a condition leaning on the text around
# it ("If that's the case", "Before doing so", "If you do not fit into one of those categories") is none
_SITUATION_OPENER = re.compile(
    r"^(?:if|when|whenever|once|in case|before|after|while|si|cuando|en caso de(?: que)?|antes de|después de|"
    r"tras|mientras)\b\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_LEANS_ON_CONTEXT = re.compile(
    r"\b(?:this|that|that's|these|those|so|such|it|esto|eso|ello|esta|este|estos|estas|esos|esas|"
    r"dicho|dicha|tal|questions?|information|details|dudas?|información|detalles)\b",
    re.IGNORECASE,
)


def is_situation(condition: str) -> bool:
    """Whether a rule's condition describes a situation a practical case can put to a learner: it opens as a
    situation (if, when, before…), says at least two words more ("When in doubt") and leans on no text around it."""
    opened = _SITUATION_OPENER.match(condition.strip().strip("*_ "))
    rest = opened.group("rest").strip(" ,.") if opened else ""
    return len(rest.split()) >= 2 and not _LEANS_ON_CONTEXT.search(rest)


_PREPOSITION_FIRST = re.compile(
    r"^(?:desde|hasta|tras|sin|con|de|por|within|on|at|by|with|from|until|to)\b",
    re.IGNORECASE,
)
_SCOPE = re.compile(r"^(?:for|para|during|durante|in|en)\s+", re.IGNORECASE)  # "For office staff, …": its subject


def topic_of(condition: str) -> str | None:
    """A rule's subject, named well enough for a colleague to ask about it ("los vehículos de alquiler", "refunds
    above 500 EUR", "office staff" of "For office staff, …"); None for "It", "Each such return" or a clause."""
    text = _SCOPE.sub("", condition.strip().strip("*_ ,."), count=1)
    named = (
        (len(text.split()) >= 2 or len(text) >= 5)  # the case names its section: "staff" in "3.1 Method of refund"
        and not _PREPOSITION_FIRST.match(text)
        and not re.search(r"\bse\b", text, re.IGNORECASE)  # "En la nota se indican …": a clause, no subject
        and not _SITUATION_OPENER.match(text)
        and not _PRONOUN.match(text)
        and not _LEANS_ON_CONTEXT.search(text)
    )
    return (text if text[1:2].isupper() else text[:1].lower() + text[1:]) if named else None


def stands_alone(sentence: str) -> bool:
    """Whether a sentence can be read out of its paragraph (an exercise quotes it alone): not one that leans on
    the sentence before ("Otherwise, …", "This means …")."""
    return not _CONTEXT_OPENER.match(sentence.strip().strip("*_"))


def _rule(text: str) -> Rule | None:
    found = []
    match = _CONDITION.match(text)
    if match:
        then = match.group("then").strip().rstrip(".!")
        found.append(Rule(text, match.group("cond").strip(), then[:1].upper() + then[1:] + "."))
    match = _CONDITION_AFTER.match(text)
    if match and _MODAL.search(match.group("then")):
        found.append(Rule(text, match.group("cond").strip().rstrip(".!"), match.group("then").strip() + "."))
    match = _OBLIGATION.match(text)
    if match and len(match.group("cond").split()) <= 8 and not _PRONOUN.match(match.group("cond")):
        then = match.group("then").strip().rstrip(".!")
        found.append(Rule(text, match.group("cond").strip(), then[:1].upper() + then[1:] + "."))
    match = _THRESHOLD.match(text)
    if match:
        then = match.group("then").strip().rstrip(".!")
        found.append(Rule(text, match.group("cond").strip(), then[:1].upper() + then[1:] + "."))
    # an exception or a negation is no situation, nor an answer on its own
    return next(
        (
            rule
            for rule in found
            if not _EXCEPTION.match(rule.condition)
            and not _SPLIT_ADVERB.search(rule.condition)
            and len(rule.consequence.split()) >= 4
            and not _NEGATION.match(rule.consequence)
            and not re.match(r"(?:See|Ver|Véase)\b", rule.consequence)
        ),
        None,
    )


def answer_kind(option: str) -> str:
    """What kind of answer an option is: the kind of the one value it is ("14 days": amount:day), else an
    acronym, a statement (a clause) or a term."""
    text = option.strip().rstrip(".")
    found = values(text)
    if len(found) == 1 and len(found[0].text) >= len(text) - 1:
        return found[0].kind
    if re.fullmatch(r"[A-Z][A-Z0-9]{1,5}s?", text):
        return "acronym"
    return "statement" if len(text.split()) >= 6 else "term"


_LABELLED = re.compile(
    r"^\*\*(?:Impact[^*]{0,40}|Impacto[^*]{0,40}|Condition|Condición|Situation|Situación|Case|Caso)"
    r"\*\*:\s*(?P<cond>.+?)\s*\n\s*\n?\s*\*\*(?:Consequence|Consecuencia|Outcome|Resultado)\*\*:"
    r"\s*(?P<then>.+)$",
    re.MULTILINE | re.IGNORECASE,
)


def labelled_rules(text: str, split) -> list[Rule]:
    """Rules a text writes as labels ("**Impact**: … / **Consequence**: …", common in codes of conduct and
    policies): the consequence's first sentence is the answer, quoted as the source writes it."""
    found = []
    for match in _LABELLED.finditer(text):
        first = (split(match.group("then")) or [match.group("then")])[0].strip()
        found.append(Rule(first, match.group("cond").strip(), first, labelled=True))
    return found
