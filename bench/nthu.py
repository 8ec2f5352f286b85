"""NTHU MiniChess 6x5: ab against the course's baselines, and ab's time per move.

Run: python bench/nthu.py [--games 100] [--opening-plies 4] [--seed 19] [--nodes N] [--seconds S]
                          [--skip-course] [--skip-openings]

1. The course's grading: ab plays baseline1..4, one game as White and one as Black from the
   start position (8 games); per baseline the result of each game and whether the course's pass
   rule holds (2 wins, or 1 win and 1 draw); all 8 won earns the bonus.
2. ab against baseline4 over --games games from random openings: --opening-plies uniformly
   random plies from the start (seeded with --seed + k), each opening played twice with colours
   swapped. An opening is drawn again (next seed) when it ends the game or is already decided:
   the material is not level, or the side to move wins more than a pawn (2) within 4 plies by
   the course's own material search (baseline3's). About a third of 4-ply random openings are
   redrawn: one random ply in four hangs a piece, and such a game measures the opening, not
   the players (with --any-opening none is redrawn). Printed: cutechess's score and Elo lines
   (harness.stats: the Elo difference with its 95 % margin, LOS), the endings.
3. ab's seconds per move over every game above: median and max, and its search depths.
4. ab's search speed: nodes per second of CPU time over 10 positions taken from seeded random
   games (every 6th ply), 30,000 nodes each, a fresh search each (--skip-speed leaves it out).

One process; the figures are the wall clock of this machine at the time.
"""
import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from agents.nthu.ab import DEFAULT_NODES, DEFAULT_SECONDS, AlphaBetaAgent  # noqa: E402
from agents.nthu.baselines import Baseline1, Baseline2, Baseline3, Baseline4  # noqa: E402
from agents.nthu.baselines import ExactSearch  # noqa: E402
from agents.nthu.search import Search  # noqa: E402
from harness.core.game import Game  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.core.referee import play_game  # noqa: E402
from harness.view.text import elo_line, score_line  # noqa: E402
from harness.core.variant import BLACK, WHITE  # noqa: E402
from harness.variants.nthu import VARIANT  # noqa: E402

BASELINES = {"baseline1": Baseline1, "baseline2": Baseline2, "baseline3": Baseline3,
             "baseline4": Baseline4}


class TimedAB(AlphaBetaAgent):
    """ab that keeps its depth per move for the summary."""

    def __init__(self, log, **kw):
        super().__init__(**kw)
        self.log = log

    def choose_move(self, view, colour, rng):
        move = super().choose_move(view, colour, rng)
        self.log.append(self.last_depth)
        return move


def ab_result(record, ab_colour):
    if record["result"] == "draw":
        return "draw"
    return "win" if record["result"] == ab_colour.lower() else "loss"


def decided(state):
    """Is the opening already decided: material not level, or the side to move wins more than
    a pawn within 4 plies by the course's material search?"""
    if VARIANT.material(state) != 0:
        return True
    _, value = ExactSearch().root(state.board, state.side, 4)
    return abs(value) > 2


