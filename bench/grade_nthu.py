"""What grading an NTHU MiniChess class costs: our own class of 10 repositories (tests/fixtures/nthu_class:
random, greedy, alpha-beta depth 5 and 7, alpha-beta with a thread, a stale committed binary, and the
broken ones: does not compile, segfaults, never writes a move, ignores SIGTERM) graded end to end with
`grade --variant nthu` on --jobs cores, boxed.

Prints: the build time per student (make submission in the box, --jobs at a time), the games played
(ladder and ranking), games per minute and the mean plies per game, the mean and largest seconds a
student's program took per move (with --move-timeout), and the whole class's wall time.

Run: python bench/grade_nthu.py [--jobs 2] [--move-timeout 1]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
sys.path.insert(0, os.path.dirname(HERE))

from harness.core.interrupts import exit_code  # noqa: E402
from harness.grading.nthu_class import grade_nthu_class  # noqa: E402
from tests.nthu_classroom import make_nthu_class  # noqa: E402

CLASS = ["random_mover", "greedy", "alphabeta5", "alphabeta7", "threads", "stale_binary", "no_compile", "segfaults",
         "silent", "sigterm_ignorer"]


def records(out):
    found = []
    for where, _, names in os.walk(out):
        if "results.jsonl" in names:
            with open(os.path.join(where, "results.jsonl"), encoding="utf-8") as handle:
                found += [json.loads(line) for line in handle if line.strip()]
    return found


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--move-timeout", type=float, default=1.0)
    args = p.parse_args()
    stamps = []

    def say(text):
        stamps.append((time.monotonic(), text))

    with tempfile.TemporaryDirectory() as folder:
        class_dir = make_nthu_class(os.path.join(folder, "class"), CLASS)
        out = os.path.join(folder, "out")
        started = time.monotonic()
        book = grade_nthu_class(class_dir, out, move_timeout=args.move_timeout, jobs=args.jobs, progress="none",
                                say=say)
        total = time.monotonic() - started
        built = max(t for t, text in stamps if text.startswith("built "))
        games = records(out)
        print(f"class of {len(CLASS)} NTHU repositories, --jobs {args.jobs}, --move-timeout {args.move_timeout:g}")
        print("build time per student (make submission, boxed, "
              f"{args.jobs} at a time), points, ladder:")
        for row in book["students"]:
            with open(os.path.join(out, "students", row["student"], "report.json"), encoding="utf-8") as handle:
                seconds = json.load(handle)["build_seconds"]
            ladder = " ".join(f"{r['white'][0].upper()}{r['black'][0].upper()}" for r in row["baselines"].values())
            print(f"  {row['student']:<16} {row['build']:<7} {seconds or 0:6.2f} s  {row['points']} points  "
                  f"{ladder or '-'}" + (f"  rank {row['rank']}" if row["rank"] else ""))
        playing = started + total - built
        plies = [g["plies"] for g in games]
        student_moves = [s for g in games for colour in ("white", "black")
                         if g[colour].startswith("nthu:") for s in g["think"][colour]["seconds"]]
        print(f"builds: {built - started:.1f} s for the class")
        print(f"games: {len(games)} (ladder and ranking) in {playing:.1f} s = {60 * len(games) / playing:.1f} games/min; "
              f"mean {statistics.fmean(plies):.1f} plies per game")
        print(f"a student program's move: mean {statistics.fmean(student_moves):.3f} s, "
              f"largest {max(student_moves):.3f} s over {len(student_moves)} moves")
        print(f"whole class: {total:.1f} s on {args.jobs} cores")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
