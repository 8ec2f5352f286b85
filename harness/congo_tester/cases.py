"""The tester's cases: positions (and, for `apply`, a move) drawn from a seed, covering what the
rules make hard.

Case i (1, 2, ...) is drawn from its own generator, seeded with the seed and i, so a case does not
depend on how many cases are asked for: `--cases 50` runs the first 50 cases of `--cases 500`.
The kinds take turns (case 1 is the first kind, case 2 the second, ...), so every kind is among
the first few cases:

- `play`: random play from the edition's start position (2 to 71 plies; the 2022 start has
  elephants too);
- `placement`: lions in their castles and 4 to 14 pieces of the edition scattered anywhere;
- `lions`: the lions on one file or diagonal, with the squares between open or blocked (the
  flying capture), on one rank (no flight), side by side in a castle (a step that is also a
  flight), or one lion out of its castle;
- `river`: pieces of both sides in the river and next to it (drowning, a capture along the river);
- `pawns`: pawns past the river (retreats, blocked retreats), one step from the far rank
  (promotion), superpawns (2022) or pawns already on the far rank (2021, retreats only);
- `missing_lion`: one lion is gone (the evaluations' +-10000, `apply`'s winner);
- `no_move`: the side to move has no move at all.

`apply` is not tested on `no_move` (it needs a move), `bestmove` on neither of the last two (the
course defines its answer only when there is a move to pick and both lions stand). No lion ever
stands in the river (the course does not say what becomes of it).

White is to move in the first round of kinds (cases 1-7), Black in the next, and so on. The
pieces placed are the edition's (2021: lion, zebra, elephant, pawn; 2022: lion, zebra, giraffe,
pawn, superpawn), plus the piece of `moves --piece X`.
For `apply`, the move is most often one that moves along, into or out of the river, drowns
another piece of the mover, promotes, retreats or captures (each kind gets its share).
"""
import random
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..variants.congo import START_FEN
from ..variants.congo import rules
from ..variants.congo.rules import (ELEPHANT, GIRAFFE, LION, PAWN, RIVER, SIZE, SQUARES, SUPERPAWN,
                                    ZEBRA)

KINDS = ("play", "placement", "lions", "river", "pawns", "missing_lion", "no_move")
# apply needs a move; bestmove's answer is the course's only with a move to pick and both lions
SKIPPED = {"apply": ("no_move",), "bestmove": ("no_move", "missing_lion")}


def kinds_of(program: str) -> Tuple[str, ...]:
    """The kinds of case a program is tested on, in the order they take turns."""
    return tuple(k for k in KINDS if k not in SKIPPED.get(program, ()))
EDITION_PIECES = {"2021": (ZEBRA, ELEPHANT, PAWN), "2022": (ZEBRA, GIRAFFE, PAWN, SUPERPAWN)}

Board = List[int]


class Case(NamedTuple):
    number: int            # 1, 2, ...
    kind: str
    fen: str
    move: Optional[str]    # apply only: the move's name


def make_cases(count: int, seed: int, edition: str, program: str, piece: Optional[int] = None) -> List[Case]:
    """The first `count` cases for `program` ("moves", "apply", ...) with `seed`."""
    return [make_case(number, seed, edition, program, piece) for number in range(1, count + 1)]


def make_case(number: int, seed: int, edition: str, program: str, piece: Optional[int] = None) -> Case:
    kinds = kinds_of(program)
    kind = kinds[(number - 1) % len(kinds)]
    rng = random.Random(f"congo-test:{seed}:{number}")
    pieces = EDITION_PIECES[edition]
    if piece is not None and piece != LION and piece not in pieces:
        pieces = pieces + (piece,)
    side = 1 if (number - 1) // len(kinds) % 2 == 0 else -1     # White for a round of kinds, then Black
    while True:
        board = MAKERS[kind](rng, edition, pieces, side)
        if piece not in (None, LION) and kind not in ("play", "no_move"):
            _add_pieces(rng, board, edition, [piece * side] * rng.randint(1, 2))
        moves = rules.generate(tuple(board), side)
        if program not in SKIPPED or (moves and (program == "apply" or (LION in board and -LION in board))):
            break
    fen = rules.format_fen(tuple(board), side, rng.randint(1, 60))
    move = rules.move_text(*_pick_move(rng, board, side, moves, edition)) if program == "apply" else None
    return Case(number, kind, fen, move)


# -- helpers -------------------------------------------------------------------------------------

def _side(rng: random.Random) -> int:
    return rng.choice((1, -1))


def _castle(side: int) -> List[int]:
    return [rules.square(f, r) for f in range(SIZE) for r in range(1, SIZE + 1) if rules.in_castle(side, f, r)]


def _far_rank(side: int) -> int:
    return SIZE if side > 0 else 1


