"""`similar` (harness/similarity): copies found through renaming and reformatting, independent files
not flagged, the template and the class's common passages left out, earlier classes and references
named and compared with the class only, bad input one line each, the three output files, and the
page in Chromium. The students are written here (tests/fixtures/similarity/), nobody else's."""
import csv
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from harness import similarity
from harness.similarity import compare, sources
from harness.similarity.tokens import normalised
from harness.similarity.winnow import kgram_hashes, winnow
from harness.variants.nthu.export import program_text
from tests.cli_run import run_cli
from tests.ctrl_c import ctrl_c

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "similarity")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fixture(name: str) -> str:
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as handle:
        return handle.read()


def student(cls, name: str, *files, loose: bool = False):
    """A student folder (or with loose=True a NAME.py file) holding the fixtures named."""
    if loose:
        (cls / f"{name}.py").write_text(fixture(files[0]), encoding="utf-8")
        return
    folder = cls / name
    folder.mkdir(parents=True)
    for item in files:
        target, text = item if isinstance(item, tuple) else (item, fixture(item))
        (folder / target).write_text(text, encoding="utf-8")


def tokens(name: str, language: str = "python") -> int:
    return len(normalised(fixture(name), language))


def pair_of(data, a, b):
    return next((p for p in data["pairs"] if {p["a"], p["b"]} == {a, b}), None)


@pytest.fixture
def basic_class(tmp_path):
    cls = tmp_path / "class"
    student(cls, "alice", "tictactoe.py")
    student(cls, "bob", "tictactoe_disguised.py", loose=True)
    student(cls, "carol", "maze.py")
    student(cls, "dave", "ledger.py", "wordfreq.py")
    return cls


def test_a_renamed_reformatted_copy_is_flagged_and_ranked_first(basic_class, tmp_path):
    outcome = similarity.run(str(basic_class), str(tmp_path / "out"), default_refs=False, jobs=1,
                             say=lambda line: None)
    top = outcome.data["pairs"][0]
    n = tokens("tictactoe.py")
    assert (top["a"], top["b"]) == ("alice", "bob")
    assert (top["similarity"], top["flagged"], top["shared_tokens"], top["longest_fragment"]) == (1.0, True, n, n)
    assert top["fragments"] == [{"tokens": n, "a": {"file": "tictactoe.py", "lines": [3, 45]},
                                 "b": {"file": "bob.py", "lines": [1, 38]}}]
    others = outcome.data["pairs"][1:]
    assert [p["flagged"] for p in others] == [False] * len(others)
    assert all(p["similarity"] < 0.2 for p in others)
    assert (outcome.members, outcome.others, outcome.problems) == (4, 0, [])


def test_renaming_reformatting_and_comments_leave_the_token_stream_alike():
    original, disguised = fixture("tictactoe.py"), fixture("tictactoe_disguised.py")
    assert [t for t, _, _ in normalised(original, "python")] == [t for t, _, _ in normalised(disguised, "python")]
    assert [t for t, _, _ in normalised('x = f"a{b}" \\\n    "c"  # note\n"""doc"""\n', "python")] == \
        ["N", "=", "S", "N", "S"]
    assert [t for t, _, _ in normalised("int main(){ return f(3, \"s\"); } // c\n#include <x>\n", "cpp")] == \
        ["int", "N", "(", ")", "{", "return", "N", "(", "0", ",", "S", ")", ";", "}"]


def test_reordered_cpp_functions_are_found_and_python_never_matches_cpp(tmp_path):
    cls = tmp_path / "class"
    student(cls, "erin", "primes.cpp")
    student(cls, "finn", "primes_disguised.cpp")
    student(cls, "gus", "maze.py")
    outcome = similarity.run(str(cls), str(tmp_path / "out"), default_refs=False, jobs=1, say=lambda line: None)
    top = outcome.data["pairs"][0]
    assert (top["a"], top["b"], top["flagged"]) == ("erin", "finn", True)
    # the sieve, the gap and main: the first two in the other order (each spills one token, `int`, over)
    assert [(f["a"]["lines"], f["b"]["lines"], f["tokens"]) for f in top["fragments"]] == [
        ([5, 16], [17, 30], 110), ([16, 23], [5, 14], 67), ([25, 29], [30, 35], 39)]
    assert (top["similarity"], top["shared_tokens"]) == (0.9863, 216)
    assert pair_of(outcome.data, "erin", "gus") is None and pair_of(outcome.data, "finn", "gus") is None


