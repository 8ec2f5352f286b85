"""The package installs: its wheel, built from a copy of the source, put in a fresh virtual
environment (no site packages; its dependencies from the configured package index) gives a
`minichess` command that works from a folder outside the source tree.

Slow (marked in tests/conftest.py): about 40 s, most of it pip installing the dependencies.
"""
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHIPPED = ("pyproject.toml", "AB.py", "harness", "agents")     # what the build reads
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")

STUDENT = '''def score(board, weights):
    total = 0
    for row in range(len(board)):
        for col in range(len(board[row])):
            piece = board[row][col]
            if piece is None:
                continue
            value = weights.get(piece.lower(), 0)
            total += value if piece.isupper() else -value
    return total


def best(moves, board, weights):
    chosen, top = None, None
    for move in moves:
        after = move.apply(board)
        value = score(after, weights)
        if top is None or value > top:
            chosen, top = move, value
    return chosen
'''


def run(argv, cwd, timeout=600):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def package_files(root: Path):
    """Every file the package needs besides its modules: templates, static files, data, ini."""
    out = set()
    for top in ("harness", "agents"):
        for path in (root / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".py", ".pyc"):
                out.add(path.relative_to(root).as_posix())
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the fresh environment's bin folder, the wheel's file names, seconds taken)."""
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    source.mkdir()
    for name in SHIPPED:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=SKIP)
        else:
            shutil.copy2(path, source / name)
    started = time.monotonic()
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(base / "wheel"), str(source)], cwd=base)
    (wheel,) = (base / "wheel").glob("minichess_toolkit-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    venv = base / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=base)
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], cwd=base)
    seconds = time.monotonic() - started
    print(f"\nwheel built and installed with its dependencies in {seconds:.1f} s (pytest -s shows it)")
    return venv / "bin", names, source, seconds


def test_the_wheel_holds_every_data_file_and_ab(installed):
    _, names, source, _ = installed
    data = package_files(source)
    assert "harness/view/templates/board.js" in data and "harness/variants/cs3243/cs3243.ini" in data
    assert data - names == set()
    assert "AB.py" in names


def test_the_version_is_the_one_written_in_the_code(installed):
    bin_dir, names, _, _ = installed
    from harness.core.version import VERSION
    assert f"minichess_toolkit-{VERSION}.dist-info/METADATA" in names
    done = run([str(bin_dir / "python"), "-c", "import harness, importlib.metadata as m;"
                "print(harness.__file__); print(m.version('minichess-toolkit'))"], cwd=bin_dir)
    where, version = done.stdout.split()
    assert where.startswith(str(bin_dir.parent)) and version == VERSION


def test_perft_runs_from_outside_the_source_tree(installed, tmp_path):
    bin_dir, _, _, _ = installed
    lines = run([str(bin_dir / "minichess"), "perft", "1"], cwd=tmp_path).stdout.splitlines()
    assert lines[0].split() == ["depth", "nodes", "seconds"]
    assert lines[1].split()[:2] == ["1", "12"]


def test_similar_runs_from_outside_the_source_tree(installed, tmp_path):
    bin_dir, _, _, _ = installed
    for student, name, text in (("alice", "game.py", STUDENT),
                                ("bob", "play.py", STUDENT.replace("board", "grid").replace("total", "acc")),
                                ("gus", "agent.py", (REPO / "AB.py").read_text(encoding="utf-8"))):
        (tmp_path / "class" / student).mkdir(parents=True)
        (tmp_path / "class" / student / name).write_text(text, encoding="utf-8")
    done = run([str(bin_dir / "minichess"), "similar", "class", "--out", "out"], cwd=tmp_path)
    assert "cannot be read" not in done.stderr
    pairs = json.loads((tmp_path / "out" / "similarity.json").read_text(encoding="utf-8"))["pairs"]
    flagged = {(p["a"], p["b"]) for p in pairs if p["flagged"]}
    # the copied AB.py is found against the installed toolkit's own AB.py, a default reference
    assert flagged == {("alice", "bob"), ("gus", "toolkit:AB.py")}
    assert {"similarity.csv", "similarity.html"} <= {p.name for p in (tmp_path / "out").iterdir()}

