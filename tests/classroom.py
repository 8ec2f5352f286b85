"""A class folder for the grade, box and cluster tests, assembled in a temporary folder from
tests/fixtures/class plus our AB.py, the clean fixture and a file that is not Python."""
import os
import shutil

from harness.isolation import box

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
HOSTILE = ("fork_bomb", "gradebook_writer", "memory_hog", "sibling_reader", "socket_opener")


def fully_boxed() -> bool:
    """bwrap works and we are root (the process limit needs a user id of the box's own): only
    then may the fork bomb run."""
    return box.bwrap()[0] is not None and os.geteuid() == 0


def make_class(folder: str, hostile: bool = True, ab: bool = True) -> str:
    """CLASS folder with: ab/AB.py (ours), clean/AB.py, template/AB.py, pawn_pusher/AB.py,
    pawn_pusher_loose.py, syntax_error.py, no_file/ and (hostile) the hostile files."""
    shutil.copytree(os.path.join(FIXTURES, "class"), folder)
    if ab:
        os.makedirs(os.path.join(folder, "ab"))
        shutil.copy(os.path.join(ROOT, "AB.py"), os.path.join(folder, "ab", "AB.py"))
    os.makedirs(os.path.join(folder, "clean"))
    shutil.copy(os.path.join(FIXTURES, "hostile", "clean.py"), os.path.join(folder, "clean", "AB.py"))
    with open(os.path.join(folder, "syntax_error.py"), "w") as handle:
        handle.write("def studentAgent(gameboard:\n    return None\n")
    for name in HOSTILE:
        if not hostile or (name == "fork_bomb" and not fully_boxed()):
            shutil.rmtree(os.path.join(folder, name))
    return folder
