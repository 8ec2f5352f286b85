"""NTHU MiniChess 6x5, the contract in docs/nthu.md (the course's rules, move order, end rules).

A state is immutable: the board (30 signed course codes, square ``row * 5 + col``, row 0 at the
top, Black's back rank), the side to move (+1 White, -1 Black) and the plies played. Squares in a
`Move` are those indices; names are the runner's, lower case: file a..e = col 0..4, rank 6..1 =
row 0..5, so White's king starts on e1. Promotion to a queen is automatic (Move.promotion stays
None). The end rules, checked before each ply in this order: the step limit (50 plies: material
decides), the king threat (the side to move can capture the king: it wins), no move (the side to
move loses).
"""
import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

from ...core.variant import BLACK, WHITE, Ending, Move, Outcome, Variant
from . import core
from .files import StateFileError, parse_state, state_text
from .grading import BASELINES, course_grading, grading_lines

__all__ = ["VARIANT", "NthuVariant", "State", "StateFileError", "LETTERS", "to_fen", "parse_fen"]

LETTERS = ".PRNBQK"           # by course code; White upper case, Black lower case
NAMES = ("", "Pawn", "Rook", "Knight", "Bishop", "Queen", "King")
FILES = "abcde"
_MOVE = re.compile(r"([a-e])([1-6])([a-e])([1-6])\Z")


class NthuEnding(Ending):
    """NTHU MiniChess's endings (the course's runner's)."""
    KING_THREAT = "king_threat", "{W} can capture {L}'s King"     # the side to move can capture the King: it wins
    STEP_LIMIT = "step_limit", "the plies ran out and material decides"   # 50 plies played
    NO_MOVES = "no_moves", "{L} has no legal move"                # the side to move has no move: it loses


@dataclass(frozen=True)
class State:
    board: Tuple[int, ...]          # 30 signed course codes, row 0 (rank 6) first
    side: int = 1                   # +1 White, -1 Black
    plies: int = 0                  # plies played since the start

    @property
    def colour(self) -> str:
        return WHITE if self.side == 1 else BLACK


def square_name(sq: int) -> str:
    r, c = divmod(sq, core.COLS)
    return f"{FILES[c]}{core.ROWS - r}"


def course_move(move: Move) -> Tuple[int, int, int, int]:
    """The move as the course writes it: from_row from_col to_row to_col."""
    fr, fc = divmod(move.from_square, core.COLS)
    tr, tc = divmod(move.to_square, core.COLS)
    return fr, fc, tr, tc


def move_from_course(group) -> Optional[Move]:
    """The Move of a course group (from_row, from_col, to_row, to_col); None if off the board."""
    fr, fc, tr, tc = group
    if not all(0 <= r < core.ROWS for r in (fr, tr)) or not all(0 <= c < core.COLS for c in (fc, tc)):
        return None
    return Move(fr * core.COLS + fc, tr * core.COLS + tc)


