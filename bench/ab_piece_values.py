"""What the pieces were worth in recorded games: a logistic fit of the result on material.

Run: python bench/ab_piece_values.py RESULTS.jsonl [MORE.jsonl ...] [--from-ply 8] [--scale Rook=500]

Reads game records with the course's moves from the start (the `--out` files of
bench/ab_vs_fsf.py, or `results.jsonl` of `python -m harness report`), replays each game and
takes every position from --from-ply on whose last move captured nothing (a capture is often
half of an exchange: the material is about to change back). For each it counts, per piece type
but the King, White's pieces less Black's, and fits White's score in the game (1, 1/2, 0) as the
logistic function of a weighted sum of those counts plus a constant (White's edge of the first
move): maximum likelihood, Newton's method on the distinct count vectors (few: most
positions share them). The weights, scaled so that --scale's piece gets its value, are the
pieces' worth in these games, in the units an evaluation uses.

Printed: games and positions used; per piece its value and a 95 % margin. The margin treats
positions as independent, which positions of one game are not, so it is too narrow: read it
as a floor. The figure depends on who played the games (a file that misplays one piece makes it
look worth less), so fit games of the opponents the values are meant for. Texel's method,
which this follows, fits an evaluation's values the same way (docs/ab-design.md).
"""
import argparse
import math
import os
import sys
from collections import defaultdict

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_reply_quality import numbered_records  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.variants.cs3243.game import Position, move_from_name  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

PIECES = ["Pawn", "Ferz", "Knight", "Bishop", "Rook", "Princess", "Empress", "Queen"]
CODES = [RULES.code_of[name] for name in PIECES]


def positions(record: dict, from_ply: int):
    """(count differences, White's score) for each position of the game taken by the rule above;
    ValueError when a recorded move is not a move of the position."""
    score = {"white": 1.0, "draw": 0.5, "black": 0.0}[record["result"]]
    position = Position()
    for ply, name in enumerate(record["moves"], 1):
        move = move_from_name(RULES, name)
        if move[0] is None or move[1] is None or position.board[move[0]] * position.side <= 0:
            raise ValueError(f"ply {ply}: {name!r} does not move a piece of the side to move")
        position = position.advance(move)
        if ply >= from_ply and position.quiet_plies > 0:
            board = position.board
            yield tuple(board.count(c) - board.count(-c) for c in CODES), score


def solve(matrix, vector):
    """x with matrix x = vector (Gaussian elimination with partial pivoting; small systems)."""
    n = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-12:
            raise ValueError("the counts do not tell the pieces apart (a piece never differs)")
        for r in range(n):
            if r != col:
                f = rows[r][col] / rows[col][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def fit(groups, constant=True):
    """Logistic regression of the score on the counts (and a constant, unless `constant` is
    false) by Newton's method; groups: {counts: [positions, score sum]}. (weights, standard
    errors), the constant last. Also bench/win_curve.py's fit of win % on an evaluation."""
    data = [(list(x) + ([1] if constant else []), n, s) for x, (n, s) in groups.items()]
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(50):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, n, s in data:
            z = sum(a * b for a, b in zip(w, x))
            p = 1 / (1 + math.exp(-z))
            r = n * p - s
            v = n * p * (1 - p)
            for i in range(k):
                if x[i]:
                    grad[i] += r * x[i]
                    xv = x[i] * v
                    row = hess[i]
                    for j in range(k):
                        if x[j]:
                            row[j] += xv * x[j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(b) for b in step) < 1e-10:
            break
    inverse = [solve(hess, [1.0 if i == j else 0.0 for i in range(k)]) for j in range(k)]
    return w, [math.sqrt(max(inverse[i][i], 0.0)) for i in range(k)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--from-ply", type=int, default=8)
    parser.add_argument("--scale", default="Rook=500", help="PIECE=VALUE: the unit of the values")
    args = parser.parse_args(argv)
    unit_piece, _, unit_value = args.scale.partition("=")
    if unit_piece not in PIECES or not unit_value.lstrip("-").isdigit() or int(unit_value) == 0:
        print(f"error: --scale {args.scale}: PIECE=VALUE with PIECE one of {', '.join(PIECES)}", file=sys.stderr)
        return 2
    groups = defaultdict(lambda: [0, 0.0])
    games = seen = 0
    done = set()
    try:
        records = numbered_records(args.results)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path, number, record in records:
        if "result" not in record:
            print(f"error: {path}, line {number}: not a game record (moves, result)", file=sys.stderr)
            return 2
        if record.get("error") or record["result"] not in ("white", "black", "draw"):
            continue
        key = (record.get("white"), record.get("black"), tuple(record["moves"]))
        if key in done:         # the same game in two files counts once
            continue
        done.add(key)
        try:
            for counts, score in positions(record, args.from_ply):
                group = groups[counts]
                group[0] += 1
                group[1] += score
                seen += 1
        except ValueError as error:
            print(f"error: {path}, line {number}: {error}", file=sys.stderr)
            return 2
        games += 1
    if not seen:
        print("error: no positions to fit", file=sys.stderr)
        return 2
    try:
        w, se = fit(groups)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    scale = int(unit_value) / w[PIECES.index(unit_piece)]
    print(f"{games} games, {seen} positions (from ply {args.from_ply}, after a move that captured nothing), "
          f"{len(groups)} distinct count vectors")
    for name, weight, error in zip(PIECES, w, se):
        print(f"  {name:<9} {weight * scale:7.0f} +- {1.96 * error * abs(scale):.0f}")
    print(f"  (White's edge: {w[-1]:+.3f} in the logistic's units; margins treat positions as independent)")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