def test_the_template_is_left_out(tmp_path):
    cls = tmp_path / "class"
    skeleton = fixture("skeleton.py")
    without_show = skeleton.replace(skeleton[skeleton.index("def show"):skeleton.index("def parse_move")], "")
    student(cls, "hana", ("main.py", skeleton + "\n" + fixture("maze.py")))
    student(cls, "ivan", ("main.py", without_show + "\n" + fixture("ledger.py")))
    (tmp_path / "given").mkdir()
    (tmp_path / "given" / "skeleton.py").write_text(skeleton, encoding="utf-8")
    plain = similarity.run(str(cls), str(tmp_path / "a"), threshold=0.4, default_refs=False, jobs=1,
                           say=lambda line: None)
    templated = similarity.run(str(cls), str(tmp_path / "b"), threshold=0.4, templates=[str(tmp_path / "given")],
                               default_refs=False, jobs=1, say=lambda line: None)
    # without the template: the skeleton's two parts around the deleted show() are what they share
    # (and a 12-token coincidence of their own code: a loop that appends, then a return)
    assert [(p["a"], p["b"], p["similarity"], p["flagged"]) for p in plain.data["pairs"]] == [
        ("hana", "ivan", 0.4639, True)]
    assert [(f["a"]["lines"], f["b"]["lines"], f["tokens"]) for f in plain.data["pairs"][0]["fragments"]] == [
        ([26, 38], [20, 32], 145), ([4, 17], [4, 17], 113), ([49, 53], [54, 58], 12)]
    # with it: nothing left that winnowing must see (the 12 tokens are under its 19-token guarantee)
    assert templated.data["pairs"] == []


def test_passages_in_more_than_a_share_of_the_class_are_ignored(tmp_path):
    cls = tmp_path / "class"
    own = ["tictactoe.py", "maze.py", "ledger.py", "wordfreq.py", "matrix.py"]
    for n, name in enumerate(own):
        student(cls, f"s{n}", ("main.py", fixture("skeleton.py") + "\n" + fixture(name)))
    student(cls, "s5", ("main.py", fixture("matrix.py")))      # a sixth without the skeleton
    cut = similarity.run(str(cls), str(tmp_path / "a"), default_refs=False, jobs=1, say=lambda line: None)
    kept = similarity.run(str(cls), str(tmp_path / "b"), share=1.0, default_refs=False, jobs=1, say=lambda line: None)
    skeleton = tokens("skeleton.py")
    # the skeleton is in 5 of 6 (more than 20 % and more than 4 members): ignored; s4 is then s5's copy
    assert [(p["a"], p["b"], p["similarity"], p["flagged"]) for p in cut.data["pairs"] if p["shared_tokens"] > 20] == [
        ("s4", "s5", 1.0, True)]
    # kept (share 1.0): the five share the skeleton, ten pairs, one of them just under the threshold
    five = [p for p in kept.data["pairs"] if "s5" not in (p["a"], p["b"])]
    assert len(five) == 10 and all(skeleton <= p["shared_tokens"] <= skeleton + 13 for p in five)
    assert sum(p["flagged"] for p in five) == 9


def test_tiny_files_alike_are_not_flagged(tmp_path):
    cls = tmp_path / "class"
    tiny = "def answer(board):\n    for move in board.moves():\n        return move\n    return None\n"
    student(cls, "olga", ("main.py", tiny))
    student(cls, "pete", ("main.py", tiny.replace("answer", "reply").replace("move", "m")))
    outcome = similarity.run(str(cls), str(tmp_path / "out"), default_refs=False, jobs=1, say=lambda line: None)
    assert [(p["a"], p["b"], p["similarity"], p["shared_tokens"], p["flagged"]) for p in outcome.data["pairs"]] == [
        ("olga", "pete", 1.0, 19, False)]                      # identical, but 19 tokens are no evidence


