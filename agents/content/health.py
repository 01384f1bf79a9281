"""Course health: what learners' first answers say about each exercise, and the flags a trainer can act on.

The figures come from storage.item_stats (computed in SQL, refreshed by the queue task
``course.item_health`` when answers arrive). This module turns them into judgements, each with its
reason in words and the evidence, in the reader's language:
- too easy (facility above SKILLNET_ITEM_TOO_EASY) or too hard (below SKILLNET_ITEM_TOO_HARD);
- not discriminating (discrimination at or below SKILLNET_ITEM_LOW_DISCRIMINATION; not said of an item
  already too easy or too hard, whose extremes leave nothing to discriminate) or negatively
  discriminating (below 0: the key may be wrong);
- an option of a multiple choice nobody picked (from SKILLNET_ITEM_MIN_ANSWERS_OPTIONS answers);
- an option picked more often than the key (the key may be wrong);
- a module whose true/false statements are all true or all false (answering the same always scores).
Below SKILLNET_ITEM_MIN_ANSWERS answers an item gets no answer-based flag: "not enough answers yet".
Discrimination is the point-biserial correlation from SKILLNET_ITEM_CORRELATION_MIN ranked learners,
the upper-lower groups' difference below that.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from agents.i18n import format_number, format_percent, t
from core import config
from storage import courses as course_store
from storage import item_stats
from storage.item_stats import ItemFigures

KEY_MAY_BE_WRONG = ("negative_discrimination", "distractor_beats_key")
# the order flags are listed in: what misleads learners first, what merely wastes an item last
FLAG_ORDER = (
    "negative_discrimination",
    "distractor_beats_key",
    "too_hard",
    "tf_all_same",
    "not_discriminating",
    "too_easy",
    "unused_distractor",
)


@dataclass(frozen=True)
class Thresholds:
    min_answers: int
    min_answers_options: int
    too_easy: float
    too_hard: float
    low_discrimination: float
    correlation_min: int
    tf_set_min: int

    @classmethod
    def from_config(cls) -> Thresholds:
        get = config.get
        return cls(
            get("SKILLNET_ITEM_MIN_ANSWERS"),
            get("SKILLNET_ITEM_MIN_ANSWERS_OPTIONS"),
            get("SKILLNET_ITEM_TOO_EASY"),
            get("SKILLNET_ITEM_TOO_HARD"),
            get("SKILLNET_ITEM_LOW_DISCRIMINATION"),
            get("SKILLNET_ITEM_CORRELATION_MIN"),
            get("SKILLNET_ITEM_TF_SET_MIN"),
        )


@dataclass(frozen=True)
class Flag:
    code: str
    reason: str  # what is wrong, in words
    evidence: str  # the figures that show it

    @property
    def key_may_be_wrong(self) -> bool:
        return self.code in KEY_MAY_BE_WRONG


@dataclass(frozen=True)
class Option:
    label: str
    picks: int
    share: float | None
    is_key: bool


@dataclass
class ItemHealth:
    exercise_id: UUID
    module_id: UUID
    module_title: str
    lesson_title: str
    type: str
    prompt: str
    text: str  # what a trainer recognises the item by: a true/false's statement...
    attempts: int
    facility: float | None
    discrimination: float | None
    method: str | None  # "point_biserial" or "upper_lower"
    options: list[Option]
    enough_answers: bool
    flags: list[Flag] = field(default_factory=list)
    note: str = ""  # "not enough answers yet" and the like


@dataclass(frozen=True)
class ModuleHealth:
    module_id: UUID
    title: str
    exercises: int
    mean_facility: float | None
    flagged_share: float


@dataclass(frozen=True)
class CourseHealth:
    course_id: UUID
    items: list[ItemHealth]
    modules: list[ModuleHealth]
    computed_at: datetime | None


def _options(figures: ItemFigures, lang: str) -> list[Option]:
    content, picks, n = figures.content, figures.picks, figures.attempts
    if figures.type == "test":
        labels = [(str(i), text, i == content.get("answer")) for i, text in enumerate(content.get("options") or [])]
    elif figures.type == "true_false":
        labels = [
            (json.dumps(value), t(f"content.health.{value}".lower(), lang), value == content.get("answer"))
            for value in (True, False)
        ]
    else:
        return []
    return [
        Option(label, int(picks.get(key, 0)), picks.get(key, 0) / n if n else None, is_key)
        for key, label, is_key in labels
    ]


def item_text(kind: str, prompt: str, content: dict) -> str:
    """The item as a person recognises it: many prompts are the same ("True or false?")."""
    if kind == "true_false":
        return content.get("statement") or prompt
    if kind == "fill_blank":
        return content.get("text") or prompt
    return prompt


def _flag(code: str, lang: str, **values) -> Flag:
    return Flag(
        code, t(f"content.health.flag.{code}", lang, **values), t(f"content.health.evidence.{code}", lang, **values)
    )


def judge_item(figures: ItemFigures, limits: Thresholds, lang: str) -> ItemHealth:
    """One exercise's figures and answer-based flags (the true/false set is judged per module)."""
    n = figures.attempts
    method = "point_biserial" if figures.ranked >= limits.correlation_min else "upper_lower"
    discrimination = figures.point_biserial if method == "point_biserial" else figures.upper_lower
    item = ItemHealth(
        figures.exercise_id,
        figures.module_id,
        figures.module_title,
        figures.lesson_title,
        figures.type,
        figures.prompt,
        item_text(figures.type, figures.prompt, figures.content),
        n,
        figures.facility,
        discrimination,
        method if discrimination is not None else None,
        _options(figures, lang),
        enough_answers=n >= limits.min_answers,
    )
    if not item.enough_answers:
        item.note = t("content.health.not_enough", lang, n=n, needed=limits.min_answers)
        return item

    def pct(value: float) -> str:
        return format_percent(value, lang)

    facility = figures.facility or 0.0
    right = round(facility * n)
    if facility > limits.too_easy:
        item.flags.append(_flag("too_easy", lang, right=right, n=n, facility=pct(facility), limit=pct(limits.too_easy)))
    elif facility < limits.too_hard:
        item.flags.append(_flag("too_hard", lang, right=right, n=n, facility=pct(facility), limit=pct(limits.too_hard)))
    if discrimination is not None:
        values = {
            "d": format_number(discrimination, lang, decimals=2),
            "n": figures.ranked,
            "method": t(f"content.health.method.{method}", lang),
            "limit": format_number(limits.low_discrimination, lang, decimals=2),
        }
        if discrimination < 0:
            item.flags.append(_flag("negative_discrimination", lang, **values))
        elif discrimination <= limits.low_discrimination and not item.flags:
            item.flags.append(_flag("not_discriminating", lang, **values))
    key = next((o for o in item.options if o.is_key), None)
    for option in item.options:
        if key is not None and not option.is_key and option.picks > key.picks:
            item.flags.append(
                _flag(
                    "distractor_beats_key",
                    lang,
                    option=option.label,
                    picks=option.picks,
                    key=key.label,
                    key_picks=key.picks,
                    n=n,
                )
            )
        elif not option.is_key and option.picks == 0 and n >= limits.min_answers_options and item.type == "test":
            item.flags.append(_flag("unused_distractor", lang, option=option.label, n=n))
    return item


