"""The course's Congo programs: the 12 published samples and the worked examples exactly, the
input/output form of each program, and one-line errors for bad input or options."""
import io
import subprocess
import sys
from pathlib import Path

import pytest

from harness.variants.congo import rules, search
from harness.variants.congo.programs import main

REPO = Path(__file__).resolve().parent.parent


def run(argv, text):
    out, err = io.StringIO(), io.StringIO()
    try:
        code = main(argv, stdin=io.StringIO(text), stdout=out, stderr=err)
    except SystemExit as exc:          # never expected: main returns its code
        code = ("SystemExit", exc.code)
    return code, out.getvalue(), err.getvalue()


def cases(*fens):
    return f"{len(fens)}\n" + "".join(f + "\n" for f in fens)


def answers(program, *fens, options=()):
    code, out, err = run([program, *options], cases(*fens))
    assert (code, err) == (0, "")
    return out.splitlines()


# -- the published samples -----------------------------------------------------------------------

def test_eval1_samples():
    assert answers("eval1", "2ele1z/ppppppp/7/7/7/PPP1PPP/2ELE1Z w 4",
                   "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 12",
                   "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 w 12") == ["-100", "900", "-900"]


def test_minimax_samples():
    assert answers("minimax", "2ele1z/ppppppp/7/7/7/PPP1PPP/2ELE1Z w 4",
                   "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35",
                   "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 w 12") == ["-100", "800", "-1000"]


def test_eval2_samples():
    assert answers("eval2", "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4",
                   "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12",
                   "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 w 35") == ["-102", "1214", "-1214"]


def test_alphabeta_samples():
    assert answers("alphabeta", "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4",
                   "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12",
                   "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 w 35") == ["-105", "1020", "-669"]


# -- the worked examples -------------------------------------------------------------------------

MINIMAX_B35 = "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35"


def test_minimax_b35_best_move_is_g4g2():
    p = rules.parse_fen(MINIMAX_B35)
    value, best = search.minimax_root(p.board, p.side, 2, rules.eval1, False)
    assert (value, rules.move_text(*best)) == (800, "g4g2")


def test_minimax_b35_g4g2_leaves_the_river_so_the_elephant_does_not_drown():
    code, out, _ = run(["apply"], f"1\n{MINIMAX_B35}\ng4g2\n")
    assert out == "1z5/pPp1lP1/5ep/4P2/4L1p/2p2pe/7 w 36\nContinue\n"


def test_minimax_b35_with_2022_promotion_is_550():
    assert answers("minimax", MINIMAX_B35, options=["--edition", "2022"]) == ["550"]


def test_apply_giraffe_f5f7_drowns_black_g4_pawn_not_white_e4_pawn():
    code, out, err = run(["apply"], "1\n1z5/pPp1lP1/5gp/4P1p/4L1p/2p2pP/7 b 35\nf5f7\n")
    assert (code, out, err) == (0, "1z3g1/pPp1lP1/6p/4P2/4L1p/2p2pP/7 w 36\nContinue\n", "")


def test_apply_giraffe_g4e4_captures_then_drowns():
    code, out, err = run(["apply"], "1\n1z5/pPp1lP1/6p/4P1g/4L1p/2p2pP/7 b 12\ng4e4\n")
    assert (code, out, err) == (0, "1z5/pPp1lP1/6p/7/4L1p/2p2pP/7 w 13\nContinue\n", "")


# -- the programs' output ---------------------------------------------------------------------

def test_moves_lists_sorted_names_separated_by_single_spaces():
    assert answers("moves", "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4") == [
        "a2a3 a2b3 b2a3 b2b3 b2c3 c2b3 c2c3 c2d3 d1c1 d1d2 d1e1 e2d3 e2e3 e2f3 f2e3 f2f3 f2g3 "
        "g1f3 g2f3 g2g3"]


def test_moves_of_one_piece_type():
    assert answers("moves", "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12", options=["--piece", "S"]) == [
        "f5e4 f5e5 f5f4 f5g6 g4f3 g4f4"]


def test_moves_piece_letter_may_be_lower_case():
    assert answers("moves", "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4", options=["--piece", "z"]) == [
        "g1f3"]


def test_moves_prints_an_empty_line_when_there_are_none():
    assert answers("moves", "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4",
                   "3l3/7/7/7/7/7/3L3 w 1", options=["--piece", "E"]) == ["", ""]


