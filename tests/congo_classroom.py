"""A class of Congo students for the grading tests and bench/grade_congo.py, assembled in a temporary
folder from our own programs (tests/fixtures/congo_class: a Python engine, a C++ one for moves, apply
and eval1), right ones and mutated ones (a rule broken, a crash, a hang, too much output, a build that
fails). Written for these tests; no course code."""
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "congo_class")
ALL = ("moves", "apply", "eval1", "minimax", "eval2", "alphabeta", "bestmove")
DROWNING = "            if before[1] == RIVER and (sq != end or start[1] == RIVER):"

# student: (language, parts, [(file, text, replacement)])
STUDENTS = {
    "py_right": ("python", ALL, []),
    "py_fast": ("python", ("moves", "apply", "eval1", "minimax", "eval2"), []),
    "py_no_drowning": ("python", ("moves", "apply", "eval1"), [("congo.py", DROWNING, "            if False:")]),
    "py_crashes": ("python", ("eval1",), [("congo.py", "    if not has_black:\n        return 10000",
                                          "    if not has_black:\n        raise SystemExit('no black lion')")]),
    "py_hangs": ("python", ("eval2",), [("congo.py", "    if not has_black:\n        return 10000",
                                        "    while not has_black:\n        pass")]),
    "py_loud": ("python", ("moves",), [("moves.py", "from congo import main\n",
                                        "import sys\nsys.stdout.write('noise ' * 3000000)\nfrom congo import main\n")]),
    "cpp_right": ("cpp", ("moves", "apply", "eval1"), []),
    "cpp_elephant": ("cpp", ("eval1",), [("congo.hpp", "case 'E': return 200;", "case 'E': return 250;")]),
    "cpp_broken": ("cpp", ("moves", "eval1"), [("moves.cpp", "int n = std::stoi(lines[0]);",
                                                "int n = std::stoi(lines[0])")]),
    "exe_moves": ("exe", ("moves",), []),
}


def make_congo_class(folder: str, names=None) -> str:
    os.makedirs(folder, exist_ok=True)
    for name in names or STUDENTS:
        language, parts, changes = STUDENTS[name]
        target = os.path.join(folder, name)
        os.makedirs(target)
        source = os.path.join(FIXTURE, "cpp" if language == "cpp" else "python")
        shared = "congo.hpp" if language == "cpp" else "congo.py"
        shutil.copy(os.path.join(source, shared), target)
        for part in parts:
            if language == "exe":
                with open(os.path.join(source, f"{part}.py")) as handle:
                    text = handle.read()
                path = os.path.join(target, part)
                with open(path, "w") as handle:
                    handle.write("#!/usr/bin/python3\n" + text)
                os.chmod(path, 0o755)
            else:
                shutil.copy(os.path.join(source, f"{part}.{'cpp' if language == 'cpp' else 'py'}"), target)
        for file, old, new in changes:
            path = os.path.join(target, file)
            with open(path) as handle:
                text = handle.read()
            assert old in text, (name, file, old)
            with open(path, "w") as handle:
                handle.write(text.replace(old, new))
    return folder