def opening(seed, plies, any_opening=False):
    """(state, seed used): `plies` random plies from the start, redrawn with the next seed while
    the game is over or (unless any_opening) decided."""
    while True:
        rng = random.Random(seed)
        state = VARIANT.start()
        for _ in range(plies):
            state = VARIANT.apply(state, rng.choice(VARIANT.legal_moves(state)))
            if VARIANT.outcome(state) is not None:
                break
        if VARIANT.outcome(state) is None and (any_opening or not decided(state)):
            return state, seed
        seed += 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    ap.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    ap.add_argument("--skip-course", action="store_true")
    ap.add_argument("--skip-openings", action="store_true")
    ap.add_argument("--any-opening", action="store_true", help="do not redraw decided openings")
    ap.add_argument("--skip-speed", action="store_true")
    args = ap.parse_args()
    times, depths = [], []

    def ab():
        return TimedAB(depths, nodes=args.nodes, seconds=args.seconds)

    def run(ab_colour, opponent, start=None):
        white, black = (ab(), opponent) if ab_colour == WHITE else (opponent, ab())
        try:
            record = play_game(white, black, 0, Game(VARIANT, start))
        finally:
            white.close()
            black.close()
        times.extend(record["think"][ab_colour.lower()]["seconds"])
        return record

    print(f"ab: {args.nodes} nodes and at most {args.seconds} s per move", flush=True)
    if not args.skip_course:
        print("\n1. The course's grading (start position, one game with each colour)")
        won = 0
        for name, cls in BASELINES.items():
            results = []
            for colour in (WHITE, BLACK):
                game = run(colour, cls())
                r = ab_result(game, colour)
                won += r == "win"
                results.append(r)
                print(f"  ab {colour:5} vs {name}: {r:4} ({game['reason']}, "
                      f"{game['plies']} plies)", flush=True)
            passed = results.count("win") == 2 or sorted(results) == ["draw", "win"]
            print(f"  {name}: {'passed' if passed else 'NOT passed'}", flush=True)
        print(f"  games won: {won}/8{'  (bonus)' if won == 8 else ''}", flush=True)

    if not args.skip_openings:
        print(f"\n2. ab vs baseline4, {args.games} games from random {args.opening_plies}-ply "
              "openings, each opening with both colours", flush=True)
        tally, endings, lengths, redrawn = Counter(), Counter(), [], 0
        for k in range((args.games + 1) // 2):
            start, used = opening(args.seed + k, args.opening_plies, args.any_opening)
            redrawn += (used - args.seed - k) // 1000
            for colour in (WHITE, BLACK):
                if sum(tally.values()) >= args.games:
                    break
                game = run(colour, Baseline4(), start)
                r = ab_result(game, colour)
                tally[r] += 1
                endings[f"{r} by {game['reason']}"] += 1
                if r != "win":
                    print(f"  not won: opening {start and VARIANT.to_fen(start)}, ab {colour}, "
                          f"{r} by {game['reason']} after {game['plies']} plies: {' '.join(game['moves'])}",
                          flush=True)
                lengths.append(game["plies"])
                n = sum(tally.values())
                if n % 10 == 0:
                    print(f"  after {n} games: +{tally['win']} ={tally['draw']} -{tally['loss']}",
                          flush=True)
        wins, draws, losses = tally["win"], tally["draw"], tally["loss"]
        print(f"  openings redrawn as decided: {redrawn}")
        print("  " + score_line("ab", "baseline4", wins, losses, draws))
        print("  " + elo_line(wins, losses, draws))
        print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
        print(f"  plies per game: median {statistics.median(lengths)}, max {max(lengths)}")

    if times:
        print(f"\n3. ab's time per move over {len(times)} moves: median {statistics.median(times):.3f} s, "
              f"max {max(times):.3f} s; depth median {statistics.median(depths)}, "
              f"min {min(depths)}, max {max(depths)}")

    if not args.skip_speed:
        rng = random.Random(11)
        states = []
        for _ in range(6):
            state = VARIANT.start()
            for i in range(24):
                if VARIANT.outcome(state) is not None:
                    break
                if i % 6 == 5:
                    states.append(state)
                state = VARIANT.apply(state, rng.choice(VARIANT.legal_moves(state)))
        nodes, cpu = 0, time.process_time()
        for state in states:
            search = Search()
            search.best_move(state.board, state.side, state.plies, max_nodes=30000)
            nodes += search.nodes
        cpu = time.process_time() - cpu
        print(f"\n4. ab's speed: {nodes} nodes in {cpu:.2f} s of CPU over {len(states)} positions: "
              f"{nodes / cpu:,.0f} nodes per CPU second")


def timed_main():
    started = time.perf_counter()
    main()
    print(f"\n(whole run {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    sys.exit(exit_code(timed_main))