def test_apply_reports_the_winner_when_a_lion_is_taken():
    code, out, _ = run(["apply"], "2\n3l3/7/7/7/7/7/3LP2 w 1\nd1d7\n3l3/4p2/7/7/7/7/3L3 b 5\nd7d1\n")
    assert out == "3L3/7/7/7/7/7/4P2 b 1\nWhite wins\n7/4p2/7/7/7/7/3l3 w 6\nBlack wins\n"


def test_bestmove_prints_the_first_best_move_in_name_order():
    assert answers("bestmove", "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4",
                   "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12",
                   "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 w 35") == ["c2c3", "g4f3", "e4e5"]


def test_bestmove_agrees_with_the_plain_pseudocode_at_depth_3():
    for fen in ("3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4", "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12"):
        p = rules.parse_fen(fen)
        alpha, first = -rules.INFINITY, None
        for s, t in rules.generate(p.board, p.side):
            child = rules.execute(p.board, p.side, s, t, True)
            e = -search.plain_alphabeta(child, -p.side, 2, -rules.INFINITY, -alpha, rules.eval2, True)
            if e > alpha:
                alpha, first = e, rules.move_text(s, t)
        assert answers("alphabeta", fen, options=["--depth", "3"]) == [str(alpha)]
        assert answers("bestmove", fen, options=["--depth", "3"]) == [first]


def test_depth_option():
    fen = "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 w 12"
    assert answers("minimax", fen, options=["--depth", "0"]) == answers("eval1", fen)
    assert answers("minimax", fen, options=["--depth", "1"]) == ["-700"]   # e4xf5 takes an elephant


def test_search_scores_a_lion_already_gone_without_searching():
    assert answers("alphabeta", "7/7/7/7/7/7/3L3 b 3") == ["-10000"]
    assert answers("minimax", "3l3/7/7/7/7/7/7 b 3") == ["10000"]


def test_only_the_lions_is_zero():
    assert answers("eval1", "3l3/7/7/7/7/7/3L3 w 1") == answers("eval2", "3l3/7/7/7/7/7/3L3 b 1") == ["0"]


def test_no_move_at_all_minimax_gives_minus_ten_million():
    stuck = "P2l3/p6/7/7/7/7/L6 w 1"
    assert answers("minimax", stuck, options=["--depth", "1"]) == ["-10000000"]
    assert answers("alphabeta", stuck, options=["--depth", "1"]) == ["-10000000"]


def test_blank_lines_between_cases_are_tolerated():
    code, out, err = run(["eval1"], "2\n\n3l3/7/7/7/7/7/3LP2 w 1\n\n\n3l3/7/7/7/7/7/3LP2 b 1\n\n")
    assert (code, out, err) == (0, "100\n-100\n", "")


def test_zero_cases_print_nothing():
    assert run(["eval2"], "0\n") == (0, "", "")


# -- errors: one line, naming the case ---------------------------------------------------------

PROG = "python -m harness congo"


