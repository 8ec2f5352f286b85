"""The Congo program tester against deliberately broken copies of the reference programs: how many
of the cases catch each bug, the first case that does, and the kinds of the cases that do; and
the reference itself (which must agree on every case) with the time the whole run takes.

Run: python bench/congo_tester.py [--cases 500] [--seed 0] [--timeout 10] [--only BUG,...] [--no-box]

Each broken copy is tests/fixtures/congo/broken.py BUG (one rule of the reference replaced by a
plausible student mistake); the tester runs it as a student's program would be run (`congo test
PART --program "python broken.py BUG PART"`). The cases are the tester's defaults unless
--cases/--seed say otherwise, so the table shows what a student's run at the defaults catches.
"""
import argparse
import collections
import contextlib
import io
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from harness.core.interrupts import exit_code  # noqa: E402
from harness.congo_tester.run import main as tester  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures", "congo")
PYTHON = os.path.realpath(sys.executable)      # the real interpreter: the box shows it
# (bug, part): each bug with the part it breaks
BROKEN = [
    ("no_flying", "moves"), ("flying_through_pieces", "moves"), ("flying_along_ranks", "moves"),
    ("no_pawn_retreat", "moves"), ("superpawn_no_sideways", "moves"), ("giraffe_step_captures", "moves"),
    ("no_drowning", "apply"), ("capturer_survives", "apply"), ("opponent_drowns", "apply"),
    ("no_promotion", "apply"), ("move_number_after_white", "apply"), ("missing_lion_material", "eval1"),
    ("not_negated", "eval1"), ("not_negated", "eval2"), ("lion_attack_plain", "eval2"),
    ("depth_one_less", "minimax"), ("no_move_zero", "minimax"), ("depth_one_less", "alphabeta"),
    ("no_move_zero", "alphabeta"), ("last_best_move", "bestmove"),
]
PARTS = ("moves", "apply", "eval1", "minimax", "eval2", "alphabeta", "bestmove")


def run(part, program, args):
    """(exit code, the JSON verdict, seconds)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "verdict.json")
        argv = [part, "--program", program, "--cases", str(args.cases), "--seed", str(args.seed),
                "--timeout", str(args.timeout), "--json", out]
        if args.no_box:
            argv.append("--no-box")
        started = time.monotonic()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = tester(argv)
        seconds = time.monotonic() - started
        with open(out, encoding="utf-8") as handle:
            return code, json.load(handle), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds a run may take (the tester's --timeout); the run of all cases of the "
                             "searches in Python needs more than the default 10 on a loaded machine")
    parser.add_argument("--only", help="comma-separated bugs (default: all), or 'reference'")
    parser.add_argument("--no-box", action="store_true")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    print(f"{args.cases} cases, seed {args.seed}, timeout {args.timeout:g} s, {'no box' if args.no_box else 'boxed'}")
    if only is None or "reference" in only:
        print(f"{'reference':<24} {'part':<10} {'agree':>9} {'seconds':>8}")
        for part in PARTS:
            code, verdict, seconds = run(part, f"{PYTHON} {FIXTURES}/reference.py {part}", args)
            print(f"{'reference':<24} {part:<10} {verdict['agree']:>5}/{verdict['cases']:<3} {seconds:>8.1f}"
                  + ("" if code == 0 else f"  EXIT {code}"), flush=True)
    print(f"{'bug':<24} {'part':<10} {'caught by':>9} {'first':>6} {'seconds':>8}  kinds of the catching cases")
    for bug, part in BROKEN:
        if only is not None and bug not in only:
            continue
        code, verdict, seconds = run(part, f"{PYTHON} {FIXTURES}/broken.py {bug} {part}", args)
        caught = verdict["differences"] + verdict["failures"]
        kinds = collections.Counter(entry["kind"] for entry in caught)
        first = min((entry["case"] for entry in caught), default="-")
        print(f"{bug:<24} {part:<10} {len(caught):>5}/{verdict['cases']:<3} {first:>6} {seconds:>8.1f}  "
              + ", ".join(f"{kind} {n}" for kind, n in kinds.most_common()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