def _allowed(code: int, s: int, edition: str) -> bool:
    """A pawn stands on its far rank only in 2021 (2022 promotes it on arrival)."""
    side = 1 if code > 0 else -1
    return not (edition == "2022" and abs(code) == PAWN and rules.rank_of(s) == _far_rank(side))


def _put(board: Board, code: int, squares: Sequence[int], rng: random.Random, edition: str) -> bool:
    """Put `code` on a random empty square among `squares` where it may stand; False if none."""
    free = [s for s in squares if board[s] == 0 and _allowed(code, s, edition)]
    if not free:
        return False
    board[rng.choice(free)] = code
    return True


def _add_pieces(rng: random.Random, board: Board, edition: str, codes: Sequence[int],
                squares: Sequence[int] = range(SQUARES)) -> None:
    for code in codes:
        _put(board, code, squares, rng, edition)


def _random_codes(rng: random.Random, pieces: Sequence[int], count: int) -> List[int]:
    return [rng.choice(pieces) * rng.choice((1, -1)) for _ in range(count)]


def _with_lions(rng: random.Random) -> Board:
    board = [0] * SQUARES
    for side in (1, -1):
        board[rng.choice(_castle(side))] = LION * side
    return board


# -- the kinds -----------------------------------------------------------------------------------

def _play(rng: random.Random, edition: str, pieces, wanted: int) -> Board:
    position = rules.parse_fen(START_FEN[edition])
    board, side = position.board, position.side
    plies = rng.randint(1, 35) * 2 + (0 if wanted == side else 1)
    for _ in range(plies):
        moves = rules.generate(board, side)
        if not moves:
            break
        quiet = [m for m in moves if abs(board[m[1]]) != LION]     # the game would end
        s, t = rng.choice(quiet if quiet and rng.random() < 0.95 else moves)
        board = rules.execute(board, side, s, t, edition == "2022")
        side = -side
        if LION not in board or -LION not in board:
            break
    return list(board)


def _placement(rng: random.Random, edition: str, pieces, side: int) -> Board:
    board = _with_lions(rng)
    _add_pieces(rng, board, edition, _random_codes(rng, pieces, rng.randint(4, 14)))
    return board


def _lions(rng: random.Random, edition: str, pieces, side: int) -> Board:
    board = [0] * SQUARES
    shape = rng.choice(("file", "file", "diagonal", "diagonal", "adjacent", "rank", "outside"))
    if shape == "file":
        f = rng.randint(2, 4)
        white, black = rules.square(f, rng.randint(1, 3)), rules.square(f, rng.randint(5, 7))
    elif shape == "diagonal":
        white, black = rng.choice(((rules.square(2, 3), rules.square(4, 5)),
                                   (rules.square(4, 3), rules.square(2, 5))))
    elif shape == "adjacent":          # one lion inside the other's castle, next to it
        owner = _side(rng)
        home = rng.choice(_castle(owner))
        near = [t for t in _castle(owner) if t != home
                and max(abs(rules.file_of(t) - rules.file_of(home)), abs(rules.rank_of(t) - rules.rank_of(home))) == 1]
        white, black = (home, rng.choice(near)) if owner > 0 else (rng.choice(near), home)
    elif shape == "rank":              # side by side on a rank: no flight along ranks
        r = rng.choice((1, 2, 3, 5, 6, 7))
        white, black = rng.sample([rules.square(f, r) for f in range(SIZE)], 2)
    else:                              # a lion out of its castle (not in the river), facing the other
        land = [s for s in range(SQUARES) if s not in RIVER]
        white = rng.choice(land)
        black = rng.choice([b for b in land if rules.BETWEEN[white][b] is not None])
    board[white], board[black] = LION, -LION
    _add_pieces(rng, board, edition, _random_codes(rng, pieces, rng.randint(2, 10)))
    between = rules.BETWEEN[white][black] or ()
    if between:
        choice = rng.random()
        if choice < 0.45:              # open: the lion to move may fly
            for x in between:
                board[x] = 0
        elif choice < 0.75:            # exactly one piece between
            for x in between:
                board[x] = 0
            x, code = rng.choice(between), rng.choice(pieces) * _side(rng)
            board[x] = code if _allowed(code, x, edition) else ZEBRA * _side(rng)
    return board


def _river(rng: random.Random, edition: str, pieces, side: int) -> Board:
    """A run of river squares, often side by side, with pieces that can move along the river
    (elephant, giraffe, superpawn) more often than others; pieces on the banks to enter it."""
    board = _with_lions(rng)
    along = [p for p in pieces if p in (ELEPHANT, GIRAFFE, SUPERPAWN)] or list(pieces)
    start = rng.randrange(SIZE)
    for i in range(rng.randint(2, 5)):
        s = RIVER[(start + i * rng.choice((1, 1, 2))) % SIZE]
        board[s] = rng.choice(along if rng.random() < 0.6 else pieces) * _side(rng)
    banks = [s for s in range(SQUARES) if rules.rank_of(s) in (2, 3, 5, 6)]
    _add_pieces(rng, board, edition, _random_codes(rng, pieces, rng.randint(2, 7)), banks)
    return board


