"""How well AB.py's opponents play their first moves, as AB.py's own quick search judges them:
can the engine be told from the course's opponents early in a game?

Run: python bench/ab_reply_quality.py RECORDS.jsonl [...] [--moves 8] [--nodes 400] [--ab AB.py]
                                      [--jobs 2] [--out FILE.jsonl]

RECORDS are the games of bench/ab_vs_fsf.py --out (against a UCI engine; the random opening's
plies are skipped) or bench/ab_vs_opponent.py --out (against the course's opponents; each game
is labelled by its opponent). For each of the opponent's first --moves moves after the opening,
every legal move of the opponent in that position is valued by AB.py's search at --nodes nodes
(from the opponent's side, the agent's evaluation, mates clipped to +-2,000), and the move played
is scored by its loss (best value minus the played move's value, centipawns) and its rank (the
share of moves valued strictly higher: 0 is a best move, near 0.5 a random one).

Printed per opponent: the games, the mean loss and rank per move, and for the mean loss over
the first k moves (k = 4, 6, 8) the share of games at or under each threshold: a threshold that
holds nearly all the engine's games and few of Minimax's would tell them apart by the k-th move.
--out writes each game's per-move losses and ranks (JSON lines).
"""
import argparse
import json
import os
import statistics
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.append(BENCH)      # last: bench/html.py must not hide the standard library's html

from ab_vs_fsf import json_lines  # noqa: E402
from ab_vs_opponent import replay  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.runs.pool import in_task_order, worker_pool  # noqa: E402
from harness.isolation.student import load_student_module, mirror_gameboard  # noqa: E402
from harness.variants.cs3243.game import move_from_name  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

CLIP = 2000
THRESHOLDS = (10, 20, 30, 40, 60, 80, 120)
PREFIXES = (4, 6, 8)


def label(record):
    """Who the opponent was: the course opponent's name, or the engine (with its nodes)."""
    if "opponent" in record:
        return record["opponent"]
    return f"engine@{record.get('nodes')}"


def ab_colour(record):
    return (record.get("ab_colour") or record["colour"]).lower()


def flat_view(module, game, colour):
    """The board as AB.py playing colour sees it (Black's mirrored), as its flat list."""
    board = game.gameboard if colour == "white" else mirror_gameboard(game.gameboard)
    return module.dict_to_flat(board)


def judge(module, before, after_played, nodes):
    """(loss, rank) of the opponent's move that led from `before` (AB.py's view, the opponent,
    side -1, to move) to `after_played`; None if it is not among the opponent's legal moves."""
    values = []
    played = None
    for move in module.all_moves(before, -1):
        after = list(before)
        after[move >> 6], after[move & 63] = after[move & 63], 0
        if module.in_check(after, -1):
            continue
        module.ENGINE.tt = {}
        _, score = module.ENGINE.think(after, 0, nodes, [], 2 * nodes)
        value = -max(-CLIP, min(CLIP, score))
        values.append(value)
        if after == after_played:
            played = value
    if played is None:
        return None
    return max(values) - played, sum(v > played for v in values) / len(values)


def game_quality(task):
    """task: (record, path, moves, nodes): the record's label and the opponent's per-move losses
    and ranks for its first `moves` moves after the opening."""
    record, path, count, nodes = task
    module = load_student_module(path)
    colour = ab_colour(record)
    moves = record["moves"]
    # the opponent moves at odd plies when AB.py is White, at even ones when it is Black
    skip = record.get("opening_plies") or 0
    first = skip + ((1 if colour == "white" else 0) - skip) % 2
    losses, ranks = [], []
    game = replay(moves[:first])
    after = flat_view(module, game, colour)
    for ply in range(first, min(len(moves), first + 2 * count)):
        before = after
        game.play(move_from_name(RULES, moves[ply]))
        after = flat_view(module, game, colour)
        if (ply - first) % 2:
            continue
        verdict = judge(module, before, after, nodes)
        if verdict is None:
            break
        losses.append(verdict[0])
        ranks.append(verdict[1])
    return {"label": label(record), "seed": record.get("seed"), "colour": colour,
            "losses": losses, "ranks": ranks}


def numbered_records(paths):
    """(path, line number, record) for every game record of the files; a file that cannot be
    read or a line that is not a game record with its moves: ValueError naming the file and line."""
    records = []
    for path in paths:
        try:
            lines = list(json_lines(path))
        except OSError as error:
            raise ValueError(f"{path}: cannot read it ({error.strerror})")
        for number, record in lines:
            if not isinstance(record, dict) or not isinstance(record.get("moves"), list):
                raise ValueError(f"{path}, line {number}: not a game record with its moves")
            records.append((path, number, record))
    return records


def read_records(paths):
    """Every game record of the files (numbered_records without the places)."""
    return [record for _, _, record in numbered_records(paths)]


def summary(name, games, count):
    lines = [f"{name}: {len(games)} games"]
    per_move = []
    for k in range(count):
        losses = [g["losses"][k] for g in games if len(g["losses"]) > k]
        ranks = [g["ranks"][k] for g in games if len(g["ranks"]) > k]
        if losses:
            per_move.append(f"{statistics.mean(losses):.0f}/{statistics.mean(ranks):.2f}")
    lines.append("  mean loss/rank by move: " + " ".join(per_move))
    for k in PREFIXES:
        means = [statistics.mean(g["losses"][:k]) for g in games if len(g["losses"]) >= k]
        if not means:
            continue
        shares = ", ".join(f"<={t}: {100 * sum(m <= t for m in means) / len(means):.0f} %"
                           for t in THRESHOLDS)
        lines.append(f"  mean loss over the first {k} ({len(means)} games; median "
                     f"{statistics.median(means):.0f}): {shares}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=400)
    parser.add_argument("--ab", default=os.path.join(ROOT, "AB.py"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    try:
        records = read_records(args.records)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    tasks = [(record, args.ab, args.moves, args.nodes) for record in records]
    with worker_pool(args.jobs, len(tasks)) as run:
        games = in_task_order(run, game_quality, tasks)
    for name in sorted({g["label"] for g in games}):
        print(summary(name, [g for g in games if g["label"] == name], args.moves))
    if args.out:
        with open(args.out, "w") as handle:
            for g in games:
                handle.write(json.dumps(g) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