def test_previous_classes_and_references_are_named_and_compared_with_the_class_only(basic_class, tmp_path):
    earlier = tmp_path / "2023"
    student(earlier, "zoe", "tictactoe.py")
    student(earlier, "yann", "tictactoe.py")              # the same as zoe: never compared with her
    refs = tmp_path / "downloads"
    refs.mkdir()
    (refs / "maze_solution.py").write_text(fixture("maze.py"), encoding="utf-8")
    repo = refs / "ledger-repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "bank.py").write_text(fixture("ledger.py"), encoding="utf-8")
    (repo / "src" / "words.py").write_text(fixture("wordfreq.py"), encoding="utf-8")
    outcome = similarity.run(str(basic_class), str(tmp_path / "out"), previous=[str(earlier)],
                             references=[str(refs / "maze_solution.py"), str(repo)], default_refs=False, jobs=1,
                             say=lambda line: None)
    flagged = sorted((p["a"], p["b"], p["similarity"]) for p in outcome.data["pairs"] if p["flagged"])
    assert flagged == [("alice", "bob", 1.0), ("alice", "previous:2023/yann", 1.0), ("alice", "previous:2023/zoe", 1.0),
                       ("bob", "previous:2023/yann", 1.0), ("bob", "previous:2023/zoe", 1.0),
                       ("carol", "reference:maze_solution.py", 1.0), ("dave", "reference:ledger-repo", 1.0)]
    named = {p["a"] for p in outcome.data["pairs"]} | {p["b"] for p in outcome.data["pairs"]}
    assert named >= {"previous:2023/zoe", "reference:ledger-repo"}
    for p in outcome.data["pairs"]:
        assert p["a"] in {"alice", "bob", "carol", "dave"}, p        # every pair has a class member first
    files = {f["b"]["file"] for f in pair_of(outcome.data, "dave", "reference:ledger-repo")["fragments"]}
    assert files == {os.path.join("src", "bank.py"), os.path.join("src", "words.py")}


def test_the_toolkit_s_own_players_are_default_references(tmp_path):
    cls = tmp_path / "class"
    student(cls, "kim", ("AB.py", open(os.path.join(ROOT, "AB.py"), encoding="utf-8").read()))
    student(cls, "lee", ("player.py", program_text()))
    student(cls, "max", "maze.py")
    outcome = similarity.run(str(cls), str(tmp_path / "out"), jobs=1, say=lambda line: None)
    ab, export = pair_of(outcome.data, "kim", "toolkit:AB.py"), pair_of(outcome.data, "lee", "toolkit:export-nthu-ab.py")
    assert (ab["flagged"], export["flagged"], export["similarity"]) == (True, True, 1.0)
    assert ab["similarity"] > 0.99        # AB.py repeats passages: the one-to-one tiling leaves a few tokens
    assert outcome.data["pairs"][:2] == [export, ab]
    assert outcome.others == 4          # AB.py and the exported ab, mcts and nnue players
    alone = similarity.run(str(cls), str(tmp_path / "out2"), default_refs=False, jobs=1, say=lambda line: None)
    assert alone.others == 0
    assert not any(p["b"].startswith("toolkit:") for p in alone.data["pairs"])


