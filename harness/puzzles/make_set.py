"""The script that makes the shipped puzzle set from games of the built-in agents and AB.py.

    python -m harness.puzzles.make_set [--work DIR] [--out harness/puzzles/data/cs3243.jsonl]
                                       [--ab AB.py] [--scale X] [--engine /usr/games/fairy-stockfish]

Run it from the project's root under ``nice`` (it plays the games in one process and searches
with one engine thread; see docs/puzzles.md for how long it took). Everything it computes is
kept in WORK (default ``reports/make-puzzles``): the games as series folders, the engine's
answers in engine.jsonl; run it again and it resumes; delete WORK to start over. With the same
AB.py, agents and engine the same set comes out again.

1. **Games.** Each pairing of `PAIRINGS` plays its games as a `series` (pairing k from seed
   10,000 k, each pair of games from one random 4-ply opening with the colours reversed, at most
   `MAX_PLIES` plies; ``--scale`` multiplies the numbers), in WORK/games/WHITE-vs-BLACK/.
2. **Positions.** Every position of every game where the game goes on and no King can be
   taken at once (that would be no puzzle), each board (with its side to move) once. Games are
   taken in turn from each pairing.
3. **Mates** (exhaustive, `harness.puzzles.search`, the course's rules): a position where the
   side to move forces a win in one move is a mate-in-1 (its solutions: every move that wins at
   once, at most `MOST_SOLUTIONS`), in two moves and not one a mate-in-2 (every move that
   forces it, at most `MOST_SOLUTIONS_MATE2`).
4. **The others** (Fairy-Stockfish, one thread, from a cleared hash, MultiPV 2; the engine reads
   the project's variant file), searched at `SCREEN_NODES`, those that pass again at
   `VERIFY_NODES`, where they must pass again. The engine's best move must be clearly best: its
   winning chances above the second best's by the theme's `WIN_GAP`; and after it the opponent
   may not force a win within two moves (exhaustive).
   - parry-mate-threat: the side to move is not in check, and if it passed the opponent would
     force a win within `THREAT_MOVES` moves (exhaustive); at most half of its moves stop that
     (exhaustive);
   - winning-material: no such threat, and along the engine's line (not a mate) the mover's
     material (the project's piece values) ends at least `GAIN` above both the position's and
     the one's before the opponent's last move (so a plain recapture is no puzzle).
5. **Selection.** From each game at most one puzzle per theme and `PER_GAME` in all, at most
   `PER_THEME` per theme. The set is written as JSON lines (docs/puzzles.md), each puzzle with
   its origin and how it was verified.
"""
import argparse
import json
import math
import os
import sys
from typing import Dict, Iterator, List, Optional, Tuple

from .. import players
from ..core.records import start_state
from ..runs.series import RunOptions, SeriesPlan, run_plans
from ..variants.cs3243 import VARIANT
from ..variants.cs3243.fen import parse_engine_move, position_fen
from ..variants.cs3243.game import Position
from .puzzle import DATA, DEFAULT_SET, THEMES, Puzzle, write_set
from .search import MateSearch, in_check, passed

ENGINE = "/usr/games/fairy-stockfish"
# (first agent, second agent, games). Minimax against itself (its ties broken at random, so no two
# games alike) makes most of the mate threats a defender can still parry: against AB.py the
# threatened side is mostly lost already.
PAIRINGS = (("AB.py", "minimax", 160), ("AB.py", "smart", 40), ("AB.py", "greedy", 40), ("AB.py", "random", 20),
            ("minimax", "smart", 40), ("minimax", "greedy", 40), ("minimax", "random", 20),
            ("smart", "greedy", 20), ("smart", "random", 20), ("greedy", "random", 20), ("minimax", "minimax", 500))
OPENING_PLIES = 4
MAX_PLIES = 200
SCREEN_NODES = 10_000
VERIFY_NODES = 1_000_000
# winning chances (-1..1) by which the best move must beat the second best: lichess-puzzler's
# margins for a winning move (0.5) and for a defence (0.2)
WIN_GAP = {"winning-material": 0.5, "parry-mate-threat": 0.2}
GAIN = 200              # centipawns of material the winning line must gain
PV_PLIES = 8            # how far along the engine's line the material is counted
MOST_SOLUTIONS = 3
MOST_SOLUTIONS_MATE2 = 2
THREAT_MOVES = 2        # a threat: the opponent would force a win within this many moves
PER_GAME = 2
PER_THEME = 60
ID_PREFIX = {"mate-in-1": "m1", "mate-in-2": "m2", "winning-material": "wm", "parry-mate-threat": "pm"}


