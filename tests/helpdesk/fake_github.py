"""A fake GitHub issues API on 127.0.0.1 (POST /repos/O/R/issues, GET /search/issues) for the filing
tests. ``hang_on_post`` makes the next POST block before answering (the issue created or not), so a
test can kill the filing process at that moment."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


class FakeGitHub:
    def __init__(self):
        self.issues: list[dict] = []
        self.posts = 0
        self.hang_on_post: str | None = None  # None | "before_create" | "after_create"
        self.post_arrived = threading.Event()
        self._release = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status: int, payload: dict) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                data = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                fake.posts += 1
                mode, fake.hang_on_post = fake.hang_on_post, None
                if mode != "before_create":
                    number = len(fake.issues) + 1
                    fake.issues.append(
                        {
                            "number": number,
                            "title": data["title"],
                            "body": data["body"],
                            "state": "open",
                            "html_url": f"https://github.test/o/r/issues/{number}",
                        }
                    )
                fake.post_arrived.set()
                if mode:
                    fake._release.wait(60)  # the client is killed meanwhile
                    return
                self._send(201, fake.issues[-1])

            def do_GET(self):
                query = parse_qs(urlparse(self.path).query).get("q", [""])[0]
                quoted = query.split('"')[1] if query.count('"') >= 2 else None
                items = [i for i in fake.issues if quoted is None or quoted in i["body"]]
                self._send(200, {"total_count": len(items), "items": items})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._release.set()
        self.server.shutdown()