@pytest.mark.parametrize("program,text,message", [
    ("eval1", "", "line 1: expected the number of cases N, found end of input"),
    ("eval1", "x\n", "line 1: 'x' is not a number of cases (a whole number >= 0)"),
    ("eval1", "2\n3l3/7/7/7/7/7/3L3 w 1\n",
     "case 2: missing FEN line (input ended at line 2; line 1 announced 2 cases)"),
    ("eval1", "1\n3l3/7/7/7/7/7/3L3 w 1\nextra\n", "line 3: more input after the 1 cases announced on line 1"),
    ("eval1", "2\n3l3/7/7/7/7/7/3L3 w 1\n3l3/7/7/7/7/3L3 w 1\n",
     "case 2 (line 3): bad FEN: 6 ranks in the board, expected 7"),
    ("eval2", "1\n3l3/7/7/7/7/7/3L4 w 1\n", "case 1 (line 2): bad FEN: rank 1 '3L4' covers 8 squares, expected 7"),
    ("eval2", "1\n3l3/7/7/7/7/7/3L2 w 1\n", "case 1 (line 2): bad FEN: rank 1 '3L2' covers 6 squares, expected 7"),
    ("eval2", "1\n3l3/7/7/7/7/7/3L2x w 1\n",
     "case 1 (line 2): bad FEN: rank 1 '3L2x': unknown piece letter 'x' (pieces: L Z E G P S)"),
    ("moves", "1\n3l3/7/7/7/7/7/3L2C w 1\n", "case 1 (line 2): bad FEN: rank 1 '3L2C': 'C' is a crocodile, "
                                            "which this course does not play (pieces: L Z E G P S)"),
    ("moves", "1\n3l2m/7/7/7/7/7/3L3 w 1\n", "case 1 (line 2): bad FEN: rank 7 '3l2m': 'm' is a monkey, "
                                            "which this course does not play (pieces: L Z E G P S)"),
    ("moves", "1\n3l3/7/7/7/7/7/3L0 w 1\n",
     "case 1 (line 2): bad FEN: rank 1 '3L0': '0' is not a count of 1 to 7 empty squares"),
    ("moves", "1\n3l3/7/7/7/7/7/3L3 x 1\n", "case 1 (line 2): bad FEN: side to move 'x', expected 'w' or 'b'"),
    ("moves", "1\n3l3/7/7/7/7/7/3L3 w 0\n",
     "case 1 (line 2): bad FEN: move number '0', expected a whole number >= 1"),
    ("moves", "1\n3l3/7/7/7/7/7/3L3 w x\n",
     "case 1 (line 2): bad FEN: move number 'x', expected a whole number >= 1"),
    ("moves", "1\n3l3/7/7/7/7/7/3L3 w\n", "case 1 (line 2): bad FEN: missing move number after the side to move"),
    ("moves", "1\n3l3/7/7/7/7/7/3L3\n",
     "case 1 (line 2): bad FEN: missing side to move and move number after the board"),
    ("moves", "1\n3l3/7/7/7/7/7/3L3 w 1 9\n",
     "case 1 (line 2): bad FEN: 4 fields, expected 3 (board, side to move, move number)"),
    ("apply", "1\n3l3/7/7/7/7/7/3L3 w 1\n", "case 1: missing move line (input ended at line 2; "
                                            "line 1 announced 1 cases)"),
    ("apply", "1\n3l3/7/7/7/7/7/3L3 w 1\nd1d9\n",
     "case 1 (line 3): 'd1d9' is not a move name (from-square and to-square, such as e7d6)"),
    ("apply", "1\n3l3/7/7/7/7/7/3L3 w 1\n\nd1d3\n", "case 1 (line 4): 'd1d3' is not one of the position's moves"),
    ("apply", "1\n3l3/7/7/7/7/7/3L3 w 1\nd7d6\n", "case 1 (line 3): 'd7d6' is not one of the position's moves"),
])
def test_bad_input_is_one_line_naming_the_case(program, text, message):
    code, out, err = run([program], text)
    assert (code, out, err) == (1, "", f"{PROG} {program}: error: {message}\n")


@pytest.mark.parametrize("argv,message", [
    (["moves", "--piece", "C"], "argument --piece: 'C' is a crocodile, which this course does not play "
                                "(use L Z E G P S)"),
    (["moves", "--piece", "Q"], "argument --piece: 'Q' is not a piece letter (use L Z E G P S)"),
    (["minimax", "--depth", "-1"], "argument --depth: '-1' must be at least 0"),
    (["alphabeta", "--depth", "two"], "argument --depth: 'two' is not a whole number"),
    (["eval1", "--edition", "2020"], "argument --edition: invalid choice: '2020' (choose from '2021', '2022')"),
    (["eval1", "--depth", "2"], "unrecognized arguments: --depth 2"),
])
def test_bad_options_are_one_line(argv, message):
    code, out, err = run(argv, "0\n")
    assert code == 2 and out == ""
    assert err.splitlines() == [err.strip()] and err.strip().endswith(f"error: {message}")


def test_runs_as_a_module_with_no_traceback():
    done = subprocess.run([sys.executable, "-m", "harness.variants.congo.programs", "eval1"],
                          input="1\n3l3/7/7/7/7/7/3L9 w 1\n", capture_output=True, text=True, cwd=REPO)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == ("python -m harness.variants.congo.programs eval1: error: case 1 (line 2): "
                           "bad FEN: rank 1 '3L9': '9' is not a count of 1 to 7 empty squares\n")


def test_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "harness.variants.congo.programs", "alphabeta"],
                          input=cases("1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 w 35"), capture_output=True,
                          text=True, cwd=REPO)
    assert (done.returncode, done.stdout, done.stderr) == (0, "-669\n", "")