# -------------------------------------------------------------------------------- games


def play_games(work: str, ab: str, scale: float = 1.0) -> List[List[dict]]:
    """Every pairing's games (played now if not yet in WORK), one list per pairing; `scale`
    multiplies the number of games."""
    plans = [SeriesPlan(out=os.path.join(work, "games", f"{white}-vs-{black}"),
                        white=ab if white == "AB.py" else white, black=black, games=max(2, round(games * scale)),
                        seed=10_000 * number, max_plies=MAX_PLIES, openings=OPENING_PLIES, swap=True)
             for number, (white, black, games) in enumerate(PAIRINGS)]
    return run_plans(plans, RunOptions(jobs=1, resume=True, progress="plain")).records


def round_robin(per_pairing: List[List[dict]]) -> Iterator[dict]:
    for i in range(max(len(records) for records in per_pairing)):
        for records in per_pairing:
            if i < len(records):
                yield records[i]


def positions(record: dict) -> Iterator[Tuple[int, Position, Optional[Position]]]:
    """(ply, position before that ply, the position one ply earlier) of a recorded game, for
    every position where the game goes on."""
    state, before = start_state(record, VARIANT), None
    for ply, name in enumerate(record["moves"]):
        if VARIANT.outcome(state) is None:
            yield ply, state, before
        before, state = state, VARIANT.apply(state, VARIANT.parse_move(name))


def king_en_prise(state: Position) -> bool:
    """Can the side to move take the enemy King at once?"""
    return state.rules.in_check(state.board, -state.side)


def material(state: Position, colour: str) -> int:
    """`colour`'s material minus the other side's, in the project's piece values (Kings left out)."""
    return sum(VARIANT.values[piece] * (1 if owner == colour else -1)
               for piece, owner in state.gameboard.values() if piece != "King")


def names(moves) -> List[str]:
    return [VARIANT.move_name(m) for m in moves]


# -------------------------------------------------------------------------------- the engine


def engine_line(state: Position, pv: List[str]) -> List:
    """The engine's line as moves of the variant, as far as they are legal here (up to PV_PLIES)."""
    moves = []
    for text in pv[:PV_PLIES]:
        move = parse_engine_move(state.rules, text)
        legal = VARIANT.legal_moves(state) if VARIANT.outcome(state) is None else []
        found = next((m for m in legal if move is not None and (m.from_square, m.to_square) == move), None)
        if found is None:
            break
        moves.append(found)
        state = VARIANT.apply(state, found)
    return moves


def line_gain(state: Position, line: List, reference: int) -> int:
    """Material gained along `line` by the side to move: the balance at the first position from
    the second ply on where the next move of the line takes nothing (or at the line's end), minus
    `reference`."""
    colour = state.to_move
    for ply, move in enumerate(line):
        quiet = not state.board[move.to_square]
        if ply >= 2 and quiet:
            break
        state = VARIANT.apply(state, move)
    return material(state, colour) - reference


class Engine:
    """Fairy-Stockfish analyses at a node count, with its answers kept in a JSON-lines cache."""

    def __init__(self, path: str, cache: str):
        self.path = path
        self.cache_path = cache
        self.cache: Dict[str, list] = {}
        if os.path.exists(cache):
            with open(cache, encoding="utf-8") as handle:
                for text in handle:
                    try:
                        entry = json.loads(text)
                    except ValueError:
                        continue             # a line cut short by a kill
                    self.cache[entry["key"]] = entry["lines"]
        self.agents: Dict[int, object] = {}

    def analyse(self, fen: str, nodes: int) -> List[dict]:
        key = f"{nodes} {fen}"
        if key not in self.cache:
            if nodes not in self.agents:
                self.agents[nodes] = players.make(f"uci:{self.path},nodes={nodes},timeout=600")
            lines = self.agents[nodes].analyse(fen, 2)
            self.cache[key] = lines
            with open(self.cache_path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"key": key, "lines": lines}) + "\n")
        return self.cache[key]

    def close(self) -> None:
        for agent in self.agents.values():
            agent.close()


