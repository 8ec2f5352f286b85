"""Gardner's 5x5 minichess (1969) as a variant, with the rules of Fairy-Stockfish's built-in
``gardner`` (docs/gardner.md): chess on a 5x5 board from ``rnbqk/ppppp/5/PPPPP/RNBQK w``, no
castling, no double step (so no en passant), a pawn on the far rank becomes a queen, rook,
bishop or knight.

A state is an immutable `State`: the board (`rules`: 25 ints, a1 = 0 ... e5 = 24), the side to
move, the plies played (counted from move 1 of the FEN the game started from), the plies since
the last capture or pawn move, the positions since then (for repetition) and an optional ply
limit. Agents are shown the state itself (the default `AgentProtocol`) and answer with a `Move`
or a name such as ``b2b3`` or ``a4a5q`` (UCI's: a promotion names its piece).

End rules, checked in this order before each ply: the side to move has no legal move
(checkmate: it loses; stalemate: draw); 100 plies without a capture or a pawn move (draw); the
position (board and side to move) stands for the third time (draw); neither side can mate with
what it has (draw, Fairy-Stockfish's `has_insufficient_material` for both); the ply limit, only
when one is given (draw).
"""
import re
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, cast

from ...core.variant import BLACK, WHITE, Ending, Move, Outcome, Termination, Variant
from . import rules

NAMES = ("", "Pawn", "Knight", "Bishop", "Rook", "Queen", "King")
FILES = "abcde"
FIFTY_MOVE_PLIES = 100            # Fairy-Stockfish's n-move rule for chess: 50 moves = 100 plies
REPETITIONS = 3                   # the third time a position stands, the game is drawn
START_FEN = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"
_MOVE = re.compile(r"([a-e][1-5])([a-e][1-5])([qrbn]?)\Z")


class GardnerEnding(Ending):
    """Gardner's own ending (besides the core's checkmate, stalemate, fifty, repetition, ply limit)."""
    INSUFFICIENT_MATERIAL = "insufficient_material"     # neither side can ever mate: draw


class State(NamedTuple):
    board: Tuple[int, ...]
    side: int                                    # +1 White, -1 Black
    plies: int = 0                               # (move number - 1) * 2, +1 when Black is to move
    quiet: int = 0                               # plies since the last capture or pawn move
    earlier: Tuple[Tuple[Tuple[int, ...], int], ...] = ()   # (board, side) since then, before this
    max_plies: Optional[int] = None              # a draw at this many plies (None: no limit)

    @property
    def colour(self) -> str:
        return WHITE if self.side == 1 else BLACK


