"""Chromium for the browser tests (Debian's package, driven by Playwright for Python): a test module
calls `need_chromium()` at its top, which skips the whole module (saying why) when either is
missing, and takes the `browser` fixture (tests/conftest.py: one browser per module)."""
import os
import shutil

import pytest

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