# -------------------------------------------------------------------------------- themes


def origin(record: dict, ply: int, colour_of: Dict[str, str]) -> dict:
    """Where a position comes from: the game (its agents, its seed, the random opening it started
    from) and the ply before which it stands, counted after the opening."""
    return {"white": colour_of.get(record["white"], record["white"]),
            "black": colour_of.get(record["black"], record["black"]), "seed": record["seed"],
            "opening": record.get("opening", []), "ply": ply}


def mate_puzzle(search: MateSearch, state: Position, distance: int) -> Optional[dict]:
    """The mate-in-`distance` puzzle of a position with a forced win in `distance` moves and not
    fewer, or None when too many moves win."""
    solutions = search.winning_moves(state, distance)
    if len(solutions) > (MOST_SOLUTIONS if distance == 1 else MOST_SOLUTIONS_MATE2):
        return None
    line = [solutions[0]]
    if distance == 2:
        after = VARIANT.apply(state, solutions[0])
        replies = VARIANT.legal_moves(after)
        reply = next((r for r in replies if not king_en_prise(VARIANT.apply(after, r))), replies[0])
        line += [reply, search.winning_move(VARIANT.apply(after, reply), 1)]
    return {"theme": f"mate-in-{distance}", "solutions": names(solutions), "line": names(line),
            "verified": {"by": "exhaustive search under the course's rules (harness/puzzles/search.py)",
                         "moves": distance, "no_faster_win": True}}


def parries(search: MateSearch, state: Position, within: int) -> List:
    """The moves after which the opponent cannot force a win within `within` moves."""
    return [m for m in VARIANT.legal_moves(state) if search.mate_distance(VARIANT.apply(state, m), within) is None]


def winning_chances(line: dict) -> float:
    """-1 (lost) .. 1 (won) from an engine line's score: 2 / (1 + exp(-0.004 cp)) - 1, a mate 1
    or -1 (the curve of lichess-puzzler, generator/util.py)."""
    if line["mate"] is not None:
        return 1.0 if line["mate"] > 0 else -1.0
    return 2 / (1 + math.exp(-0.004 * line["cp"])) - 1


def clearly_best(lines: List[dict], theme: str) -> bool:
    """Two lines (a single legal move is no puzzle), and the best one's winning chances above
    the second best's by more than the theme's WIN_GAP."""
    return len(lines) >= 2 and winning_chances(lines[0]) > winning_chances(lines[1]) + WIN_GAP[theme]


def threat(search: MateSearch, state: Position) -> Optional[int]:
    """In how few moves (1 or 2) the opponent would force a win if it were its move, when the
    side to move is not in check; None when it would not (or the side is in check)."""
    return None if in_check(state) else search.mate_distance(passed(state), THREAT_MOVES)


def engine_puzzle(search: MateSearch, engine: Engine, state: Position, before: Optional[Position],
                  threatened: Optional[int]) -> Optional[dict]:
    """The parry-mate-threat (when `threatened`, the threat's length in moves) or winning-material
    puzzle this position is, verified; or None."""
    fen = position_fen(state)
    theme = "parry-mate-threat" if threatened else "winning-material"
    colour = state.to_move
    reference = material(state, colour)
    if before is not None:
        reference = max(reference, material(before, colour))
    for nodes in (SCREEN_NODES, VERIFY_NODES):
        lines = engine.analyse(fen, nodes)
        if not clearly_best(lines, theme):
            return None
        line = engine_line(state, lines[0]["pv"])
        if not line:
            return None
        gain = line_gain(state, line, reference)
        if not threatened and (gain < GAIN or lines[0]["mate"] is not None):
            return None
    best = line[0]
    if search.mate_distance(VARIANT.apply(state, best), 2) is not None:
        return None          # the engine's best move allows a forced win: not a puzzle
    verified = {"by": "Fairy-Stockfish, one thread, cleared hash, MultiPV 2", "nodes": VERIFY_NODES,
                "best": {k: lines[0][k] for k in ("move", "cp", "mate")},
                "second": {k: lines[1][k] for k in ("move", "cp", "mate")},
                "winning_chances_gap": WIN_GAP[theme], "no_forced_win_within_2_after_it": True}
    if threatened:
        stops = parries(search, state, threatened)
        if len(stops) * 2 > len(VARIANT.legal_moves(state)):
            return None      # most moves stop it: no real threat
        verified.update(threat_moves=threatened, moves_that_stop_it=len(stops))
    else:
        verified["material_gain"] = gain
    return {"theme": theme, "solutions": names([best]), "line": names(line[:6]), "verified": verified}


