"""Small graded classes for the hand-out tests (issue 58): three NTHU repositories of
tests/fixtures/nthu_class (greedy passes baseline 1, segfaults and silent write no move) and three
Congo students of tests/fixtures/congo_class (py_hangs: one case hangs; py_no_drowning: wrong
answers; commas: the right moves printed with commas)."""
import os
import shutil

from harness.grading.congo_class import grade_congo_class
from harness.grading.nthu_class import grade_nthu_class
from tests.congo_classroom import FIXTURE, make_congo_class
from tests.nthu_classroom import make_nthu_class

NTHU = ["greedy", "segfaults", "silent"]
NTHU_SETTINGS = dict(move_timeout=1.0, jobs=2, progress="none", say=lambda text: None, build_timeout=60.0)
CONGO_SETTINGS = dict(count=10, case_timeout=2.0, run_timeout=6.0, jobs=2, say=lambda text: None)
COMMAS = '''import sys


class Commas:
    def write(self, text):
        return sys.__stdout__.write(text.replace(" ", ","))

    def flush(self):
        sys.__stdout__.flush()


sys.stdout = Commas()
from congo import main  # noqa: E402

main("moves")
'''


def graded_nthu(base: str):
    class_dir = make_nthu_class(os.path.join(base, "class"), NTHU)
    out = os.path.join(base, "out")
    return class_dir, out, grade_nthu_class(class_dir, out, **NTHU_SETTINGS)


def make_congo(base: str) -> str:
    class_dir = make_congo_class(os.path.join(base, "class"), ["py_hangs", "py_no_drowning"])
    os.makedirs(os.path.join(class_dir, "commas"))
    shutil.copy(os.path.join(FIXTURE, "python", "congo.py"), os.path.join(class_dir, "commas"))
    with open(os.path.join(class_dir, "commas", "moves.py"), "w") as handle:
        handle.write(COMMAS)
    return class_dir


def graded_congo(base: str):
    class_dir = make_congo(base)
    out = os.path.join(base, "out")
    return class_dir, out, grade_congo_class(class_dir, out, **CONGO_SETTINGS)
