"""Limits and defences: settings from the environment, redaction, untrusted-text wrapping, sanitising."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import nh3

from core import config
from core.text import shortened


@dataclass(frozen=True)
class Settings:
    enabled: bool = True
    kill_switch: bool = False
    max_turns: int = 8
    max_questions: int = 2
    max_tool_retries: int = 2
    max_proposals: int = 2
    max_duplicate_searches: int = 1
    max_tokens: int = 20_000
    deadline_seconds: float = 60.0
    max_sessions_per_day: int = 10
    tool_output_max_chars: int = 4000
    conversation_max_chars: int = 6000
    question_max_chars: int = 4000
    body_max_chars: int = 8000
    checkpoint_ttl_seconds: int = 86_400
    idempotency_seconds: int = 600
    orphan_after_seconds: int = 300
    tool_flags: dict[str, bool] = field(
        default_factory=lambda: {
            "retry_kb": True,
            "web_search": True,
            "search_existing_issues": True,
            "file_ticket": True,
        }
    )
    enabled_user_ids: frozenset[str] = frozenset()

    @classmethod
    def from_env(cls) -> Settings:
        get = config.get
        return cls(
            enabled=get("HELPDESK_AGENT_ENABLED"),
            kill_switch=get("HELPDESK_AGENT_KILL_SWITCH"),
            max_turns=get("HELPDESK_AGENT_MAX_TURNS"),
            max_questions=get("HELPDESK_AGENT_MAX_QUESTIONS"),
            max_tool_retries=get("HELPDESK_AGENT_MAX_TOOL_RETRIES"),
            max_tokens=get("HELPDESK_AGENT_MAX_TOKENS_PER_SESSION"),
            deadline_seconds=get("HELPDESK_AGENT_DEADLINE_SECONDS"),
            max_sessions_per_day=get("HELPDESK_AGENT_MAX_SESSIONS_PER_USER_PER_DAY"),
            tool_output_max_chars=get("HELPDESK_AGENT_TOOL_OUTPUT_MAX_CHARS"),
            body_max_chars=get("HELPDESK_GITHUB_BODY_MAX_CHARS"),
            question_max_chars=get("HELPDESK_AGENT_QUESTION_MAX_CHARS"),
            checkpoint_ttl_seconds=get("HELPDESK_AGENT_CHECKPOINT_TTL_SECONDS"),
            tool_flags={
                "retry_kb": get("HELPDESK_AGENT_TOOL_KB_RETRY"),
                "web_search": get("HELPDESK_AGENT_TOOL_WEB_SEARCH"),
                "search_existing_issues": get("HELPDESK_AGENT_TOOL_GITHUB_SEARCH"),
                "file_ticket": get("HELPDESK_AGENT_TOOL_FILE_TICKET"),
            },
            enabled_user_ids=frozenset(get("HELPDESK_AGENT_ENABLED_USER_IDS")),
        )

    def allows_user(self, user_id) -> bool:
        return not self.enabled_user_ids or str(user_id) in self.enabled_user_ids


def sha(text: object, length: int = 16) -> str:
    """The sha256 prefix the audit log and the ticket footer use instead of raw text or ids."""
    return hashlib.sha256(str(text).encode("utf-8")).hexdigest()[:length]


# --- redaction -------------------------------------------------------------------------------------
# Every pattern here sees untrusted text, so each is linear: a match may only start where its first
# character class cannot extend further left (a lookbehind instead of \b), so a long run is scanned
# once, not once per position (the old email pattern took 6.8 s on 40 kB of "a").
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_SECRETS = [
    re.compile(r"(?<![A-Za-z0-9_-])(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}"),  # OpenAI/Stripe-style keys
    re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}"),  # GitHub tokens
    re.compile(r"(?<![A-Za-z0-9-])xox[abposr]-[A-Za-z0-9-]{10,}"),  # Slack tokens
    re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"),  # AWS access key ids
    re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),  # JWTs
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{12,}"),
    re.compile(r"(?i)\b(password|passwd|pwd|contraseña|api[_-]?key|secret|token)\s*[:=]\s*\S+"),
    re.compile(r"\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{32,}\b"),  # long opaque strings
]
_CARD = re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")
_PHONE = re.compile(r"(?<![\w])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){2,4}(?![\w])")


def _luhn_ok(digits: str) -> bool:
    total, parity = 0, len(digits) % 2
    for i, ch in enumerate(digits):
        d = int(ch)
        if i % 2 == parity:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card(match: re.Match) -> str:
    digits = re.sub(r"\D", "", match.group())
    return "[card]" if 13 <= len(digits) <= 19 and _luhn_ok(digits) else match.group()


def _phone(match: re.Match) -> str:
    digits = re.sub(r"\D", "", match.group())
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d{2}[./-]\d{2}[./-]\d{4}", match.group().strip()):
        return match.group()  # a date, not a phone number
    return "[phone]" if 9 <= len(digits) <= 15 else match.group()


def redact(text: str) -> str:
    """Emails, keys and tokens, card numbers and phone numbers replaced by placeholders."""
    if not text:
        return text or ""
    text = _EMAIL.sub("[email]", text)
    for pattern in _SECRETS:
        text = pattern.sub(lambda m: f"{m.group(1)}=[secret]" if m.re.groups else "[secret]", text)
    text = _CARD.sub(_card, text)
    return _PHONE.sub(_phone, text)


# --- untrusted text ------------------------------------------------------------------------------
_INJECTION = re.compile(
    r"(?i)(ignore|disregard|forget)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier)\s+"
    r"(instructions|prompts?|rules|messages)"
    r"|(ignora|olvida)\s+(todas\s+)?(las\s+)?instrucciones\s+(anteriores|previas)"
    r"|\b(system\s+prompt|you\s+are\s+now|new\s+instructions|developer\s+mode)\b"
    r"|\bfile\s+(a\s+|the\s+)?(new\s+)?(ticket|issue)\s+(titled|called|named)\b"
    r"|\bnext_action\b"
)


def looks_like_injection(text: str) -> bool:
    return bool(_INJECTION.search(text or ""))


def neutralise(text: str) -> tuple[str, bool]:
    """Third-party text with instruction-like sentences removed; True when something was removed."""
    if not looks_like_injection(text):
        return text, False
    kept = [s for s in re.split(r"(?<=[.!?\n])\s+", text) if not looks_like_injection(s)]
    return " ".join(kept + ["[instruction-like text removed]"]), True


def _cap(text: str, limit: int) -> str:
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    kept = data[:limit].decode("utf-8", errors="ignore")
    return f"{kept}\n[truncated: {len(data) - len(kept.encode('utf-8'))} of {len(data)} bytes elided]"


def _escape_markers(text: str) -> str:
    # Untrusted text cannot close or open our wrappers.
    return re.sub(r"</?\s*(conversation|tool_output)[^<>]*>", "[marker removed]", text, flags=re.I)


def wrap_conversation(turns: Sequence[Mapping[str, object]], limit: int) -> str:
    lines = [f"{t['role']}: {_escape_markers(str(t['content']))}" for t in turns]
    return f"<conversation>\n{_cap(chr(10).join(lines), limit)}\n</conversation>"


def wrap_tool_output(source: str, text: str, limit: int) -> str:
    return f'<tool_output source="{source}">\n{_cap(_escape_markers(text), limit)}\n</tool_output>'


# --- ticket bodies ---------------------------------------------------------------------------------
# The traceability footer is for the issue tracker a ticket may be filed in (English, ids); people in the
# app read the body without it (``without_footer``) and see the conversation itself instead.
FOOTER_START = "\n\n---\n"


def without_footer(body: str) -> tuple[str, bool]:
    """The body as its reporter wrote and confirmed it, and whether the agent drafted it (had the footer)."""
    text, marker, footer = body.rpartition(FOOTER_START)
    if marker and footer.startswith("AI-assisted draft") and "agent_session:" in footer:
        return text, True
    return body, False


def sanitise_body(body: str, *, agent_session_id: str, chat_session_id: str, limit: int) -> str:
    """Redacted, HTML-free, mention-free, length-capped body ending with the traceability footer."""
    body = body[: limit * 2]  # capped before any processing: the cap below cuts at ``limit`` anyway
    text = nh3.clean(redact(body), tags=set(), attributes={}, strip_comments=True)
    text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    text = re.sub(r"<[^<>]*>", "", text)  # a second pass: entity-decoding must not revive tags
    text = re.sub(r"(?<![\w`\\])@(?=[\w-])", r"\\@", text)
    text = re.sub(r"(?<![\w&`\\])#(?=\d)", r"\\#", text)
    footer = (
        f"{FOOTER_START}AI-assisted draft, reviewed and filed by user.\n"
        f"agent_session: {agent_session_id}\nchat_session: {sha(chat_session_id)}"
    )
    room = max(0, limit - len(footer))
    if len(text) > room:
        text = text[: max(0, room - 40)].rstrip() + "\n[truncated to fit the length cap]"
    return text + footer


def sanitise_title(title: str) -> str:
    text = nh3.clean(redact(title[:1000]), tags=set(), attributes={})
    text = re.sub(r"<[^<>]*>", "", text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    text = re.sub(r"(?<![\w\\])@(?=[\w-])", r"\\@", text)
    return shortened(text, TITLE_LIMIT)


TITLE_LIMIT = 80  # a ticket's title in lists and notifications; the whole report is in its body
