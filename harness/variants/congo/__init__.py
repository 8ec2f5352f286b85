"""Congo (7x7, the course's "Congo-lite": lion, zebra, elephant, giraffe, pawn, superpawn) as a
variant the referee plays like any other. The rules, editions and programs are the course's, as
docs/congo.md restates them with what this package chose where the course is silent.

A state is an immutable `State`: the board (see `rules`: 49 ints, a1 = 0, a2 = 1, ..., g7 = 48),
the side to move, the move number, the plies played since the start, the edition (2021: no
promotion; 2022: a pawn on the far rank becomes a superpawn) and the ply limit. Agents are shown
the state itself (the default `AgentProtocol`) and answer with a `Move` or a name such as e7d6.

End rules, checked in this order before each ply: a lion is gone (the side that still has its lion
wins), only the two lions are left (draw), the side to move has no move (draw), the ply limit
(draw; 300 plies by default).
"""
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ...core.variant import BLACK, WHITE, Ending, Move, Outcome, Termination, Variant
from . import rules
from .rules import EDITIONS, FenError, format_fen, parse_fen

DEFAULT_MAX_PLIES = 300
DEFAULT_EDITION = "2022"
# The standard Congo start without the crocodile and the monkey (which the course never plays);
# the 2021 edition has no giraffe either.
START_FEN = {
    "2021": "2ele1z/ppppppp/7/7/7/PPPPPPP/2ELE1Z w 1",
    "2022": "g1ele1z/ppppppp/7/7/7/PPPPPPP/G1ELE1Z w 1",
}


class CongoEnding(Ending):
    """Congo's own endings (besides the core's no-move draw and ply limit)."""
    LION_CAPTURE = "lion_capture", "{L}'s lion is gone"      # a lion is gone: the side with its lion wins
    LIONS_ONLY = "lions_only", "only the two lions are left"   # draw


class State(NamedTuple):
    board: Tuple[int, ...]
    side: int               # 1 White, -1 Black
    move_number: int
    plies: int              # plies played since this game's start position
    edition: str            # "2021" or "2022"
    max_plies: int

    @property
    def fen(self) -> str:
        return format_fen(self.board, self.side, self.move_number)

    @property
    def promotion(self) -> bool:
        return self.edition == "2022"


def check_edition(edition: Any) -> str:
    edition = str(edition)
    if edition not in EDITIONS:
        raise ValueError(f"unknown Congo edition '{edition}': use 2021 or 2022")
    return edition


