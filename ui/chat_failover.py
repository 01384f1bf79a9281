"""What a chat process needs to carry on a conversation another process started (behind deploy/haproxy.cfg,
when the chat process serving a frame dies, the frame's next message reaches another one, whose Gradio
state for that frame is empty): the person, from the app's session cookie the frame's request carries, and
the conversation, from the questions the frame shows."""

from __future__ import annotations

from agents import auth
from agents.runtime.deps import process_deps
from agents.tutor import service
from core.markup import safe_markdown

SESSION_COOKIE = "skillnet_session"  # the Streamlit app's session (ui/session.py)
RECENT_CONVERSATIONS = 3  # the one on screen was the person's latest when the process died, or nearly


def cookie_user(request):
    """The person signed in to the app, by the session cookie this request carries (None: nobody)."""
    token = dict(request.cookies).get(SESSION_COOKIE, "") if request is not None else ""
    return auth.resume(process_deps(), token) if token else None


def _text(content) -> str:
    """A chat bubble's text as the browser sends it back: a string, or Gradio's list of typed parts."""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def conversation_on_screen(user, history: list) -> str | None:
    """The person's recent conversation whose questions are exactly the ones the frame shows, if any."""
    asked = [_text(turn["content"]) for turn in history or [] if turn.get("role") == "user"]
    if not asked:
        return None
    for session in service.conversation_titles(process_deps(), user)[:RECENT_CONVERSATIONS]:
        said = [
            safe_markdown(message.content)
            for message in service.session_messages(process_deps(), user, session.id)
            if message.role == "user"
        ]
        if said == asked:
            return str(session.id)
    return None