def _pawns(rng: random.Random, edition: str, pieces, side: int) -> Board:
    board = _with_lions(rng)
    for side in (1, -1):
        past = [s for s in range(SQUARES) if (rules.rank_of(s) - 4) * side in (1, 2)]
        _add_pieces(rng, board, edition, [PAWN * side] * rng.randint(1, 3), past)
        if edition == "2022":
            _add_pieces(rng, board, edition, [SUPERPAWN * side] * rng.randint(1, 2))
        else:                                     # 2021: a pawn already on the far rank
            far = [s for s in range(SQUARES) if rules.rank_of(s) == _far_rank(side)]
            _add_pieces(rng, board, edition, [PAWN * side] * rng.randint(0, 2), far)
        near_far = [s for s in range(SQUARES) if rules.rank_of(s) == _far_rank(side) - side]
        _add_pieces(rng, board, edition, [PAWN * side] * rng.randint(1, 2), near_far)
        _add_pieces(rng, board, edition, [PAWN * side] * rng.randint(0, 1), RIVER)
    # blockers and capture targets anywhere: retreats and promotions meet pieces on their way
    _add_pieces(rng, board, edition, _random_codes(rng, pieces, rng.randint(1, 6)))
    return board


def _missing_lion(rng: random.Random, edition: str, pieces, side: int) -> Board:
    board = _placement(rng, edition, pieces, side)
    gone = _side(rng) * LION
    board[board.index(gone)] = 0
    return board


def _no_move(rng: random.Random, edition: str, pieces, side: int) -> Board:
    """The mover's pieces fill the board, mostly pawns; the enemy lion (and maybe a piece or an
    empty square) stands on the mover's back rank, out of every reach. Drawn until no move."""
    back = [rules.square(f, 1 if side > 0 else SIZE) for f in range(SIZE)]
    outside = [s for s in back if not rules.in_castle(side, rules.file_of(s), rules.rank_of(s))]
    far = SIZE if side > 0 else 1
    others = [p for p in pieces if p != PAWN] or [PAWN]
    while True:
        board = [0] * SQUARES
        for s in range(SQUARES):
            code = PAWN if rng.random() < 0.85 else rng.choice(others)
            if code == PAWN and edition == "2022" and rules.rank_of(s) == far:
                code = SUPERPAWN
            board[s] = code * side
        spots = rng.sample(outside, rng.randint(1, 3))
        board[spots[0]] = -LION * side
        for s in spots[1:]:
            code = 0 if rng.random() < 0.5 else -rng.choice(pieces) * side
            board[s] = code if _allowed(code, s, edition) else -SUPERPAWN * side
        board[rng.choice(_castle(side))] = LION * side
        if -LION * side in board and not rules.generate(tuple(board), side):
            return board


MAKERS: Dict[str, Callable[[random.Random, str, tuple, int], Board]] = {
    "play": _play, "placement": _placement, "lions": _lions, "river": _river, "pawns": _pawns,
    "missing_lion": _missing_lion, "no_move": _no_move,
}


# -- apply's move --------------------------------------------------------------------------------

def _pick_move(rng: random.Random, board: Board, side: int, moves: List[Tuple[int, int]],
               edition: str) -> Tuple[int, int]:
    """Mostly (85 %) a move of a kind that makes executing it hard, the kind drawn first among
    those the position has (weighted by MOVE_WEIGHTS), so each gets its share: a move along the river (the mover drowns if
    it stays there), into it, out of it, any move while another piece of the mover stands in the
    river (it drowns), a promotion, a retreat, a capture of the lion, another capture."""
    def kinds(move):
        s, t = move
        piece, forward = abs(board[s]), (rules.rank_of(t) - rules.rank_of(s)) * side
        yield "along the river" if s in RIVER and t in RIVER else "into the river" if t in RIVER else \
            "out of the river" if s in RIVER else None
        if any(board[r] * side > 0 for r in RIVER if r != s):
            yield "another drowns"
        if piece == PAWN and rules.rank_of(t) == _far_rank(side):
            yield "promotion"
        if piece in (PAWN, SUPERPAWN) and forward < 0:
            yield "retreat"
        if board[t]:
            yield "lion capture" if abs(board[t]) == LION else "capture"

    groups: Dict[str, List[Tuple[int, int]]] = {}
    for move in moves:
        for kind in kinds(move):
            if kind is not None:
                groups.setdefault(kind, []).append(move)
    if groups and rng.random() < 0.85:
        names = sorted(groups)
        kind = rng.choices(names, [MOVE_WEIGHTS.get(name, 1) for name in names])[0]
        return rng.choice(groups[kind])
    return rng.choice(moves)


# the rarest and hardest kinds of move are drawn more often when a position has them
MOVE_WEIGHTS = {"along the river": 4, "promotion": 4, "lion capture": 2}