class NthuVariant(Variant):
    name = "nthu"
    report_opponents = BASELINES       # the course's grading: one game with each colour, no clock
    report_games = 1
    report_colour = "both"
    class_grading = "repositories"     # grade: a repository per student, built, laddered, ranked
    agent_forms = ("program",)
    program_prefix = "nthu:"
    program_factory = "harness.variants.nthu.program:program_agent"

    def course_grading(self, games):
        grading = course_grading(games)
        grading["lines"] = grading_lines(grading)
        return grading
    title = "NTHU MiniChess 6x5"
    values = {NAMES[code]: core.VALUE[code] for code in range(1, 7)}
    letters = {NAMES[code]: LETTERS[code] for code in range(1, 7)}
    terminations = NthuEnding
    option_defaults = {"config": None, "fen": None}
    option_notes = {"config": "a state file", "program": "an NTHU program"}
    analyser_nodes = 3000             # our ab search: about 0.04 s a position on one core (docs/analysis.md)
    default_move_timeout = 10.0       # the course's runner's limit per move, for nthu:PATH

    def game_options(self, fifty=None, max_plies=None, config=None, fen=None):
        """--config FILE: start from a course `state` file; --fen TEXT: from our FEN-like text
        (both read now, so a bad one is one line). The course has no --fifty or --max-plies."""
        for key, value in (("fifty", fifty), ("max-plies", max_plies)):
            if value is not None:
                raise ValueError(f"nthu has no --{key} option (the course's step limit is "
                                 f"{core.STEP_LIMIT} plies)")
        if config is not None and fen is not None:
            raise ValueError("nthu: give --config or --fen, not both")
        if fen is not None:
            parse_fen(fen)
            return {"fen": fen}
        if config is None:
            return {}
        self.start(config)
        return {"path": config}

    def to_fen(self, state: State) -> str:
        return to_fen(state)

    def fen(self, state: State) -> str:
        return to_fen(state)

    def describe(self, state: State) -> str:
        return (f"step limit {core.STEP_LIMIT} plies (material decides), king threat wins, "
                f"no move loses; ply {state.plies}")

    def start(self, path: Optional[str] = None, plies: int = 0, fen: Optional[str] = None,
              **options) -> State:
        """The course's start position, a position in our FEN-like text (see `to_fen`), or the
        position of a `state` file (StateFileError, ``<file>:<line>: <problem>``, when it is not
        one)."""
        if fen is not None:
            return parse_fen(fen)
        path = path or options.get("state") or options.get("config")
        if not path:
            return State(core.START, 1, plies)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise StateFileError(path, 0, f"cannot read the file ({e.__class__.__name__})") from None
        board, side = parse_state(text, path)
        return State(board, side, plies)

    def state_text(self, state: State) -> str:
        """The `state` file the course's runner would write for this state."""
        return state_text(state.board, state.side)

    def to_move(self, state: State) -> str:
        return state.colour

    def legal_moves(self, state: State) -> List[Move]:
        return [Move(s, t) for s, t in core.moves(state.board, state.side)]

    def apply(self, state: State, move: Move) -> State:
        return State(core.play(state.board, (move.from_square, move.to_square)), -state.side,
                     state.plies + 1)

    def outcome(self, state: State) -> Optional[Outcome]:
        board, side = state.board, state.side
        if state.plies >= core.STEP_LIMIT:
            lead = core.material(board, 1)
            return Outcome(NthuEnding.STEP_LIMIT, WHITE if lead > 0 else BLACK if lead < 0 else None)
        if core.can_take_king(board, side):
            return Outcome(NthuEnding.KING_THREAT, state.colour)
        if not core.moves(board, side):
            return Outcome(NthuEnding.NO_MOVES, BLACK if side == 1 else WHITE)
        return None

    def move_name(self, move: Move) -> str:
        return square_name(move.from_square) + square_name(move.to_square)

    def parse_move(self, text: str) -> Move:
        m = _MOVE.match(text.strip().lower()) if isinstance(text, str) else None
        if not m:
            raise ValueError(f"'{text}' is not a move name such as d2d3 (files a-e, ranks 1-6)")
        fc, fr, tc, tr = m.groups()
        return Move((core.ROWS - int(fr)) * core.COLS + FILES.index(fc),
                    (core.ROWS - int(tr)) * core.COLS + FILES.index(tc))

    def material(self, state: State) -> int:
        """White's material minus Black's (the step limit's measure)."""
        return core.material(state.board, 1)

    def grid(self, state: State):
        rows = []
        for r in range(core.ROWS):
            row = []
            for c in range(core.COLS):
                p = state.board[r * core.COLS + c]
                row.append(None if not p else (LETTERS[abs(p)], WHITE if p > 0 else BLACK))
            rows.append(row)
        return rows

    def check_cell(self, state: State) -> Optional[Tuple[int, int]]:
        king = core.king_square(state.board, state.side)
        if king < 0 or not core.attacked(state.board, king, -state.side):
            return None
        return divmod(king, core.COLS)

    def square_names(self):
        return list(FILES), [str(core.ROWS - r) for r in range(core.ROWS)]

    def board_text(self, state: State, last: Optional[Move] = None) -> str:
        """Ranks 6 to 1 from the top, White upper case, Black lower case, the last move's squares
        in brackets."""
        marked = {last.from_square, last.to_square} if last else set()
        lines = []
        for r in range(core.ROWS):
            cells = []
            for c in range(core.COLS):
                sq = r * core.COLS + c
                p = state.board[sq]
                text = "." if not p else LETTERS[p] if p > 0 else LETTERS[-p].lower()
                cells.append(f"[{text}]" if sq in marked else f" {text} ")
            lines.append(f"{core.ROWS - r} " + "".join(cells))
        lines.append("   " + "  ".join(FILES))
        lines.append(f"{state.colour} to move, ply {state.plies}")
        return "\n".join(lines)

    def perft(self, state: State, depth: int) -> int:
        """As the generic perft (a finished game has no moves), on the bare boards."""
        return _perft(state.board, state.side, state.plies, depth)

    def record_fields(self, start: State, moves: List[Move]):
        """A game that does not start at the start position records its start as `fen`."""
        if start == State(core.START, 1, 0):
            return {}
        return {"fen": to_fen(start)}