class CongoVariant(Variant):
    name = "congo"
    terminations = CongoEnding
    option_defaults = {"max_plies": DEFAULT_MAX_PLIES, "fen": None}
    analyser_nodes = 1500              # our ab search: about 0.04 s a position on one core (docs/analysis.md)
    class_grading = "programs"         # grade: a program per part, judged on hidden cases
    report_opponents = ("random", "greedy", "minimax", "alphabeta")   # no pass marks, no game clock
    title = "Congo (7x7, the course's lion, zebra, elephant, giraffe, pawn and superpawn)"
    values = {rules.NAMES[p]: v for p, v in rules.VALUES.items() if p != rules.LION}
    letters = {rules.NAMES[p]: letter for p, letter in rules.LETTERS.items()}

    def game_options(self, fifty: Optional[int] = None, max_plies: Optional[int] = None,
                     config: Optional[str] = None, fen: Optional[str] = None) -> Dict[str, Any]:
        """{"fen", "edition", "max_plies"} from the command line's --fen and --max-plies (the
        edition is 2022's). ValueError (one line) for --fifty, --config or a bad FEN."""
        if fifty is not None:
            raise ValueError("congo has no --fifty option (its games end at --max-plies)")
        if config is not None:
            raise ValueError("congo starts from --fen, not a config file")
        options: Dict[str, Any] = {"fen": fen, "edition": DEFAULT_EDITION,
                   "max_plies": self.option_defaults["max_plies"] if max_plies is None else max_plies}
        try:
            self.start(**options)
        except ValueError as exc:
            raise ValueError(f"--fen '{fen}': {exc}" if fen is not None else str(exc)) from None
        return options

    def describe(self, state: State) -> str:
        return f"{state.edition} rules, at most {state.max_plies} plies"

    def start(self, fen: Optional[str] = None, edition: str = DEFAULT_EDITION,
              max_plies: int = DEFAULT_MAX_PLIES, **options) -> State:
        """The first state: the edition's start position or `fen`. A FEN that is malformed, or
        that does not give each side exactly one lion, is a FenError (a ValueError) naming the
        problem; so is an unknown edition or option."""
        unknown = sorted(k for k, v in options.items() if v is not None)
        if unknown:
            raise ValueError(f"congo: unknown start option '{unknown[0]}'")
        edition = check_edition(edition)
        if not isinstance(max_plies, int) or max_plies < 1:
            raise ValueError(f"congo: the ply limit must be a whole number >= 1, not {max_plies!r}")
        position = parse_fen(START_FEN[edition] if fen is None else fen)
        for code, colour in ((rules.LION, WHITE), (-rules.LION, BLACK)):
            n = position.board.count(code)
            if n != 1:
                raise FenError(f"{colour} has {n} lions; a game needs exactly one per side")
        return State(position.board, position.side, position.move_number, 0, edition, max_plies)

    def to_move(self, state: State) -> str:
        return WHITE if state.side > 0 else BLACK

    def legal_moves(self, state: State) -> List[Move]:
        return [Move(s, t) for s, t in rules.generate(state.board, state.side)]

    def apply(self, state: State, move: Move) -> State:
        board = rules.execute(state.board, state.side, move[0], move[1], state.promotion)
        number = state.move_number + (1 if state.side < 0 else 0)
        return State(board, -state.side, number, state.plies + 1, state.edition, state.max_plies)

    def outcome(self, state: State) -> Optional[Outcome]:
        board = state.board
        white, black = rules.LION in board, -rules.LION in board
        if not (white and black):
            return Outcome(CongoEnding.LION_CAPTURE, WHITE if white else BLACK if black else None)
        if board.count(0) == rules.SQUARES - 2:
            return Outcome(CongoEnding.LIONS_ONLY, None)
        if not rules.generate(board, state.side):
            return Outcome(Termination.NO_MOVES_DRAW, None)
        if state.plies >= state.max_plies:
            return Outcome(Termination.MAX_PLIES, None)
        return None

    def move_name(self, move: Move) -> str:
        return rules.move_text(move[0], move[1])

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise ValueError(f"a Congo move is text such as e7d6, not {type(text).__name__}")
        name = text.strip()
        source, target = rules.parse_square(name[:2]), rules.parse_square(name[2:])
        if len(name) != 4 or source is None or target is None:
            raise ValueError(f"'{text}' is not a Congo move name (from-square and to-square, "
                             "such as e7d6)")
        return Move(source, target)

    def board_text(self, state: State, last: Optional[Move] = None) -> str:
        """Rank 7 at the top, White in upper case; empty river squares shown as '~'; the last
        move's squares in brackets."""
        marked = set(last[:2]) if last is not None else set()
        lines = ["    " + "  ".join(rules.FILES)]
        for rank in range(rules.SIZE, 0, -1):
            cells = []
            for f in range(rules.SIZE):
                s = rules.square(f, rank)
                code = state.board[s]
                if code:
                    letter = rules.LETTERS[abs(code)]
                    text = letter if code > 0 else letter.lower()
                else:
                    text = "~" if rank == rules.RIVER_RANK else "."
                cells.append(f"[{text}]" if s in marked else f" {text} ")
            lines.append(f"{rank:>2} " + "".join(cells) + ("  river" if rank == rules.RIVER_RANK else ""))
        lines.append(f"{self.to_move(state)} to move, move {state.move_number} ({state.edition} rules)")
        return "\n".join(lines)

    def grid(self, state: State) -> List[List[Optional[Tuple[str, str]]]]:
        rows = []
        for rank in range(rules.SIZE, 0, -1):
            row = []
            for f in range(rules.SIZE):
                code = state.board[rules.square(f, rank)]
                row.append((rules.LETTERS[abs(code)], WHITE if code > 0 else BLACK) if code else None)
            rows.append(row)
        return rows

    def check_cell(self, state: State) -> Optional[Tuple[int, int]]:
        lion = rules.LION * state.side
        if lion not in state.board:
            return None
        at = state.board.index(lion)
        if not any(t == at for _, t in rules.generate(state.board, -state.side)):
            return None
        return rules.SIZE - rules.rank_of(at), rules.file_of(at)

    def regions(self) -> Dict[str, List[Tuple[int, int]]]:
        return {"river": [(rules.SIZE - rules.RIVER_RANK, f) for f in range(rules.SIZE)]}

    def square_names(self) -> Tuple[List[str], List[str]]:
        return list(rules.FILES), [str(r) for r in range(rules.SIZE, 0, -1)]

    def fen(self, state: State) -> str:
        return state.fen

    def perft(self, state: State, depth: int) -> int:
        """The generic count (a finished game has no moves beyond it), on the raw board."""
        return _perft(state.board, state.side, depth, state.max_plies - state.plies, state.promotion)

    def record_fields(self, start: State, moves: List[Move]) -> Dict[str, Any]:
        """The start, so `replay` can set the game up again: its FEN, edition and ply limit (what
        was left of it when the game started after opening plies)."""
        return {"fen": start.fen, "edition": start.edition, "max_plies": start.max_plies - start.plies}


def _perft(board: Tuple[int, ...], side: int, depth: int, plies_left: int, promotion: bool) -> int:
    if depth == 0:
        return 1
    if rules.LION not in board or -rules.LION not in board or board.count(0) == rules.SQUARES - 2:
        return 0
    moves = rules.generate(board, side)
    if plies_left <= 0:
        return 0
    if depth == 1:
        return len(moves)
    return sum(_perft(rules.execute(board, side, s, t, promotion), -side, depth - 1, plies_left - 1,
                      promotion) for s, t in moves)


VARIANT = CongoVariant()
