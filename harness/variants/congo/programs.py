"""The course's Congo programs: each reads N positions on standard input and prints one answer per
position, in the course's exact form (see docs/congo.md).

    python -m harness congo PROGRAM [options] < input
    python -m harness.variants.congo.programs PROGRAM [options] < input

Programs: moves [--piece X], apply, eval1, minimax [--depth D], eval2, alphabeta [--depth D],
bestmove [--depth D]; every one takes --edition 2021|2022 (eval1 and minimax default to 2021, the
others to 2022). Input: a line N, then N cases (a FEN line; for apply a FEN line then a move line);
blank lines between cases are tolerated. A malformed input is one line on standard error naming
the case (and its line) and the problem, exit code 1, and nothing on standard output; a bad
command line is one line too, exit code 2.
"""
import argparse
import sys
from typing import IO, List, Optional, Sequence, Tuple

from ...core.argtypes import Parser, UsageError, whole_number
from . import rules, search
from .rules import FenError, Position, parse_fen

PROGRAMS = ("moves", "apply", "eval1", "minimax", "eval2", "alphabeta", "bestmove")
DEFAULT_EDITION = {"eval1": "2021", "minimax": "2021"}     # the others: 2022
DEFAULT_DEPTH = {"minimax": 2, "alphabeta": 4, "bestmove": 4}
PROG = "python -m harness congo"


class InputError(Exception):
    """Bad input: the text is the whole one-line message."""


def piece_letter(text: str) -> int:
    letter = text.upper()
    if letter in rules.UNPLAYED:
        raise argparse.ArgumentTypeError(
            f"'{text}' is a {rules.UNPLAYED[letter]}, which this course does not play (use L Z E G P S)")
    if letter not in rules.CODES:
        raise argparse.ArgumentTypeError(f"'{text}' is not a piece letter (use L Z E G P S)")
    return rules.CODES[letter]


depth_value = whole_number(0)


def build_parser(prog: str = PROG, epilog: Optional[str] = None) -> Parser:
    parser = Parser(prog=prog, description="The course's Congo programs (one answer per input case).",
                    epilog=epilog)
    sub = parser.add_subparsers(dest="program", metavar="PROGRAM", parser_class=Parser)
    sub.required = True
    helps = {
        "moves": "the side to move's moves, sorted",
        "apply": "the FEN after the move, then Continue, White wins or Black wins",
        "eval1": "material, White minus Black, from the mover's view",
        "minimax": "the minimax value (eval1)",
        "eval2": "material + mobility + attack, from the mover's view",
        "alphabeta": "the alpha-beta value (eval2)",
        "bestmove": "the move alpha-beta picks (first best in name order)",
    }
    for name in PROGRAMS:
        p = sub.add_parser(name, help=helps[name], description=helps[name])
        default = DEFAULT_EDITION.get(name, "2022")
        p.add_argument("--edition", choices=rules.EDITIONS, default=default,
                       help=f"rules year (default {default}; 2022 promotes pawns)")
        if name == "moves":
            p.add_argument("--piece", type=piece_letter, metavar="X",
                           help="only the moves of this piece type (L Z E G P S)")
        if name in DEFAULT_DEPTH:
            p.add_argument("--depth", type=depth_value, default=DEFAULT_DEPTH[name],
                           metavar="D", help=f"search depth (default {DEFAULT_DEPTH[name]})")
    return parser


# -- input ------------------------------------------------------------------------------------

Case = Tuple[int, int, Position, Optional[Tuple[int, int]]]   # case number, line, position, move


