"""Read and write the course's config.txt (a position: board size and both sides' pieces).

Layout (see the contract, "config.txt"), one item per line::

    Rows:7
    Cols:7
    Number of Enemy King, Queen, ..., Pawn (space between):1 1 1 1 1 2 1 1 5
    Position of Enemy Pieces:
    [Ferz,a5]            <- sum(counts) lines, Black
    Number of Own King, Queen, ..., Pawn (space between):1 1 1 1 1 2 1 1 5
    Starting Position of Pieces [Piece, Pos]:
    [Ferz,a1]            <- sum(counts) lines, White

Only the position of a line matters, not the wording of the count and header lines: a count
line is any line with the counts after its first ':'. "Enemy" is Black, "Own" is White.
Every problem is a ConfigError whose text is ``<file>:<line>: <problem>``.
"""
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from ...core.variant import SetupError
from .pieces import CS3243, Edition

Square = Tuple[str, int]            # ('a', 1): column letter, course row
Placement = Tuple[str, Square]      # ('Ferz', ('a', 1))

# The order of the counts on a count line (the course's order, not the variant's).
COUNT_ORDER: Tuple[str, ...] = (
    "King", "Queen", "Bishop", "Rook", "Knight", "Ferz", "Princess", "Empress", "Pawn",
)

ENEMY, OWN = "Enemy", "Own"
ENEMY_HEADER = "Position of Enemy Pieces:"
OWN_HEADER = "Starting Position of Pieces [Piece, Pos]:"

_INT = re.compile(r"[+-]?[0-9]+")
_PIECE_LINE = re.compile(r"\[([^\[\],]*),([^\[\],]*)\]")
_SQUARE_NAME = re.compile(r"([a-z])([0-9]+)")


class ConfigError(SetupError):
    """A config file problem; str() is ``<path>:<line>: <problem>`` (line 1-based, 0 = whole file)."""


@dataclass
class Setup:
    """A position as the config file gives it: each side's pieces in file order."""
    white: List[Placement] = field(default_factory=list)   # "Own" pieces
    black: List[Placement] = field(default_factory=list)   # "Enemy" pieces
    rows: int = 7
    cols: int = 7


def count_order(variant: Edition = CS3243) -> List[str]:
    """Piece names in count-line order: the course's order, then any pieces it lacks."""
    names = [n for n in COUNT_ORDER if n in variant.by_name]
    names += [p.name for p in variant.pieces if p.name not in names]
    return names


def start_setup(variant: Edition = CS3243) -> Setup:
    """The variant's start position, both sides in the course's order (Black mirrors White)."""
    white, black = [], []
    for piece, name in variant.white_start:
        square = variant.parse_name(name)
        assert square is not None, f"{variant.name}'s start names no square {name}"
        white.append((piece, variant.square_of(square)))
        black.append((piece, variant.square_of(variant.mirror(square))))
    return Setup(white=white, black=black, rows=variant.rows, cols=variant.cols)


# ----------------------------------------------------------------------------- parsing


def _show(text: str, limit: int = 40) -> str:
    """Quote a bit of the file for a message, shortened when long."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"'{text}'"


class _Lines:
    """The file's lines (stripped, 1-based numbers) with trailing blank lines dropped."""

    def __init__(self, text: str, path: str):
        if text.startswith("\ufeff"):
            text = text[1:]
        lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        self.lines = lines
        self.path = path
        self.pos = 0          # index of the next line

    def error(self, problem: str, line: Optional[int] = None) -> ConfigError:
        return ConfigError(self.path, self.pos + 1 if line is None else line, problem)

    def at_end(self) -> bool:
        return self.pos >= len(self.lines)

    def peek(self) -> str:
        return self.lines[self.pos]

    def take(self, what: str) -> str:
        """The next line, which must exist and not be blank; `what` names it for messages."""
        if self.at_end():
            raise self.error(f"file ends before the {what}")
        line = self.lines[self.pos]
        if not line:
            raise self.error(f"blank line where the {what} was expected")
        self.pos += 1
        return line


def _size_line(lines: _Lines, key: str, expected: int) -> int:
    line = lines.take(f"{key} line")
    number = lines.pos  # 1-based number of the line just taken
    name, colon, value = line.partition(":")
    if not colon or name.strip().lower() != key.lower():
        raise lines.error(f"expected '{key}:{expected}', found {_show(line)}", number)
    value = value.strip()
    if not _INT.fullmatch(value):
        raise lines.error(f"{key} {_show(value)} is not a number", number)
    if int(value) != expected:
        raise lines.error(f"{key} is {int(value)}, expected {expected}", number)
    return int(value)


def _count_line(lines: _Lines, side: str, order: Sequence[str]) -> Dict[str, int]:
    what = f"{side} count line"
    line = lines.take(what)
    number = lines.pos
    if line.startswith("["):
        raise lines.error(f"expected the {what}, found piece line {_show(line)}", number)
    if ":" not in line:
        raise lines.error(f"expected the {what} ('Number of ...:' and {len(order)} counts), "
                          f"found {_show(line)}", number)
    tokens = line.split(":", 1)[1].split()
    for token in tokens:
        if not _INT.fullmatch(token):
            raise lines.error(f"count {_show(token)} is not a number", number)
    if len(tokens) != len(order):
        raise lines.error(f"expected {len(order)} counts, found {len(tokens)}", number)
    for token in tokens:
        if int(token) < 0:
            raise lines.error(f"count {int(token)} is negative", number)
    return {name: int(token) for name, token in zip(order, tokens)}


