"""A class of NTHU MiniChess repositories for the grading tests and bench/grade_nthu.py, assembled in a
temporary folder: every student is tests/fixtures/nthu_class/template (our own small 6x5 state,
player and Makefile, in the course's layout) with the student's own files from
tests/fixtures/nthu_class/students/NAME laid over it. All of it written for these tests."""
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "nthu_class")
TEMPLATE = os.path.join(FIXTURE, "template")
STUDENTS = sorted(os.listdir(os.path.join(FIXTURE, "students")))
BARE = ("missing_files",)       # a Makefile only: the template's sources are not laid under it


def make_nthu_class(folder: str, names=None) -> str:
    """CLASS folder with a repository per student of `names` (default: all)."""
    os.makedirs(folder, exist_ok=True)
    for name in names or STUDENTS:
        target = os.path.join(folder, name)
        if name not in BARE:
            shutil.copytree(TEMPLATE, target)
        shutil.copytree(os.path.join(FIXTURE, "students", name), target, dirs_exist_ok=True)
    return folder
