"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by Playwright (never a
browser that Playwright downloads), and the serve app on 127.0.0.1 in a thread."""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
from contextlib import contextmanager

import pytest

CHROMIUM = os.environ.get("VIRUS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need_browser():
    """Skip (saying why) when this machine has no Chromium; .ci/run installs it, so CI never skips."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (.ci/run does) to run the browser tests")
    pytest.importorskip("playwright.sync_api", reason="Playwright missing: pip install -e '.[dev]'")


@contextmanager
def chromium_page(width=1400, height=1000):
    """A page of a fresh headless Chromium (its own empty profile); requests leaving this machine are refused
    and counted in `page.outside`."""
    need_browser()
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="virus-chromium-")
    try:
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True, args=FLAGS,
                                                        viewport={"width": width, "height": height})
            page = ctx.new_page()
            page.outside = []
            page.errors = []
            page.on("pageerror", lambda e: page.errors.append(str(e)))

            def guard(route):
                url = route.request.url
                if url.startswith(("file://", "data:", "blob:", "http://127.0.0.1", "about:")):
                    route.continue_()
                else:
                    page.outside.append(url)
                    route.abort()

            page.route("**/*", guard)
            try:
                yield page
            finally:
                ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def served(app):
    """The Flask app on 127.0.0.1 (a free port) in a background thread; yields its base URL."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass

    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
