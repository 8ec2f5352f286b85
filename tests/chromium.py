"""Chromium for the browser tests (Debian's package, driven by Playwright for Python): a test module
calls `need_chromium()` at its top, which skips the whole module (saying why) when either is
missing, and takes the `browser` fixture (tests/conftest.py: one browser per module)."""
import contextlib
import os
import signal
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def need_chromium():
    """Playwright's sync API; skips the calling module when chromium or Playwright is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium): the browser tests need it",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api",
                               reason="Playwright for Python is not installed (requirements-dev.txt)")


def launch(sync_api):
    """A running chromium (a context manager's body: yields the browser, closes it after)."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


def start_serve(data, *options):
    """`python -m harness serve --port 0 --data DATA OPTIONS...` (its own games store, never the
    user's): (the process, the address it serves on)."""
    proc = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--port", "0", "--data", str(data), *options],
                            cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline()
    assert line.startswith("serving on "), line + proc.stderr.read()
    return proc, line.split()[2]


def stop_serve(proc, timeout: float = 30):
    """Ctrl-C to a server of start_serve: (its exit status, what it wrote on stderr)."""
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


@contextlib.contextmanager
def serving(data, *options):
    """A server of start_serve for the body of a `with`: yields its address, stopped after."""
    proc, address = start_serve(data, *options)
    try:
        yield address
    finally:
        stop_serve(proc)


def watched_page(browser, viewport, phone: bool = False):
    """A page in a fresh context whose console errors and warnings and page errors collect in
    `page.problems` (a test asserts it is empty, or holds what it expects)."""
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.problems = []
    page.on("console", lambda m: m.type in ("error", "warning") and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    return page
