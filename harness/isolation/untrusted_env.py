"""What an untrusted process finds in its environment: nothing of the grader's but what it needs.

Every process that runs code we do not trust (a student's file in the sandbox's worker, boxed or
with --no-box; an NTHU or Congo program; a UCI engine) starts with `untrusted_env(...)` as its
whole environment, never with a copy of ``os.environ``: a TA who grades with a token in the
environment (CODEPOST_API_KEY, cloud credentials, a Gradescope token) must not hand it to the
files it grades, whose printed output ends up in results.jsonl, the reports and the Gradescope
output a student reads.

The environment is:

- PATH, a fixed minimal one (``/usr/local/bin:/usr/bin:/bin``, `PATH`), never the grader's: the
  box shows only the system's folders, and a program that looks a name up finds the system's
  program, not one of the TA's (a folder of their own early in their PATH);
- LANG and LC_ALL, copied from the grader's environment when set (LANG otherwise ``C.UTF-8``):
  the text encoding stays the grader's;
- HOME and TMPDIR, both the process's own scratch folder (``/tmp`` inside the box, the program's
  working folder for NTHU and Congo programs);
- the settings the process is given by the harness itself (the box's limits, `harness.isolation.box.ENV`);
  bwrap adds PWD (the student's folder, where the box starts it).

This module imports nothing of the harness, so every layer may use it.
"""
import os
from typing import Dict, Mapping, Optional

PATH = "/usr/local/bin:/usr/bin:/bin"    # every untrusted process's PATH, whatever the grader's
PASSED = ("LANG", "LC_ALL")               # taken from the grader's environment when set
DEFAULTS = {"PATH": PATH, "LANG": "C.UTF-8"}


def untrusted_env(scratch: str, settings: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """The whole environment of an untrusted process whose scratch folder (HOME and TMPDIR) is
    `scratch`, with `settings` (the harness's own variables for it) added."""
    env = dict(DEFAULTS)
    env.update({name: os.environ[name] for name in PASSED if os.environ.get(name)})
    env["HOME"] = env["TMPDIR"] = scratch
    env.update(settings or {})
    return env
