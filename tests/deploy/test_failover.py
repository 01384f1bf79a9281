"""The deploy/ arrangement on this machine, through HAProxy over https: a learner signs in and chats; the app
and chat processes serving them are killed; their next action reaches the other pair, still signed in, with
the conversation intact and no message lost or doubled.

(A queue worker killed mid-job has the job finished by another: tests/content/test_content_kill.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import STEP, chromium_page, go_to, needs_chromium, sign_in
from tests.deploy.arrangement import HAPROXY, running_arrangement

SHOTS = Path("/tmp/failover-shots")
pytestmark = pytest.mark.skipif(
    not Path(HAPROXY).exists(), reason="HAProxy is not installed (apt-get install -y haproxy): no failover test"
)
FIRST, SECOND = "How do I request a refund?", "And who approves it?"


def _messages(pool, email: str) -> list[tuple[str, str, str]]:
    """(conversation, role, text) of every message the person's tutor conversations hold, oldest first."""
    with pool.connection() as conn:
        return [
            (str(row[0]), row[1], row[2])
            for row in conn.execute(
                """SELECT s.id, m.role, m.content FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_id
               JOIN users u ON u.id = s.user_id WHERE u.email = %(email)s ORDER BY m.created_at, m.id""",
                {"email": email},
            ).fetchall()
        ]


def _ask(frame, question: str, answers_before: int) -> None:
    box = frame.get_by_placeholder("Ask your tutor…")
    box.wait_for(timeout=STEP)
    box.fill(question)
    frame.get_by_role("button", name="Send", exact=True).click()
    frame.locator(".badge.engine").nth(answers_before).wait_for(timeout=STEP)  # this answer's engine badge: done


@needs_chromium
def test_killing_the_pair_serving_you_loses_nothing(seeded_db_url, seeded_pool, tmp_path):
    SHOTS.mkdir(exist_ok=True)
    with running_arrangement(seeded_db_url, tmp_path) as arrangement, chromium_page(self_signed=True) as page:
        sign_in(page, arrangement.base, "james@acme.test", "skillnet-demo")
        go_to(page, "tutor")
        frame = page.locator("iframe").first.content_frame
        _ask(frame, FIRST, 0)
        before = _messages(seeded_pool, "james@acme.test")
        assert [role for _, role, _ in before[-2:]] == ["user", "assistant"] and before[-2][2] == FIRST
        conversation = before[-1][0]
        cookies = {c["name"]: c for c in page.context.cookies()}
        node = cookies["SKILLNET_NODE"]["value"]
        # the app saw https through HAProxy (X-Forwarded-Proto from 127.0.0.1): its session cookie is Secure
        assert cookies["skillnet_session"]["secure"] and cookies["skillnet_session"]["httpOnly"]
        page.screenshot(path=str(SHOTS / "1_before_the_kill.png"), full_page=True)

        arrangement.kill(f"app_{node}", f"chat_{node}")
        _ask(frame, SECOND, 1)  # the next action, in the same frame: HAProxy redispatches it to the other pair
        page.screenshot(path=str(SHOTS / "2_after_the_kill.png"), full_page=True)

        after = _messages(seeded_pool, "james@acme.test")
        assert after[: len(before)] == before, "nothing said before the kill lost or changed"
        assert [(session, role, text if role == "user" else "…") for session, role, text in after[len(before) :]] == [
            (conversation, "user", SECOND),
            (conversation, "assistant", "…"),
        ], "answered once, in the same conversation"
        assert next(c["value"] for c in page.context.cookies() if c["name"] == "SKILLNET_NODE") != node
        page.get_by_text("james@acme.test").wait_for(timeout=STEP)  # the page: still signed in