def _header_line(lines: _Lines, side: str) -> None:
    what = f"{side} header line"
    line = lines.take(what)
    if line.startswith("["):
        raise lines.error(f"expected the {what}, found piece line {_show(line)}", lines.pos)


def _piece_lines(lines: _Lines, side: str, total: int, variant: Edition,
                 taken: Dict[Square, int]) -> List[Placement]:
    placed: List[Placement] = []
    while len(placed) < total:
        if not lines.at_end() and not lines.peek():
            raise lines.error(f"blank line where an {side} piece line was expected")
        if lines.at_end() or (":" in lines.peek() and not lines.peek().startswith("[")):
            # The file ends, or a count/header line comes, where a piece line was expected.
            raise lines.error(f"expected {total} {side} piece lines, found {len(placed)}")
        line = lines.take(f"{side} piece line")
        number = lines.pos
        match = _PIECE_LINE.fullmatch(line)
        if not match:
            raise lines.error(f"malformed piece line {_show(line)}", number)
        piece, name = match.group(1).strip(), match.group(2).strip()
        if piece not in variant.by_name:
            raise lines.error(f"unknown piece {_show(piece)}", number)
        square_match = _SQUARE_NAME.fullmatch(name)
        if not square_match:
            raise lines.error(f"malformed square {_show(name)}", number)
        square = (square_match.group(1), int(square_match.group(2)))
        if variant.square_index(square) is None:
            raise lines.error(
                f"square {_show(name)} is off the {variant.rows}x{variant.cols} board", number)
        if square in taken:
            raise lines.error(f"two pieces on square '{square[0]}{square[1]}'", number)
        taken[square] = number
        placed.append((piece, square))
    return placed


def _check_side(lines: _Lines, side: str, counts: Dict[str, int],
                placed: List[Placement], count_line: int, variant: Edition) -> None:
    found = {name: 0 for name in counts}
    for piece, _ in placed:
        found[piece] += 1
    for name in counts:
        if found[name] != counts[name]:
            raise lines.error(f"{side} count for {name} is {counts[name]}, "
                              f"but the file lists {found[name]}", count_line)
    kings = found.get(variant.royal, 0)
    if kings == 0:
        raise lines.error(f"{side} side has no {variant.royal}", count_line)
    if kings > 1:
        raise lines.error(f"{side} side has {kings} {variant.royal}s", count_line)


def parse_config(text: str, path: str = "config.txt", variant: Edition = CS3243) -> Setup:
    """Parse config text into a Setup; any problem is a ConfigError naming path and line."""
    lines = _Lines(text, path)
    if not lines.lines:
        raise ConfigError(path, 1, "file is empty")
    rows = _size_line(lines, "Rows", variant.rows)
    cols = _size_line(lines, "Cols", variant.cols)
    order = count_order(variant)
    taken: Dict[Square, int] = {}
    sides: Dict[str, List[Placement]] = {}
    for side in (ENEMY, OWN):
        counts = _count_line(lines, side, order)
        count_line = lines.pos
        _header_line(lines, side)
        total = sum(counts.values())
        placed = _piece_lines(lines, side, total, variant, taken)
        if not lines.at_end() and lines.peek().startswith("["):
            raise lines.error(f"found more than {total} {side} piece lines")
        _check_side(lines, side, counts, placed, count_line, variant)
        sides[side] = placed
    while not lines.at_end() and not lines.peek():
        lines.pos += 1    # blank lines followed by more text: report that text
    if not lines.at_end():
        line = lines.peek()
        if line.startswith("["):
            raise lines.error(f"found more than {len(sides[OWN])} {OWN} piece lines")
        raise lines.error(f"unexpected line after the Own pieces: {_show(line)}")
    return Setup(white=sides[OWN], black=sides[ENEMY], rows=rows, cols=cols)


def read_config(path, variant: Edition = CS3243) -> Setup:
    """Read and parse a config file (UTF-8). Unreadable files are ConfigErrors too (line 0)."""
    name = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise ConfigError(name, 0, f"cannot read file ({reason})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ConfigError(name, line, "file is not UTF-8 text") from None
    return parse_config(text, name, variant)


# ----------------------------------------------------------------------------- writing


def _count_header(side: str, order: Sequence[str]) -> str:
    return f"Number of {side} {', '.join(order)} (space between):"


def _block(pieces: List[Placement], side: str, header: str, order: Sequence[str]) -> List[str]:
    counts = {name: 0 for name in order}
    for piece, _ in pieces:
        if piece not in counts:
            raise ValueError(f"unknown piece {piece!r} in setup")
        counts[piece] += 1
    out = [_count_header(side, order) + " ".join(str(counts[n]) for n in order), header]
    out += [f"[{piece},{letter}{row}]" for piece, (letter, row) in pieces]
    return out


def format_config(setup: Setup, variant: Edition = CS3243) -> str:
    """The course's layout for a setup, Enemy (Black) block first; ends with a newline."""
    order = count_order(variant)
    out = [f"Rows:{setup.rows}", f"Cols:{setup.cols}"]
    out += _block(setup.black, ENEMY, ENEMY_HEADER, order)
    out += _block(setup.white, OWN, OWN_HEADER, order)
    return "\n".join(out) + "\n"


def write_config(path, setup: Setup, variant: Edition = CS3243) -> None:
    """Write format_config(setup) to path as UTF-8 with '\\n' line endings."""
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(format_config(setup, variant))
