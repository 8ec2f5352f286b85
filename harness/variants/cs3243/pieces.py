"""CS3243's board geometry and piece set as data (an `Edition`), so a 5x5 or 6x5 edition of the
same fairy game is new data, not a rewrite.

A square is an index ``row * cols + col``; the course names it ``(column_letter, row)``,
with row 0 at the top (White's back rank). White pawns move towards higher rows.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ...core.variant import BLACK, COLOURS, WHITE  # noqa: F401  (the course's colour names)

Vector = Tuple[int, int]  # (column step, row step)

ORTHOGONAL: Tuple[Vector, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL: Tuple[Vector, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT: Tuple[Vector, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))



@dataclass(frozen=True)
class PieceType:
    """How one kind of piece moves: sliding directions, single leaps, or pawn rules."""
    name: str
    letter: str            # Fairy-Stockfish letter (upper case)
    value: int             # material value in centipawns, shared by Smart and Minimax
    slides: Tuple[Vector, ...] = ()
    leaps: Tuple[Vector, ...] = ()
    pawn: bool = False     # one step forward to an empty square, captures one step diagonally forward


@dataclass(frozen=True)
class Edition:
    """An edition of the game: board size, pieces, start layout and the course's dict order."""
    name: str
    cols: int
    rows: int
    pieces: Tuple[PieceType, ...]
    # White's start layout in the course's gameboard order; Black mirrors it row-wise and the
    # two sides alternate piece by piece in the course's dict.
    white_start: Tuple[Tuple[str, str], ...]
    royal: str = "King"
    by_name: Dict[str, PieceType] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "by_name", {p.name: p for p in self.pieces})

    @property
    def size(self) -> int:
        return self.cols * self.rows

    def column_letters(self) -> str:
        return "abcdefghijklmnopqrstuvwxyz"[: self.cols]

    def index(self, col: int, row: int) -> int:
        return row * self.cols + col

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < self.cols and 0 <= row < self.rows

    def square_index(self, square) -> Optional[int]:
        """Index of a course square ``('a', 1)``, or None when it is not a square of this board."""
        if not (isinstance(square, (tuple, list)) and len(square) == 2):
            return None
        letter, row = square
        if not (isinstance(letter, str) and len(letter) == 1 and letter in self.column_letters()):
            return None
        if type(row) is not int or not 0 <= row < self.rows:
            return None
        return self.index(self.column_letters().index(letter), row)

    def square_of(self, index: int) -> Tuple[str, int]:
        row, col = divmod(index, self.cols)
        return (self.column_letters()[col], row)

    def name_of(self, index: int) -> str:
        """'a1'-style name in course rows (column letter then course row number)."""
        letter, row = self.square_of(index)
        return f"{letter}{row}"

    def parse_name(self, text: str) -> Optional[int]:
        """Inverse of name_of: 'a1' -> index, None when it is not a square."""
        if len(text) < 2 or not text[1:].isdigit():
            return None
        return self.square_index((text[0], int(text[1:])))

    def mirror(self, index: int) -> int:
        """The square seen from the other side (row r -> rows-1-r), same column."""
        row, col = divmod(index, self.cols)
        return (self.rows - 1 - row) * self.cols + col

    def start_layout(self) -> List[Tuple[str, str, int]]:
        """(piece, colour, square index) in the course's gameboard order: White, Black alternating."""
        layout = []
        for piece, name in self.white_start:
            square = self.parse_name(name)
            assert square is not None, f"{self.name}'s start names no square {name}"
            layout.append((piece, WHITE, square))
            layout.append((piece, BLACK, self.mirror(square)))
        return layout


CS3243 = Edition(
    name="cs3243",
    cols=7,
    rows=7,
    pieces=(
        PieceType("King", "K", 100000, leaps=ORTHOGONAL + DIAGONAL),
        PieceType("Queen", "Q", 900, slides=ORTHOGONAL + DIAGONAL),
        PieceType("Rook", "R", 500, slides=ORTHOGONAL),
        PieceType("Bishop", "B", 300, slides=DIAGONAL),
        PieceType("Knight", "N", 300, leaps=KNIGHT),
        PieceType("Empress", "E", 800, slides=ORTHOGONAL, leaps=KNIGHT),
        PieceType("Princess", "A", 700, slides=DIAGONAL, leaps=KNIGHT),
        PieceType("Ferz", "F", 150, leaps=DIAGONAL),
        PieceType("Pawn", "P", 100, pawn=True),
    ),
    white_start=(
        ("Ferz", "a1"), ("Ferz", "g1"),
        ("Pawn", "b1"), ("Pawn", "c1"), ("Pawn", "d1"), ("Pawn", "e1"), ("Pawn", "f1"),
        ("Knight", "a0"), ("Bishop", "b0"), ("Queen", "c0"), ("King", "d0"),
        ("Princess", "e0"), ("Empress", "f0"), ("Rook", "g0"),
    ),
)
