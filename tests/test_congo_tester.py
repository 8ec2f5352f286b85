"""`congo test PART --program CMD`: the reference agrees on every case; deliberately broken copies
of it are caught (the first N cases of a seed are those of the default 500, so a bug caught in
the first 28 is caught at the defaults; one test runs the defaults themselves); crashing,
hanging and garbage-printing programs are named with their cases; the JSON and JUnit files; the
cases themselves; the contained run of a program; one-line usage errors."""
import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import run_cli

from harness.isolation import untrusted_run
from harness.isolation.box import BoxSettings, bwrap
from harness.congo_tester.run import main
from harness.congo_tester.cases import KINDS, make_case, make_cases
from harness.congo_tester.check import output_lines
from harness.variants.congo import programs, rules

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "congo"
PYTHON = os.path.realpath(sys.executable)      # the interpreter itself (the box shows it, not a venv link)


def reference(part):
    return f"{PYTHON} {FIXTURES / 'reference.py'} {part}"


def broken(bug, part):
    return f"{PYTHON} {FIXTURES / 'broken.py'} {bug} {part}"


def misbehaves(how, part="eval1"):
    return f"{PYTHON} {FIXTURES / 'misbehaves.py'} {how} {part}"


def run_tester(argv, capsys, tmp_path=None):
    """(exit code, stdout, stderr, the JSON verdict or None)."""
    out = None
    if tmp_path is not None:
        out = tmp_path / "verdict.json"
        argv = [*argv, "--json", str(out)]
    code = main(argv)
    printed, errors = capsys.readouterr()
    return code, printed, errors, json.loads(out.read_text()) if out is not None and out.exists() else None


# -- the reference agrees -------------------------------------------------------------------------

@pytest.mark.parametrize("part,cases", [("moves", 28), ("apply", 24), ("eval1", 28), ("minimax", 28),
                                        ("eval2", 28), ("alphabeta", 14), ("bestmove", 14)])
def test_the_reference_agrees_on_every_case(part, cases, capsys):
    code, out, err, _ = run_tester([part, "--program", reference(part), "--cases", str(cases)], capsys)
    assert (code, out, err) == (0, f"{part}: {cases}/{cases} cases agree\n", "")


def test_the_reference_agrees_with_options_and_the_other_edition(capsys):
    code, out, _, _ = run_tester(["moves", "--program", reference("moves") + " --piece g --edition 2021",
                              "--piece", "G", "--edition", "2021", "--cases", "14"], capsys)
    assert (code, out) == (0, "moves: 14/14 cases agree\n")
    code, out, _, _ = run_tester(["minimax", "--program", reference("minimax") + " --depth 3 --edition 2022",
                              "--depth", "3", "--edition", "2022", "--cases", "14"], capsys)
    assert (code, out) == (0, "minimax: 14/14 cases agree\n")
    code, out, _, _ = run_tester(["eval1", "--program", reference("eval1"), "--cases", "7", "--no-box"], capsys)
    assert (code, out) == (0, "eval1: 7/7 cases agree\n")


# -- broken copies are caught ---------------------------------------------------------------------

BROKEN = [
    ("no_flying", "moves", 28), ("flying_through_pieces", "moves", 28), ("flying_along_ranks", "moves", 28),
    ("no_pawn_retreat", "moves", 28), ("superpawn_no_sideways", "moves", 28),
    ("giraffe_step_captures", "moves", 28), ("no_drowning", "apply", 24), ("capturer_survives", "apply", 24),
    ("opponent_drowns", "apply", 24), ("no_promotion", "apply", 24), ("move_number_after_white", "apply", 24),
    ("missing_lion_material", "eval1", 28), ("not_negated", "eval1", 28), ("not_negated", "eval2", 28),
    ("lion_attack_plain", "eval2", 28), ("depth_one_less", "minimax", 28), ("no_move_zero", "minimax", 28),
    ("depth_one_less", "alphabeta", 7), ("no_move_zero", "alphabeta", 7), ("last_best_move", "bestmove", 7),
]


