"""A gameboard dict as text, for watching a game: White in upper case, Black in lower case.

Letters are the Fairy-Stockfish ones (K King, Q Queen, R Rook, B Bishop, N Knight, E Empress,
A Princess, F Ferz, P Pawn). Row 0, White's back rank, is printed at the top, as the course
numbers rows; the last move's squares can be marked.
"""
from typing import Dict, Iterable, Tuple

from .pieces import CS3243, WHITE, Edition

Square = Tuple[str, int]
EMPTY = "."


def legend(variant: Edition = CS3243) -> str:
    return ", ".join(f"{p.letter} {p.name}" for p in variant.pieces)


def render(gameboard: Dict[Square, Tuple[str, str]], variant: Edition = CS3243,
           marked: Iterable[Square] = ()) -> str:
    """The board as lines of text; squares in `marked` are shown in brackets."""
    marked = set(marked)
    letters = variant.column_letters()
    lines = ["    " + "  ".join(letters)]
    for row in range(variant.rows - 1, -1, -1):     # row 0, White's back rank, at the bottom
        cells = []
        for letter in letters:
            value = gameboard.get((letter, row))
            text = EMPTY
            if value is not None:
                piece = variant.by_name[value[0]].letter
                text = piece if value[1] == WHITE else piece.lower()
            cells.append(f"[{text}]" if (letter, row) in marked else f" {text} ")
        lines.append(f"{row:>2} " + "".join(cells))
    return "\n".join(lines)
