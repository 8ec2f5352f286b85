"""The course's two files: `state` (written by the runner each turn) and `action` (written by
the player). Standard library only, no project imports: `export-nthu` puts this text into the
single-file player it writes.

`state`, byte for byte as the runner writes it: line 1 the side to move (0 White, 1 Black); then
White's 6 rows, each 5 integers each followed by one space, then a newline; an empty line; Black's
6 rows in the same form; an empty line. A square holds that side's piece code, 0 if none.

`action`: integers read four at a time up to the end or the first token that is not an integer;
the last complete group of four is the move, the count of complete groups its depth.
"""
import re

_ROWS, _COLS = 6, 5
_INT = re.compile(r"[+-]?[0-9]+\Z")


class StateFileError(ValueError):
    """A state file problem; str() is ``<file>:<line>: <problem>``."""

    def __init__(self, path, line, problem):
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{path}:{line}: {problem}")


def state_text(board, side):
    """The `state` file for `board` (30 signed codes, row 0 first) with `side` (+1/-1) to move."""
    out = ["0\n" if side == 1 else "1\n"]
    for sign in (1, -1):
        for r in range(_ROWS):
            row = board[r * _COLS:(r + 1) * _COLS]
            out.append("".join(f"{p * sign if p * sign > 0 else 0} " for p in row) + "\n")
        out.append("\n")
    return "".join(out)


def parse_state(text, path="state"):
    """(board, side) from the text of a `state` file; StateFileError naming the line otherwise.

    Accepts what the runner writes; also tolerates CRLF line ends, extra spaces and a missing
    last empty line."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()                           # the text after the last newline is no line
    if not text.strip():
        raise StateFileError(path, 1, "the file is empty")
    first = lines[0].strip()
    if first not in ("0", "1"):
        raise StateFileError(path, 1, f"the side to move must be 0 (White) or 1 (Black), not '{first}'")
    side = 1 if first == "0" else -1
    board = [0] * (_ROWS * _COLS)
    for block, sign, start in (("White", 1, 1), ("Black", -1, 2 + _ROWS)):
        for r in range(_ROWS):
            n = start + r                     # 0-based index of the line
            if n >= len(lines):
                raise StateFileError(path, n + 1, f"the file ends before {block}'s row {r}")
            words = lines[n].split()
            if len(words) != _COLS or not all(_INT.match(w) for w in words):
                raise StateFileError(path, n + 1, f"{block}'s row {r} must be {_COLS} integers, "
                                     f"not '{lines[n].strip()}'")
            for c, w in enumerate(words):
                code = int(w)
                if not 0 <= code <= 6:
                    raise StateFileError(path, n + 1, f"piece code {code} in {block}'s row {r} "
                                         "is not 0..6")
                if code:
                    sq = r * _COLS + c
                    if board[sq]:
                        raise StateFileError(path, n + 1, f"row {r} col {c} holds a piece of "
                                             "both sides")
                    board[sq] = code * sign
        sep = start + _ROWS
        if sep < len(lines) and lines[sep].strip():
            raise StateFileError(path, sep + 1, f"expected an empty line after {block}'s rows")
    rest = [i for i in range(2 * _ROWS + 3, len(lines)) if lines[i].strip()]
    if rest:
        raise StateFileError(path, rest[0] + 1, "unexpected text after Black's rows")
    return tuple(board), side


def read_action(text):
    """(last complete group of four integers or None, count of complete groups), as the runner
    reads `action`: integers up to the end or the first token that is not an integer."""
    values = []
    for word in text.split():
        if not _INT.match(word):
            break
        values.append(int(word))
    depth = len(values) // 4
    if not depth:
        return None, 0
    return tuple(values[4 * depth - 4:4 * depth]), depth