def to_fen(state: State) -> str:
    """Our FEN-like text of a state: ranks 6 to 1 separated by '/', White upper case, a digit
    for a run of empty squares; then 'w' or 'b'; then the plies played. The start:
    ``kqbnr/ppppp/5/5/PPPPP/RNBQK w 0``."""
    ranks = []
    for r in range(core.ROWS):
        text, empty = "", 0
        for c in range(core.COLS):
            p = state.board[r * core.COLS + c]
            if not p:
                empty += 1
                continue
            text += (str(empty) if empty else "") + (LETTERS[p] if p > 0 else LETTERS[-p].lower())
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(ranks)} {'w' if state.side == 1 else 'b'} {state.plies}"


def parse_fen(text: str) -> State:
    """The state of a `to_fen` text; ValueError (one line, naming the problem) otherwise."""
    fields = text.split() if isinstance(text, str) else []
    if len(fields) not in (2, 3):
        raise ValueError(f"'{text}': expected 'RANKS SIDE [PLIES]', e.g. '{to_fen(State(core.START))}'")
    ranks = fields[0].split("/")
    if len(ranks) != core.ROWS:
        raise ValueError(f"'{text}': {len(ranks)} ranks, expected {core.ROWS}")
    board = []
    for number, rank in zip(range(core.ROWS, 0, -1), ranks):
        row = []
        for ch in rank:
            if ch.isdigit():
                row.extend([0] * int(ch))
            elif ch.upper() in LETTERS[1:]:
                code = LETTERS.index(ch.upper())
                row.append(code if ch.isupper() else -code)
            else:
                raise ValueError(f"'{text}': rank {number} has '{ch}', not a piece letter or a digit")
        if len(row) != core.COLS:
            raise ValueError(f"'{text}': rank {number} has {len(row)} squares, expected {core.COLS}")
        board.extend(row)
    if fields[1] not in ("w", "b"):
        raise ValueError(f"'{text}': the side to move is 'w' or 'b', not '{fields[1]}'")
    plies = fields[2] if len(fields) == 3 else "0"
    if not plies.isdigit():
        raise ValueError(f"'{text}': the plies played must be a whole number, not '{plies}'")
    return State(tuple(board), 1 if fields[1] == "w" else -1, int(plies))


def _perft(board, side, plies, depth):
    if depth == 0:
        return 1
    if plies >= core.STEP_LIMIT or core.can_take_king(board, side):
        return 0
    ms = core.moves(board, side)
    if depth == 1:
        return len(ms)
    return sum(_perft(core.play(board, m), -side, plies + 1, depth - 1) for m in ms)


VARIANT = NthuVariant()