def test_bad_input_costs_one_line_each_and_the_rest_goes_on(basic_class, tmp_path, capsys):
    (basic_class / "binary").mkdir()
    (basic_class / "binary" / "agent.py").write_bytes(b"\x7fELF\x00\x00\x01")
    (basic_class / "huge").mkdir()
    with open(basic_class / "huge" / "big.py", "wb") as handle:
        handle.truncate(50 * 1024 * 1024)                        # 50 MB (sparse)
    (basic_class / "latin").mkdir()
    (basic_class / "latin" / "main.py").write_bytes(fixture("maze.py").encode("utf-8") + b"# caf\xe9\n")
    (basic_class / "notes").mkdir()
    (basic_class / "notes" / "README.txt").write_text("my answers are on paper", encoding="utf-8")
    (basic_class / "linked").mkdir()
    os.symlink("/etc/hostname", basic_class / "linked" / "main.py")
    (basic_class / "blank.py").write_text('"""TODO"""\nimport os\n# nothing yet\n', encoding="utf-8")
    (basic_class / "venv_inside").mkdir()
    (basic_class / "venv_inside" / "main.py").write_text(fixture("wordfreq.py"), encoding="utf-8")
    (basic_class / "venv_inside" / "venv" / "lib").mkdir(parents=True)
    (basic_class / "venv_inside" / "venv" / "lib" / "ledger.py").write_text(fixture("ledger.py"), encoding="utf-8")
    marker = tmp_path / "was_run"
    (basic_class / "runner.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n" * 3, encoding="utf-8")
    code, out, err = run_cli(["similar", str(basic_class), "--out", str(tmp_path / "out"), "--no-default-references",
                              "--jobs", "1"], capsys)
    c = str(basic_class)
    assert code == 0
    assert err.splitlines() == [                                 # found as the folders are read, then as the files are
        f"{c}/linked/main.py: a symbolic link, not followed: skipped",
        f"{c}/notes: no source file (.py .cpp .cc .h .hpp) in this folder: notes left out",
        f"{c}/binary/agent.py: a binary file (NUL bytes), not source: skipped",
        f"{c}/huge/big.py: 52.4 MB, over the 2 MB a source file may have: skipped",
        f"{c}/latin/main.py: bytes that are not UTF-8 (first at byte {len(fixture('maze.py')) + 5}): "
        f"replaced, the file is still compared",
        f"{c}/blank.py: no code (comments, imports and strings only, or empty): blank has nothing to compare"]
    assert not marker.exists()                                   # nothing of a student runs
    data = json.loads((tmp_path / "out" / "similarity.json").read_text(encoding="utf-8"))
    assert [(p["a"], p["b"], p["similarity"]) for p in data["pairs"] if p["flagged"]] == [
        ("carol", "latin", 1.0), ("alice", "bob", 1.0), ("dave", "venv_inside", 0.6152)]   # Latin-1: still compared
    # venv_inside's venv/ (a copy of ledger.py) is not its code: only wordfreq.py is shared with dave
    assert {(f["a"]["file"], f["b"]["file"]) for f in pair_of(data, "dave", "venv_inside")["fragments"]} == {
        ("wordfreq.py", "main.py")}
    names = {p["a"] for p in data["pairs"]} | {p["b"] for p in data["pairs"]}
    assert not names & {"binary", "huge", "notes", "linked", "runner"}
    assert out.startswith("8 class members, 0 earlier and reference members")   # blank and venv_inside too
    assert "6 inputs left out or read with changes (said on stderr)" in out


