"""Speed and strength of the opponent suite.

1. Seconds per move of every built-in agent over positions taken from real games (seeded
   random-vs-random and greedy-vs-smart games): median and max.
2. Win/draw/loss of Minimax vs Random, Smart vs Random and Greedy vs Dummy, colours
   alternating game by game (seeds 0..N-1), with the course's pass marks as targets.

Run: python bench/agents.py [--games N] [--position-games N]
"""
import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import make_agent  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.variants.cs3243.game import DEFAULT_FIFTY_LIMIT, DEFAULT_MAX_PLIES, Game, move_from_name  # noqa: E402
from harness.core.referee import play_game  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

AGENTS = ("dummy", "random", "greedy", "smart", "minimax")
# (agent, opponent, target win rate or None when the match is only informative)
MATCHES = (("minimax", "random", 0.95), ("smart", "random", 0.90), ("greedy", "dummy", 0.90),
           ("minimax", "smart", None), ("minimax", "greedy", None))


def replay(moves):
    """Every position (gameboard, colour to move) of a recorded game, before each move."""
    game = Game()
    out = []
    for name in moves:
        out.append((dict(game.gameboard), game.to_move))
        game.play(move_from_name(RULES, name))
    return out


def sample_positions(games: int):
    positions = []
    for seed in range(games):
        for white, black in (("random", "random"), ("greedy", "smart")):
            record = play_game(make_agent(white), make_agent(black), seed=1000 + seed, game=Game())
            positions.extend(replay(record["moves"]))
    return positions


def time_agents(positions):
    print(f"Seconds per move over {len(positions)} positions from seeded random-vs-random and "
          f"greedy-vs-smart games:")
    print(f"  {'agent':8} {'median s':>10} {'max s':>10}")
    for name in AGENTS:
        agent = make_agent(name)
        rng = random.Random(0)
        times = []
        for gameboard, colour in positions:
            started = time.perf_counter()
            agent.choose_move(dict(gameboard), colour, rng)
            times.append(time.perf_counter() - started)
        print(f"  {name:8} {statistics.median(times):10.5f} {max(times):10.5f}")


def match(hero: str, villain: str, games: int, target: float):
    """Games between hero and villain, hero White in even seeds and Black in odd ones."""
    wdl = Counter()
    reasons = Counter()
    worst_move = 0.0
    for seed in range(games):
        hero_white = seed % 2 == 0
        white, black = (hero, villain) if hero_white else (villain, hero)
        record = play_game(make_agent(white), make_agent(black), seed=seed, game=Game())
        hero_colour = "white" if hero_white else "black"
        if record["result"] == "draw":
            wdl["D"] += 1
        else:
            wdl["W" if record["result"] == hero_colour else "L"] += 1
        reasons[record["reason"]] += 1
        worst_move = max(worst_move, record["think"][hero_colour]["max"])
    rate = wdl["W"] / games
    if target is None:
        verdict = "information only"
    else:
        verdict = f"target {target:.0%}: " + ("ok" if rate >= target else "BELOW TARGET")
    why = ", ".join(f"{r} {n}" for r, n in reasons.most_common())
    print(f"  {hero:7} vs {villain:7} W/D/L {wdl['W']}/{wdl['D']}/{wdl['L']}  win {rate:6.1%} "
          f"({verdict}); endings: {why}; {hero}'s slowest move {worst_move:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per match (default 50)")
    parser.add_argument("--position-games", type=int, default=6,
                        help="games of each kind to take timing positions from (default 6)")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; fifty-move limit {DEFAULT_FIFTY_LIMIT} plies, "
          f"max game length {DEFAULT_MAX_PLIES} plies")
    time_agents(sample_positions(args.position_games))
    print(f"Matches, {args.games} games each, colours alternating (seeds 0..{args.games - 1}):")
    for hero, villain, target in MATCHES:
        match(hero, villain, args.games, target)


if __name__ == "__main__":
    sys.exit(exit_code(main))