@pytest.mark.parametrize("bug,part,cases", BROKEN)
def test_a_broken_copy_is_caught_in_the_first_cases_of_the_defaults(bug, part, cases, capsys, tmp_path):
    code, out, err, verdict = run_tester([part, "--program", broken(bug, part), "--cases", str(cases)], capsys, tmp_path)
    assert code == 1 and err == ""
    assert verdict["failures"] == [] and verdict["differences"]
    assert out.startswith(f"{part}: {cases - len(verdict['differences'])}/{cases} cases agree\n")
    first = verdict["differences"][0]
    assert f"case {first['case']} ({first['kind']}): {first['fen']}" in out
    for diff in verdict["differences"]:
        case = make_case(diff["case"], 0, programs.DEFAULT_EDITION.get(part, "2022"), part)
        assert (diff["fen"], diff.get("move")) == (case.fen, case.move)
        assert diff["expected"] == "\n".join(answers(part, case)) != diff["got"]


def answers(part, case, *options):
    """The reference's answer to one case, from the programs themselves."""
    options = programs.build_parser().parse_args([part, *options])
    text = f"1\n{case.fen}\n" + (f"{case.move}\n" if case.move else "")
    (_, _, position, move), = programs.read_cases(text, with_move=part == "apply")
    return programs.answer(part, options, position, move)


def test_what_the_missing_and_extra_moves_name(capsys, tmp_path):
    _, _, _, verdict = run_tester(["moves", "--program", broken("no_flying", "moves"), "--cases", "28"], capsys, tmp_path)
    for diff in verdict["differences"]:          # the lion's flying captures, and nothing else
        board = rules.parse_fen(diff["fen"]).board
        assert diff["extra"] == [] and diff["missing"]
        for move in diff["missing"]:
            source, target = rules.parse_square(move[:2]), rules.parse_square(move[2:])
            assert abs(board[source]) == abs(board[target]) == rules.LION
    _, _, _, verdict = run_tester(["moves", "--program", broken("flying_along_ranks", "moves"), "--cases", "28"],
                              capsys, tmp_path)
    for diff in verdict["differences"]:
        assert diff["missing"] == [] and diff["extra"]
        assert all(move[1] == move[3] for move in diff["extra"])      # along a rank


def test_a_drowning_difference_names_the_square(capsys):
    code, out, _, _ = run_tester(["apply", "--program", broken("capturer_survives", "apply"), "--cases", "24",
                              "--show", "1"], capsys)
    case = make_case(11, 0, "2022", "apply")
    assert (case.fen, case.move) == ("4lpS/P1G1PP1/7/P2pGs1/g3L2/pppp1p1/3S3 b 21", "f4e4")
    assert out == ("apply: 22/24 cases agree\n"
                   f"case 11 (pawns): {case.fen}, move f4e4\n"
                   "  expected: 4lpS/P1G1PP1/7/P6/g3L2/pppp1p1/3S3 w 22\n"
                   "            Continue\n"
                   "  got:      4lpS/P1G1PP1/7/P3s2/g3L2/pppp1p1/3S3 w 22\n"
                   "            Continue\n"
                   "  differs:  e4: expected empty, got s\n"
                   "... and 1 more difference (--show K shows K, --json FILE writes them all)\n")
    assert code == 1


def test_a_broken_copy_at_the_defaults(capsys):
    """The defaults themselves (500 cases, seed 0, a 10 s run): what a student's first run does."""
    code, out, err, _ = run_tester(["moves", "--program", broken("no_flying", "moves")], capsys)
    assert (code, err) == (1, "")
    assert out.splitlines()[0] == "moves: 413/500 cases agree"
    assert out.splitlines()[-1] == "... and 82 more differences (--show K shows K, --json FILE writes them all)"


# -- programs that crash, hang, print garbage ----------------------------------------------------
# misbehaves.py hits the cases whose move number is a multiple of 3.

FIRST_FOUR = make_cases(4, 0, "2021", "eval1")
HIT = [case for case in FIRST_FOUR if int(case.fen.split()[2]) % 3 == 0]


def test_some_of_the_first_four_cases_are_hit_and_some_not():
    assert 0 < len(HIT) < 4


