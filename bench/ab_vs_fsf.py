"""AB.py against Fairy-Stockfish on a ladder of node limits: score, W/D/L and Elo difference.

Run: python bench/ab_vs_fsf.py [--games 20] [--nodes 100 1000 10000] [--seed 3243] [--sets 1] [--jobs N]
                                [--ab AB.py [OTHER.py ...]] [--opening-plies 2] [--distinct]
                                [--engine /usr/games/fairy-stockfish] [--out FILE.jsonl]

Per rung (one node limit for the engine) it plays --games games. Each game starts from a
seeded random 2-ply opening (two uniformly random plies from the start position), then hands
the position to the players; openings come in pairs, so each one is played once with AB.py as
White and once as Black (colours alternate game by game). AB.py is loaded with
harness.isolation.student.StudentAgent (a fresh module for each game; as Black it sees the mirrored
board) and the engine is agents.uci.UciAgent (one process per game). The opening plies count
toward the 50-ply rule, as the spec says.

Score is AB.py's: a win 1, a draw 1/2, a loss 0. The Elo difference (AB.py minus the engine)
is the logistic one, Elo = -400 * log10(1 / score - 1); its 95 % margin comes from the standard
error of the per-game score (sqrt(variance of the game results / games)), taken to Elo at
score +- 1.96 standard errors (half the width of that interval). A score of 0 % or 100 % has
no finite Elo; it is printed as -inf / +inf.

--out writes every game's record (with start_fen and engine_moves) as JSON lines, numbered by
`game` from 1, so `python -m harness replay FILE.jsonl GAME` shows any of them. Our goal: at
least 50 % against 1,000 nodes.

Side by side: with several files after --ab, every file plays the same openings with the same
colours against the same engine (Fairy-Stockfish under a node limit is deterministic, and so is
AB.py, bounded by nodes), the games interleaved file by file so that a busy machine slows all
of them alike. Each file gets its own summary line per rung; then, for each later file against
the first, the paired difference of their scores per opening pair (the mean difference with
its 95 % margin, from the spread of the per-pair differences), which is much tighter than the
difference of the two separate margins. --opening-plies sets the random plies of each opening
(default 2: only 144 openings exist, so some repeat); --distinct draws again until every pair's
opening differs from the earlier ones.

--sets N plays N opening sets, seeds --seed to --seed + N - 1, each of --games games, and prints
the figures pooled over them (the paired difference over all their opening pairs); set k is the
same as a run of --seed SEED+k alone.

Both players being deterministic, a file's games need not be played again: --baseline
RESULTS.jsonl (an earlier --out file of the same settings) prints, after the run, the paired
difference of every file of this run against every file recorded there, on the opening pairs
both have (check that the settings match: seed, --opening-plies, --distinct, node limits).

--jobs N plays N games at once (harness.runs.pool.worker_pool); each record is written when its
game ends, so with N > 1 the file's order is the order games ended. Ctrl-C stops a run at once,
even while AB.py thinks (its bare `except:` catches KeyboardInterrupt; see harness.isolation.student), and
says how many games were recorded; a run of one set, file and rung with --jobs 1 records games
in order, and the line names the --first-game that plays the rest (into another --out file:
--out overwrites).
"""
import argparse
import json
import math
import os
import random
import sys
import time
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from harness.runs.pool import worker_pool  # noqa: E402
from harness.isolation.student import StudentAgent  # noqa: E402
from agents.uci import UciAgent  # noqa: E402
from harness.variants.cs3243.fen import engine_record_fields  # noqa: E402
from harness.variants.cs3243.game import Game  # noqa: E402
from harness import stats  # noqa: E402
from harness.core.referee import play_game  # noqa: E402
from harness.variants.cs3243.pieces import BLACK, WHITE  # noqa: E402

OPENING_PLIES = 2


def opening(seed: int, pair: int, fifty: int, max_plies: int, plies: int = OPENING_PLIES,
            draw: int = 0) -> Game:
    """The start position after `plies` random plies (the same for both games of a pair);
    draw > 0 picks another opening for the same pair (see --distinct)."""
    label = f"ab_vs_fsf:{seed}:{pair}" if plies == OPENING_PLIES and draw == 0 else \
        f"ab_vs_fsf:{seed}:{pair}:{plies}:{draw}"
    rng = random.Random(label)
    game = Game(fifty_limit=fifty, max_plies=max_plies)
    for _ in range(plies):
        if game.adjudicate():
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def distinct_draws(seed: int, pairs: int, fifty: int, max_plies: int, plies: int) -> List[int]:
    """For each pair, the first draw whose opening differs from every earlier pair's."""
    seen = set()
    draws = []
    for pair in range(pairs):
        draw = 0
        while True:
            key = tuple(opening(seed, pair, fifty, max_plies, plies, draw).moves_played)
            if key not in seen or draw > 1000:
                break
            draw += 1
        seen.add(key)
        draws.append(draw)
    return draws


