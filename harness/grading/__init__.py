"""Grading a class in the courses whose work is not a CS3243 AB.py: NTHU MiniChess repositories
(built, laddered against the baselines, ranked) and Congo programs (judged part by part).

A variant names the kind of class grading its course has as data (`Variant.class_grading`, a key
of `GRADERS`); `grade --variant NAME` hands the class to that grader. The variants never import
this package (it sits above them); the keys are the only link.
"""
import importlib
from typing import Optional

from ..variants import find_variant, variant_names

REPOSITORIES = "repositories"   # NTHU: the key the sheet's options (--deadline, --template, ...) apply to
FILES = "files"     # CS3243: a .py file per student against opponents (harness/grading/grade.py, the bundle)
GRADERS = {
    REPOSITORIES: "harness.grading.nthu_class",    # NTHU: a repository per student, make submission
    "programs": "harness.grading.congo_class",       # Congo: a program per part, exact answers
}


def grader_of(variant) -> Optional[object]:
    """The module that grades a class of `variant`'s course (its `grade(args)` runs the command),
    or None when the course is graded by harness.grading.grade (CS3243's files) or has no class grading."""
    key = variant.class_grading
    if key is None or key == FILES:
        return None
    return importlib.import_module(GRADERS[key])


def graded_variants(kinds=(FILES, *GRADERS)) -> list:
    """The names of the variants whose course has a class grading of one of `kinds`."""
    return [name for name in variant_names() if find_variant(name).class_grading in kinds]


def add_class_options(p) -> None:
    """The grade command's options of the NTHU and Congo class graders."""
    p.add_argument("--ranking-bonus", default=None, metavar="P1,P2,...",
                   help="nthu: points added for class ranks 1, 2, ... (default: none, the rank is only listed)")
    p.add_argument("--rules-penalty", type=float, default=0.0, metavar="P",
                   help="nthu: points taken from a student whose compiled files break the course's rules "
                        "(default 0: the problems are listed, not scored)")
    p.add_argument("--build-timeout", type=float, default=120.0, metavar="SECONDS",
                   help="nthu: wall-clock seconds a `make submission` may take (default 120)")
    p.add_argument("--cases", type=int, default=100, metavar="N",
                   help="congo: generated cases per part (default 100)")
    p.add_argument("--run-timeout", type=float, default=300.0, metavar="SECONDS",
                   help="congo: seconds the run of all cases may take (default 300; then each case alone, --move-timeout)")
    p.set_defaults(memory_mb=None)      # each course's own default (cs3243 2048, nthu 4096)


def grade_by_course(args, sheet=None):
    """The grade command's run for a course with a class grader of its own, or None (CS3243).
    sheet: the NTHU sheet (harness.grading.nthu_sheet.Sheet), for the repositories' grader."""
    from ..variants import find_variant
    grader = grader_of(find_variant(args.variant))
    if grader is None:
        return None
    return grader.run(args) if sheet is None else grader.run(args, sheet)
