"""What report.html costs: the share of a report's wall time spent writing it, and its size.

Runs `python -m harness report AGENT --games N` (default AB.py, 50 games against each of the
course's five opponents as White: 250 games, the course's own setting) in this process, times
the whole command and, inside it, the writing of report.html (positions, plots, page), and
prints both with the file's size. `--from DIR` skips the games and renders an existing report
directory again (size and render time only).

Run: python bench/html.py [--agent AB.py] [--games 50] [--jobs J] [--out DIR] [--from DIR]
"""
import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time

# this file's own folder must not stay first on the path: its name would hide the standard
# library's `html` package (which matplotlib's imports need)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
sys.path.insert(0, os.path.dirname(HERE))

from harness.core.interrupts import exit_code  # noqa: E402
from harness import cli  # noqa: E402
from harness.grading import report_html as html_report  # noqa: E402
from harness.commands import report as report_command  # noqa: E402


def describe(out: str, html_seconds: float) -> None:
    report = json.loads(open(os.path.join(out, "report.json"), encoding="utf-8").read())
    games = html_report.report_games(out, report)
    plies = [r["plies"] for _, r in games]
    size = os.path.getsize(os.path.join(out, html_report.REPORT_HTML))
    print(f"games: {len(games)}, plies mean {statistics.fmean(plies):.1f}, max {max(plies)}")
    print(f"report.html: {size:,} bytes ({size / 2**20:.2f} MiB), {size / len(games):,.0f} bytes per game")
    print(f"writing report.html: {html_seconds:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="AB.py")
    parser.add_argument("--games", type=int, default=50, help="games per opponent (default 50)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--out", default=None, help="where the report goes (default: a temporary directory)")
    parser.add_argument("--from", dest="existing", default=None, metavar="DIR",
                        help="render this report directory again instead of playing")
    args = parser.parse_args()

    if args.existing:
        report = json.loads(open(os.path.join(args.existing, "report.json"), encoding="utf-8").read())
        times = []
        for _ in range(3):
            started = time.perf_counter()
            html_report.write_report_html(args.existing, report)
            times.append(time.perf_counter() - started)
        describe(args.existing, statistics.median(times))
        print(f"(render times of 3 runs in one process: {', '.join(f'{t:.2f}' for t in times)} s)")
        return 0

    spent = []
    writer = report_command.write_report_html

    def timed(*a, **k):
        started = time.perf_counter()
        try:
            return writer(*a, **k)
        finally:
            spent.append(time.perf_counter() - started)

    report_command.write_report_html = timed
    with contextlib.ExitStack() as stack:
        out = args.out or stack.enter_context(tempfile.TemporaryDirectory())
        argv = ["report", args.agent, "--games", str(args.games), "--out", out, "--quiet"]
        if args.jobs:
            argv += ["--jobs", str(args.jobs)]
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = cli.main(argv)
        total = time.perf_counter() - started
        if code != 0 or not spent:
            print(f"the report failed (exit {code})")
            return 1
        html = spent[0]
        describe(out, html)
        print(f"report wall time: {total:.1f} s, of which report.html {html:.2f} s: "
              f"+{100 * html / (total - html):.2f} % over the report without it")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
