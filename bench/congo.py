"""Congo: how fast the course's searches run, and how strong our `ab` agent is against `alphabeta`.

Run: python bench/congo.py [--positions 30] [--games 50] [--nodes N] [--openings-plies 4]
                           [--skip-speed] [--skip-match] [--plain] [--seed 1]

1. Speed: over a set of positions (the published sample positions, then positions reached in
   games between two course minimax agents after 4 random plies from the 2022 start, taken at
   plies 10, 20, 30, ...), the median seconds per position of the course's alphabeta at depth 4
   (eval2) and minimax at depth 2 (eval1), with the targets (0.3 s and 0.05 s).
2. Strength: ab against alphabeta over --games games: each opening (--openings-plies random plies
   from the 2022 start, seeded) is played twice, ab White then ab Black. Printed: W/D/L from ab's
   side, the score (win 1, draw 1/2) against the target (90 %), the Elo difference with its 95 %
   margin (harness.stats, as series prints it), the games not won, and think times per move.
   One process (the machine's cores are shared).
"""
import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from agents.congo.ab import NODES, ABAgent  # noqa: E402
from agents.congo.course import AlphaBetaAgent, MinimaxAgent  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness import stats  # noqa: E402
from harness.view.text import elo_line, score_line  # noqa: E402
from harness.core.variant import BLACK, WHITE  # noqa: E402
from harness.variants.congo import VARIANT  # noqa: E402
from harness.variants.congo import rules, search  # noqa: E402

SAMPLES = [
    "2ele1z/ppppppp/7/7/7/PPP1PPP/2ELE1Z w 4",
    "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 12",
    "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 w 12",
    "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4",
    "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12",
    "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 w 35",
]
ALPHABETA_TARGET = 0.3
MINIMAX_TARGET = 0.05
SCORE_TARGET = 0.9


def opening(seed, plies):
    """The 2022 start after `plies` random moves (seeded); a finished game is re-drawn."""
    rng = random.Random(f"opening:{seed}")
    while True:
        state = VARIANT.start()
        for _ in range(plies):
            if VARIANT.outcome(state) is not None:
                break
            state = VARIANT.apply(state, rng.choice(VARIANT.legal_moves(state)))
        if VARIANT.outcome(state) is None:
            return state


def play(white, black, state, seed):
    """Play to the end; (outcome, plies, {colour: [seconds per move]})."""
    agents = {WHITE: white, BLACK: black}
    rngs = {c: random.Random(f"{seed}:{c}") for c in agents}
    thinks = {WHITE: [], BLACK: []}
    for colour, agent in agents.items():
        agent.start_game(colour, seed)
    plies = 0
    while True:
        outcome = VARIANT.outcome(state)
        if outcome is not None:
            return outcome, plies, thinks
        colour = VARIANT.to_move(state)
        started = time.perf_counter()
        answer = agents[colour].choose_move(state, colour, rngs[colour])
        thinks[colour].append(time.perf_counter() - started)
        move = VARIANT.protocol.read(state, answer)
        if move is None:
            raise SystemExit(f"{colour} ({agents[colour].name}) answered an illegal move {answer!r}")
        state = VARIANT.apply(state, move)
        plies += 1


def positions(count, seed):
    found = [rules.parse_fen(f) for f in SAMPLES]
    game = 0
    while len(found) < count:
        state = opening(seed * 1000 + game, 4)
        game += 1
        agents = {WHITE: MinimaxAgent(), BLACK: MinimaxAgent()}
        rng = random.Random(game)
        ply = 0
        while VARIANT.outcome(state) is None and len(found) < count and ply < 60:
            if ply and ply % 10 == 0:
                found.append(rules.Position(state.board, state.side, state.move_number))
            colour = VARIANT.to_move(state)
            state = VARIANT.apply(state, agents[colour].choose_move(state, colour, rng))
            ply += 1
    return found[:count]


