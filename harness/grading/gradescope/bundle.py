"""The autograder zip: setup.sh and run_autograder at its root, the toolkit and the settings beside.

Gradescope unpacks the zip into /autograder/source, runs setup.sh there once (as root) when it
builds the autograder's image, copies run_autograder to /autograder/run_autograder and runs it
for every submission (https://gradescope-autograders.readthedocs.io/en/latest/specs/). The zip:

    setup.sh            installs python3, python3-venv and bubblewrap with apt-get when missing
                        (and fairy-stockfish for the review of games not won, if it can),
                        makes source/venv and installs requirements.txt into it (nothing is
                        fetched when a submission is graded)
    run_autograder      calls harness.grading.gradescope.autograder with that Python; writes a results.json
                        of its own if the Python part could not (so there always is one)
    gradescope.json     the settings (harness.grading.gradescope.Settings)
    requirements.txt    the project's pinned requirements
    harness/, agents/   the toolkit, as in this checkout (caches left out)

Entries are written in name order with a fixed date, so the same checkout and settings give the
same bytes.
"""
import json
import os
import stat
import tempfile
import zipfile
from typing import List, Tuple

from . import DEFAULT_ROOT, PYTHON_ENV, RESUBMIT, ROOT_ENV, SETTINGS_FILE, Settings

PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PACKAGES = ("harness", "agents")
REQUIREMENTS = "requirements.txt"
MIN_PYTHON = (3, 11)        # the oldest Python the pinned requirements install on (matplotlib 3.11)
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

SETUP_SH = f"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (from /autograder/source).
# It installs what grading needs; nothing is fetched when a submission is graded.
set -euo pipefail
cd "$(dirname "$0")"
need=()
command -v python3 >/dev/null 2>&1 || need+=(python3)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
if [ "${{#need[@]}}" -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${{need[@]}}"
fi
# the game review's engine (turning points of the games not won); grading goes on without it
if ! command -v fairy-stockfish >/dev/null 2>&1 && [ ! -x /usr/games/fairy-stockfish ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fairy-stockfish) \
    || echo "setup.sh: fairy-stockfish could not be installed: the games not won are listed without a review" >&2
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < {MIN_PYTHON!r})'; then
  echo "setup.sh: the toolkit's pinned requirements need Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or later;" \\
       "this image has $(python3 -V 2>&1). Choose a newer base image (Ubuntu 24.04) in the autograder settings." >&2
  exit 1
fi
python3 -m venv venv
venv/bin/python -m pip install --quiet --disable-pip-version-check -r {REQUIREMENTS}
venv/bin/python -c 'import harness.grading.gradescope.autograder'
echo "setup.sh: ready ($(venv/bin/python -V 2>&1); bwrap $(command -v bwrap || echo missing))"
"""

_STOPPED = "the autograder's program stopped (exit status $status) before writing the results"
FALLBACK = json.dumps({      # run_autograder's own results.json ($status filled in by the shell)
    "score": 0, "output_format": "text",
    "output": f"The autograder could not grade this submission: {_STOPPED}. {RESUBMIT}",
    "tests": [{"name": "autograder error", "score": 0, "max_score": 0, "status": "failed", "visibility": "visible",
               "output": f"{_STOPPED.capitalize()}."}]})

RUN_AUTOGRADER = f"""#!/bin/sh
# Gradescope runs this for every submission (from /autograder). The work is done in Python
# (harness/grading/gradescope/autograder.py), which always writes results/results.json; should that
# Python not run at all, this script writes a results.json that says so.
# {ROOT_ENV} and {PYTHON_ENV} move it elsewhere (the toolkit's tests use them).
root="${{{ROOT_ENV}:-{DEFAULT_ROOT}}}"
python="${{{PYTHON_ENV}:-$root/source/venv/bin/python}}"
rm -f "$root/results/results.json"
cd "$root/source" && "$python" -m harness.grading.gradescope.autograder "$root"
status=$?
if [ ! -s "$root/results/results.json" ]; then
  mkdir -p "$root/results"
  cat > "$root/results/results.json" <<EOF
{FALLBACK}
EOF
fi
exit 0
"""


class BundleError(Exception):
    """The bundle cannot be written; one line of text."""


def toolkit_files(project: str = PROJECT) -> List[str]:
    """The toolkit's files to ship, relative to `project`, sorted: harness/ and agents/ without
    caches or hidden files, and requirements.txt."""
    out = [REQUIREMENTS]
    for package in PACKAGES:
        for here, dirs, files in os.walk(os.path.join(project, package)):
            dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
            out += [os.path.relpath(os.path.join(here, f), project) for f in files
                    if not f.startswith(".") and not f.endswith((".pyc", ".pyo"))]
    return sorted(out)


def _entry(name: str, executable: bool = False) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


BUNDLE_NAME = "autograder.zip"
BUNDLE_MODE = 0o644


def bundle_path(out: str) -> str:
    """Where --out puts the zip: FOLDER/autograder.zip for an existing folder (or a name ending
    in /), else the name given, which must end in .zip (BundleError: Gradescope takes a zip)."""
    if os.path.isdir(out) or out.endswith(os.sep):
        return os.path.join(out, BUNDLE_NAME)
    if not out.lower().endswith(".zip"):
        raise BundleError(f"--out {out}: the autograder is a zip file; give a name ending in .zip "
                          f"(or a folder, for FOLDER/{BUNDLE_NAME})")
    return out


def build_bundle(out: str, settings: Settings, project: str = PROJECT) -> Tuple[int, int, str]:
    """Write the autograder zip to `out` (`bundle_path`; its folder made when missing; replaced
    as a whole, never half-written; mode 0644); (entries, bytes, the zip's path)."""
    out = bundle_path(out)
    files = toolkit_files(project)
    folder = os.path.dirname(os.path.abspath(out))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise BundleError(f"cannot create the folder {folder} for {out}: {exc.strerror or exc}") from None
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=".autograder-", suffix=".zip", dir=folder)
        os.close(handle)
        with zipfile.ZipFile(temporary, "w") as bundle:
            bundle.writestr(_entry("setup.sh", True), SETUP_SH)
            bundle.writestr(_entry("run_autograder", True), RUN_AUTOGRADER)
            bundle.writestr(_entry(SETTINGS_FILE), json.dumps(settings.to_dict(), indent=2) + "\n")
            for name in files:
                with open(os.path.join(project, name), "rb") as source:
                    bundle.writestr(_entry(name.replace(os.sep, "/")), source.read())
        os.chmod(temporary, BUNDLE_MODE)      # mkstemp's 0600 would keep the TA's upload from others
        os.replace(temporary, out)
    except OSError as exc:
        raise BundleError(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        if temporary and os.path.exists(temporary):
            os.remove(temporary)
    return len(files) + 3, os.path.getsize(out), out