def to_fen(state: State) -> str:
    """The state as Fairy-Stockfish's FEN of ``gardner``: ranks 5 to 1, the side to move, no
    castling, no en passant square, the plies since a capture or pawn move, the move number."""
    ranks = []
    for rank in range(rules.SIZE - 1, -1, -1):
        text, empty = "", 0
        for file in range(rules.SIZE):
            p = state.board[rank * rules.SIZE + file]
            if not p:
                empty += 1
                continue
            text += (str(empty) if empty else "") + (rules.LETTERS[p] if p > 0 else rules.LETTERS[-p].lower())
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(ranks)} {'w' if state.side == 1 else 'b'} - - {state.quiet} {state.plies // 2 + 1}"


def parse_fen(text: str, max_plies: Optional[int] = None) -> State:
    """The state of a FEN (``RANKS SIDE [CASTLING EP [HALFMOVE [FULLMOVE]]]``, castling and en
    passant ``-``); ValueError (one line, naming the problem) for anything else, including a
    position the game cannot reach: not one king each, a pawn on the first or last rank, the side
    not to move in check."""
    fields = text.split() if isinstance(text, str) else []
    if not 2 <= len(fields) <= 6:
        raise ValueError(f"'{text}': expected 'RANKS SIDE [- - HALFMOVE FULLMOVE]', e.g. '{START_FEN}'")
    ranks = fields[0].split("/")
    if len(ranks) != rules.SIZE:
        raise ValueError(f"'{text}': {len(ranks)} ranks, expected {rules.SIZE}")
    board = [0] * rules.SQUARES
    for number, rank_text in zip(range(rules.SIZE, 0, -1), ranks):
        row: List[int] = []
        for ch in rank_text:
            if ch.isdigit():
                row.extend([0] * int(ch))
            elif ch.upper() in rules.LETTERS[1:]:
                code = rules.LETTERS.index(ch.upper())
                row.append(code if ch.isupper() else -code)
            else:
                raise ValueError(f"'{text}': rank {number} has '{ch}', not a piece letter or a digit")
        if len(row) != rules.SIZE:
            raise ValueError(f"'{text}': rank {number} has {len(row)} squares, expected {rules.SIZE}")
        board[(number - 1) * rules.SIZE:number * rules.SIZE] = row
    if fields[1] not in ("w", "b"):
        raise ValueError(f"'{text}': the side to move is 'w' or 'b', not '{fields[1]}'")
    for i, name in ((2, "castling"), (3, "en passant")):
        if len(fields) > i and fields[i] != "-":
            raise ValueError(f"'{text}': gardner has no {name}: that field must be '-'")
    counters = []
    for i, name, least in ((4, "halfmove clock", 0), (5, "move number", 1)):
        value = fields[i] if len(fields) > i else str(least)
        if not value.isdigit() or int(value) < least:
            raise ValueError(f"'{text}': the {name} must be a whole number >= {least}, not '{value}'")
        counters.append(int(value))
    side = 1 if fields[1] == "w" else -1
    for colour, sign in ((WHITE, 1), (BLACK, -1)):
        kings = board.count(rules.KING * sign)
        if kings != 1:
            raise ValueError(f"'{text}': {colour} has {kings} kings; a game needs exactly one each")
    if any(abs(board[s]) == rules.PAWN for s in (*range(rules.SIZE), *range(rules.SQUARES - rules.SIZE, rules.SQUARES))):
        raise ValueError(f"'{text}': a pawn on the first or last rank")
    if rules.in_check(board, -side):
        raise ValueError(f"'{text}': the side not to move is in check")
    quiet, fullmove = counters
    return State(tuple(board), side, (fullmove - 1) * 2 + (side == -1), quiet, (), max_plies)


START = parse_fen(START_FEN)


def _name(move: Move) -> str:
    suffix = rules.LETTERS[NAMES.index(move.promotion)].lower() if move.promotion else ""
    return rules.square_name(move.from_square) + rules.square_name(move.to_square) + suffix


class GardnerVariant(Variant):
    name = "gardner"
    title = "Gardner's 5x5 minichess"
    values = {"Pawn": 100, "Knight": 300, "Bishop": 300, "Rook": 500, "Queen": 900, "King": 0}
    letters = {NAMES[code]: rules.LETTERS[code] for code in range(1, 7)}
    report_opponents = ("random", "greedy", "ab")       # no course: the generic agents, no marks
    terminations = GardnerEnding
    option_defaults = {"max_plies": None, "fen": None}     # no ply limit unless given
    analyser_nodes = 10000                              # Fairy-Stockfish's, as cs3243's
    promotion_pieces = tuple(rules.LETTERS[NAMES.index(name)].lower() for name in ("Queen", "Rook", "Bishop", "Knight"))
    agent_forms = ("uci",)                              # uci:PATH, an engine that knows `gardner`
    uci_variant = "gardner"                             # Fairy-Stockfish's built-in
    default_analyser = "uci"

    def game_options(self, fifty=None, max_plies=None, config=None, fen=None) -> Dict[str, Any]:
        """{"fen", "max_plies"} from --fen and --max-plies (each only when given); ValueError (one
        line) for --fifty, --config or a bad FEN."""
        if fifty is not None:
            raise ValueError(f"gardner has no --fifty option (its 50-move rule is {FIFTY_MOVE_PLIES} plies, "
                             f"as Fairy-Stockfish's)")
        if config is not None:
            raise ValueError("gardner starts from --fen, not a config file")
        options: Dict[str, Any] = {}
        if fen is not None:
            try:
                parse_fen(fen)
            except ValueError as exc:
                raise ValueError(f"--fen {exc}") from None
            options["fen"] = fen
        if max_plies is not None:
            options["max_plies"] = max_plies
        return options

    def start(self, fen: Optional[str] = None, max_plies: Optional[int] = None, **options) -> State:
        """The start position, or a FEN's (see `parse_fen`), with an optional ply limit."""
        if max_plies is not None and (type(max_plies) is not int or max_plies < 1):
            raise ValueError(f"gardner: the ply limit must be a whole number >= 1, not {max_plies!r}")
        return parse_fen(fen if fen is not None else START_FEN, max_plies)

    def describe(self, state: State) -> str:
        limit = f", at most {state.max_plies} plies" if state.max_plies else ""
        return (f"checkmate wins; stalemate, {FIFTY_MOVE_PLIES} plies without a capture or pawn move, "
                f"threefold repetition and no mating material draw{limit}")

    def to_move(self, state: State) -> str:
        return state.colour

    def legal_moves(self, state: State) -> List[Move]:
        return [Move(s, t, NAMES[p] if p else None) for s, t, p in rules.legal_moves(state.board, state.side)]

    def apply(self, state: State, move: Move) -> State:
        step = (move.from_square, move.to_square, NAMES.index(move.promotion) if move.promotion else 0)
        board = rules.play(state.board, step)
        earlier: tuple
        if rules.irreversible(state.board, step):
            quiet, earlier = 0, ()
        else:
            quiet, earlier = state.quiet + 1, state.earlier + ((state.board, state.side),)
        return State(board, -state.side, state.plies + 1, quiet, earlier, state.max_plies)

    def outcome(self, state: State) -> Optional[Outcome]:
        board, side = state.board, state.side
        if not rules.legal_moves(board, side):
            if rules.in_check(board, side):
                return Outcome(Termination.CHECKMATE, BLACK if side == 1 else WHITE)
            return Outcome(Termination.STALEMATE, None)
        if state.quiet >= FIFTY_MOVE_PLIES:
            return Outcome(Termination.FIFTY_MOVE_DRAW, None)
        if state.earlier.count((board, side)) >= REPETITIONS - 1:
            return Outcome(Termination.REPETITION, None)
        if rules.cannot_mate(board, 1) and rules.cannot_mate(board, -1):
            return Outcome(GardnerEnding.INSUFFICIENT_MATERIAL, None)
        if state.max_plies is not None and state.plies >= state.max_plies:
            return Outcome(Termination.MAX_PLIES, None)
        return None

    def move_name(self, move: Move) -> str:
        return _name(move)

    def parse_move(self, text: str) -> Move:
        m = _MOVE.match(text.strip().lower()) if isinstance(text, str) else None
        if not m:
            raise ValueError(f"'{text}' is not a move name such as b2b3 or a4a5q (files a-e, ranks 1-5)")
        origin, target, piece = m.groups()
        promotion = NAMES[rules.LETTERS.index(piece.upper())] if piece else None
        # the pattern matched names two squares
        return Move(cast(int, rules.parse_square(origin)), cast(int, rules.parse_square(target)), promotion)

    def board_text(self, state: State, last: Optional[Move] = None) -> str:
        """Ranks 5 to 1 from the top, White upper case, Black lower case, the last move's squares
        in brackets; then the side to move, the ply and the FEN."""
        marked = {last.from_square, last.to_square} if last else set()
        lines = []
        for rank in range(rules.SIZE - 1, -1, -1):
            cells = []
            for file in range(rules.SIZE):
                sq = rank * rules.SIZE + file
                p = state.board[sq]
                text = "." if not p else rules.LETTERS[p] if p > 0 else rules.LETTERS[-p].lower()
                cells.append(f"[{text}]" if sq in marked else f" {text} ")
            lines.append(f"{rank + 1} " + "".join(cells))
        lines.append("   " + "  ".join(FILES))
        lines.append(f"{state.colour} to move, ply {state.plies}: {to_fen(state)}")
        return "\n".join(lines)

    def grid(self, state: State):
        return [[None if not (p := state.board[rank * rules.SIZE + file]) else
                 (rules.LETTERS[abs(p)], WHITE if p > 0 else BLACK) for file in range(rules.SIZE)]
                for rank in range(rules.SIZE - 1, -1, -1)]

    def square_names(self):
        return list(FILES), [str(rank) for rank in range(rules.SIZE, 0, -1)]

    def check_cell(self, state: State) -> Optional[Tuple[int, int]]:
        """The mover's king's `grid` cell when it is in check (the board's glow), else None."""
        if not rules.in_check(state.board, state.side):
            return None
        rank, file = divmod(rules.king_square(state.board, state.side), rules.SIZE)
        return rules.SIZE - 1 - rank, file

    def perft(self, state: State, depth: int) -> int:
        """Legal move sequences as Fairy-Stockfish's ``go perft`` counts them: checkmate and
        stalemate end a sequence, the draw rules do not."""
        return 1 if depth == 0 else rules.perft(state.board, state.side, depth)

    def fen(self, state: State) -> str:
        return to_fen(state)

    def record_fields(self, start: State, moves: List[Move]) -> Dict[str, Any]:
        """A game from another position than the start records it as `fen`; a ply limit as
        `max_plies`."""
        fields: Dict[str, Any] = {}
        if (start.board, start.side, start.plies, start.quiet) != (START.board, START.side, 0, 0):
            fields["fen"] = to_fen(start)
        if start.max_plies is not None:
            fields["max_plies"] = start.max_plies
        return fields


VARIANT = GardnerVariant()