def timed(fn, positions):
    """Seconds per position: (wall-clock list, CPU list); on a shared machine the CPU seconds
    are what the code costs, the wall-clock what a user waits."""
    wall, cpu = [], []
    for p in positions:
        started, started_cpu = time.perf_counter(), time.process_time()
        fn(p)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return wall, cpu


def speed(args):
    todo = positions(args.positions, args.seed)
    print(f"speed over {len(todo)} positions ({len(SAMPLES)} published samples, the rest from "
          "minimax self-play after 4 random plies)")
    ab = timed(lambda p: search.alphabeta_root(p.board, p.side, 4, rules.eval2, True), todo)
    mm = timed(lambda p: search.minimax(p.board, p.side, 2, rules.eval1, False), todo)
    for name, (wall, cpu), target in (("alphabeta depth 4 (eval2)", ab, ALPHABETA_TARGET),
                                      ("minimax depth 2 (eval1)", mm, MINIMAX_TARGET)):
        median = statistics.median(wall)
        verdict = "ok" if median <= target else "ABOVE TARGET"
        print(f"  {name}: median {median:.3f} s, max {max(wall):.3f} s; CPU median "
              f"{statistics.median(cpu):.3f} s (target median <= {target} s: {verdict})")
    if args.plain:
        wall, cpu = timed(lambda p: search.plain_alphabeta(p.board, p.side, 4, -rules.INFINITY, rules.INFINITY,
                                                           rules.eval2, True), todo)
        print(f"  for comparison, the pseudocode in name order (no move ordering), depth 4: median "
              f"{statistics.median(wall):.3f} s, max {max(wall):.3f} s; CPU median {statistics.median(cpu):.3f} s")


def match(args):
    print(f"ab ({args.nodes} nodes a move) vs alphabeta (depth 4, eval2): {args.games} games, "
          f"openings of {args.openings_plies} random plies, each played with both colours")
    wins = draws = losses = 0
    ab_thinks, ab_bad = [], []
    lengths = []
    for game in range(args.games):
        state = opening(args.seed * 100000 + game // 2, args.openings_plies)
        ab_colour = WHITE if game % 2 == 0 else BLACK
        ab, other = ABAgent(nodes=args.nodes), AlphaBetaAgent()
        white, black = (ab, other) if ab_colour == WHITE else (other, ab)
        outcome, plies, thinks = play(white, black, state, game)
        lengths.append(plies)
        ab_thinks.extend(thinks[ab_colour])
        if outcome.winner == ab_colour:
            wins += 1
        elif outcome.winner is None:
            draws += 1
            ab_bad.append(f"{game}:{ab_colour[0]}:draw({outcome.reason})")
        else:
            losses += 1
            ab_bad.append(f"{game}:{ab_colour[0]}:loss({outcome.reason})")
        if args.verbose:
            print(f"    game {game} ab {ab_colour}: {outcome.result} ({outcome.reason}, {plies} plies)",
                  flush=True)
    score = stats.score(wins, draws, losses)
    verdict = "ok" if score >= SCORE_TARGET else "BELOW TARGET"
    print(f"  ab W/D/L {wins}/{draws}/{losses}: score {score:.1%} (target {SCORE_TARGET:.0%}: {verdict})")
    print(f"  {score_line('ab', 'alphabeta', wins, losses, draws)}")
    print(f"  {elo_line(wins, losses, draws)}")
    if ab_bad:
        print(f"  not won (game:ab colour:result): {' '.join(ab_bad)}")
    print(f"  game length: median {statistics.median(lengths)} plies, longest {max(lengths)}")
    print(f"  ab think time: median {statistics.median(ab_thinks):.2f} s a move, "
          f"max {max(ab_thinks):.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=NODES, help=f"ab's nodes a move (default {NODES})")
    parser.add_argument("--openings-plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-match", action="store_true")
    parser.add_argument("--plain", action="store_true",
                        help="also time the plain pseudocode's alpha-beta (slow), for comparison")
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    args = parser.parse_args()
    if not args.skip_speed:
        speed(args)
    if not args.skip_match:
        match(args)


if __name__ == "__main__":
    sys.exit(exit_code(main))