def play_one(task: dict) -> dict:
    """One game of the ladder (runs in a worker process when --jobs > 1)."""
    game = opening(task["seed"], task["pair"], task["fifty"], task["max_plies"],
                   task["opening_plies"], task["draw"])
    ab = StudentAgent(task["ab"])
    ab.name = "AB.py"
    engine = UciAgent(task["engine"], nodes=task["nodes"])
    white, black = (ab, engine) if task["ab_colour"] == WHITE else (engine, ab)
    started = time.perf_counter()
    try:
        record = play_game(white, black, task["game_seed"], game)
    finally:
        white.close()
        black.close()
    record.update(engine_record_fields(game))
    record.update({"game": task["game"], "nodes": task["nodes"], "ab_colour": task["ab_colour"],
                   "ab_file": task["ab"], "pair": task["pair"], "opening_seed": task["seed"],
                   "opening_plies": task["opening_plies"],
                   "wall_seconds": round(time.perf_counter() - started, 3)})
    return record


def ab_points(record: dict) -> Optional[float]:
    """AB.py's score in a game: 1, 0.5 or 0 (None when the harness itself failed)."""
    result = record.get("result")
    if result == "draw":
        return 0.5
    if result in ("white", "black"):
        return 1.0 if result == record["ab_colour"].lower() else 0.0
    return None


def elo_with_margin(points: List[float]) -> Tuple[float, float, float]:
    """(score, Elo difference, 95 % margin in Elo) of a list of per-game points (harness.stats)."""
    wins, draws = points.count(1.0), points.count(0.5)
    losses = len(points) - wins - draws
    return stats.score(wins, draws, losses), stats.elo(wins, draws, losses), stats.elo_margin(wins, draws, losses)


def format_elo(diff: float, margin: float) -> str:
    if not math.isfinite(diff):
        return "+inf" if diff > 0 else "-inf"
    if math.isnan(margin):
        return f"{diff:+.0f}"
    if not math.isfinite(margin):
        return f"{diff:+.0f} +- inf"
    return f"{diff:+.0f} +- {margin:.0f}"


