"""The reference's answers, reading a program's output, and comparing the two case by case.

The input is the course's: a line N, then each case's FEN line (and for `apply` its move line).
The expected answers are those of the reference programs (`python -m harness congo PART`), got
through the same reading and answering code. A program's output is compared line by line,
exactly, after dropping trailing white space (spaces, tabs, a Windows line end) on each line and
blank lines after the last answer: "-105" and "-105.0" differ, and a move list must be the
course's (sorted, single spaces, each move once).
"""
import argparse
from typing import List, NamedTuple, Optional, Sequence, Tuple

from ..variants.congo import programs, rules
from .cases import Case


class Difference(NamedTuple):
    case: Case
    expected: List[str]
    got: List[str]
    missing: Optional[List[str]]     # move lists only: expected moves it did not print
    extra: Optional[List[str]]       # move lists only: printed moves that are not moves


class Failure(NamedTuple):
    case: Case
    what: str                        # "timed out after 10 s", "printed 2 lines, expected 1", ...


def lines_per_case(program: str) -> int:
    return 2 if program == "apply" else 1


def input_text(program: str, cases: Sequence[Case]) -> str:
    """The course's input for `cases`."""
    out = [f"{len(cases)}\n"]
    for case in cases:
        out.append(case.fen + "\n")
        if program == "apply":
            out.append(case.move + "\n")
    return "".join(out)


def expected_answers(program: str, options: argparse.Namespace, cases: Sequence[Case]) -> List[List[str]]:
    """The reference's lines for each case (the reference programs' own reading and answers)."""
    read = programs.read_cases(input_text(program, cases), with_move=program == "apply")
    return [programs.answer(program, options, position, move) for _, _, position, move in read]


def output_lines(data: bytes, wanted: int) -> Tuple[Optional[List[str]], Optional[str]]:
    """(lines, None) from what a run printed, or (None, what is wrong with it): not text, or not
    `wanted` lines (trailing white space and blank lines after the last answer aside)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, "printed bytes that are not text (UTF-8)"
    lines = [line.rstrip() for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()                      # the final line end
    while len(lines) > wanted and lines[-1] == "":
        lines.pop()
    if len(lines) == wanted:
        return lines, None
    if not lines:
        return None, "printed nothing"
    counted = f"{len(lines)} line{'s' if len(lines) != 1 else ''}, expected {wanted}"
    if len(lines) > wanted:
        return None, f"printed {counted} (the first extra: {_quote(lines[wanted])})"
    return None, f"printed {counted} (the last: {_quote(lines[-1])})"


def _quote(line: str, width: int = 80) -> str:
    return repr(line if len(line) <= width else line[:width] + "...")


def compare(program: str, case: Case, expected: List[str], got: List[str]) -> Optional[Difference]:
    """None when the answers agree; else the difference (with the missing and extra moves of a
    move list)."""
    if expected == got:
        return None
    missing = extra = None
    if program == "moves":
        want, have = expected[0].split(), got[0].split()
        missing = [m for m in want if m not in have]
        extra = [m for m in have if m not in want]
    return Difference(case, expected, got, missing, extra)


def fen_squares(expected: str, got: str) -> Optional[str]:
    """For `apply`: the squares (and the side or move number) where the program's FEN differs,
    e.g. "d4: expected empty, got P"; None when its FEN cannot be read."""
    try:
        a, b = rules.parse_fen(expected), rules.parse_fen(got)
    except rules.FenError:
        return None

    def show(code: int) -> str:
        if code == 0:
            return "empty"
        letter = rules.LETTERS[abs(code)]
        return letter if code > 0 else letter.lower()

    notes = [f"{rules.square_name(s)}: expected {show(a.board[s])}, got {show(b.board[s])}"
             for s in sorted(range(rules.SQUARES), key=lambda s: (-rules.rank_of(s), rules.file_of(s)))
             if a.board[s] != b.board[s]]
    if a.side != b.side:
        notes.append(f"side to move: expected {'w' if a.side > 0 else 'b'}")
    if a.move_number != b.move_number:
        notes.append(f"move number: expected {a.move_number}, got {b.move_number}")
    return "; ".join(notes) or None
