"""Work done once per server process, in a background thread started as the server starts (app.py, imported
by `streamlit run` for its st.App) or, under AppTest, by the first script run: the database ready
(embedded server, migrations), the demo organisation loaded if the database is empty, then the tutor
chat, the task-queue worker and the helpdesk sweeps.

The script never waits for it inside a cached call, so a visitor of a first start sees app.py's
"preparing…" page (in the browser's language) from the first moment instead of a blank page, and the
sign-in form appears by itself once ``ready()``.
"""

from __future__ import annotations

import logging
import threading

from core.once import built_once

log = logging.getLogger(__name__)
_ready = threading.Event()
_page_served = threading.Event()
_imported = threading.Event()  # the services' Python is imported: a signed-in page may import without racing it
_failure: list[str] = []  # one line for the preparing page when the database could not be prepared


@built_once
def begin_preparing() -> threading.Thread:
    """Start preparing the process once (later calls return the same thread)."""
    thread = threading.Thread(target=_prepare, name="skillnet-prepare", daemon=True)
    thread.start()
    return thread


def ready() -> bool:
    return _ready.is_set()


def wait_until_ready(timeout: float) -> bool:
    return _ready.wait(timeout)


def failure() -> str | None:
    return _failure[0] if _failure else None


def wait_until_imported(timeout: float) -> bool:
    """A signed-in page waits here before it runs: two threads importing the same package for the first time
    can each get it half-made ("cannot import name 'WRatio' from partially initialized module 'rapidfuzz.fuzz'"
    in a clean-clone run: the home never drew, and the services, the chat among them, never started). The
    services start now if they were still waiting for a first page: this one waits for them anyway (a returning
    visitor's first page after a restart)."""
    _page_served.set()
    return _imported.wait(timeout)


def page_served() -> None:
    """A browser has been served a page of the ready product: the services may take the interpreter now."""
    _page_served.set()