def read_cases(text: str, with_move: bool) -> List[Case]:
    """The cases of an input; InputError names the first problem."""
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise InputError("line 1: expected the number of cases N, found "
                         + ("end of input" if not lines else "an empty line"))
    head = lines[0].strip()
    if not head.isdigit():
        raise InputError(f"line 1: '{head}' is not a number of cases (a whole number >= 0)")
    count = int(head)
    at = 1

    def next_line(case: int, what: str) -> Tuple[int, str]:
        nonlocal at
        while at < len(lines) and not lines[at].strip():
            at += 1
        if at >= len(lines):
            raise InputError(f"case {case}: missing {what} (input ended at line {len(lines)}; "
                             f"line 1 announced {count} cases)")
        at += 1
        return at, lines[at - 1].strip()

    cases: List[Case] = []
    for case in range(1, count + 1):
        number, fen = next_line(case, "FEN line")
        try:
            position = parse_fen(fen)
        except FenError as exc:
            raise InputError(f"case {case} (line {number}): bad FEN: {exc}")
        move = None
        if with_move:
            move_number, name = next_line(case, "move line")
            move = _read_move(case, move_number, name, position)
        cases.append((case, number, position, move))
    while at < len(lines):
        if lines[at].strip():
            raise InputError(f"line {at + 1}: more input after the {count} cases announced on line 1")
        at += 1
    return cases


def _read_move(case: int, number: int, name: str, position: Position) -> Tuple[int, int]:
    source, target = rules.parse_square(name[:2]), rules.parse_square(name[2:])
    if len(name) != 4 or source is None or target is None:
        raise InputError(f"case {case} (line {number}): '{name}' is not a move name "
                         "(from-square and to-square, such as e7d6)")
    if (source, target) not in rules.generate(position.board, position.side):
        raise InputError(f"case {case} (line {number}): '{name}' is not one of the position's moves")
    return source, target


# -- the programs -----------------------------------------------------------------------------

def answer(program: str, options: argparse.Namespace, position: Position,
           move: Optional[Tuple[int, int]]) -> List[str]:
    board, side = position.board, position.side
    promotion = options.edition == "2022"
    if program == "moves":
        moves = rules.generate(board, side)
        if options.piece is not None:
            moves = [m for m in moves if abs(board[m[0]]) == options.piece]
        return [" ".join(rules.move_text(s, t) for s, t in moves)]
    if program == "apply":
        assert move is not None, "apply's case names a move"
        s, t = move
        after = rules.execute(board, side, s, t, promotion)
        number = position.move_number + (1 if side < 0 else 0)
        white, black = rules.lions(after)
        status = "White wins" if white and not black else "Black wins" if black and not white else "Continue"
        return [rules.format_fen(after, -side, number), status]
    if program == "eval1":
        return [str(rules.eval1(board, side))]
    if program == "eval2":
        return [str(rules.eval2(board, side))]
    if program == "minimax":
        return [str(search.minimax(board, side, options.depth, rules.eval1, promotion))]
    value, best = search.alphabeta_root(board, side, options.depth, rules.eval2, promotion)
    if program == "alphabeta":
        return [str(value)]
    return [rules.move_text(*best) if best is not None else ""]


def main(argv: Optional[Sequence[str]] = None, stdin: Optional[IO[str]] = None,
         stdout: Optional[IO[str]] = None, stderr: Optional[IO[str]] = None,
         prog: str = PROG, epilog: Optional[str] = None) -> int:
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    parser = build_parser(prog, epilog)
    try:
        options = parser.parse_args(argv)
    except UsageError as exc:
        stderr.write(f"{exc}\n")
        return 2
    except SystemExit as exc:              # --help
        return exc.code if isinstance(exc.code, int) else 0
    program = options.program
    try:
        cases = read_cases(stdin.read(), with_move=program == "apply")
    except InputError as exc:
        stderr.write(f"{prog} {program}: error: {exc}\n")
        return 1
    except UnicodeDecodeError:
        stderr.write(f"{prog} {program}: error: the input is not text (UTF-8)\n")
        return 1
    out = []
    for _, _, position, move in cases:
        out.extend(answer(program, options, position, move))
    stdout.write("".join(line + "\n" for line in out))
    return 0


if __name__ == "__main__":
    sys.exit(main(prog="python -m harness.variants.congo.programs"))
