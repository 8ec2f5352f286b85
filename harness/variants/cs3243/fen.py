"""Positions and moves in Fairy-Stockfish's notation, so any game can be checked by the engine.

The variant is defined for the engine in ``harness/cs3243.ini`` (``VARIANT_FILE``).

Squares: engine file = course column, engine rank = course row + 1. The course move
``(('a', 1), ('b', 2))`` is the engine move ``a2b3``.

FEN: ``<ranks> <side> <castling> <en passant> <halfmove clock> <fullmove number>``. The ranks
are listed from rank 7 (course row 6) down to rank 1 (course row 0), each from file a to g,
with the engine's letters (``PieceType.letter``; upper case White) and digits for runs of
empty squares. There is no castling or en passant in this variant, so both fields are ``-``.
The halfmove clock is our count of consecutive plies without a capture (``Game.quiet_plies``;
the variant file makes only captures reset it). The start position is
``nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1``.

A gameboard dict has a key order that matters to order-sensitive agents, and a FEN has none.
``from_fen`` builds its dict in this documented order: White and Black alternate piece by
piece (as for a config file), and each side lists its pieces by kind in the order of the
variant's start template (Ferz, Pawn, Knight, Bishop, Queen, King, Princess, Empress, Rook),
then by column, then from its own back row forward. For the start FEN this is exactly the
course's first gameboard, key order included.
"""
import os
import re
from typing import Dict, List, Optional, Sequence, Tuple, Union

from .rules import RULES, SIDE_OF_COLOUR, Move, Rules
from .pieces import BLACK, WHITE

Square = Tuple[str, int]
Gameboard = Dict[Square, Tuple[str, str]]

VARIANT_NAME = "cs3243"
VARIANT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cs3243.ini")
START_FEN = "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1"

_ENGINE_MOVE = re.compile(r"([a-z])([0-9]+)([a-z])([0-9]+)")


# -- squares and moves ----------------------------------------------------------------------

def engine_square(rules: Rules, index: int) -> str:
    """'a2' for the internal square of course ('a', 1)."""
    letter, row = rules.variant.square_of(index)
    return f"{letter}{row + 1}"


def engine_move(rules: Rules, move: Move) -> str:
    """The internal move (from_index, to_index) in engine notation, e.g. 'a2b3'."""
    return engine_square(rules, move[0]) + engine_square(rules, move[1])


def parse_engine_move(rules: Rules, text: str) -> Optional[Move]:
    """(from_index, to_index) of an engine move such as 'a2b3'; None when it is not one.

    Only the shape is checked (two squares of the board); whether the move is playable is the
    referee's business. A promotion suffix is refused: the variant has no promotion.
    """
    m = _ENGINE_MOVE.fullmatch(text.strip()) if isinstance(text, str) else None
    if not m or m.group(2).startswith("0") or m.group(4).startswith("0"):
        return None
    v = rules.variant
    s = v.square_index((m.group(1), int(m.group(2)) - 1))
    t = v.square_index((m.group(3), int(m.group(4)) - 1))
    if s is None or t is None:
        return None
    return (s, t)


def course_to_engine(rules: Rules, move) -> Optional[str]:
    """The course move ((col, row), (col, row)) in engine notation, None when it is not one."""
    if not (isinstance(move, (tuple, list)) and len(move) == 2):
        return None
    s, t = rules.variant.square_index(move[0]), rules.variant.square_index(move[1])
    if s is None or t is None:
        return None
    return engine_move(rules, (s, t))


def engine_to_course(rules: Rules, text: str) -> Optional[Tuple[Square, Square]]:
    """The engine move 'a2b3' as the course's (('a', 1), ('b', 2)); None when it is not one."""
    move = parse_engine_move(rules, text)
    if move is None:
        return None
    return (rules.variant.square_of(move[0]), rules.variant.square_of(move[1]))


# -- positions --------------------------------------------------------------------------------

def _side(side) -> int:
    if side in SIDE_OF_COLOUR:
        return SIDE_OF_COLOUR[side]
    if side in (1, -1):
        return side
    if isinstance(side, str) and side.lower() in ("w", "white"):
        return 1
    if isinstance(side, str) and side.lower() in ("b", "black"):
        return -1
    raise ValueError(f"{side!r} is not a side: use 'White', 'Black', 1 or -1")


def fullmove_number(start_colour: str, plies: int) -> int:
    """The FEN fullmove number after `plies` plies from a position whose FEN says 1."""
    return 1 + (plies + (1 if start_colour == BLACK else 0)) // 2


def board_fen(rules: Rules, board: Sequence[int]) -> str:
    """The piece-placement field of a flat board (rank 7 first)."""
    v = rules.variant
    ranks = []
    for row in range(v.rows - 1, -1, -1):
        text, empty = "", 0
        for col in range(v.cols):
            p = board[v.index(col, row)]
            if not p:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            letter = rules.piece_of[abs(p)].letter
            text += letter.upper() if p > 0 else letter.lower()
        if empty:
            text += str(empty)
        ranks.append(text)
    return "/".join(ranks)


