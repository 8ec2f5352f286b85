"""Fixtures several test modules share."""
import signal

import pytest

from tests.chromium import launch, need_chromium


@pytest.fixture(scope="module")
def browser():
    """Chromium through Playwright, one per module (the module is skipped when it is missing)."""
    yield from launch(need_chromium())


# A shell that starts a job in the background (`make test &`, a CI step run that way) makes it
# ignore SIGINT, and a process that starts with SIGINT ignored keeps it ignored, as do the
# processes it starts: the Ctrl-C tests would then press a key nobody hears. Take Python's own
# handler back for the test run and, through exec, for everything it starts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
