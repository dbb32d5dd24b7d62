"""Fixtures: the live server scripts/test-python-sdk.sh starts (a prospectd
with a demo corpus on loopback), named by PROSPECT_BASE_URL and
PROSPECT_API_KEY; PROSPECT_TEST_SMALL_KEY is an organization with 2 credits."""

import http.server
import json
import os
import sys
import threading

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import prospect  # noqa: E402


def _env(name):
    v = os.environ.get(name)
    if not v:
        pytest.fail(f"{name} is not set: run scripts/test-python-sdk.sh, which starts the server")
    return v


@pytest.fixture(scope="session")
def base_url():
    return _env("PROSPECT_BASE_URL")


@pytest.fixture(scope="session")
def api_key():
    return _env("PROSPECT_API_KEY")


@pytest.fixture(scope="session")
def small_key():
    return _env("PROSPECT_TEST_SMALL_KEY")


@pytest.fixture(scope="session")
def client(base_url, api_key):
    return prospect.Client(api_key, base_url, poll_interval=0.1)


@pytest.fixture(scope="session")
def companies(client):
    rows = client.discover(icp_text="software development tools", max_records=10)
    assert len(rows) == 10
    return rows


class Scripted(http.server.BaseHTTPRequestHandler):
    """Answers each request with the next (status, headers, body) of the script."""

    script = []
    seen = []

    def _answer(self):
        n = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(n)
        type(self).seen.append((self.command, self.path, self.headers.get("X-API-Key")))
        status, headers, body = type(self).script.pop(0) if len(type(self).script) > 1 else type(self).script[0]
        data = json.dumps(body).encode()
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


@pytest.fixture
def scripted():
    """A loopback server answering from a script: set scripted.script."""
    handler = type("Handler", (Scripted,), {"script": [], "seen": []})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    handler.url = f"http://127.0.0.1:{srv.server_address[1]}/v1"
    yield handler
    srv.shutdown()
    srv.server_close()
