"""The game review's analysers: seconds per analysed ply at the default node counts, and how sure
an analysis is at that count (the same games analysed again with 4 times the nodes).

Run: python bench/analysis.py [--games 6] [--variants cs3243 nthu congo] [--factor 4] [--seed 0]

For each variant, --games games between two of its built-in agents (seeds S, S+1, ...; cs3243
smart vs greedy, nthu and congo greedy vs ab) are played, then reviewed in one process
(harness.analysis.review.review_game, exactly what `analyse --jobs 1` does per game) with the
default node count N and again with N x factor. Printed per variant:

- seconds per analysed ply at N (each ply is one position searched), wall clock and CPU time
  (this process's and the engine's, so a busy machine shows in the first and less in the
  second), and the load average;
- at N x factor: the share of positions whose best move changes, whose evaluation changes side
  (White's win % on the other side of 50 by more than 5 points either way), the median and 90th
  percentile change of White's win %, and how many of the N judgements (inaccuracy, mistake,
  blunder) are the same at N x factor, and the same turning points.
"""
import argparse
import os
import resource
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from harness.interrupts import exit_code  # noqa: E402
from harness.analysis.analysers import make_analyser  # noqa: E402
from harness.analysis.review import review_game  # noqa: E402
from harness.series import run_game  # noqa: E402
from harness.variants import find_variant  # noqa: E402

PLAYERS = {"cs3243": ("smart", "greedy"), "nthu": ("greedy", "ab"), "congo": ("greedy", "ab")}


def games(variant, count, seed):
    v = find_variant(variant)
    white, black = PLAYERS[variant]
    out = []
    for k in range(count):
        _, record = run_game({"plan": 0, "game": k, "white": white, "black": black, "seed": seed + k,
                              "variant": variant, "options": v.game_options(), "move_timeout": 30.0,
                              "openings": 4, "opening_seed": seed + k})
        out.append(record)
    return out


def cpu_seconds() -> float:
    """This process's CPU time and its finished children's (an engine counts once it is closed)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def reviewed(variant, records, nodes):
    """(entries, wall seconds, CPU seconds, the analyser) of one review of every record."""
    analyser = make_analyser(None, variant, nodes)
    analyser.verify()
    started, cpu = time.perf_counter(), cpu_seconds()
    try:
        entries = [review_game(r, find_variant(variant), analyser) for r in records]
    finally:
        analyser.close()
    return entries, time.perf_counter() - started, cpu_seconds() - cpu, analyser


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--variants", nargs="+", default=["cs3243", "nthu", "congo"])
    parser.add_argument("--factor", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for variant in args.variants:
        records = games(variant, args.games, args.seed)
        base, seconds, cpu, analyser = reviewed(variant, records, None)
        nodes = analyser.nodes
        more, more_seconds, _, stronger = reviewed(variant, records, nodes * args.factor)
        plies = [p for e in base for p in e["plies"]]
        deeper = [p for e in more for p in e["plies"]]
        positions = [(p["best"], q["best"], p["win_before"], q["win_before"])
                     for p, q in zip(plies, deeper) if p["best"] is not None]
        best_changed = sum(1 for a, b, _, _ in positions if a != b)
        sides = sum(1 for _, _, w, x in positions if (w - 50) * (x - 50) < 0 and max(abs(w - 50), abs(x - 50)) > 5)
        shifts = [abs(w - x) for _, _, w, x in positions]
        judged = [(p["judgement"], q["judgement"]) for p, q in zip(plies, deeper) if p["judgement"]]
        same_judged = sum(1 for a, b in judged if a == b)
        turns = [(e["turning_point"][s], f["turning_point"][s]) for e, f in zip(base, more) for s in ("white", "black")]
        print(f"{variant}: {len(records)} games ({' vs '.join(PLAYERS[variant])}, 4-ply openings), "
              f"{len(plies)} plies analysed by {analyser.label}")
        print(f"  {seconds / len(plies):.4f} s per analysed ply at {nodes} nodes ({len(plies) / seconds:.1f} plies/s; "
              f"CPU {cpu / len(plies):.4f} s per ply, the engine's included); {more_seconds / len(plies):.4f} s at "
              f"{nodes * args.factor}; load average {os.getloadavg()[0]:.1f}")
        print(f"  at {args.factor}x nodes ({stronger.label}): best move changes in {best_changed}/{len(positions)} "
              f"positions ({100 * best_changed / len(positions):.1f} %), the evaluation changes side in {sides} "
              f"({100 * sides / len(positions):.1f} %), White's win % moves by median {statistics.median(shifts):.1f}, "
              f"90th percentile {percentile(shifts, 0.9):.1f} points")
        print(f"  judgements kept at {args.factor}x: {same_judged}/{len(judged)} "
              f"({100 * same_judged / max(1, len(judged)):.1f} %); turning points kept: "
              f"{sum(1 for a, b in turns if a == b)}/{len(turns)}")


if __name__ == "__main__":
    sys.exit(exit_code(main))