def test_an_empty_class_or_a_missing_path_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code, out, err = run_cli(["similar", str(tmp_path / "empty"), "--out", str(tmp_path / "out")], capsys)
    assert (code, out) == (2, "")
    assert err == (f"error: no students in {tmp_path / 'empty'}: expected sub-folders with source files "
                   f"or loose source files\n")
    code, _, err = run_cli(["similar", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")], capsys)
    assert (code, err) == (2, f"error: class folder '{tmp_path / 'nowhere'}' does not exist\n")
    (tmp_path / "empty" / "x.py").write_text("print(1)\n", encoding="utf-8")
    code, _, err = run_cli(["similar", str(tmp_path / "empty"), "--reference", str(tmp_path / "gone.py")], capsys)
    assert (code, err) == (2, f"error: --reference {tmp_path / 'gone.py'} does not exist\n")
    code, _, err = run_cli(["similar", str(tmp_path / "empty"), "--threshold", "1.5"], capsys)
    assert code == 2 and "'1.5' must be above 0 and at most 1" in err


def test_ctrl_c_stops_the_workers_and_says_one_line(tmp_path):
    cls = tmp_path / "class"
    texts = [fixture(name) for name in ("tictactoe.py", "maze.py", "ledger.py", "wordfreq.py", "matrix.py")]
    for n in range(1500):
        student(cls, f"s{n:04d}", ("main.py", texts[n % 5] + f"\nVALUE_{n} = {n}\n"))
    proc = subprocess.Popen([sys.executable, "-m", "harness", "similar", str(cls), "--out", str(tmp_path / "out"),
                             "--jobs", "2"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(subprocess.run(["pgrep", "-f", "-g", str(proc.pid), "spawn_main"],
                                                               capture_output=True, text=True).stdout.split()) < 2:
        time.sleep(0.1)                                   # until both workers are there
    err = ctrl_c(proc, "similar ")
    assert (proc.returncode, err) == (130, "interrupted\n")     # no worker's traceback
    assert not (tmp_path / "out" / "similarity.json").exists()


def test_json_shape_and_the_csv(basic_class, tmp_path, capsys):
    code, out, _ = run_cli(["similar", str(basic_class), "--out", str(tmp_path / "out"), "--threshold", "0.6",
                            "--jobs", "1"], capsys)
    assert code == 0 and "1 flagged at similarity >= 0.6" in out
    data = json.loads((tmp_path / "out" / "similarity.json").read_text(encoding="utf-8"))
    assert set(data) == {"threshold", "pairs"} and data["threshold"] == 0.6
    sims = [p["similarity"] for p in data["pairs"]]
    assert sims == sorted(sims, reverse=True)
    for p in data["pairs"]:
        assert set(p) == {"a", "b", "similarity", "flagged", "shared_tokens", "longest_fragment", "fragments"}
        assert 0 <= p["similarity"] <= 1
        assert p["flagged"] == (p["similarity"] >= 0.6 and p["shared_tokens"] >= compare.MIN_SHARED)
        assert p["longest_fragment"] == max(f["tokens"] for f in p["fragments"]) >= compare.K
        for f in p["fragments"]:
            assert set(f) == {"tokens", "a", "b"} and set(f["a"]) == {"file", "lines"}
            assert 1 <= f["a"]["lines"][0] <= f["a"]["lines"][1]
    with open(tmp_path / "out" / "similarity.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["rank"], r["a"], r["b"], r["similarity"], r["flagged"], r["fragments"]) for r in rows] == [
        (str(n), p["a"], p["b"], f"{p['similarity']:.4f}", "yes" if p["flagged"] else "no", str(len(p["fragments"])))
        for n, p in enumerate(data["pairs"], 1)]


def test_winnowing_keeps_the_rightmost_minimum_of_each_window():
    hashes = kgram_hashes(__import__("numpy").array([5, 1, 4, 1, 5, 9, 2, 6], dtype="uint64"), 1)
    assert hashes.tolist() == [5, 1, 4, 1, 5, 9, 2, 6]
    assert winnow(hashes, 3).tolist() == [1, 3, 6]        # windows [5 1 4] [1 4 1] [4 1 5] [1 5 9] [5 9 2] [9 2 6]
    assert winnow(hashes[:2], 4).tolist() == [1]
    assert len(kgram_hashes(__import__("numpy").arange(1, 20, dtype="uint64"), 15)) == 5


def test_class_members_are_read_as_grade_reads_a_class(tmp_path):
    cls = tmp_path / "class"
    student(cls, "alice", "tictactoe.py", "maze.py")
    student(cls, "bob", "ledger.py", loose=True)
    student(cls, "_hidden", "maze.py")
    (cls / "alice" / "__pycache__").mkdir()
    (cls / "alice" / "__pycache__" / "x.py").write_text("x = 1\n", encoding="utf-8")
    (cls / "alice" / "sub").mkdir()
    (cls / "alice" / "sub" / "util.h").write_text("int f();\n", encoding="utf-8")
    lines = []
    found = sources.class_members(str(cls), lines.append)
    assert [(m.name, [f.shown for f in m.files]) for m in found] == [
        ("alice", ["maze.py", "tictactoe.py", os.path.join("sub", "util.h")]), ("bob", ["bob.py"])]
    assert [f.language for f in found[0].files] == ["python", "python", "cpp"] and lines == []


# ----------------------------------------------------------------------------- the page in Chromium

@pytest.fixture
def page_of(browser):
    opened = []

    def open_page(path):
        context = browser.new_context(viewport={"width": 1300, "height": 900})
        page = context.new_page()
        page.problems, page.requests = [], []
        page.on("console", lambda m: m.type in ("error", "warning") and page.problems.append(m.text))
        page.on("pageerror", lambda e: page.problems.append(str(e)))
        page.on("request", lambda r: page.requests.append(r.url))
        page.goto(path.as_uri())
        opened.append(context)
        return page
    yield open_page
    for context in opened:
        context.close()


def test_the_page_ranks_groups_and_shows_each_flagged_pair_side_by_side(page_of, tmp_path):
    cls = tmp_path / "class"
    student(cls, "alice", "tictactoe.py")
    student(cls, "bob", "tictactoe_disguised.py")
    student(cls, "carol", ("game.py", fixture("tictactoe.py") + "\n" + fixture("matrix.py")))
    student(cls, "dave", "maze.py")
    student(cls, "erin", "primes.cpp")
    student(cls, "finn", "primes_disguised.cpp")
    outcome = similarity.run(str(cls), str(tmp_path / "out"), default_refs=False, jobs=1, say=lambda line: None)
    data = outcome.data
    page = page_of(tmp_path / "out" / "similarity.html")
    rows = page.eval_on_selector_all("#pairs tbody tr", "rs => rs.map(r => [r.dataset.a, r.dataset.b, r.className])")
    assert rows == [[p["a"], p["b"], "flagged" if p["flagged"] else ""] for p in data["pairs"]]
    groups = page.eval_on_selector_all("#groups li.group", "gs => gs.map(g => g.dataset.members)")
    assert groups == ["alice|bob|carol", "erin|finn"]
    flagged = [p for p in data["pairs"] if p["flagged"]]
    sections = page.eval_on_selector_all("section.pair", "ss => ss.map(s => [s.id, s.dataset.a, s.dataset.b])")
    assert sections == [[f"pair{n}", p["a"], p["b"]] for n, p in enumerate(data["pairs"], 1) if p["flagged"]]
    assert len(sections) == len(flagged) == 4
    # the C++ pair: its three fragments, each in its own colour on both sides, linked across
    n = next(i for i, p in enumerate(data["pairs"], 1) if p["a"] == "erin")
    for side, other in (("a", "b"), ("b", "a")):
        blocks = page.eval_on_selector_all(
            f"#pair{n} .side-{side} a.frag",
            "bs => bs.map(b => [b.dataset.fragment, b.getAttribute('href'), getComputedStyle(b).backgroundColor])")
        assert sorted({b[0] for b in blocks}) == ["1", "2", "3"]
        assert all(b[1] == f"#pair{n}-{other}-f{b[0]}" for b in blocks)
        colours = {b[0]: b[2] for b in blocks}
        assert len(set(colours.values())) == 3
        if side == "a":
            first = colours
        else:
            assert colours == first
    page.click(f"#pair{n}-a-f2 .line >> nth=0")
    assert page.evaluate("location.hash") == f"#pair{n}-b-f2"
    assert page.evaluate(f"document.querySelector('#pair{n}-b-f2').getBoundingClientRect().top") < 900
    lines_b = page.eval_on_selector_all(f"#pair{n}-b-f1 .line .no", "ns => ns.map(x => +x.textContent)")
    fragment = data["pairs"][n - 1]["fragments"]
    wanted = next(f for f in fragment if f["tokens"] == max(g["tokens"] for g in fragment))
    assert lines_b[0] == wanted["b"]["lines"][0]
    assert page.problems == [] and all(url.startswith("file://") for url in page.requests)
    page.screenshot(path=str(tmp_path / "similarity.png"), full_page=False)
    shutil.copy(tmp_path / "out" / "similarity.html", tmp_path / "copy.html")


# ----------------------------------------------------------------------------- the bench's disguiser

def bench_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_similarity", os.path.join(ROOT, "bench", "similarity.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_disguises_python_as_it_says():
    import ast
    import random
    bench = bench_module()
    text = fixture("matrix.py")
    stream = [t for t, _, _ in normalised(text, "python")]
    levels = {level: bench.disguise(text, "python", level, random.Random(level)) for level in range(9)}
    for level, disguised in levels.items():
        ast.parse(disguised)                                         # every level is still Python
    assert levels[0] == text
    defined = bench._defined_names(text)
    assert {"identity", "transpose", "product", "determinant", "power", "pivot", "factor"} <= defined
    for level in range(1, 9):
        names = {n.id for n in ast.walk(ast.parse(levels[level])) if isinstance(n, ast.Name)}
        kept = names & defined if level < 5 else names & defined - {"a", "b", "c"}   # the dead functions' own
        assert kept == set(), level                                  # renamed from level 1 on
    for level in (1, 2, 3):                                          # names, layout, comments: one token stream
        assert [t for t, _, _ in normalised(levels[level], "python")] == stream
    assert "\n    return [[1.0" in levels[1] and "\n  return [[1.0 " in levels[2]    # four spaces, then two
    assert "#" not in text and "# " in levels[3] and '"""Square matrices' not in levels[3]
    assert sorted(t for t, _, _ in normalised(levels[4], "python")) == sorted(stream)   # the same tokens, moved
    assert len(normalised(levels[5], "python")) > len(stream)     # dead code added
    assert levels[7].count("while") > text.count("while") == 1      # range loops become while loops


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_the_bench_disguises_cpp_into_cpp_that_still_compiles(tmp_path):
    import random
    bench = bench_module()
    text = fixture("primes.cpp")
    for level in range(1, 6):
        disguised = bench.disguise(text, "cpp", level, random.Random(level))
        path = tmp_path / f"level{level}.cpp"
        path.write_text(disguised, encoding="utf-8")
        done = subprocess.run(["g++", "-fsyntax-only", str(path)], capture_output=True, text=True)
        assert (level, done.returncode, done.stderr) == (level, 0, "")
        assert "sieve(" not in disguised and "std::vector" in disguised      # its names renamed, the library's not


def test_grade_similar_links_the_report_from_the_gradebook(tmp_path, capsys):
    """grade --similar: the class graded, then `similar` on it; the gradebook names the page and the
    flagged pair (bob renamed alice's file), and carol's own file is in no flagged pair."""
    cls = tmp_path / "class"
    first = os.path.join(ROOT, "tests", "fixtures", "first_pawn_forward.py")
    with open(first, encoding="utf-8") as handle:
        text = handle.read()
    student(cls, "alice", ("AB.py", text))
    student(cls, "bob", ("AB.py", text.replace("gameboard", "board_of_bob").replace("piece", "thing")))
    student(cls, "carol", ("AB.py", fixture("tictactoe.py") + "\ndef studentAgent(gameboard):\n    return None\n"))
    code, out, _ = run_cli(["grade", str(cls), "--out", str(tmp_path / "out"), "--games", "1", "--opponents", "dummy",
                            "--similar"], capsys)
    assert code == 0 and f"similarity: 1 pairs flagged, {tmp_path / 'out' / 'similarity' / 'similarity.html'}" in out
    book = json.loads((tmp_path / "out" / "gradebook.json").read_text(encoding="utf-8"))
    assert book["similarity"] == os.path.join("similarity", "similarity.html")
    assert [(a, b) for a, b, _ in book["similarity_flagged"]] == [("alice", "bob")]
    assert book["similarity_flagged"][0][2] > 0.9
    assert (tmp_path / "out" / "similarity" / "similarity.json").exists()
    with open(tmp_path / "out" / "gradebook.csv", encoding="utf-8", newline="") as handle:
        cells = {row["student"]: row["similarity"] for row in csv.DictReader(handle)}
    share = f"{book['similarity_flagged'][0][2] * 100:.1f} %"
    assert cells == {"alice": f"{share} with bob", "bob": f"{share} with alice", "carol": ""}
