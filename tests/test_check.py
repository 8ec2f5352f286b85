"""`check`: a clean file passes; each kind of file the course would reject is reported as
FILE:LINE: problem, with exit code 1."""
import textwrap
from pathlib import Path

import pytest

from harness.grading.file_check import check_file, format_problem
from harness.cli import main

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile"
WORDS = "(the course rejects print, raise, stdout, exception anywhere, comments included)"
ALLOWED = ("array, collections, copy, decimal, enum, fractions, functools, heapq, itertools, math, "
           "numbers, operator, queue, random, string, sys, types, typing")
CLEAN = """\
import sys


def studentAgent(gameboard):
    return (('d', 1), ('d', 2))
"""


def check(tmp_path, text, timeout=5.0, name="student.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path), [format_problem(str(path), p) for p in check_file(str(path), timeout)]


def test_a_clean_file_passes(tmp_path, capsys):
    path, problems = check(tmp_path, CLEAN)
    assert problems == []
    assert main(["check", path]) == 0
    assert capsys.readouterr().out == f"{path}: OK, the course's autograder checks pass\n"


def test_the_clean_fixture_passes():
    assert check_file(str(HOSTILE / "clean.py")) == []


def test_rejected_words_anywhere_in_any_case(tmp_path, capsys):
    path, problems = check(tmp_path, """\
        import sys
        # Print nothing here


        def studentAgent(gameboard):
            return (('d', 1), ('d', 2))  # never RAISE
        x = 'Exception' + 'stdout'
        """)
    assert problems == [f"{path}:2: contains the word 'print' {WORDS}",
                        f"{path}:6: contains the word 'raise' {WORDS}",
                        f"{path}:7: contains the word 'exception' {WORDS}",
                        f"{path}:7: contains the word 'stdout' {WORDS}"]
    assert main(["check", path]) == 1
    assert capsys.readouterr().out.splitlines() == problems


@pytest.mark.parametrize("line,bad", [
    ("import collections.abc", None),
    ("from collections import deque", None),
    ("from collections.abc import Mapping", None),
    ("import math as m, heapq", None),
    ("import os", "os"),
    ("import os.path", "os.path"),
    ("from os import path", "os"),
    ("from os.path import join", "os.path"),
    ("import math, json", "json"),
    ("import importlib", "importlib"),
])
def test_imports(tmp_path, line, bad):
    path, problems = check(tmp_path, line + "\n" + CLEAN)
    expected = [] if bad is None else [
        f"{path}:1: imports '{bad}', which the course does not allow (allowed: {ALLOWED})"]
    assert problems == expected


def test_imports_anywhere_and_relative_imports(tmp_path):
    path, problems = check(tmp_path, """\
        from . import sibling


        def studentAgent(gameboard):
            import json
            return (('d', 1), ('d', 2))
        """)
    assert f"{path}:1: relative import: only standard modules may be imported" in problems
    assert f"{path}:5: imports 'json', which the course does not allow (allowed: {ALLOWED})" in problems


@pytest.mark.parametrize("code,name", [
    ("m = __import__('math')", "__import__"),
    ("v = eval('1')", "eval"),
    ("exec('w = 1')", "exec"),
    ("v = sys.modules['builtins'].eval('1')", "eval"),
])
def test_ways_round_the_import_rule(tmp_path, code, name):
    path, problems = check(tmp_path, CLEAN + code + "\n")
    assert problems == [f"{path}:6: uses '{name}', which would get round the import rule"]


@pytest.mark.parametrize("signature,problem", [
    ("gameboard, depth=3", None),
    ("*args", None),
    ("gameboard, depth", "studentAgent needs 2 arguments; the course passes only the board"),
    ("gameboard, *, k", "studentAgent needs keyword arguments k that the course does not pass"),
    ("", "studentAgent takes no positional argument; the course passes the board"),
])
def test_the_signature(tmp_path, signature, problem):
    path, problems = check(tmp_path, CLEAN.replace("gameboard", signature))
    if problem is None:
        assert problems == []
    else:
        assert f"{path}:4: {problem}" in problems


def test_an_assigned_studentagent_is_fine(tmp_path):
    assert check(tmp_path, "studentAgent = lambda board: (('d', 1), ('d', 2))\n")[1] == []


def test_no_studentagent(tmp_path):
    path, problems = check(tmp_path, "def student_agent(gameboard):\n    return None\n")
    assert problems == [f"{path}:1: no module-level studentAgent(gameboard) function"]


def test_printing_at_import_without_the_words(tmp_path):
    path, problems = check(tmp_path, CLEAN + "sys.__dict__['std' + 'out'].write('hi' + chr(10))\n")
    assert problems == [f"{path}:1: prints when imported (3 bytes, starting 'hi'); the course rejects printing"]


def test_printing_when_called(tmp_path):
    path, problems = check(tmp_path, CLEAN.replace(
        "    return", "    sys.__dict__['std' + 'err'].write('thinking')\n    return"))
    assert problems == [f"{path}:4: studentAgent prints when called (starting 'thinking'); "
                        f"the course rejects printing"]


@pytest.mark.parametrize("body,line,problem", [
    ("return 1 // 0", 5, "studentAgent fails on the start board: ZeroDivisionError: integer division "
                         "or modulo by zero (student.py line 5)"),
    ("sys.exit(0)", 5, "studentAgent fails on the start board: called sys.exit(0) (student.py line 5)"),
    ("return (('d', 1), ('d', 3))", 4,
     "studentAgent answers (('d', 1), ('d', 3)), which is not a legal White move on the start board"),
    ("return (('d', 5), ('d', 4))", 4,
     "studentAgent answers (('d', 5), ('d', 4)), which is not a legal White move on the start board"),
    ("return 42", 4, "studentAgent answers 42, not a move ((col, row), (col, row))"),
    ("gameboard.clear()\n    return (('d', 1), ('d', 2))", 4, "studentAgent changes the board it is given"),
])
def test_what_the_call_does(tmp_path, body, line, problem):
    """Failures point at the student's failing line, other findings at the def of studentAgent."""
    path, problems = check(tmp_path, CLEAN.replace("return (('d', 1), ('d', 2))", body))
    assert problems == [f"{path}:{line}: {problem}"]


def test_a_call_that_never_returns(tmp_path):
    path, problems = check(tmp_path, CLEAN.replace("return (('d', 1), ('d', 2))", "while True:\n        pass"),
                           timeout=1.0)
    assert problems == [f"{path}:4: studentAgent gives no answer within 1 s on the start board"]


def test_a_file_that_fails_on_import(tmp_path):
    path, problems = check(tmp_path, "import sys\nx = 1 // 0\n" + CLEAN)
    assert problems == [f"{path}:2: cannot be imported: at import: ZeroDivisionError: integer division "
                        f"or modulo by zero (student.py line 2)"]


def test_a_file_that_exits_on_import():
    path = str(HOSTILE / "exit_import.py")
    assert [format_problem(path, p) for p in check_file(path, 5)] == [
        f"{path}:4: cannot be imported: at import: called sys.exit('bye at import') (exit_import.py line 4)"]


def test_a_syntax_error(tmp_path):
    path, problems = check(tmp_path, CLEAN + "def broken(:\n")
    assert problems == [f"{path}:6: syntax error: invalid syntax"]


def test_a_file_that_is_not_utf8(tmp_path, capsys):
    path = tmp_path / "latin.py"
    path.write_bytes(b"import sys\n# caf\xe9\n")
    assert check_file(str(path)) == [(2, "the file is not UTF-8 text")]


def test_check_on_a_missing_file_is_one_line(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nope.py")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: file '{tmp_path / 'nope.py'}' does not exist\n"


# -- what the course accepts must not be flagged (issue: check's false alarms) -------------------

@pytest.mark.parametrize("code", [
    "eval = max(1, 2)",                                   # a variable named eval
    "def score(board, eval=0):\n    return eval",         # a parameter
    "class E:\n    def eval(self):\n        return 1\n\n\nv = E().eval()",   # a method of its own
    "def f(exec):\n    return exec + 1",
])
def test_eval_and_exec_as_the_files_own_names_are_fine(tmp_path, code):
    path, problems = check(tmp_path, CLEAN + code + "\n")
    assert problems == []


def test_a_byte_order_mark_and_a_future_import_are_accepted(tmp_path):
    path = tmp_path / "student.py"
    path.write_bytes(b"\xef\xbb\xbf" + ("from __future__ import annotations\n" + CLEAN).encode())
    assert check_file(str(path), 5.0) == []


def test_a_list_answer_is_a_warning_and_the_file_is_accepted(tmp_path, capsys):
    path, problems = check(tmp_path, CLEAN.replace("return (('d', 1), ('d', 2))", "return [['d', 1], ['d', 2]]"))
    assert problems == []
    assert main(["check", path]) == 0
    assert capsys.readouterr().out == (
        f"{path}:4: warning: studentAgent answers [['d', 1], ['d', 2]], not the course's own form "
        f"((col, row), (col, row)) made of tuples; the spec accepts a list\n"
        f"{path}: OK, the course's autograder checks pass (1 warning)\n")