def to_fen(position, side=None, quiet_plies: Optional[int] = None, fullmove: Optional[int] = None,
           rules: Optional[Rules] = None) -> str:
    """The FEN of a position.

    `position` is a harness.variants.cs3243.game.Game (its side to move, quiet plies and move number are the
    defaults), a gameboard dict or a flat board list. `side` is 'White'/'Black' (or 1/-1,
    default White); `quiet_plies` is the halfmove clock (default 0 for a dict or list);
    `fullmove` the FEN move number (default 1 for a dict or list).
    """
    if hasattr(position, "board") and hasattr(position, "moves_played"):   # a Game
        game = position
        rules = rules or game.rules
        board = game.board
        side = game.side if side is None else side
        quiet_plies = game.quiet_plies if quiet_plies is None else quiet_plies
        if fullmove is None:
            fullmove = fullmove_number(game.start_colour, len(game.moves_played))
    else:
        rules = rules or RULES
        if isinstance(position, dict):
            from .game import board_from_gameboard
            board = board_from_gameboard(position, rules)
        else:
            board = list(position)
            if len(board) != rules.size:
                raise ValueError(f"a board needs {rules.size} squares, not {len(board)}")
    side = _side(WHITE if side is None else side)
    quiet_plies = 0 if quiet_plies is None else int(quiet_plies)
    fullmove = 1 if fullmove is None else int(fullmove)
    return f"{board_fen(rules, board)} {'w' if side == 1 else 'b'} - - {quiet_plies} {fullmove}"


def _piece_order(rules: Rules) -> Dict[str, int]:
    order: Dict[str, int] = {}
    for piece, _ in rules.variant.white_start:
        order.setdefault(piece, len(order))
    for p in rules.variant.pieces:
        order.setdefault(p.name, len(order))
    return order


def from_fen(fen: str, rules: Rules = RULES) -> Tuple[Gameboard, str, int, int]:
    """(gameboard dict, colour to move, halfmove clock, fullmove number) of a FEN.

    Missing trailing fields default to White, 0 and 1. Anything malformed is a ValueError that
    says what is wrong. The dict's key order is the documented one (see the module doc).
    """
    if not isinstance(fen, str) or not fen.strip():
        raise ValueError("empty FEN")
    fields = fen.split()
    if len(fields) > 6:
        raise ValueError(f"FEN has {len(fields)} fields, at most 6 expected: {fen!r}")
    v = rules.variant
    by_letter = {p.letter.upper(): p.name for p in v.pieces}
    ranks = fields[0].split("/")
    if len(ranks) != v.rows:
        raise ValueError(f"FEN has {len(ranks)} ranks, {v.rows} expected: {fen!r}")
    white: List[Tuple[str, int, int]] = []   # (piece, col, row)
    black: List[Tuple[str, int, int]] = []
    for i, rank in enumerate(ranks):
        row = v.rows - 1 - i
        col = 0
        for token in re.findall(r"[0-9]+|.", rank):
            if token.isdigit():
                if token.startswith("0"):
                    raise ValueError(f"bad empty-square count {token!r} on rank {row + 1}: {fen!r}")
                col += int(token)
                continue
            name = by_letter.get(token.upper())
            if name is None:
                raise ValueError(f"unknown piece letter {token!r} on rank {row + 1}: {fen!r}")
            if col >= v.cols:
                raise ValueError(f"rank {row + 1} has more than {v.cols} squares: {fen!r}")
            (white if token.isupper() else black).append((name, col, row))
            col += 1
        if col != v.cols:
            raise ValueError(f"rank {row + 1} has {col} squares, {v.cols} expected: {fen!r}")
    side_field = fields[1] if len(fields) > 1 else "w"
    if side_field not in ("w", "b"):
        raise ValueError(f"side to move must be 'w' or 'b', not {side_field!r}: {fen!r}")
    for name, value in zip(("castling", "en passant"), fields[2:4]):
        if value != "-":
            raise ValueError(f"the variant has no {name}: field {value!r} must be '-': {fen!r}")
    numbers = []
    for name, value, least in zip(("halfmove clock", "fullmove number"), fields[4:6], (0, 1)):
        if not value.isdigit() or int(value) < least:
            raise ValueError(f"{name} must be a whole number >= {least}, not {value!r}: {fen!r}")
        numbers.append(int(value))
    halfmove = numbers[0] if numbers else 0
    fullmove = numbers[1] if len(numbers) > 1 else 1
    order = _piece_order(rules)
    white.sort(key=lambda p: (order[p[0]], p[1], p[2]))
    black.sort(key=lambda p: (order[p[0]], p[1], v.rows - 1 - p[2]))
    gameboard: Gameboard = {}
    for i in range(max(len(white), len(black))):
        for pieces, colour in ((white, WHITE), (black, BLACK)):
            if i < len(pieces):
                name, col, row = pieces[i]
                gameboard[(v.column_letters()[col], row)] = (name, colour)
    return gameboard, (WHITE if side_field == "w" else BLACK), halfmove, fullmove


def game_from_fen(fen: str, rules: Rules = RULES, **limits):
    """A harness.variants.cs3243.game.Game at the FEN's position, side to move and quiet-ply count."""
    from .game import Game
    gameboard, colour, halfmove, _ = from_fen(fen, rules)
    game = Game(gameboard, to_move=colour, rules=rules, **limits)
    game.quiet_plies = halfmove
    return game


# -- game records ---------------------------------------------------------------------------

def start_fen(game) -> str:
    """The FEN of the position a Game started from (fullmove 1)."""
    return position_fen(game.start_state)


def position_fen(position, fullmove: int = 1) -> str:
    """The FEN of a `game.Position`."""
    return to_fen(position.board, position.side, position.quiet_plies, fullmove, position.rules)


def record_fields(start, moves: Sequence[Move]) -> Dict[str, Union[str, List[str]]]:
    """The fields a game record carries so the game can be replayed in Fairy-Stockfish:
    ``start_fen`` and ``engine_moves`` (every ply in engine notation, in order), for a game that
    started at the `game.Position` `start`."""
    return {
        "start_fen": position_fen(start, getattr(start, "first_fullmove", 1)),
        "engine_moves": [engine_move(start.rules, m) for m in moves],
    }


def engine_record_fields(game) -> Dict[str, Union[str, List[str]]]:
    """`record_fields` of a Game."""
    return record_fields(game.start_state, game.moves)