@pytest.mark.parametrize("how,what,note", [
    ("crash", "exited with code 1: ValueError: a multiple of 3",
     "the run of all 4 cases exited with code 1: ValueError: a multiple of 3"),
    ("segfault", "was killed by signal SIGSEGV", "the run of all 4 cases was killed by signal SIGSEGV"),
    ("garbage", "printed bytes that are not text (UTF-8)",
     "the run of all 4 cases printed bytes that are not text (UTF-8)"),
    ("chatty", "printed 2 lines, expected 1 (the first extra: '{answer}')",
     "the run of all 4 cases printed {lines} lines, expected 4 (the first extra: '{extra}')"),
    ("flood", f"printed more than {8 << 20} bytes", f"the run of all 4 cases printed more than {8 << 20} bytes"),
])
def test_a_misbehaving_program_is_named_with_its_cases(how, what, note, capsys, tmp_path):
    code, out, err, verdict = run_tester(["eval1", "--program", misbehaves(how), "--cases", "4"], capsys, tmp_path)
    values = ["\n".join(answers("eval1", case)) for case in FIRST_FOUR]
    printed = [line for case, value in zip(FIRST_FOUR, values) for line in (["debug"] if case in HIT else []) + [value]]
    note = note.format(lines=4 + len(HIT), extra=printed[4] if len(printed) > 4 else "")
    assert code == 1
    assert err == f"note: {note}; running each case alone\n"
    assert verdict["differences"] == []
    failed = [(case.number, case.fen, what.format(answer=values[case.number - 1])) for case in HIT]
    assert [(f["case"], f["fen"], f["what"]) for f in verdict["failures"]] == failed
    assert out == (f"eval1: {4 - len(HIT)}/4 cases agree\n{len(HIT)} case{'s' if len(HIT) > 1 else ''} failed "
                   "(each run alone):\n" + "".join(f"case {n} ({FIRST_FOUR[n - 1].kind}): {fen}: {w}\n"
                                                    for n, fen, w in failed))


def test_a_hanging_program_is_stopped_at_the_timeout_and_named_with_its_case(capsys, tmp_path):
    cases = HIT[0].number               # the first hit is the last case: one run waits for the timeout
    code, out, err, verdict = run_tester(["eval1", "--program", misbehaves("hang"), "--cases", str(cases),
                                          "--timeout", "4"], capsys, tmp_path)
    assert code == 1
    assert err == (f"note: the run of all {cases} cases timed out after 4 s (raise --timeout if it is only slow); "
                   "running each case alone\n")
    assert [(f["case"], f["what"]) for f in verdict["failures"]] == [(cases, "timed out after 4 s")]
    assert out.splitlines()[0] == f"eval1: {cases - 1}/{cases} cases agree"


def test_a_program_that_exits_with_an_error_code_fails_every_case(capsys, tmp_path):
    code, out, _, verdict = run_tester(["eval1", "--program", misbehaves("exit3"), "--cases", "2"], capsys, tmp_path)
    assert code == 1
    assert [(f["case"], f["what"]) for f in verdict["failures"]] == [(1, "exited with code 3"), (2, "exited with code 3")]


def test_a_child_left_behind_is_killed_with_the_run(capsys):
    finished = untrusted_run.run(untrusted_run.command_line(misbehaves("forks")), b"1\n3l3/7/7/7/7/7/3L3 w 1\n",
                                 30, 1000, BoxSettings(fixed_mounts=False))     # as `congo test` boxes it
    assert (finished.status, finished.output, finished.timed_out) == (0, b"0\n", False)
    assert finished.seconds < 20            # the child sleeping 60 s holding the pipe did not hold the run


# -- the files -------------------------------------------------------------------------------------

def test_the_junit_file_parses_with_a_test_case_per_case(capsys, tmp_path):
    path = tmp_path / "junit.xml"
    code, _, _, _ = run_tester(["eval1", "--program", misbehaves("crash"), "--cases", "4", "--junit", str(path)],
                               capsys)
    assert code == 1
    suite = ET.parse(path).getroot().find("testsuite")
    assert {k: suite.get(k) for k in ("name", "tests", "failures", "errors")} == {
        "name": "congo test eval1", "tests": "4", "failures": "0", "errors": str(len(HIT))}
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["case 1 (play)", "case 2 (placement)", "case 3 (lions)", "case 4 (river)"]
    assert [(c.find("error").get("message") if c.find("error") is not None else None) for c in cases] == [
        "exited with code 1: ValueError: a multiple of 3" if case in HIT else None for case in FIRST_FOUR]
    assert cases[HIT[0].number - 1].find("error").text == HIT[0].fen


