"""The one Markdown sanitiser: anything untrusted passes it before it is rendered or stored as content.

Documents, tickets, profile fields and model output are other people's words. Rendered as-is, their
Markdown fetched tracking pixels and showed phishing links as company material. ``safe_markdown``
keeps the words and the formatting and removes what reaches outside:

- characters that draw nothing (zero-width, bidirectional overrides, Unicode tags) are dropped;
- raw HTML: comments, and hidden elements (``display:none``, ``visibility:hidden``, white or
  zero-size text, ``hidden``/``aria-hidden``), script/style/template are dropped *with* their
  content; every other tag is dropped and its visible text kept;
- images: only the product's own (``/app/static/…``); others become a note with their alt text
  and no address;
- links: kept only for http(s) to an allowlisted host (``SKILLNET_LINK_ALLOWLIST``, subdomains
  included); others become their text; bare and angle-bracket URLs to other hosts, and angle-bracket
  e-mail addresses, are shown in a code span (never auto-linked); reference definitions to other hosts
  are removed.

Every pattern is linear (bounded, possessive repetitions), so a megabyte is cheap.
The result is idempotent: sanitising twice changes nothing.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import nh3
from markdown_it import MarkdownIt

from core import config
from core.inputs import strip_invisible, strip_nul
from core.instructions import without_instructions

PRODUCT_IMAGE_PREFIXES = ("/app/static/",)
IMAGE_NOTE = "🖼"
_DROP_WITH_CONTENT = {"script", "style", "template", "noscript", "iframe", "object", "svg", "math", "head", "title"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Tags no real document uses that attacks dress instructions in: kept visible as "[system]" so the
# instruction detector (core/instructions.py) still sees them after the HTML is gone.
_MARKER_TAGS = {"information", "system", "instructions", "instruction", "admin", "im_start", "im_end"}
_BLOCK = {
    "p",
    "div",
    "br",
    "li",
    "tr",
    "table",
    "section",
    "article",
    "blockquote",
    "pre",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
}
_HIDDEN_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?:\.0+)?\s*(?:;|$)|font-size\s*:\s*0"
    r"|(?<![-\w])color\s*:\s*(?:#fff(?:fff)?\b|white\b|rgba?\(\s*255\s*,\s*255\s*,\s*255)",
    re.IGNORECASE,
)

_URL = r"(?:[^()\s\\<>]|\\.){0,2000}+(?:\((?:[^()\s\\<>]|\\.){0,500}+\)(?:[^()\s\\<>]|\\.){0,500}+)?"
_TITLE = r"(?:\s{1,20}(?:\"[^\"\n]{0,300}\"|'[^'\n]{0,300}'|\([^()\n]{0,300}\)))?"
_IMAGE = re.compile(r"!\[([^\[\]\n]{0,500}+)\]\(\s{0,20}<?(" + _URL + r")>?" + _TITLE + r"\s{0,20}\)")
_LINK = re.compile(r"\[([^\[\]\n]{0,1000}+)\]\(\s{0,20}<?(" + _URL + r")>?" + _TITLE + r"\s{0,20}\)")
_REFERENCE_DEFINITION = re.compile(
    r"^ {0,3}\[[^\[\]\n]{1,500}\]:[ \t]{0,20}<?([^\s<>]{1,2000})>?[^\n]{0,500}$", re.MULTILINE
)
_ANGLE_AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\s]{0,2000})>")
_ANGLE_EMAIL = re.compile(r"<([\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8})>")
_BARE_URL = re.compile(r"(?<![\w/@`])(?:(?:https?|ftp)://|www\.)[^\s<>`]{1,2000}")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")


def allowed_hosts() -> tuple[str, ...]:
    return tuple(host.lower().lstrip(".") for host in config.get("SKILLNET_LINK_ALLOWLIST"))


def link_allowed(url: str, hosts: tuple[str, ...] | None = None) -> bool:
    """True for an http(s) URL whose host is allowlisted (or a subdomain of one)."""
    hosts = allowed_hosts() if hosts is None else hosts
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    return (
        parts.scheme.lower() in ("http", "https")
        and bool(host)
        and any(host == allowed or host.endswith("." + allowed) for allowed in hosts)
    )


# One token of raw HTML. Attribute text may not contain "<" or ">" and is bounded and possessive, so a
# failed match costs at most the distance to the next "<" (Python 3.11's html.parser is quadratic on "<" * n).
_HTML_TOKEN = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9:-]{0,40}+)([^<>]{0,5000}+)>|<!--|<![^<>]{0,5000}+>|<\?[^<>]{0,5000}+>"
)
_HIDDEN_ATTRIBUTE = re.compile(r"(?:^|\s)hidden(?:\s|=|/|$)|aria-hidden\s*=\s*[\"']?true", re.IGNORECASE)


def _hides(tag: str, attributes: str) -> bool:
    return tag not in _VOID and (
        tag in _DROP_WITH_CONTENT
        or bool(_HIDDEN_ATTRIBUTE.search(attributes))
        or bool(_HIDDEN_STYLE.search(attributes))
    )


def strip_html(text: str, *, keep_visible_tags: bool = False) -> str:
    """``text`` without raw HTML: comments and hidden elements gone with their content, tags gone
    (kept with ``keep_visible_tags``, for the HTML parser of ingestion, which reads headings from them).

    Entities stay as written ("&lt;script&gt;" is text and must not become a tag)."""
    if "<" not in text:
        return text
    out: list[str] = []
    dropping: list[str] = []  # open elements whose content is dropped
    position = 0
    while (match := _HTML_TOKEN.search(text, position)) is not None:
        if not dropping:
            out.append(text[position : match.start()])
        position = match.end()
        token = match.group(0)
        if token == "<!--":  # a comment runs to "-->", or to the end when unclosed (as in browsers)
            end = text.find("-->", position)
            position = len(text) if end < 0 else end + 3
            continue
        if match.group(2) is None:  # <!DOCTYPE …>, <?…?>
            continue
        closing, tag, attributes = match.group(1) == "/", match.group(2).lower(), match.group(3)
        if tag in _MARKER_TAGS and not dropping:
            out.append(f"[{'/' if closing else ''}{tag}]")
            continue
        if keep_visible_tags and not dropping and not (not closing and _hides(tag, attributes)):
            out.append(token)
            continue
        if closing:
            if tag in dropping:
                while dropping.pop() != tag:
                    pass
            elif not dropping and tag in _BLOCK:
                out.append("\n")
            continue
        if tag in _VOID or attributes.rstrip().endswith("/"):
            if not dropping and tag in _BLOCK:
                out.append("\n")
            continue
        if dropping or _hides(tag, attributes):
            dropping.append(tag)
        elif tag in _BLOCK:
            out.append("\n")
    if not dropping:
        out.append(text[position:])
    return "".join(out)


def _code_span(url: str) -> str:
    return f"`{url}`"


def safe_markdown(text: str | None, *, hosts: tuple[str, ...] | None = None) -> str:
    """``text`` as Markdown that renders no raw HTML, no outside image and no link to a host not allowlisted."""
    if not text:
        return ""
    hosts = allowed_hosts() if hosts is None else hosts
    text = strip_invisible(strip_nul(str(text)))
    text = _ANGLE_AUTOLINK.sub(lambda m: f" {m.group(1)} ", text)  # before the HTML pass reads it as a tag
    # an e-mail autolink keeps its address, as code (never a mailto link), and the emphasis around it
    text = _ANGLE_EMAIL.sub(lambda m: _code_span(m.group(1)), text)
    text = strip_html(text)
    kept: list[str] = []

    def keep(fragment: str) -> str:
        kept.append(fragment)
        return f"\x00{len(kept) - 1}\x00"

    def image(match: re.Match) -> str:
        alt, url = match.group(1).strip(), match.group(2).strip()
        if url.startswith(PRODUCT_IMAGE_PREFIXES) and not url.startswith("//"):
            return keep(match.group(0))
        return f"{IMAGE_NOTE} {alt}".rstrip()

    def link(match: re.Match) -> str:
        label, url = match.group(1), match.group(2).strip()
        return keep(match.group(0)) if link_allowed(url, hosts) else label

    def definition(match: re.Match) -> str:
        return keep(match.group(0)) if link_allowed(match.group(1), hosts) else ""

    def bare(match: re.Match) -> str:
        url = match.group(0)
        return keep(url) if link_allowed(url, hosts) else _code_span(url)

    text = _IMAGE.sub(image, text)
    text = _LINK.sub(link, text)
    text = _REFERENCE_DEFINITION.sub(definition, text)
    text = _BARE_URL.sub(bare, text)
    # Whatever the patterns above did not recognise can no longer form a link or an image.
    text = text.replace("](", "]\\(").replace("![", "!\\[")
    return _PLACEHOLDER.sub(lambda m: kept[int(m.group(1))], text)


def product_text(text: str | None) -> str:
    """Text the product stores or shows as its own (lessons, manuals, tickets, assistant messages):
    sanitised, and without instruction-like sentences (core/instructions.py)."""
    # Instructions first: their markers ("<INFORMATION>", "[SYSTEM]") are what gives them away.
    return without_instructions(safe_markdown(without_instructions(text)))


def product_turns(turns: list | None) -> list:
    """A conversation staff read on a ticket (the reporter's report and answers): each turn's words as
    product text, so an instruction a reporter typed reaches no admin's screen or assistant."""
    return [
        {**turn, "content": product_text(str(turn.get("content") or ""))} if isinstance(turn, dict) else turn
        for turn in turns or []
    ]


def product_fields(fields: dict | None) -> dict:
    """Facts gathered from a person's answers (a ticket's ``facts``): text values as product text."""
    return {key: product_text(value) if isinstance(value, str) else value for key, value in (fields or {}).items()}


# Markdown drawn as HTML for a reader (the source viewer, a SCORM package's lessons): raw HTML in it stays
# text (html: False), and nh3 keeps formatting and links only.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_FORMATTING = {
    *("p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "br", "hr"),
    *("strong", "em", "code", "sup", "sub", "del", "a"),
    *("table", "thead", "tbody", "tr", "th", "td"),
}
_ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt"}, "th": {"align"}, "td": {"align"}}


def markdown_html(markdown: str, *, embedded_images: bool = False) -> str:
    """``markdown`` as HTML that runs nothing: formatting, tables and http(s)/mailto links; with
    ``embedded_images``, images whose source is a data URI too (a package read offline reaches no host)."""
    tags = _FORMATTING | {"img"} if embedded_images else _FORMATTING
    schemes = {"http", "https", "mailto", "data"} if embedded_images else {"http", "https", "mailto"}
    return nh3.clean(_MARKDOWN.render(markdown), tags=tags, attributes=_ATTRIBUTES, url_schemes=schemes)
