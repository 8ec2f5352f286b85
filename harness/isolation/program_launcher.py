"""Started as ``python -S program_launcher.py WORKDIR PROGRAM [ARGS...]`` by
`harness.isolation.untrusted_run` (inside the box when bubblewrap works): applies the box's resource
limits, exactly as the sandbox's worker does for a student's .py file (harness.isolation.box's
MINICHESS_BOX setting: address space, CPU seconds, file size, and, run as root in the box, a user
id of the box's own with a process limit), takes that setting out of the environment, moves to
WORKDIR (the run's empty scratch folder, made here if need be), then becomes PROGRAM (exec), which keeps the limits.
If PROGRAM cannot be started, one line on stderr and exit code 127.
"""
import json
import os
import sys

from sandbox_worker import BOX_ENV, _apply_limits   # run as a script: harness/ is on sys.path

CANNOT_START = 127
MARK = "cannot start"


def main(argv) -> int:
    workdir, program = argv[1], argv[2]
    _apply_limits(json.loads(os.environ.pop(BOX_ENV, None) or "{}"))
    try:
        os.makedirs(workdir, exist_ok=True)
        os.chdir(workdir)
        os.execv(program, argv[2:])
    except OSError as exc:
        os.write(2, f"{MARK} {program}: {exc.strerror or exc}\n".encode())
    return CANNOT_START


if __name__ == "__main__":
    sys.exit(main(sys.argv))
