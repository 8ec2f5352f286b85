"""The game review's win % curve fitted to recorded games: how often White won from an evaluation.

Run: python bench/win_curve.py RESULTS.jsonl|FOLDER [...] [--variant V] [--nodes N] [--from-ply 1]
                               [--bootstrap 200] [--seed 0]

Reads game records (a results.jsonl, or a series folder holding one; `python -m harness series`
makes them) and has the variant's analyser (the review's own, at its default nodes or --nodes)
evaluate every position of each game with a result, from --from-ply on and after the record's
opening plies, until the game is over (a finished position has no evaluation). Each position
gives its evaluation x in centipawns from White's view, clamped to +-1000 with a forced win
counted as +-1000 (as the review's win % does), and White's score in the game (1, 1/2, 0).
Fitted: White's score as 1 / (1 + exp(-k x)), the curve the review's win % is
(win % = 100 / (1 + exp(-k x))), k by maximum likelihood, Newton's method
(bench/ab_piece_values.py's `fit`, without its constant: the review's curve is level at 0).

Printed per variant and analyser: games and positions used, k with a 95 % margin (1.96 standard
errors, treating positions as independent, which positions of one game are not: a floor) and a
95 % interval from --bootstrap resamplings of whole games (the honest one), chess's k (lichess,
0.00368208) beside it, and the win % the fit gives at +100 and +300. The k goes on the variant's
analyser as `win_slope` (harness/analysis/uci.py, agents/nthu/analyser.py,
agents/congo/analyser.py), the margin beside it.
"""
import argparse
import math
import os
import random
import sys
from collections import defaultdict

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_piece_values import fit  # noqa: E402
from ab_reply_quality import numbered_records  # noqa: E402
from harness.analysis.formulas import CP_CEILING, WIN_SLOPE  # noqa: E402
from harness.core.analyser import AnalysisError  # noqa: E402
from harness.analysis.analysers import make_analyser  # noqa: E402
from harness.analysis.review import ReviewError, game_states  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.runs.results import RESULTS_FILE  # noqa: E402
from harness.variants import DEFAULT_VARIANT, find_variant  # noqa: E402

SCORES = {"white": 1.0, "draw": 0.5, "black": 0.0}


def game_points(record, variant, analyser, from_ply):
    """(clamped cp, White's score) of each position of one game, as the review's analyser sees it."""
    score = SCORES[record["result"]]
    states, moves = game_states(record, variant)
    first = max(from_ply - 1, int(record.get("opening_plies") or 0))
    for state in states[first:]:
        if variant.outcome(state) is not None:
            break
        evaluation = analyser.evaluate(state)
        cp = evaluation.cp
        if evaluation.mate is not None:
            cp = CP_CEILING if evaluation.mate > 0 else -CP_CEILING
        yield max(-CP_CEILING, min(CP_CEILING, cp)), score


def slope(games):
    """(k, standard error) of the positions of `games` (each a list of (cp, score))."""
    groups = defaultdict(lambda: [0, 0.0])
    for points in games:
        for cp, score in points:
            group = groups[(cp,)]
            group[0] += 1
            group[1] += score
    weights, errors = fit(groups, constant=False)
    return weights[0], errors[0]


def collect(paths, from_ply, nodes, default=DEFAULT_VARIANT):
    """{(variant, analyser label): [each game's points, ...]}; ValueError naming a file or game
    that cannot be read or replayed."""
    found = defaultdict(list)
    analysers = {}
    paths = [os.path.join(p, RESULTS_FILE) if os.path.isdir(p) else p for p in paths]
    try:
        for path, number, record in numbered_records(paths):
            if record.get("result") not in SCORES or record.get("error"):
                continue
            name = record.get("variant") or default
            if name not in analysers:
                analysers[name] = make_analyser(None, name, nodes)
                analysers[name].verify()
            analyser = analysers[name]
            try:
                points = list(game_points(record, find_variant(name), analyser, from_ply))
            except ReviewError as error:
                raise ValueError(f"{path}, line {number}: {error}") from None
            if points:
                found[(name, analyser.label.replace(", " + analyser.rule_text(), ""))].append(points)
    finally:
        for analyser in analysers.values():
            analyser.close()
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--nodes", type=int, default=None, help="the analyser's nodes (default its own)")
    parser.add_argument("--variant", default=DEFAULT_VARIANT,
                        help="the variant of records that do not name theirs (default cs3243)")
    parser.add_argument("--from-ply", type=int, default=1)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        found = collect(args.results, args.from_ply, args.nodes, args.variant)
    except (ValueError, AnalysisError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not found:
        print("error: no reviewed game with a result", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    for (variant, analyser), games in sorted(found.items()):
        k, error = slope(games)
        resampled = sorted(slope([rng.choice(games) for _ in games])[0] for _ in range(args.bootstrap))
        low = resampled[int(0.025 * len(resampled))] if resampled else float("nan")
        high = resampled[min(len(resampled) - 1, int(0.975 * len(resampled)))] if resampled else float("nan")
        positions = sum(len(points) for points in games)
        print(f"{variant} ({analyser}): {len(games)} games, {positions} positions")
        print(f"  k = {k:.6f} +- {1.96 * error:.6f} (positions as independent); "
              f"95 % interval over {args.bootstrap} resamplings of the games: {low:.6f} .. {high:.6f}")
        print(f"  chess's k (lichess): {WIN_SLOPE}; win % at +100: {100 / (1 + math.exp(-k * 100)):.1f} "
              f"(chess {100 / (1 + math.exp(-WIN_SLOPE * 100)):.1f}), at +300: "
              f"{100 / (1 + math.exp(-k * 300)):.1f} (chess {100 / (1 + math.exp(-WIN_SLOPE * 300)):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
