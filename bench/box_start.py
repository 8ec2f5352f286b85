"""What starting a box costs: a boxed run of /bin/true (harness.isolation.untrusted_run), the
start-up every build, Congo program run and NTHU move pays.

Run: python bench/box_start.py [RUNS]

Since issue 56 a box is started through harness/isolation/box_start.py (bwrap's options and the
box's command handed over memfds, so the box cannot read them back): two more `python -S`
starts than before. Prints the mean wall-clock time per run.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from harness.isolation.box import BoxSettings, bwrap  # noqa: E402
from harness.isolation.untrusted_run import run  # noqa: E402


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    if bwrap()[0] is None:
        print(f"no box here: {bwrap()[1]}")
        return 1
    started = time.monotonic()
    for _ in range(runs):
        finished = run(["/bin/true"], b"", 30.0, 1000, BoxSettings())
        if finished.status != 0:
            print(f"the box failed: {finished.last_error()}")
            return 1
    print(f"{(time.monotonic() - started) / runs * 1000:.1f} ms per boxed run of /bin/true ({runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