def judge_true_false_sets(items: list[ItemHealth], contents: dict[UUID, dict], limits: Thresholds, lang: str) -> None:
    """Flag every true/false item of a module whose statements are all true (or all false)."""
    by_module: dict[UUID, list[ItemHealth]] = {}
    for item in items:
        if item.type == "true_false":
            by_module.setdefault(item.module_id, []).append(item)
    for module_items in by_module.values():
        answers = {bool(contents[item.exercise_id].get("answer")) for item in module_items}
        if len(module_items) >= limits.tf_set_min and len(answers) == 1:
            value = t(f"content.health.{answers.pop()}".lower(), lang)
            for item in module_items:
                item.flags.append(_flag("tf_all_same", lang, n=len(module_items), value=value))


def _sorted_flags(item: ItemHealth) -> None:
    item.flags.sort(key=lambda flag: FLAG_ORDER.index(flag.code))


def judge(figures: list[ItemFigures], lang: str, limits: Thresholds | None = None) -> list[ItemHealth]:
    limits = limits or Thresholds.from_config()
    items = [judge_item(f, limits, lang) for f in figures]
    judge_true_false_sets(items, {f.exercise_id: f.content for f in figures}, limits, lang)
    for item in items:
        _sorted_flags(item)
    return items


def modules_of(items: list[ItemHealth]) -> list[ModuleHealth]:
    """Per module: mean facility over the items with enough answers, and the share of items flagged."""
    grouped: dict[UUID, list[ItemHealth]] = {}
    for item in items:
        grouped.setdefault(item.module_id, []).append(item)
    modules = []
    for module_id, module_items in grouped.items():
        judged = [i.facility for i in module_items if i.enough_answers and i.facility is not None]
        modules.append(
            ModuleHealth(
                module_id,
                module_items[0].module_title,
                len(module_items),
                sum(judged) / len(judged) if judged else None,
                sum(bool(i.flags) for i in module_items) / len(module_items),
            )
        )
    return modules


