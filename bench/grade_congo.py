"""What grading a Congo class costs: our own class of 10 students (tests/fixtures/congo_class: Python,
C++ and an executable; right ones and mutated ones: a broken rule, a crash, a hang, too much output, a
failed build) graded with `grade --variant congo` at --cases per part on --jobs cores, boxed.

Prints per student its parts, score and seconds (the sum of its parts' runs, builds aside), the
reference answers' time (once per part for the class), and the whole class's wall time.

Run: python bench/grade_congo.py [--cases 100] [--jobs 2] [--run-timeout 900]
"""
import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
sys.path.insert(0, os.path.dirname(HERE))

from harness.core.interrupts import exit_code  # noqa: E402
from harness.grading.congo_class import grade_congo_class  # noqa: E402
from tests.congo_classroom import STUDENTS, make_congo_class  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=100)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--run-timeout", type=float, default=900.0,
                   help="seconds the run of all cases may take (default 900: time the slow Python searches; "
                        "a hang waits this long)")
    p.add_argument("--students", default=",".join(STUDENTS), help="which of the test class's students")
    args = p.parse_args()
    names = args.students.split(",")
    stamps = []
    with tempfile.TemporaryDirectory() as folder:
        class_dir = make_congo_class(os.path.join(folder, "class"), names)
        out = os.path.join(folder, "out")
        started = time.monotonic()
        book = grade_congo_class(class_dir, out, count=args.cases, jobs=args.jobs, run_timeout=args.run_timeout,
                                 say=lambda text: stamps.append((time.monotonic(), text)))
        total = time.monotonic() - started
        judging = next((t for t, text in stamps if text.startswith("judging")), started)
        print(f"class of {len(names)} Congo students, {args.cases} cases per part, --jobs {args.jobs}")
        print(f"reference answers (once per part for the class): {judging - started:.1f} s")
        for row in book["students"]:
            with open(os.path.join(out, "students", row["student"], "report.json"), encoding="utf-8") as handle:
                details = json.load(handle)["details"]
            seconds = sum(d.get("seconds", 0) for d in details.values())
            parts = " ".join(f"{k} {v['passed'] if v['build'] == 'ok' else v['build']}"
                             for k, v in row["parts"].items() if v["build"] != "missing")
            print(f"  {row['student']:<15} score {row['score']:5.1f}  {seconds:7.1f} s  {parts}")
        print(f"whole class: {total:.1f} s on {args.jobs} cores")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