def test_the_junit_file_holds_differences_and_garbage(capsys, tmp_path):
    path = tmp_path / "junit.xml"
    run_tester(["moves", "--program", broken("no_flying", "moves"), "--cases", "7", "--junit", str(path)], capsys)
    suite = ET.parse(path).getroot().find("testsuite")
    failed = [c for c in suite.findall("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["case 3 (lions)"] and suite.get("failures") == "1"
    assert "missing: a5a3" in failed[0].find("failure").text
    path = tmp_path / "garbage.xml"
    run_tester(["eval1", "--program", misbehaves("garbage"), "--cases", "4", "--junit", str(path)], capsys)
    assert ET.parse(path).getroot().find("testsuite").get("errors") == str(len(HIT))


def test_the_json_file_of_a_move_list(capsys, tmp_path):
    _, _, _, verdict = run_tester(["moves", "--program", broken("no_flying", "moves"), "--cases", "7"], capsys, tmp_path)
    case = make_case(3, 0, "2022", "moves")
    assert case.fen == "7/7/L2Z2p/1g3p1/l6/4Ss1/7 w 56"       # the lions face each other on the a-file
    expected = answers("moves", case)[0]
    assert expected.split()[0] == "a5a3"                         # the flight over a4
    assert verdict == {
        "part": "moves", "options": "--edition 2022", "seed": 0, "edition": "2022", "cases": 7, "agree": 6,
        "differences": [{"case": 3, "kind": "lions", "fen": case.fen, "expected": expected,
                         "got": " ".join(m for m in expected.split() if m != "a5a3"), "missing": ["a5a3"],
                         "extra": []}],
        "failures": []}


# -- the cases ---------------------------------------------------------------------------------------

def test_the_first_cases_of_a_seed_do_not_depend_on_how_many():
    assert make_cases(10, 3, "2022", "moves") == make_cases(40, 3, "2022", "moves")[:10]
    assert make_cases(5, 3, "2022", "moves") != make_cases(5, 4, "2022", "moves")


def test_every_kind_comes_in_turn_white_then_black():
    cases = make_cases(14, 0, "2022", "eval2")
    assert [c.kind for c in cases] == list(KINDS) * 2
    assert [c.fen.split()[1] for c in cases] == ["w"] * 7 + ["b"] * 7
    assert [c.kind for c in make_cases(6, 0, "2022", "apply")] == [k for k in KINDS if k != "no_move"]
    assert [c.kind for c in make_cases(5, 0, "2022", "bestmove")] == ["play", "placement", "lions", "river", "pawns"]


@pytest.mark.parametrize("edition,letters", [("2021", set("LZEP")), ("2022", set("LZGPS"))])
def test_the_cases_are_what_their_kind_says(edition, letters):
    cases = make_cases(210, 1, edition, "eval1")
    flights = 0
    for case in cases:
        position = rules.parse_fen(case.fen)
        board, side = position.board, position.side
        if case.kind != "play":       # play starts from the start position, elephants and all
            assert {rules.LETTERS[abs(x)] for x in board if x} <= letters
        lions = (rules.LION in board, -rules.LION in board)
        moves = rules.generate(board, side)
        assert not any(abs(board[r]) == rules.LION for r in rules.RIVER)
        if case.kind == "missing_lion":
            assert sorted(lions) == [False, True]
        elif case.kind != "play":
            assert lions == (True, True)
        if case.kind == "no_move":
            assert moves == []
        if case.kind == "river":
            assert sum(1 for r in rules.RIVER if board[r]) >= 2
        if case.kind == "lions":
            flights += any(abs(board[s]) == abs(board[t]) == rules.LION for s, t in moves)
        if edition == "2022":     # a pawn on its far rank would have been promoted
            assert all(board[rules.square(f, 7)] != rules.PAWN and board[rules.square(f, 1)] != -rules.PAWN
                       for f in range(7))
    assert flights >= 10


def test_apply_moves_are_moves_and_often_hard_ones():
    cases = make_cases(120, 0, "2022", "apply")
    along = promotions = 0
    for case in cases:
        position = rules.parse_fen(case.fen)
        s, t = rules.parse_square(case.move[:2]), rules.parse_square(case.move[2:])
        assert (s, t) in rules.generate(position.board, position.side)
        along += s in rules.RIVER and t in rules.RIVER
        promotions += abs(position.board[s]) == rules.PAWN and rules.rank_of(t) in (1, 7)
    assert along >= 6 and promotions >= 6


def test_the_piece_of_moves_piece_stands_on_the_board():
    for case in make_cases(14, 0, "2021", "moves", piece=rules.GIRAFFE):
        if case.kind not in ("play", "no_move"):
            position = rules.parse_fen(case.fen)
            assert rules.GIRAFFE * position.side in position.board


# -- reading a program's output ---------------------------------------------------------------------

@pytest.mark.parametrize("data,wanted,result", [
    (b"1\n2\n", 2, (["1", "2"], None)),
    (b"1 \r\n2\t\n\n\n", 2, (["1", "2"], None)),          # trailing white space and blank lines
    (b"\n\n", 2, (["", ""], None)),                       # two empty move lists
    (b"1\n", 2, (None, "printed 1 line, expected 2 (the last: '1')")),
    (b"", 1, (None, "printed nothing")),
    (b"1\n2\n3\n", 2, (None, "printed 3 lines, expected 2 (the first extra: '3')")),
    (b"\xff\n", 1, (None, "printed bytes that are not text (UTF-8)")),
])
def test_output_lines(data, wanted, result):
    assert output_lines(data, wanted) == result


# -- the contained run ------------------------------------------------------------------------------

PROBE = ("import os, sys; print(sorted(os.environ)); print(os.listdir('.')); print(os.environ['HOME'] == os.getcwd()); "
         "sys.stdout.flush()")


@pytest.mark.parametrize("box", [None, BoxSettings()])
def test_a_program_gets_a_clean_environment_and_an_empty_scratch_folder(box, monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "do-not-leak")
    monkeypatch.delenv("LC_ALL", raising=False)
    finished = untrusted_run.run([PYTHON, "-c", PROBE], b"", 30, 10000, box)
    assert finished.status == 0
    names = ["HOME", "LANG", "PATH"] + (["PWD"] if box is not None and bwrap()[0] else []) + ["TMPDIR"]
    assert finished.output.decode().splitlines() == [str(names), "[]", "True"]   # bwrap sets PWD


def test_the_command_line_is_split_without_a_shell(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text("print(1)\n")
    (tmp_path / "moves").write_text("#!/bin/sh\n")
    assert untrusted_run.command_line(f"{PYTHON} mine.py '$HOME; rm -rf x' -v") == [
        PYTHON, str(tmp_path / "mine.py"), "$HOME; rm -rf x", "-v"]
    with pytest.raises(untrusted_run.CommandError, match=r"^'./moves' is not executable \(chmod \+x ./moves\)$"):
        untrusted_run.command_line("./moves")
    os.chmod(tmp_path / "moves", 0o755)
    assert untrusted_run.command_line("./moves 3") == [str(tmp_path / "moves"), "3"]


# a student's own eval1 (material, the lions' ±10000, negated for Black), nothing of the harness
OWN_EVAL1 = """#!{python}
import sys
VALUE = dict(P=100, E=200, Z=300, S=350, G=400)
lines = sys.stdin.read().split("\\n")
for fen in lines[1:1 + int(lines[0])]:
    board, side, _ = fen.split()
    score = sum(VALUE.get(c.upper(), 0) * (1 if c.isupper() else -1) for c in board if c.isalpha())
    others = any(c.isalpha() and c not in "Ll" for c in board)
    if "l" not in board:
        score = 10000 if others or "L" in board else score
    elif "L" not in board:
        score = -10000
    print(-score if side == "b" else score)
"""


def test_a_program_named_by_its_path_outside_the_current_folder_runs_in_the_box(capsys, tmp_path, monkeypatch):
    build = tmp_path / "build"
    build.mkdir()
    program = build / "eval1"
    program.write_text(OWN_EVAL1.format(python=PYTHON))
    program.chmod(0o755)
    elsewhere = tmp_path / "src"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for given in (str(program), "../build/eval1"):
        code, out, err, _ = run_tester(["eval1", "--program", given, "--cases", "14"], capsys)
        assert (code, out, err) == (0, "eval1: 14/14 cases agree\n", "")


def test_the_folder_the_box_shows_a_program(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/local/bin:/usr/bin:/bin")
    here = str(tmp_path / "here")
    assert untrusted_run.home_of(["/usr/bin/python3", str(FIXTURES / "reference.py"), "eval1"], here) == str(FIXTURES)
    assert untrusted_run.home_of([here + "/bin/moves"], here) == here + "/bin"
    assert untrusted_run.home_of(["/opt/course/build/moves", "G"], here) == "/opt/course/build"
    # a system program shows nothing more (never the folder it is run from: a build's `make` or
    # `g++` saw the grader's working folder); `congo test` shows its own working folder itself
    assert untrusted_run.home_of(["/usr/bin/python3", "-m", "mine"], here) is None
    assert untrusted_run.home_of(["/usr/bin/g++", "-o", "eval1", "eval1.cpp"], here) is None
    assert untrusted_run.home_of(["/moves"], here) is None


# -- the command line ---------------------------------------------------------------------------------

def test_congo_test_runs_under_the_harness(capsys):
    code, out, err = run_cli(["congo", "test", "eval2", "--program", reference("eval2"), "--cases", "3"], capsys)
    assert (code, out, err) == (0, "eval2: 3/3 cases agree\n", "")
    code, out, _ = run_cli(["congo", "--help"], capsys)
    assert code == 0 and "python -m harness congo test PART --program CMD" in " ".join(out.split())


@pytest.mark.parametrize("argv,message", [
    (["eval3", "--program", "ls"], "argument PART: 'eval3' is not a part (moves, apply, eval1, minimax, eval2, "
                                   "alphabeta, bestmove)"),
    (["eval1"], "the following arguments are required: --program"),
    (["eval1", "--program", "ls", "--piece", "G"], "--piece is an option of moves, not of eval1"),
    (["moves", "--program", "ls", "--depth", "3"], "--depth is an option of minimax, alphabeta and bestmove, not of moves"),
    (["moves", "--program", "ls", "--piece", "C"], "argument --piece: 'C' is a crocodile, which this course does "
                                                   "not play (use L Z E G P S)"),
    (["moves", "--program", "ls", "--timeout", "0"], "argument --timeout: '0' must be a positive number of seconds"),
    (["moves", "--program", "ls", "--cases", "0"], "argument --cases: '0' must be at least 1"),
    (["moves", "--program", "./no-such-program"], "--program: './no-such-program' is not a file"),
    (["moves", "--program", ""], "--program: the command line is empty"),
    (["moves", "--program", "ls", "--json", "/no/such/folder/x.json"],
     "--json /no/such/folder/x.json: the folder /no/such/folder does not exist"),
    (["moves", "--program", "ls", "--junit", "/proc/x.xml"],     # before the run, not after it
     "--junit /proc/x.xml cannot be written: No such file or directory"),
    (["moves", "--program", "ls", "--json", "/tmp"], "--json /tmp is a folder: give a file name"),
])
def test_usage_errors_are_one_line(argv, message, capsys):
    code, out, err = run_cli(["congo", "test", *argv], capsys)
    assert (code, out, err) == (2, "", f"python -m harness congo test: error: {message}\n")


def test_a_program_that_cannot_start_is_one_line(capsys, tmp_path):
    (tmp_path / "bin").mkdir(mode=0o755)           # the box shows this folder (tmp_path is 0700)
    script = tmp_path / "bin" / "prog"
    script.write_text("#!/no/such/interpreter\n")
    script.chmod(0o755)
    code, out, err = run_cli(["congo", "test", "eval1", "--program", str(script), "--cases", "2"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"python -m harness congo test: error: cannot start {script}: No such file or directory")
    assert len(err.splitlines()) == 1