def published_courses(pool, org_id: UUID) -> dict[str, str]:
    """{course id: title} of the organisation's published courses (the studio's picker)."""
    with pool.connection() as conn:
        return {str(c.id): c.title for c in course_store.list_courses(conn, org_id, status="published")}


def refresh(pool, org_id: UUID, course_id: UUID) -> int:
    with pool.connection() as conn:
        return item_stats.refresh_course(conn, org_id, course_id)


def course_health(
    pool, org_id: UUID, course_id: UUID, lang: str, *, refresh_if_small: bool = True, limits: Thresholds | None = None
) -> CourseHealth:
    """The course's health from its stored figures; a course with few answers is recomputed first (a large
    one waits for its queue task: a page never reads thousands of attempts)."""
    with pool.connection() as conn:
        cap = config.get("SKILLNET_ITEM_LIVE_REFRESH_MAX")
        if refresh_if_small and item_stats.course_attempt_count(conn, org_id, course_id, cap) <= cap:
            item_stats.refresh_course(conn, org_id, course_id)
        figures = item_stats.course_figures(conn, org_id, course_id)
    items = judge(figures, lang, limits)
    computed = [f.computed_at for f in figures if f.computed_at is not None]
    items.sort(key=lambda i: (not i.flags, min((FLAG_ORDER.index(f.code) for f in i.flags), default=0)))
    return CourseHealth(course_id, items, modules_of(items), max(computed) if computed else None)


def health_json(health: CourseHealth) -> dict:
    """The contract of ``python -m agents.content health COURSE_ID --json``."""
    return {
        "course_id": str(health.course_id),
        "computed_at": health.computed_at.isoformat() if health.computed_at else None,
        "modules": [
            {
                "module_id": str(m.module_id),
                "title": m.title,
                "exercises": m.exercises,
                "mean_facility": _round(m.mean_facility),
                "flagged_share": _round(m.flagged_share),
            }
            for m in health.modules
        ],
        "exercises": [
            {
                "exercise_id": str(i.exercise_id),
                "module": i.module_title,
                "lesson": i.lesson_title,
                "type": i.type,
                "prompt": i.prompt,
                "text": i.text,
                "attempts": i.attempts,
                "facility": _round(i.facility),
                "discrimination": _round(i.discrimination),
                "discrimination_method": i.method,
                "enough_answers": i.enough_answers,
                "note": i.note,
                "options": [
                    {"option": o.label, "picks": o.picks, "share": _round(o.share), "key": o.is_key} for o in i.options
                ],
                "flags": [
                    {"code": f.code, "reason": f.reason, "evidence": f.evidence, "key_may_be_wrong": f.key_may_be_wrong}
                    for f in i.flags
                ],
            }
            for i in health.items
        ],
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
