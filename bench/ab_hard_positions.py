"""AB.py from undecided positions against Minimax: a draw rate high enough to compare versions.

Run: python bench/ab_hard_positions.py [FILE ...] [--positions bench/hard_positions.json]
                                       [--seeds 0 2] [--jobs 2] [--out FILE.jsonl]
     python bench/ab_hard_positions.py --collect RESULTS.jsonl ... [--positions OUT.json]

From the start position AB.py draws about one game in 300 against Minimax, so telling two
versions apart takes thousands of games. Nearly all those draws come from the few games that
are still undecided after 40 plies. This bench starts every game there instead.

--collect reads the results.jsonl files of `python -m harness report AB.py ... --opponents
minimax` runs and keeps, from every game that lasted more than COLLECT_MIN_PLIES plies, the
first position between plies COLLECT_PLIES in which a capture has just been made and AB.py is
to move (a fresh AB.py assumes nothing has been captured for 0 plies, so it starts right
after a capture to agree with the referee's 50-ply count). It writes the plies leading there.

A run plays every file (default AB.py) from every position against Minimax once per seed in
the half-open range --seeds (the seed drives Minimax's random tie-breaks), in AB.py's colour of
the recorded game, through bench/ab_vs_opponent.py's play(): a fresh AB.py with its per-game
allowance cut to what it would have left at that ply. It prints the same figures as that
bench, with plies and the lead checkpoints counted from the position and "long" meaning
more than LONG_GAME plies from there.
"""
import argparse
import json
import os
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_vs_opponent import play_all, replay, report  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.variants.cs3243.game import move_from_name  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

DEFAULT_POSITIONS = os.path.join(BENCH, "hard_positions.json")
COLLECT_MIN_PLIES = 70
COLLECT_PLIES = (40, 60)
LONG_GAME = 60


def agent_colour(record):
    """The colour AB.py (a .py file) played in a harness game record, or None."""
    for colour in ("white", "black"):
        if str(record[colour]).endswith(".py"):
            return colour
    return None


def undecided_position(record):
    """The plies leading to the game's first position between plies COLLECT_PLIES where a
    capture has just been made and the file is to move; None if the game is short or has none."""
    colour = agent_colour(record)
    moves = record["moves"]
    if colour is None or record["plies"] <= COLLECT_MIN_PLIES:
        return None
    game = replay(moves[:COLLECT_PLIES[0]])
    for ply in range(COLLECT_PLIES[0], min(COLLECT_PLIES[1] + 1, len(moves))):
        if game.quiet_plies == 0 and game.to_move.lower() == colour:
            return {"seed": record["seed"], "colour": colour, "moves": moves[:ply]}
        game.play(move_from_name(RULES, moves[ply]))
    return None


def collect(paths, out):
    positions = []
    for path in paths:
        with open(path) as results:
            for line in results:
                position = undecided_position(json.loads(line))
                if position is not None:
                    series = os.path.dirname(os.path.abspath(path))
                    source = os.path.join(os.path.basename(os.path.dirname(series)), os.path.basename(series))
                    positions.append(dict(position, source=source))
    with open(out, "w") as handle:
        handle.write("[\n" + ",\n".join(json.dumps(p) for p in positions) + "\n]\n")
    print(f"{len(positions)} positions from {len(paths)} files written to {out}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="AB.py files to compare (default AB.py); "
                        "with --collect, harness results.jsonl files")
    parser.add_argument("--collect", action="store_true", help="write positions from game records")
    parser.add_argument("--positions", default=DEFAULT_POSITIONS)
    parser.add_argument("--seeds", type=int, nargs=2, default=[0, 2], metavar=("FIRST", "END"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", help="write every game's summary here as JSON lines")
    args = parser.parse_args(argv)
    if args.collect:
        collect(args.files, args.positions)
        return
    files = args.files or [os.path.join(ROOT, "AB.py")]
    with open(args.positions) as handle:
        positions = json.load(handle)
    tasks, labels = [], []
    for seed in range(*args.seeds):
        for number, position in enumerate(positions):
            for path in files:
                tasks.append((path, None, "minimax", seed, position["colour"], position["moves"]))
                labels.append(number)
    games, seconds = play_all(tasks, args.jobs)
    for game, number in zip(games, labels):
        game["position"] = number
    report(files, games, f"minimax, {len(positions)} positions from {args.positions}, seeds "
           f"{args.seeds[0]}..{args.seeds[1] - 1}, {args.jobs} jobs, {seconds:.0f} s", args.out, LONG_GAME)


if __name__ == "__main__":
    sys.exit(exit_code(main))
