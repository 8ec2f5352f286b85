"""Which file of a submission is graded: one rule for `grade` (a class folder) and the Gradescope
bundle (ROOT/submission), written once here (docs/grading.md, "Which file is graded").

In a submission's folder, at any depth (hidden names, ``__pycache__`` and ``__MACOSX`` skipped;
``.py`` in any case):

1. the file named ``AB.py``, in any case (``ab.py``, ``AB.PY``); several such files: none is
   graded, and the note names them;
2. else the one ``.py`` file that defines ``studentAgent`` at module level (read as text, so a file
   with a syntax error that defines it still counts: ``AB (2).PY`` from a second download);
   several: none is graded, and the note names them;
3. else none, and the note says what the folder holds.

The note names files relative to the submission's folder, so it can be shown to the student.
"""
import os
import re
from typing import List, Optional, Tuple

AGENT_FILE = "AB.py"
SKIPPED_DIRS = frozenset(("__pycache__", "__MACOSX"))
DEFINES_AGENT = re.compile(r"^(?:async[ \t]+)?def[ \t]+studentAgent\b|^studentAgent[ \t]*(?::[^=\n]*)?=", re.M)


def is_python(name: str) -> bool:
    """A .py file name, the extension in any case; hidden names are not."""
    return name.lower().endswith(".py") and not name.startswith(".")


def python_files(folder: str) -> List[str]:
    """The .py files under `folder`, relative to it, sorted; hidden names and caches skipped."""
    found = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        found += [os.path.relpath(os.path.join(here, f), folder) for f in files
                  if is_python(f) and os.path.isfile(os.path.join(here, f))]
    return sorted(found)


def defines_agent(path: str) -> bool:
    """Does the file define studentAgent at module level (a def or an assignment)? Read as text,
    so a file with a syntax error that defines it still counts."""
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8-sig", errors="replace")
    except OSError:
        return False
    return DEFINES_AGENT.search(text) is not None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def find_submission(folder: str) -> Tuple[Optional[str], str]:
    """(the file to grade relative to `folder`, or None; a sentence saying what was found)."""
    files = python_files(folder) if os.path.isdir(folder) else []
    named = [f for f in files if os.path.basename(f).lower() == AGENT_FILE.lower()]
    if len(named) == 1:
        return named[0], f"Graded {named[0]}."
    if named:
        return None, f"The submission holds {len(named)} files named {AGENT_FILE} ({', '.join(named)}): submit one."
    defining = [f for f in files if defines_agent(os.path.join(folder, f))]
    if len(defining) == 1:
        return defining[0], (f"There is no {AGENT_FILE} in the submission: graded {defining[0]}, the one .py "
                             f"file that defines studentAgent.")
    if defining:
        return None, (f"There is no {AGENT_FILE} in the submission and {len(defining)} .py files define "
                      f"studentAgent ({', '.join(defining)}): name the one to grade {AGENT_FILE}.")
    everything = sorted(os.path.relpath(os.path.join(here, f), folder)
                        for here, _, names in os.walk(folder) for f in names) if os.path.isdir(folder) else []
    held = (f"it holds {_plural(len(everything), 'file')}: {', '.join(everything[:10])}"
            + (", ..." if len(everything) > 10 else "") if everything else "it is empty")
    return None, (f"There is no {AGENT_FILE} in the submission and no .py file that defines studentAgent "
                  f"({held}).")


def class_entry(name: str, path: str) -> Tuple[str, Optional[str]]:
    """What `grade` makes of one entry of a class folder: ("folder", None) for a submission's
    folder, ("file", None) for a .py file (the stem is the student), or ("skip", why) for an
    entry it does not grade."""
    if name.startswith((".", "_")):
        return "skip", "a hidden name (starts with . or _)"
    if os.path.isdir(path):
        return "folder", None
    if not os.path.isfile(path):
        return "skip", "neither a file nor a folder"
    if is_python(name):
        return "file", None
    if name.lower().endswith(".zip"):
        return "skip", (f"a zip file: grade does not open archives; unzip it into a folder "
                        f"{name[:-4]}/ to grade it as that student's submission")
    return "skip", "not a .py file or a folder"
