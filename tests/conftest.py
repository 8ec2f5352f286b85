"""Fixtures several test modules share, and the markers that select the fast subset."""
import fnmatch
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


# The markers (registered in pytest.ini, strict): `make test-fast` leaves these out.
#   browser   starts Chromium (Playwright)
#   compiler  builds C++ (g++, make) for a class of programs
#   engine    starts Fairy-Stockfish or another UCI engine process
#   slow      takes long: a class graded, a Ctrl-C waited for, a wheel built and installed
# They are given here, by the test module's file name (patterns, so a new file named like these is
# marked too), then by what a test itself shows: the `browser` fixture, a skip reason naming
# fairy-stockfish or g++, a name saying it presses Ctrl-C.
MODULE_MARKS = {
    "test_*browser*.py": ("browser",),
    "test_grade_nthu*.py": ("compiler", "slow"),      # builds the NTHU class's C++ programs
    "test_grade_congo*.py": ("compiler", "slow"),     # builds the Congo class's PART.cpp files
    "test_grade_cluster*.py": ("compiler", "slow"),
    "test_containment*.py": ("compiler", "slow"),
    "test_cluster*.py": ("slow",),
    "test_install*.py": ("slow",),
    "test_uci*.py": ("engine",),
    "test_bench_fsf*.py": ("engine",),
    "test_pyffish_crosscheck*.py": ("slow",),
    "test_congo_tester*.py": ("slow",),
    "test_trust*.py": ("slow",),
    "test_grade_ta*.py": ("slow",),
}
SKIP_REASON_MARKS = {"fairy-stockfish": "engine", "g++": "compiler", "make is not": "compiler"}
NAME_MARKS = {"ctrl_c": "slow", "ctrl-c": "slow"}


def markers_of(item) -> set:
    """The markers `item` gets from this file's rules (besides its own)."""
    found = set()
    for pattern, names in MODULE_MARKS.items():
        if fnmatch.fnmatch(item.path.name, pattern):
            found.update(names)
    if "browser" in getattr(item, "fixturenames", ()):
        found.add("browser")
    for skip in item.iter_markers("skipif"):
        reason = str(skip.kwargs.get("reason", ""))
        found.update(name for text, name in SKIP_REASON_MARKS.items() if text in reason)
    found.update(name for text, name in NAME_MARKS.items() if text in item.name.lower())
    return found


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in sorted(markers_of(item)):
            item.add_marker(name)