def _prepare() -> None:
    try:
        prepare_database()
    except Exception as exc:  # the preparing page shows the reason; the log keeps the traceback
        log.exception("SkillNet could not prepare its database")
        _failure.append(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
        return
    _ready.set()
    # The services import seconds of Python (Gradio, LangChain) in this one interpreter: they wait for the first
    # visitor's page, or for a while if none comes, so that page is not slowed by them
    _page_served.wait(SERVICES_WAIT_SECONDS)
    try:
        start_services()
    except Exception:  # the pages still serve; what failed is in the log
        log.exception("SkillNet could not start a background service")
    finally:
        _imported.set()  # never leave a page waiting on a failure


def prepare_database() -> None:
    """What a sign-in needs: the database migrated and, when it is empty, the demo organisation.

    On a first start the embedded server's initdb and the migrations run mostly in PostgreSQL's own
    processes, so the Python the demo's load needs is imported and warmed meanwhile, on the other core. A
    restart (an organisation is there) is ready once migrated: the sign-in form needs none of that Python."""
    from storage import db, seeding

    warm = threading.Thread(target=warm_up, name="skillnet-warm-up", daemon=True)
    if db.embedded_cluster_missing():  # a first start: warm up while initdb runs
        warm.start()
    pool = db.app_pool()
    with pool.connection() as conn, seeding.exclusive_load(conn):  # another process may be loading the demo
        if seeding.any_organization(conn):
            return
    if warm.ident is None:
        warm.start()
    warm.join()

    from agents.runtime.deps import process_embedder
    from seeds.loader import load_demo_if_empty

    load_demo_if_empty(pool, embedder=process_embedder())


def backfill_old_chunks() -> None:
    """Chunks stored before migrations 050 and 180 get their sections' headings from their original files,
    then their sections' vectors (the demo's from the seeds' pack); both only once, after the sign-in is
    usable (until then a citation of such a chunk names no heading)."""
    from agents.ingestion.backfill import backfill_heading_spans, backfill_section_vectors
    from agents.ingestion.embeddings import VectorPack
    from agents.tutor.sources import original_file
    from seeds.loader import VECTORS
    from storage import db

    pool = db.app_pool()
    backfill_heading_spans(pool, original_file)
    backfill_section_vectors(pool, VectorPack.load(VECTORS))


def warm_up() -> None:
    """Import what the demo's load uses and load its models: the document parsers (two DOCX, two PDF), the
    language identifier (each document's language; ~2 s to unpack on a busy machine), the instruction
    filter's model (scikit-learn's import, seconds) and the demo people's two password hashes."""
    import docx  # noqa: F401
    import pypdf  # noqa: F401

    from agents.ingestion.pipeline import language_identifier
    from core.instruction_model import model
    from seeds.loader import hash_demo_passwords

    language_identifier()
    model()
    hash_demo_passwords()


def import_services() -> None:
    """Everything the services and a first sign-in import, in this one thread while no signed-in page runs
    (``wait_until_imported``), and the process's deps built (the model client pulls in LangChain and the OpenAI
    SDK): the homes' services, the chat (Gradio, unless it is served apart), the queue worker and the backfill.
    Paid by the first sign-in instead, the imports kept the form on screen for ~4 s after "Sign in", with
    nothing moving (load 11)."""
    import pandas  # noqa: F401

    from agents.admin import dashboards  # noqa: F401
    from agents.helpdesk import sweeper  # noqa: F401
    from agents.ingestion import backfill, embeddings  # noqa: F401
    from agents.learning import service  # noqa: F401
    from agents.runtime import metrics, tasks  # noqa: F401
    from agents.runtime.deps import process_deps
    from agents.tutor import sources  # noqa: F401
    from seeds import loader  # noqa: F401
    from ui import chat_server

    if not chat_server.chat_served_apart():
        import chat  # noqa: F401
    process_deps()


def start_services() -> None:
    """What the pages need later, started once the sign-in is usable."""
    # first, beside the rest: the imports take seconds (Gradio's), and a SIGTERM meanwhile would stop the server
    # at once, cutting off a helpdesk step already running (the drain test failed so on a loaded machine)
    threading.Thread(target=install_sigterm_drain, name="skillnet-drain", daemon=True).start()
    import_services()
    _imported.set()
    from agents.helpdesk.sweeper import defer_helpdesk_sweeps
    from agents.runtime.metrics import start_metrics_server
    from agents.runtime.tasks import start_worker_thread
    from core import config
    from ui.chat_server import start_chat_server

    backfill_old_chunks()
    start_chat_server()  # the Gradio tutor chat the tutor pages embed
    # "off" when the task queue is served by separate `python -m agents.content worker` processes
    if config.get("SKILLNET_CONTENT_WORKER") != "off":
        start_worker_thread()  # resumes jobs a crash cut off, then takes new ones
    defer_helpdesk_sweeps()  # helpdesk orphan and TTL sweeps now (then every 10 minutes) by whichever worker
    start_metrics_server()  # Prometheus /metrics when SKILLNET_METRICS_PORT is set


def shut_down() -> None:
    """The server has stopped serving (Ctrl-C, or SIGTERM once drained): the queue worker stops taking jobs
    (those running finish, for a few seconds), the pools close, and the embedded PostgreSQL stops unless another
    process still uses it. Done here, not at interpreter exit: after a SIGTERM, uvicorn re-raises the signal
    with its default action, which ends the process without running exit handlers (the server outlived every
    `streamlit run` stopped so)."""
    from agents.runtime.tasks import stop_worker_thread
    from storage import db

    stop_worker_thread(SHUTDOWN_WORKER_SECONDS)
    db.reset_pools()
    db.stop_embedded_servers(for_good=True)


def install_sigterm_drain() -> None:
    """SIGTERM drains before Streamlit stops (agents/runtime/drain.py). Streamlit has no public hook for it: its
    runtime's event loop runs on the main thread, the only one that may install a signal handler."""
    import time

    from streamlit.runtime import Runtime

    from agents.runtime.drain import install

    # begun as the server module is imported, this may finish before the st.App's lifespan has started
    # the runtime: give it time; with no server at all (AppTest) there is no signal to drain for
    deadline = time.monotonic() + RUNTIME_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            install(Runtime.instance()._get_async_objs().eventloop)
            return
        except (RuntimeError, AttributeError):
            time.sleep(0.2)


RUNTIME_WAIT_SECONDS = 60
SERVICES_WAIT_SECONDS = 10
IMPORTS_WAIT_SECONDS = 120  # a signed-in page's wait for the services' imports: then it runs anyway
SHUTDOWN_WORKER_SECONDS = 3  # under the drain's 5 s exit grace; a job cut off resumes from its checkpoint
