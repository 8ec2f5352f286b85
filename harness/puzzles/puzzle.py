"""A CS3243 puzzle and a set of them: the JSON-lines format, and reading it with one-line errors.

A set is a text file (UTF-8) with one puzzle per line, a JSON object (blank lines are skipped):

    {"id": "m1-001", "theme": "mate-in-1", "fen": "<CS3243 FEN>", "solutions": ["c4c5"], ...}

- ``id``: a name unique in the file (letters, digits, ``-``, ``_``, ``.``);
- ``theme``: what the position tests; the shipped themes are in `THEMES`, a set may use others;
- ``fen``: the position in the project's FEN (harness/variants/cs3243/fen.py: ranks 7 to 1,
  the engine's letters, side to move, ``- -``, the plies since the last capture, the move
  number); the side to move is the solver;
- ``solutions``: every move that solves it, as course move names (``c4c5``: column and course
  row of the square moved from, then of the square moved to; rows 0-6, White's back rank 0);
- optional: ``line`` (a winning line, course move names), ``origin`` (where the position comes
  from) and ``verified`` (how the solutions were proved), both free-form JSON kept as given.

Reading checks every line and stops at the first problem with ``FILE:LINE: problem``: not
JSON, a missing or mistyped field, an unknown field, a FEN that does not parse, a position
already over, a solution that is not a legal move there, an id used twice.
"""
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ..variants.cs3243 import VARIANT
from ..variants.cs3243.fen import game_from_fen
from ..variants.cs3243.game import Position

# The shipped themes, in the order reports list them (a TA's set may bring others).
THEMES: Dict[str, str] = {
    "mate-in-1": "a move after which the opponent has no move that keeps its King safe",
    "mate-in-2": "no mate in 1, but a move after which every reply allows a mate in 1",
    "winning-material": "the one move that wins material (a capture, a fork, a pin, ...)",
    "parry-mate-threat": "the opponent threatens mate in 1: the one move that stops it",
}
FIELDS = ("id", "theme", "fen", "solutions", "line", "origin", "verified")
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
DEFAULT_SET = "cs3243"
_ID = re.compile(r"[A-Za-z0-9_.-]+")


class PuzzleError(Exception):
    """A set that cannot be used; the text is one line naming the file (and line)."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    theme: str
    fen: str
    solutions: Tuple[str, ...]
    line: Tuple[str, ...] = ()
    origin: Any = None
    verified: Any = None
    where: str = field(default="", compare=False)    # FILE:LINE it was read from

    def state(self) -> Position:
        """The position (its plies since the last capture included)."""
        return game_from_fen(self.fen).state

    def to_json(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"id": self.id, "theme": self.theme, "fen": self.fen,
                                "solutions": list(self.solutions)}
        if self.line:
            data["line"] = list(self.line)
        if self.origin is not None:
            data["origin"] = self.origin
        if self.verified is not None:
            data["verified"] = self.verified
        return data


def shipped_sets() -> List[str]:
    """The names of the sets shipped with the package."""
    if not os.path.isdir(DATA):
        return []
    return sorted(name[:-len(".jsonl")] for name in os.listdir(DATA) if name.endswith(".jsonl"))


def set_path(name: str) -> str:
    """The file of a shipped set's name, or `name` itself when it is a file."""
    if name in shipped_sets():
        return os.path.join(DATA, name + ".jsonl")
    if os.path.isfile(name):
        return name
    if os.path.isdir(name):
        raise PuzzleError(f"'{name}' is a folder, not a puzzle file (.jsonl)")
    raise PuzzleError(f"no puzzle set '{name}': give a file or one of {', '.join(shipped_sets()) or 'none'}")


def _strings(value: Any, what: str) -> Tuple[str, ...]:
    if not (isinstance(value, list) and all(isinstance(x, str) for x in value)):
        raise ValueError(f"'{what}' must be a list of move names such as [\"c1c2\"], not {json.dumps(value)[:60]}")
    return tuple(value)


def parse_puzzle(data: Any) -> Puzzle:
    """A puzzle from one line's JSON value; ValueError (one line) says what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"a puzzle is a JSON object, not {type(data).__name__}")
    unknown = [key for key in data if key not in FIELDS]
    if unknown:
        raise ValueError(f"unknown field '{unknown[0]}' (the fields are {', '.join(FIELDS)})")
    for key in ("id", "theme", "fen", "solutions"):
        if key not in data:
            raise ValueError(f"no '{key}'")
    for key in ("id", "theme", "fen"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise ValueError(f"'{key}' must be a non-empty string")
    if not _ID.fullmatch(data["id"]):
        raise ValueError(f"id '{data['id']}' may hold only letters, digits, '-', '_' and '.'")
    solutions = _strings(data["solutions"], "solutions")
    line = _strings(data.get("line", []), "line")
    if not solutions:
        raise ValueError("'solutions' is empty: name at least one move")
    try:
        state = game_from_fen(data["fen"]).state
    except ValueError as exc:
        raise ValueError(f"bad fen: {exc}") from None
    king = state.rules.king
    for side, colour in ((1, "White"), (-1, "Black")):
        if state.board.count(side * king) != 1:
            raise ValueError(f"{colour} must have exactly one King in the fen")
    ended = VARIANT.outcome(state)
    if ended is not None:
        raise ValueError(f"the game is already over in this position ({ended.reason})")
    legal = {VARIANT.move_name(m) for m in VARIANT.legal_moves(state)}
    for move in solutions:
        if move not in legal:
            raise ValueError(f"solution '{move}' is not a legal move of {state.to_move} here")
    if len(set(solutions)) != len(solutions):
        raise ValueError("a solution is named twice")
    return Puzzle(data["id"], data["theme"], data["fen"], solutions, line, data.get("origin"), data.get("verified"))


def read_set(path: str) -> List[Puzzle]:
    """Every puzzle of a set file, in file order; PuzzleError names FILE:LINE and the problem."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except UnicodeDecodeError:
        raise PuzzleError(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise PuzzleError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    puzzles: List[Puzzle] = []
    seen: Dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise PuzzleError(f"{path}:{number}: not JSON ({exc})") from None
        try:
            puzzle = parse_puzzle(data)
        except ValueError as exc:
            raise PuzzleError(f"{path}:{number}: {exc}") from None
        if puzzle.id in seen:
            raise PuzzleError(f"{path}:{number}: id '{puzzle.id}' is already used on line {seen[puzzle.id]}")
        seen[puzzle.id] = number
        puzzles.append(Puzzle(**{**puzzle.__dict__, "where": f"{path}:{number}"}))
    if not puzzles:
        raise PuzzleError(f"{path}: no puzzles in it (one JSON object per line)")
    return puzzles


def load_set(name: str) -> Tuple[str, List[Puzzle]]:
    """(the file, its puzzles) for a shipped set's name or a file."""
    path = set_path(name)
    return path, read_set(path)


def find(puzzles: List[Puzzle], puzzle_id: str) -> Optional[Puzzle]:
    return next((p for p in puzzles if p.id == puzzle_id), None)


def write_set(path: str, puzzles: List[Puzzle]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for puzzle in puzzles:
            handle.write(json.dumps(puzzle.to_json()) + "\n")