# -------------------------------------------------------------------------------- the set


def make(work: str, ab: str, scale: float, engine_path: str, say=print) -> List[Puzzle]:
    os.makedirs(work, exist_ok=True)
    per_pairing = play_games(work, ab, scale)
    colour_of = {ab: "AB.py"}
    search = MateSearch()
    engine = Engine(engine_path, os.path.join(work, "engine.jsonl"))
    chosen: Dict[str, List[Puzzle]] = {theme: [] for theme in THEMES}
    seen = set()
    try:
        for number, record in enumerate(round_robin(per_pairing)):
            taken: Dict[str, int] = {}
            for ply, state, before in positions(record):
                wanted = {t for t in THEMES if len(chosen[t]) < PER_THEME and t not in taken}
                if len(taken) >= PER_GAME or not wanted:
                    break
                key = position_fen(state).rsplit(" ", 4)[0]
                if key in seen or king_en_prise(state):
                    continue
                seen.add(key)
                threatened = threat(search, state)
                if not threatened and wanted == {"parry-mate-threat"}:
                    continue
                found, distance = None, search.mate_distance(state, 2)
                if distance is not None:
                    if f"mate-in-{distance}" in wanted:
                        found = mate_puzzle(search, state, distance)
                elif ("parry-mate-threat" if threatened else "winning-material") in wanted:
                    found = engine_puzzle(search, engine, state, before, threatened)
                if found is None:
                    continue
                theme = found.pop("theme")
                taken[theme] = ply
                puzzle = Puzzle(f"{ID_PREFIX[theme]}-{len(chosen[theme]) + 1:03d}", theme, position_fen(state),
                                tuple(found["solutions"]), tuple(found["line"]),
                                origin(record, ply, colour_of), found["verified"])
                chosen[theme].append(puzzle)
            if all(len(chosen[theme]) >= PER_THEME for theme in THEMES):
                break
            if number % 10 == 9:
                say(f"{number + 1} games searched: " + ", ".join(f"{t} {len(p)}" for t, p in chosen.items()), flush=True)
    finally:
        engine.close()
    return [p for theme in THEMES for p in chosen[theme]]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.puzzles.make_set", description=__doc__.split("\n")[0])
    parser.add_argument("--work", default=os.path.join("reports", "make-puzzles"), metavar="DIR")
    parser.add_argument("--out", default=os.path.join(DATA, DEFAULT_SET + ".jsonl"), metavar="FILE")
    parser.add_argument("--ab", default="AB.py", metavar="FILE", help="the AB.py whose games are used")
    parser.add_argument("--scale", type=float, default=1.0, metavar="X",
                        help="play X times the games of PAIRINGS (default 1; a small X for a quick trial)")
    parser.add_argument("--engine", default=ENGINE, metavar="PATH")
    args = parser.parse_args(argv)
    shipped = os.path.abspath(os.path.join(DATA, DEFAULT_SET + ".jsonl"))
    if args.scale != 1 and os.path.abspath(args.out) == shipped:
        print(f"error: --scale {args.scale:g} makes a trial set: give --out FILE (and --work DIR), or it would "
              f"replace the shipped set {args.out}", file=sys.stderr)
        return 2
    for path, what in ((args.ab, "AB.py"), (args.engine, "the engine")):
        if not os.path.isfile(path):
            print(f"error: {what} '{path}' does not exist", file=sys.stderr)
            return 2
    puzzles = make(args.work, args.ab, args.scale, args.engine)
    write_set(args.out, puzzles)
    counts: Dict[str, int] = {}
    for p in puzzles:
        counts[p.theme] = counts.get(p.theme, 0) + 1
    print(f"{len(puzzles)} puzzles written to {args.out}: " + ", ".join(f"{t} {n}" for t, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