def summary_line(nodes: int, records: List[dict], label: str = "") -> str:
    points = [p for p in (ab_points(r) for r in records) if p is not None]
    wins, draws = points.count(1.0), points.count(0.5)
    losses = len(points) - wins - draws
    failed = len(records) - len(points)
    if not points:
        return f"{label}nodes={nodes:<6} games={len(records):<3} no scored games"
    score, diff, margin = elo_with_margin(points)
    reasons: Dict[str, int] = {}
    for r in records:
        reasons[r.get("reason") or "?"] = reasons.get(r.get("reason") or "?", 0) + 1
    ab_moves = ab_seconds = 0.0
    longest = 0.0
    for r in records:
        side = r["think"][r["ab_colour"].lower()]
        ab_moves += side["moves"]
        ab_seconds += side["total"]
        longest = max(longest, side["total"])
    per_move = ab_seconds / ab_moves if ab_moves else 0.0
    text = (f"{label}nodes={nodes:<6} games={len(points):<3} W/D/L={wins}/{draws}/{losses:<3} "
            f"score={100 * score:5.1f}%  Elo={format_elo(diff, margin):<12} "
            f"AB s/move={per_move:.3f} longest game={longest:.1f} s  endings: "
            + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    return text + (f"  ({failed} not scored)" if failed else "")


def pair_key(record: dict) -> Tuple[int, int]:
    """The opening a game was played from: (seed of the run, pair). Records written before the
    seed was recorded carry it in their game seed (seed * 100000 + ...)."""
    return record.get("opening_seed", record["seed"] // 100000), record["pair"]


def paired_line(nodes: int, base: List[dict], other: List[dict], label: str) -> str:
    """other's score minus base's over the opening pairs both finished (same openings, same
    colours): the mean per-game difference and its 95 % margin from the per-pair spread."""
    def per_pair(records):
        out: Dict[Tuple[int, int], List[float]] = {}
        for r in records:
            p = ab_points(r)
            if p is not None:
                out.setdefault(pair_key(r), []).append(p)
        return {k: sum(v) / len(v) for k, v in out.items() if len(v) == 2}
    a, b = per_pair(base), per_pair(other)
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        return f"{label}nodes={nodes}: too few common pairs"
    diffs = [b[k] - a[k] for k in common]
    mean, margin = stats.mean_with_margin(diffs)
    changed = sum(1 for d in diffs if d)
    return (f"{label}nodes={nodes}: score difference {100 * mean:+.1f} +- {100 * margin:.1f} points "
            f"(95 %, {len(common)} opening pairs, {changed} pairs scored differently)")


def plan(args: argparse.Namespace) -> List[dict]:
    """The games to play: per opening set (seeds --seed, --seed + 1, ... --sets of them), per
    rung, game and file. Set k is exactly the run of --seed SEED+k alone, so runs of single
    seeds and of several sets pool together (--combine)."""
    tasks: List[dict] = []
    for seed in range(args.seed, args.seed + args.sets):
        draws = (distinct_draws(seed, (args.games + 1) // 2, args.fifty, args.max_plies, args.opening_plies)
                 if args.distinct else [0] * ((args.games + 1) // 2))
        for rung, nodes in enumerate(args.nodes):
            for i in range(args.first_game, args.games):
                for path in args.ab:
                    tasks.append({"game": len(tasks) + 1, "nodes": nodes, "pair": i // 2, "draw": draws[i // 2],
                                  "ab_colour": WHITE if i % 2 == 0 else BLACK, "ab": path, "engine": args.engine,
                                  "seed": seed, "game_seed": seed * 100000 + rung * 1000 + i,
                                  "opening_plies": args.opening_plies,
                                  "fifty": args.fifty, "max_plies": args.max_plies})
    return tasks


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ab", nargs="+",
                        help="the agent file(s) (default: AB.py); several are played side by side")
    parser.add_argument("--opening-plies", type=int, default=OPENING_PLIES,
                        help="random plies of each opening (default 2)")
    parser.add_argument("--distinct", action="store_true", help="no opening used by two pairs")
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish", help="UCI engine path")
    parser.add_argument("--nodes", type=int, nargs="+", default=[100, 1000, 10000], help="engine node limits")
    parser.add_argument("--games", type=int, default=20, help="games per rung (default 20, even is best)")
    parser.add_argument("--seed", type=int, default=3243, help="seed of the openings and the games")
    parser.add_argument("--sets", type=int, default=1,
                        help="opening sets (seeds SEED, SEED+1, ...), each of --games games; figures pooled")
    parser.add_argument("--fifty", type=int, default=50, help="plies without capture for a draw")
    parser.add_argument("--max-plies", type=int, default=1000, help="maximum game length in plies")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--out", help="write every game's record to this JSON-lines file")
    parser.add_argument("--first-game", type=int, default=0,
                        help="skip the games of each rung before this one (0-based; to split a run)")
    parser.add_argument("--baseline", help="an earlier --out file: paired differences against its files")
    parser.add_argument("--verbose", action="store_true", help="one line per game on stderr")
    parser.add_argument("--combine", nargs="+", metavar="RESULTS",
                        help="play nothing: pool earlier --out files (runs of other seeds) and print each "
                             "file's summary and its paired difference against the first --ab")
    parser.add_argument("--same", nargs="+", default=[], metavar="PATH=NAME",
                        help="with --combine: count the games of PATH as NAME's (one version under two names)")
    args = parser.parse_args(argv)
    if args.combine:
        return combine(args.combine, args.ab or [], dict(item.split("=", 1) for item in args.same))
    args.ab = args.ab or [os.path.join(ROOT, "AB.py")]
    for path, what in [(a, "agent file") for a in args.ab] + [(args.engine, "engine")]:
        if not os.path.exists(path):
            print(f"error: {what} '{path}' does not exist", file=sys.stderr)
            return 2
    if args.games < 1 or args.jobs < 1 or any(n < 1 for n in args.nodes):
        print("error: --games, --jobs and --nodes must be at least 1", file=sys.stderr)
        return 2

    if args.sets < 1:
        print("error: --sets must be at least 1", file=sys.stderr)
        return 2
    tasks = plan(args)
    seeds = f"{args.seed}" if args.sets == 1 else f"{args.seed}..{args.seed + args.sets - 1}"
    print(f"{', '.join(args.ab)} vs {os.path.basename(args.engine)}: {args.games} games per rung, file and set, "
          f"{args.opening_plies}-ply random openings (seed {seeds}{', distinct' if args.distinct else ''}), "
          f"colours alternating, 50-ply rule {args.fifty}", flush=True)
    started = time.perf_counter()
    by_key: Dict[Tuple[int, str], List[dict]] = {(n, a): [] for n in args.nodes for a in args.ab}
    several = len(args.ab) > 1
    out = open(args.out, "w", encoding="utf-8") if args.out else None

    def done(record: dict) -> None:
        key = (record["nodes"], record["ab_file"])
        by_key[key].append(record)
        if out:
            out.write(json.dumps(record) + "\n")
            out.flush()
        if args.verbose:
            points = ab_points(record)
            print(f"  game {record['game']:>3} {os.path.basename(record['ab_file']) + ' ' if several else ''}"
                  f"nodes={record['nodes']} AB {record['ab_colour']:<5} "
                  f"-> {points} ({record['result']}, {record['reason']}, {record['plies']} plies, "
                  f"{record['wall_seconds']:.1f} s){'  ' + record['error'] if record.get('error') else ''}",
                  file=sys.stderr, flush=True)
        if len(by_key[key]) == (args.games - args.first_game) * args.sets:
            print(summary_line(key[0], by_key[key], f"{key[1]}: " if several else ""), flush=True)
            if several and all(len(by_key[(key[0], a)]) == (args.games - args.first_game) * args.sets
                               for a in args.ab):
                for other in args.ab[1:]:
                    print(paired_line(key[0], by_key[(key[0], args.ab[0])], by_key[(key[0], other)],
                                      f"{other} - {args.ab[0]}: "), flush=True)

    try:
        with worker_pool(args.jobs, len(tasks)) as run:
            for record in run(play_one, tasks):
                done(record)
    except KeyboardInterrupt:
        recorded = sum(len(v) for v in by_key.values())
        rest = (f"; the rest: --first-game {args.first_game + recorded} with another --out"
                if args.jobs == 1 and len(tasks) == args.games - args.first_game else "")
        print(f"interrupted: {recorded} games recorded{' in ' + args.out if args.out else ''}{rest}",
              file=sys.stderr)
        return 130
    finally:
        if out:
            out.close()
    if args.baseline:
        with open(args.baseline, encoding="utf-8") as handle:
            earlier = [json.loads(line) for line in handle if line.strip()]
        for nodes in args.nodes:
            for base_file in sorted({r["ab_file"] for r in earlier if r["nodes"] == nodes}):
                base = [r for r in earlier if r["nodes"] == nodes and r["ab_file"] == base_file]
                for path in args.ab:
                    print(paired_line(nodes, base, by_key[(nodes, path)],
                                      f"{path} - {base_file} (from {args.baseline}): "), flush=True)
    print(f"total {time.perf_counter() - started:.0f} s", flush=True)
    return 0


def json_lines(path: str):
    """(line number from 1, the line's JSON value or None if it is not JSON) for each line of a
    JSON-lines file that is not blank; OSError if the file cannot be read."""
    with open(path, encoding="utf-8") as handle:
        lines = list(enumerate(handle, 1))
    for number, line in lines:
        if line.strip():
            try:
                yield number, json.loads(line)
            except ValueError:
                yield number, None


def combine(paths: List[str], order: List[str], same: Dict[str, str]) -> int:
    """--combine: every file's games pooled over the results files, and each file's paired
    difference against the first of `order` (the --ab list; default: in order of appearance)."""
    records: Dict[Tuple[int, str], List[dict]] = {}
    for path in paths:
        try:
            lines = list(json_lines(path))
        except OSError as error:
            print(f"{path}: cannot read it ({error.strerror})", file=sys.stderr)
            return 2
        for number, record in lines:
            if record is None:
                print(f"{path}:{number}: not a JSON record, skipped", file=sys.stderr)
                continue
            name = same.get(record["ab_file"], record["ab_file"])
            records.setdefault((record["nodes"], name), []).append(record)
    for nodes in sorted({n for n, _ in records}):
        names = [name for n, name in records if n == nodes]
        if order:
            names = [n for n in order if (nodes, n) in records] + [n for n in names if n not in order]
        seeds = sorted({pair_key(r)[0] for n in names for r in records[(nodes, n)]})
        print(f"nodes={nodes}: {len(paths)} results files, opening seeds {', '.join(map(str, seeds))}")
        for name in names:
            print(summary_line(nodes, records[(nodes, name)], f"{name}: "))
        for name in names[1:]:
            print(paired_line(nodes, records[(nodes, names[0])], records[(nodes, name)], f"{name} - {names[0]}: "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
