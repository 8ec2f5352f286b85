"""Class-scale grading speed, and what the box costs.

1. A class (tests/fixtures/class plus our AB.py and the clean fixture: 12 students, hostile files
   included) graded against --opponents with --games each: games per second on the local pool
   (--jobs) and on a Dask LocalCluster of --workers processes (loopback only).
2. The box's cost per game: the same AB.py games (seeds 0..N-1 against --ab-opponent, one at a
   time, each seed boxed and not back to back) : mean wall seconds per game and the paired
   difference in percent;
   and the start-up of one sandbox worker (import of a small file to its first answer), boxed
   and not, the box's fixed cost per side and game.

Run: python bench/grade.py [--games 2] [--opponents dummy,random] [--jobs 2] [--workers 2]
                           [--ab-games 6] [--ab-opponent greedy] [--starts 20]
"""
import argparse
import os
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# not bench/ itself on the path: its html.py would hide the standard library's from Dask's workers
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
sys.path.insert(0, os.path.dirname(HERE))

from harness.core.interrupts import exit_code  # noqa: E402
from harness.isolation import box  # noqa: E402
from harness.isolation.box import BoxSettings  # noqa: E402
from harness.runs.cluster import DaskRunner  # noqa: E402
from harness.grading.grade import ClassGradeSettings, grade_class  # noqa: E402
from harness.isolation.sandbox import SandboxAgent  # noqa: E402
from harness.runs.series import SeriesPlan, game_task, run_game  # noqa: E402
from harness.variants.cs3243.game import start_gameboard  # noqa: E402
from tests.classroom import FIXTURES, ROOT, make_class  # noqa: E402


def grade_speed(label, games, opponents, **run):
    with tempfile.TemporaryDirectory() as folder:
        class_dir = make_class(os.path.join(folder, "class"))
        started = time.perf_counter()
        book = grade_class(class_dir, os.path.join(folder, "out"), ClassGradeSettings(
            games=games, opponents=opponents, progress="none", say=lambda text: None, **run))
        seconds = time.perf_counter() - started
    played = sum(o["games"] for row in book["students"] for o in row["opponents"].values())
    print(f"{label:<28} {len(book['students']):>3} students {played:>4} games {seconds:7.1f} s "
          f"{played / seconds:6.2f} games/s", flush=True)
    return book


def ab_games(games, opponent):
    """Wall seconds of each game with and without the box, played one at a time in this process
    (series.run_game), the two runs of a seed back to back, in alternating order (paired, so a
    busy spell on a shared machine hits both)."""
    plans = {label: SeriesPlan(out=tempfile.gettempdir(), white=os.path.join(ROOT, "AB.py"), black=opponent,
                               games=games, box=settings, game_time=30.0)
             for label, settings in (("box", BoxSettings().to_dict()), ("no box", None))}
    seconds = {"box": [], "no box": []}
    for index in range(games):
        for label in (("box", "no box") if index % 2 else ("no box", "box")):
            started = time.perf_counter()
            _, record = run_game(game_task(plans[label], 0, index))
            seconds[label].append(time.perf_counter() - started)
            if "harness_error" in record:
                raise SystemExit(record["harness_error"])
    return seconds


def start_seconds(settings, count):
    path = os.path.join(FIXTURES, "hostile", "clean.py")
    out = []
    for i in range(count):
        agent = SandboxAgent(path, 10, box=settings)
        started = time.perf_counter()
        agent.start_game("White", i)
        agent.choose_move(dict(start_gameboard()), "White", random.Random(0))
        out.append(time.perf_counter() - started)
        agent.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--opponents", default="dummy,random")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ab-games", type=int, default=6)
    parser.add_argument("--ab-opponent", default="greedy")
    parser.add_argument("--starts", type=int, default=20)
    args = parser.parse_args()
    opponents = tuple(args.opponents.split(","))
    print(f"isolation: {box.isolation(BoxSettings())}")
    print(f"\n1. grading the class, {args.games} games against each of {', '.join(opponents)}")
    grade_speed(f"local pool, --jobs {args.jobs}", args.games, opponents, jobs=args.jobs)
    from distributed import LocalCluster
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, DaskRunner(cluster.scheduler_address) as runner:
        grade_speed(f"LocalCluster, {args.workers} workers", args.games, opponents, executor=runner)

    print(f"\n2. the box's cost: AB.py against {args.ab_opponent}, seeds 0..{args.ab_games - 1}, one game at a time")
    seconds = ab_games(args.ab_games, args.ab_opponent)
    for label in ("no box", "box"):
        values = seconds[label]
        print(f"{label:<8} mean {statistics.fmean(values):6.3f} s/game  median {statistics.median(values):6.3f}  "
              f"games {' '.join(f'{v:.2f}' for v in values)}")
    extra = [b - a for a, b in zip(seconds["no box"], seconds["box"])]
    print(f"box overhead: {statistics.fmean(extra):+.3f} s per game (paired mean; median {statistics.median(extra):+.3f}) "
          f"= {100 * statistics.fmean(extra) / statistics.fmean(seconds['no box']):+.1f} % of an AB.py game")
    starts_box = start_seconds(BoxSettings(), args.starts)
    starts_bare = start_seconds(None, args.starts)
    print(f"worker start to first answer (median of {args.starts}): no box {1000 * statistics.median(starts_bare):.1f} ms, "
          f"box {1000 * statistics.median(starts_box):.1f} ms "
          f"({1000 * (statistics.median(starts_box) - statistics.median(starts_bare)):+.1f} ms per side and game)")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
