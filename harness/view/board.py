"""Board geometry: a recorded game's positions as grids, the piece key, a grid encoded for the
board script, a move's cells, the board's size. Shared by the HTML pages and the web app."""
from typing import Any, Dict, List, Optional, Tuple

from ..core.records import record_states


Grid = List[List[Optional[Tuple[str, str]]]]


def positions(record: Dict[str, Any], variant) -> Tuple[List[Grid], str, Optional[str]]:
    """Every position of a recorded game (the start first), the colour that moved first
    ('white' or 'black'), and a note when the record's moves stop making sense (the positions
    then end at the last one that could be reached), by `records.record_states`."""
    states, _, problem = record_states(record, variant)
    return [variant.grid(state) for state in states], str(variant.to_move(states[0])).lower(), problem


def legend(variant) -> List[Tuple[str, str]]:
    """(letter, piece name) pairs for the key under the board."""
    return [(letter, name) for name, letter in variant.letters.items()]


def encode_grid(grid: Grid) -> str:
    """A position as text: rows joined by '/', upper case White, runs of empty squares as counts."""
    rows = []
    for cells in grid:
        text, empty = "", 0
        for cell in cells:
            if cell is None:
                empty += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            letter, colour = cell
            text += letter.upper() if str(colour).lower() == "white" else letter.lower()
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def move_cells(name: Optional[str], variant) -> Optional[List[int]]:
    """[from row, from column, to row, to column] in the drawn grid of a move name (a from-square
    label and a to-square label, as every variant names moves, perhaps with a promotion's piece
    letter after them), or None."""
    if not name:
        return None
    columns, rows = variant.square_names()

    def cell(label: str) -> Optional[Tuple[int, int]]:
        for c, column in enumerate(columns):
            if label.startswith(column) and label[len(column):] in rows:
                return rows.index(label[len(column):]), c
        return None
    squares = name[:-1] if name[-1:] in variant.promotion_pieces else name
    for split in range(2, len(squares) - 1):
        start, end = cell(squares[:split]), cell(squares[split:])
        if start is not None and end is not None:
            return [*start, *end]
    return None


def board_geometry(variant) -> Dict[str, Any]:
    """The empty board the viewer draws pieces on: squares, labels and the SVG's size, and each
    of the variant's `regions` (Congo's ``river``) as a list of [row, column] cells; with
    ``promotions`` the letters a promotion's move name ends with (`Variant.promotion_pieces`); with
    ``values`` the piece values of the material balance (`material_values`)."""
    columns, rows = variant.square_names()
    size, margin = 56, 22
    # the bottom left square is dark, as on a chess board
    squares = [{"row": r, "col": c, "x": margin + c * size, "y": r * size, "dark": (len(rows) - 1 - r + c) % 2 == 0}
               for r in range(len(rows)) for c in range(len(columns))]
    return {"size": size, "margin": margin, "columns": columns, "rows": rows, "squares": squares,
            "width": margin + len(columns) * size, "height": len(rows) * size + margin,
            **{name: [list(cell) for cell in cells] for name, cells in variant.regions().items()},
            **({"promotions": list(variant.promotion_pieces)} if variant.promotion_pieces else {}),
            "values": material_values(variant)}


def material_values(variant) -> Dict[str, int]:
    """Piece letter -> the variant's value (`Variant.values`) for the material balance beside the
    board: pieces without a value left out, and so is a royal piece's token value (one worth at
    least every other kind of piece together, as cs3243's and nthu's kings are)."""
    values = {variant.letters[name].upper(): value for name, value in variant.values.items()
              if name in variant.letters and value > 0}
    for letter, value in list(values.items()):
        if value >= sum(v for other, v in values.items() if other != letter):
            del values[letter]
    return values
