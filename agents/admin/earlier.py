"""What a message takes from who says it and from the admin's previous message in the conversation.

- A speaker who names themself is not a target: "Oliver here - put Laura on the returns course", "Soy Marta:
  apunta a Javier…" ask for Laura and Javier only.
- "it", "that course", "ese curso" with no course named mean the course the previous message named ("How is the
  warehouse safety course doing?" → "Who hasn't finished it yet?"); "him", "her", "dale" with nobody named mean
  the one person it named. Nothing is taken when the previous message named none, or several.
"""

from __future__ import annotations

import re

from agents.admin.names import OrgNames, words

_INTRODUCTION = re.compile(
    r"^\s*(?:(?:hi|hello|hey|hola|buenas|buenos d[ií]as)[\s,!.]+)?"
    r"(?:(?:it'?s|this is|soy|aqu[ií])\s+(?P<said_after>[^\W\d_]+)"
    r"|(?P<said_before>[^\W\d_]+)\s+(?:here|aqu[ií]|al habla))"
    r"\s*(?:[-—–:,.!]+\s*|$)",
    re.IGNORECASE,
)
# the words that point at a course the message does not name (longest first: "that course" before "that")
_COURSE_POINTERS = re.compile(
    r"\b(?:(?:that|this|the same) (?:course|training|one)|it"
    r"|(?:ese|este|el mismo|dicho|ese mismo) (?:curso|training)|esa formaci[oó]n|esta formaci[oó]n)\b",
    re.IGNORECASE,
)
_PERSON_POINTERS = {"him", "her", "them", "his", "their", "le", "les", "dale", "darle", "ponle", "apuntalo"}
_PERSON_POINTERS |= {"apuntala", "inscribelo", "inscribela", "su", "sus"}


def without_introduction(message: str, org: OrgNames) -> str:
    """The message without an opening self-introduction that names a person of the organisation."""
    found = _INTRODUCTION.match(message)
    if found and org.people_in(found["said_after"] or found["said_before"]):
        return message[found.end() :]
    return message


def with_earlier_course(message: str, earlier: str | None, org: OrgNames) -> str:
    """The message with "it" / "ese curso" replaced by the one course the previous message named."""
    if not earlier or org.courses_in(message) or not _COURSE_POINTERS.search(message):
        return message
    titles = org.courses_in(without_introduction(earlier, org))
    if len(titles) != 1:
        return message
    lang_article = "el curso" if {"ese", "este", "dicho", "esa", "mismo"} & set(words(message)) else ""
    return _COURSE_POINTERS.sub(f"{lang_article} «{titles[0]}»".strip(), message, count=1)


def earlier_people(message: str, earlier: str | None, org: OrgNames) -> list[str]:
    """The one person the previous message named, when this one names nobody and points at someone."""
    if not earlier or org.people_in(message) or not _PERSON_POINTERS & set(words(message)):
        return []
    people = org.people_in(without_introduction(earlier, org))
    return people if len(people) == 1 else []
