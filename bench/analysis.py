"""The game review's judgements against a deeper analysis: how many judged moves stay judged at
100 times the nodes, under the old rule (lichess's) and the new one, with the share of plies
annotated, seconds per ply and the analyser's noise.

Run: python bench/analysis.py [--games 6] [--variants cs3243 nthu congo] [--factor 100]
                              [--second-look 4 10] [--floor 5 8] [--margin 3 5] [--seed 0]

For each variant, --games games between two of its built-in agents (seeds S, S+1, ...; 4-ply
random openings; cs3243 minimax vs AB.py, the case of issue 51; nthu and congo greedy vs ab) are played, then reviewed
in one process at the analyser's default node count N (harness.analysis.review.review_game,
exactly what `analyse --jobs 1` does per game):

- old: lichess's rule, as before issue 51 (chess's win % slope, every move judged by its drop,
  the analyser's own best move included, one look);
- new: the analyser's own rule (`Rule.of`: its fitted slope, its noise floor, a move equal to
  its best move never judged, a second look at each judged move with its `second_look` factor);
  --second-look F adds the same rule with factor F beside it, and --floor F with the noise floor
  F (win % points), for comparison.

Then each judged move's two positions (before and after it) are searched once more with
N x --factor nodes (the reference), and a judged move is "still judged" when the reference
judges it too, by the same rule's curve and thresholds (for the new rules: the reference's best
move is never judged, no noise floor, one look). Printed per variant and rule: judged moves
still judged (and with the same label), the share of plies annotated, wall and CPU seconds per
analysed ply (CPU: this process's and the engine's, one core); and the noise: for every
analysed position, how far the analyser's own best move "drops" its mover's win % (on the fitted
curve) when the position after it is searched afresh at N, two searches of that position that
should agree (median, 90th and 95th percentile, in win % points).
"""
import argparse
import os
import resource
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from harness.analysis import formulas  # noqa: E402
from harness.analysis.analysers import make_analyser  # noqa: E402
from harness.analysis.review import LICHESS, Rule, game_states, review_game, score  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.runs.series import run_game  # noqa: E402
from harness.variants import find_variant  # noqa: E402

PLAYERS = {"cs3243": ("minimax", os.path.join(ROOT, "AB.py")), "nthu": ("greedy", "ab"), "congo": ("greedy", "ab")}


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


def reviewed(variant, records, rule):
    """(entries, wall seconds, CPU seconds, the analyser) of one review of every record by `rule`
    (None: the analyser's own)."""
    analyser = make_analyser(None, variant)
    analyser.verify()
    started, cpu = time.perf_counter(), cpu_seconds()
    try:
        entries = [review_game(r, find_variant(variant), analyser, rule=rule) for r in records]
    finally:
        analyser.close()
    return entries, time.perf_counter() - started, cpu_seconds() - cpu, analyser


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def noise(variant, records, analyser, slope):
    """The best move's drops (mover's win % points on `slope`) at the analyser's nodes: each
    position searched, then the position after its best move searched afresh."""
    v = find_variant(variant)
    drops = []
    for record in records:
        states, _ = game_states(record, v)
        for state in states[int(record.get("opening_plies") or 0):]:
            if v.outcome(state) is not None:
                break
            cp, mate, best, win = score(state, v, analyser, slope)
            _, _, _, after = score(v.apply(state, best), v, analyser, slope)
            drops.append(formulas.mover_drop(win, after, str(v.to_move(state)).lower()))
    return drops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--variants", nargs="+", default=["cs3243", "nthu", "congo"])
    parser.add_argument("--factor", type=int, default=100, help="the reference's nodes: N x this")
    parser.add_argument("--second-look", type=int, nargs="*", default=[],
                        help="also the new rule with these second-look factors")
    parser.add_argument("--floor", type=float, nargs="*", default=[],
                        help="also the new rule with these noise floors (win %% points)")
    parser.add_argument("--margin", type=float, nargs="*", default=[],
                        help="also the new rule with these margins for ?! and ? (win %% points)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for variant in args.variants:
        records = games(variant, args.games, args.seed)
        v = find_variant(variant)
        analyser = make_analyser(None, variant)
        own = Rule.of(analyser)
        rules = [("old", LICHESS), (f"new (second look x{own.second_look})", own)]
        rules += [(f"new, second look x{f}", own._replace(second_look=f)) for f in args.second_look
                  if f != own.second_look]
        rules += [(f"new, floor {f:g}", own._replace(floor=f)) for f in args.floor if f != own.floor]
        rules += [(f"new, margin {m:g}", own._replace(margin=m)) for m in args.margin if m != own.margin]
        runs = [(name, rule) + reviewed(variant, records, rule) for name, rule in rules]
        nodes = analyser.nodes
        plies = sum(len(e["plies"]) for e in runs[0][2])
        players = " vs ".join(os.path.basename(p) for p in PLAYERS[variant])
        print(f"{variant}: {len(records)} games ({players}, 4-ply openings), {plies} plies "
              f"analysed by {runs[0][5].label.replace(', ' + analyser.rule_text(), '')}; reference: {nodes * args.factor} "
              f"nodes ({args.factor}x)")
        deep = make_analyser(None, variant)
        deep.verify()
        cache = {}

        def reference(game, i, states, slope):
            if (game, i) not in cache:
                cache[(game, i)] = score(states[i], v, deep, formulas.WIN_SLOPE, nodes * args.factor)
            cp, mate, best, win = cache[(game, i)]
            return best, win if cp is None and mate is None else round(formulas.win_percent(cp, mate, slope), 2)

        try:
            for name, rule, entries, seconds, cpu, _ in runs:
                still = same = judged = 0
                light = light_held = 0          # ?! and ?: the judgements issue 60 asks to hold
                for record, entry in zip(records, entries):
                    states, moves = game_states(record, v)
                    for p in entry["plies"]:
                        if not p["judgement"]:
                            continue
                        judged += 1
                        i = p["ply"] - 1
                        best, before = reference(record["game"], i, states, rule.slope)
                        _, after = reference(record["game"], i + 1, states, rule.slope)
                        drop = formulas.mover_drop(before, after, p["colour"])
                        again = None if rule.spare_best and best == moves[i] else formulas.judgement(drop)
                        still += again is not None
                        same += again == p["judgement"]
                        if p["judgement"] != "blunder":
                            light += 1
                            light_held += again is not None
                print(f"  {name}: {still}/{judged} judged moves still judged at {args.factor}x "
                      f"({100 * still / max(1, judged):.1f} %; the same label: {same}, {100 * same / max(1, judged):.1f} %); "
                      f"plies annotated: {judged}/{plies} ({100 * judged / max(1, plies):.1f} %); "
                      f"{seconds / plies:.4f} s per ply (CPU {cpu / plies:.4f} s)")
                print(f"    ?! and ?: {light_held}/{light} still judged at {args.factor}x "
                      f"({100 * light_held / max(1, light):.1f} %)")
        finally:
            deep.close()
        analyser.verify()
        try:
            drops = noise(variant, records, analyser, own.slope)
        finally:
            analyser.close()
        print(f"  noise: the best move's drop over {len(drops)} positions at {nodes} nodes (win % points, slope "
              f"{own.slope}): median {statistics.median(drops):.2f}, 90th percentile {percentile(drops, 0.9):.2f}, "
              f"95th {percentile(drops, 0.95):.2f}; the analyser's floor: {own.floor}; load average "
              f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    sys.exit(exit_code(main))
