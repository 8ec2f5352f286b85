"""NUS CS3243's 7x7 fairy minichess as a variant (rules: docs/rules-cs3243.md).

The rules engine is `rules.Rules` (flat board of signed ints, tables built from the piece data in
`pieces`), a state is a `game.Position`, agents are called through the course's gameboard dict
(`protocol`), and positions come from the course's config.txt (`config`) or a FEN (`fen`).
"""
from typing import Any, Dict, List, Optional, Tuple

from ...core.variant import BLACK, WHITE, Move, Outcome, Variant
from . import board_text, fen
from .config import read_config
from .fen import from_fen
from .game import CS3243Ending
from .game import DEFAULT_FIFTY_LIMIT, DEFAULT_MAX_PLIES, Game, Position, course_move, interleave, move_from_name, move_name
from .protocol import GameboardProtocol
from .rules import RULES, perft


class CS3243(Variant):
    name = "cs3243"
    title = "NUS CS3243 7x7 fairy minichess"
    protocol_class = GameboardProtocol
    rules = RULES
    values: Dict[str, int] = {p.name: p.value for p in RULES.variant.pieces}
    letters: Dict[str, str] = {p.name: p.letter for p in RULES.variant.pieces}
    # the course's pass marks (not-lost rate; a draw counts as not lost) and its 30 s per game
    pass_marks: Dict[str, float] = {"dummy": 1.0, "random": 1.0, "greedy": 0.9, "smart": 0.9, "minimax": 0.8}
    report_opponents = tuple(pass_marks)
    game_seconds = 30.0
    # the game review's analyser: Fairy-Stockfish with the project's cs3243.ini (fen.VARIANT_FILE)
    default_analyser = "uci"
    uci_variant = fen.VARIANT_NAME
    uci_variant_file = fen.VARIANT_FILE
    analyser_nodes = 10000            # about 0.03 s a position on one core (docs/analysis.md)
    option_defaults = {"fifty": DEFAULT_FIFTY_LIMIT, "max_plies": DEFAULT_MAX_PLIES, "config": None, "fen": None}
    option_notes = {"config": "a config.txt"}
    uci_win_slope = 0.00224           # fitted to 100 recorded games (bench/win_curve.py, docs/analysis.md)
    uci_noise = 6.5
    class_grading = "files"           # grade and the Gradescope bundle: a .py file per student
    agent_forms = ("file", "uci")
    can_start_black = True
    terminations = CS3243Ending

    def describe(self, state: Position) -> str:
        return f"draw after {state.fifty_limit} quiet plies, at most {state.max_plies} plies"

    def game_options(self, fifty: Optional[int] = None, max_plies: Optional[int] = None,
                     config: Optional[str] = None, fen: Optional[str] = None) -> Dict[str, Any]:
        """{"fifty", "max_plies", "start"} and, with --fen, "fen": the limits, the config file's
        position as [[col, row, piece, colour], ...] in the course's dict order (None: the course's
        start) or the FEN (either side to move; its halfmove clock counts toward --fifty).
        ConfigError names the config file's bad line; ValueError (one line) a bad FEN."""
        if config is not None and fen is not None:
            raise ValueError("cs3243: give --config or --fen, not both")
        start = None
        if config is not None:
            setup = read_config(config)
            board = interleave(setup.white, setup.black)
            start = [[c, r, piece, colour] for (c, r), (piece, colour) in board.items()]
        options = {"fifty": self.option_defaults["fifty"] if fifty is None else fifty,
                   "max_plies": self.option_defaults["max_plies"] if max_plies is None else max_plies,
                   "start": start}
        if fen is not None:
            try:
                self.start(fen=fen)
            except ValueError as exc:
                raise ValueError(f"--fen '{fen}': {exc}") from None
            options["fen"] = fen
        return options

    def record_start(self, record):
        """CS3243's records keep their start as ``start_fen`` (none: the course's start position)
        and its own fifty and max_plies limits."""
        limits = {k: record[k] for k in ("fifty", "max_plies") if type(record.get(k)) is int}
        return self.start(fen=record.get("start_fen") or fen.START_FEN, **limits)

    def start(self, start=None, to_move: str = WHITE, fifty: Optional[int] = None,    # type: ignore[override]
              max_plies: Optional[int] = None, gameboard=None, fen: Optional[str] = None) -> Position:
        """The course's start, or a position given as `game_options`' rows, as a gameboard or as
        a FEN (`fen`: its side to move, halfmove clock and move number; the plies toward
        `max_plies` count from it). ValueError for a FEN that is malformed or does not give each
        side exactly one King."""
        quiet, fullmove = 0, 1
        if fen is not None:
            gameboard, to_move, quiet, fullmove = from_fen(fen, RULES)
            royal = RULES.piece_of[RULES.king].name
            for colour in (WHITE, BLACK):
                kings = sum(1 for piece, owner in gameboard.values() if piece == royal and owner == colour)
                if kings != 1:
                    raise ValueError(f"{colour} has {kings} {royal}s; a game needs exactly one per side")
        elif start is not None:
            gameboard = {(c, r): (piece, colour) for c, r, piece, colour in start}
        return Position(gameboard, to_move, RULES,
                        fifty_limit=DEFAULT_FIFTY_LIMIT if fifty is None else fifty,
                        max_plies=DEFAULT_MAX_PLIES if max_plies is None else max_plies,
                        quiet_plies=quiet, first_fullmove=fullmove)

    def to_move(self, state: Position) -> str:
        return state.to_move

    def legal_moves(self, state: Position) -> List[Move]:
        return [Move(s, t) for s, t in RULES.moves(state.board, state.side)]

    def apply(self, state: Position, move: Move) -> Position:
        return state.advance(move)        # type: ignore[arg-type]  # its (from, to) is read

    def outcome(self, state: Position) -> Optional[Outcome]:
        return state.outcome()

    def move_name(self, move: Move) -> str:
        return move_name(RULES, move)     # type: ignore[arg-type]

    def parse_move(self, text: str) -> Move:
        move = move_from_name(RULES, text) if isinstance(text, str) and len(text) == 4 else (None,)
        if None in move:
            raise ValueError(f"'{text}' is not a move name such as 'c1c2' (columns a-g, rows 0-6)")
        return Move(*move)

    def board_text(self, state: Position, last: Optional[Move] = None) -> str:
        marked = course_move(RULES, last) if last is not None else ()     # type: ignore[arg-type]
        return board_text.render(state.gameboard, marked=marked)

    def grid(self, state: Position) -> List[List[Optional[Tuple[str, str]]]]:
        edition = RULES.variant
        rows = []
        for row in range(edition.rows - 1, -1, -1):
            cells = []
            for col in range(edition.cols):
                p = state.board[edition.index(col, row)]
                cells.append(None if not p else (RULES.piece_of[abs(p)].letter, WHITE if p > 0 else "Black"))
            rows.append(cells)
        return rows

    def check_cell(self, state: Position) -> Optional[Tuple[int, int]]:
        king = RULES.king_square(state.board, state.side)
        if king < 0 or not RULES.attacked(state.board, king, -state.side):
            return None
        edition = RULES.variant
        return edition.rows - 1 - king // edition.cols, king % edition.cols

    def square_names(self) -> Tuple[List[str], List[str]]:
        edition = RULES.variant
        return list(edition.column_letters()), [str(r) for r in range(edition.rows - 1, -1, -1)]

    def perft(self, state: Position, depth: int) -> int:
        """The course's perft: a sequence ends only when a King is captured."""
        return perft(RULES, state.board, state.side, depth)

    def fen(self, state: Position) -> str:
        """The position's FEN, its move number counted on from the game's first position's."""
        first = state.to_move if state.plies % 2 == 0 else (BLACK if state.to_move == WHITE else WHITE)
        offset = state.first_fullmove - 1       # a start from a FEN keeps its move number
        return fen.position_fen(state, offset + fen.fullmove_number(first, state.plies))

    def engine_fen(self, state: Position) -> str:
        """The position as the analyser sends it (move number 1: the engine needs no other)."""
        return fen.position_fen(state)

    def engine_move(self, state: Position, text: str) -> Optional[Move]:
        move = fen.parse_engine_move(RULES, text)
        return Move(*move) if move is not None and Move(*move) in self.legal_moves(state) else None

    def engine_view_fen(self, gameboard, colour: str) -> str:
        """A uci: agent is shown the course's gameboard (`protocol`): its FEN, move number 1."""
        return fen.to_fen(gameboard, colour, 0, 1, RULES)

    def engine_answer(self, gameboard, text: str):
        """A uci: agent answers in the course's notation, as a student's agent does (the engine's
        text when it names no square pair: the referee rejects it)."""
        return fen.engine_to_course(RULES, text) or text

    def replay_text(self, record, notes):
        """The course's replay text (harness/variants/cs3243/replay.py)."""
        from .replay import replay_lines
        return replay_lines(record, notes=notes)

    def record_fields(self, start: Position, moves: List[Move]) -> Dict[str, Any]:
        return {"fifty": start.fifty_limit, "max_plies": start.max_plies, **fen.record_fields(start, moves)}  # type: ignore[arg-type]


VARIANT = CS3243()
Game.default_variant = VARIANT      # game.py's Game plays this variant unless told otherwise
