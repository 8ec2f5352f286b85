"""CS3243 tactics (`puzzles`): the search that proves mates, the set format and its errors, the
runner on a small set with known answers, and the shipped set's mates proved again."""
import json
import os
import re
import subprocess
import sys
import time

import pytest

from agents.tactics import mating
from harness.puzzles import make_set
from harness.puzzles.puzzle import DATA, THEMES, read_set
from harness.puzzles.search import MateSearch, in_check, passed
from harness.isolation.student import mirror_gameboard
from harness.variants.cs3243.game import CS3243Ending
from harness.variants.cs3243 import VARIANT
from harness.variants.cs3243.fen import from_fen, game_from_fen
from harness.variants.cs3243.game import course_move
from cli_run import run_cli
from ctrl_c import ctrl_c

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SMALL = os.path.join(HERE, "data", "puzzles_small.jsonl")
SHIPPED = os.path.join(DATA, "cs3243.jsonl")


def state_of(fen):
    return game_from_fen(fen).state


def names(moves):
    return [VARIANT.move_name(m) for m in moves]


# ----------------------------------------------------------------------------- the search


def test_a_stalemate_wins_in_the_course_and_the_search_knows_it():
    # Black's lone King on a6 is not attacked after Qb4, but every move of it walks into an attack
    state = state_of("k6/7/7/7/7/7/1Q4K w - - 0 1")
    search = MateSearch()
    assert names(search.winning_moves(state, 1)) == ["b0b4"]
    after = VARIANT.apply(state, VARIANT.parse_move("b0b4"))
    assert not in_check(after)
    assert VARIANT.outcome(after).termination == CS3243Ending.OUT_OF_VALID_MOVES
    assert VARIANT.outcome(after).winner == "White"
    assert search.mate_distance(state, 2) == 1


def test_two_rooks_mate_in_one_and_every_move_within_two():
    state = state_of("k6/7/7/7/7/7/1RR3K w - - 0 1")
    search = MateSearch()
    assert names(search.winning_moves(state, 1)) == ["c0c5"]
    # within two moves: the mate at once, or a rook to the first rows (the King is then boxed in)
    assert names(search.winning_moves(state, 2)) == ["b0b1", "b0b2", "b0b3", "c0c1", "c0c2", "c0c3", "c0c5"]


def test_a_lone_rook_forces_nothing_and_the_side_without_pieces_is_threatened():
    search = MateSearch()
    assert search.mate_distance(state_of("k6/7/7/7/7/7/1R4K w - - 0 1"), 2) is None
    black = state_of("k6/7/7/7/7/7/1Q4K b - - 0 1")
    assert search.mate_distance(black, 2) is None
    assert names([search.winning_move(passed(black), 1)]) == ["b0b4"]     # what White threatens


def test_mate_in_two_from_the_small_set():
    search = MateSearch()
    state = state_of("7/7/7/4p2/2k4/K1f4/7 b - - 12 1")
    assert search.mate_distance(state, 1) is None
    assert names(search.winning_moves(state, 2)) == ["e3e2"]


# ----------------------------------------------------------------------------- the format


def write(tmp_path, lines, name="set.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


GOOD = {"id": "a", "theme": "mate-in-1", "fen": "k6/7/7/7/7/7/1Q4K w - - 0 1", "solutions": ["b0b4"]}


@pytest.mark.parametrize("line, problem", [
    ("{not json", "not JSON"),
    ("[1, 2]", "a puzzle is a JSON object, not list"),
    (json.dumps({**GOOD, "solution": ["b0b4"]}), "unknown field 'solution'"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "solutions"}), "no 'solutions'"),
    (json.dumps({**GOOD, "solutions": "b0b4"}), "'solutions' must be a list of move names"),
    (json.dumps({**GOOD, "solutions": []}), "'solutions' is empty"),
    (json.dumps({**GOOD, "id": "a b"}), "id 'a b' may hold only"),
    (json.dumps({**GOOD, "fen": "k6/7/7/7/7/1Q4K w - - 0 1"}), "bad fen: FEN has 6 ranks, 7 expected"),
    (json.dumps({**GOOD, "fen": "7/7/7/7/7/7/1Q4K w - - 0 1"}), "Black must have exactly one King"),
    (json.dumps({**GOOD, "solutions": ["b0b5", "b0b9"]}), "solution 'b0b9' is not a legal move of White here"),
    (json.dumps({**GOOD, "solutions": ["b0b4", "b0b4"]}), "a solution is named twice"),
    (json.dumps({**GOOD, "fen": "k6/7/1Q5/7/7/7/6K b - - 0 1"}), "the game is already over in this position"),
])
def test_a_bad_line_is_one_error_naming_file_and_line(tmp_path, capsys, line, problem):
    path = write(tmp_path, [json.dumps(GOOD), "", line])
    code, out, err = run_cli(["puzzles", "random", "--set", path], capsys)
    assert code == 2
    assert err.startswith(f"error: {path}:3: ") and problem in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_file_level_errors(tmp_path, capsys):
    again = write(tmp_path, [json.dumps(GOOD), json.dumps(GOOD)], "twice.jsonl")
    empty = write(tmp_path, [""], "empty.jsonl")
    for args, problem in ((["--set", again], f"{again}:2: id 'a' is already used on line 1"),
                          (["--set", empty], f"{empty}: no puzzles in it"),
                          (["--set", str(tmp_path / "missing.jsonl")], "no puzzle set"),
                          (["--set", str(tmp_path)], "is a folder"),
                          ([], "name the AGENT"),
                          (["--show", "nope"], "no puzzle 'nope' in set cs3243")):
        code, out, err = run_cli(["puzzles", *(["random"] if args and args[0] == "--set" else []), *args], capsys)
        assert code == 2 and problem in err, (args, err)


def test_a_json_file_that_cannot_be_written_is_refused_before_any_puzzle(tmp_path, capsys):
    out = tmp_path / "run"
    missing = tmp_path / "no" / "x.json"
    for target, message in ((missing, f"--json {missing}: the folder {tmp_path / 'no'} does not exist"),
                            (tmp_path, f"--json {tmp_path} is a folder: give a file name")):
        code, printed, err = run_cli(["puzzles", "greedy", "--set", SMALL, "--out", str(out), "--json", str(target)],
                                     capsys)
        assert (code, printed, err) == (2, "", f"error: {message}\n")
        assert not out.exists()              # refused before the run: no attempt recorded


def test_a_set_may_bring_its_own_themes_and_keeps_origin_and_line(tmp_path):
    extra = {**GOOD, "id": "fork-1", "theme": "fork", "line": ["b0b4"], "origin": {"game": 3}}
    puzzles = read_set(write(tmp_path, [json.dumps(extra)]))
    assert puzzles[0].theme == "fork" and puzzles[0].origin == {"game": 3} and puzzles[0].line == ("b0b4",)
    assert puzzles[0].to_json() == extra


# ----------------------------------------------------------------------------- the runner


def student_file(tmp_path, name, text):
    """A .py file the box can read (its user is not ours: the folder must be open to others)."""
    os.chmod(tmp_path, 0o755)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def answer_file(tmp_path, name, choose):
    """A student file that answers each puzzle of the small set with choose(puzzle, state) (a
    variant Move), looking the board up as the file sees it (mirrored when it plays Black)."""
    answers = {}
    for puzzle in read_set(SMALL):
        state = puzzle.state()
        gameboard, colour, _, _ = from_fen(puzzle.fen)
        (c1, r1), (c2, r2) = course_move(state.rules, choose(puzzle, state))
        if colour == "Black":
            gameboard, r1, r2 = mirror_gameboard(gameboard), 6 - r1, 6 - r2
        answers[repr(sorted(gameboard.items()))] = ((c1, r1), (c2, r2))
    return student_file(tmp_path, name, f"ANSWERS = {answers!r}\n\n\ndef studentAgent(gameboard):\n"
                                        f"    return ANSWERS[repr(sorted(gameboard.items()))]\n")


def first_wrong(puzzle, state):
    return next(m for m in VARIANT.legal_moves(state) if VARIANT.move_name(m) not in puzzle.solutions)


def run_small(tmp_path, capsys, agent, *extra):
    out, summary = tmp_path / "out", tmp_path / "summary.json"
    code, text, err = run_cli(["puzzles", agent, "--set", SMALL, "--out", str(out), "--json", str(summary),
                               "--jobs", "2", "--progress", "none", *extra], capsys)
    assert code == 0, err
    return text, err, json.loads(summary.read_text())


def test_a_file_that_plays_every_solution_solves_all(tmp_path, capsys):
    solver = answer_file(tmp_path, "solver.py", lambda p, s: VARIANT.parse_move(p.solutions[-1]))
    text, _, summary = run_small(tmp_path, capsys, solver)
    assert (summary["solved"], summary["puzzles"]) == (6, 6)
    assert {t: (e["solved"], e["puzzles"]) for t, e in summary["themes"].items()} == {
        "mate-in-1": (3, 3), "mate-in-2": (2, 2), "winning-material": (1, 1)}
    assert summary["themes"]["mate-in-1"]["wilson95"] == [0.4385, 1.0]
    assert summary["missed"] == [] and summary["faults"] == {}
    assert "solved 6/6 (100.0 %, 95 % CI 61.0-100.0 %)" in text
    assert "mate-in-2                  2/2  100.0 %   34.2-100.0 %" in text
    attempts = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert sorted(a["puzzle"] for a in attempts) == sorted(p.id for p in read_set(SMALL))
    assert all(a["plies"] == 1 for a in attempts)


def test_a_file_that_never_plays_them_misses_each_with_the_command_that_shows_it(tmp_path, capsys):
    wrong = answer_file(tmp_path, "wrong.py", first_wrong)
    text, _, summary = run_small(tmp_path, capsys, wrong)
    assert summary["solved"] == 0
    puzzles = read_set(SMALL)
    assert [m["id"] for m in summary["missed"]] == [p.id for p in puzzles]
    for miss, puzzle in zip(summary["missed"], puzzles):
        played = VARIANT.move_name(first_wrong(puzzle, puzzle.state()))
        assert (miss["fen"], miss["solutions"], miss["played"], miss["fault"]) == (
            puzzle.fen, list(puzzle.solutions), played, None)
        assert miss["show"] == f"python -m harness puzzles --show {puzzle.id} --set {SMALL}"
        assert f"  {puzzle.id} ({puzzle.theme}): {puzzle.fen}" in text
        assert f"winning move {' or '.join(puzzle.solutions)}; played {played}" in text
    assert "winning move c1c2 or f5d5; played" in text
    code, shown, _ = run_cli(["puzzles", "--show", "b-mate1", "--set", SMALL], capsys)
    assert code == 0
    assert shown.splitlines()[0] == "puzzle b-mate1 (mate-in-1), Black to move"
    assert " 5  f  .  .  p  p  .  e " in shown        # Black's f6 Ferz ... g5 Empress, row 5
    assert "FEN: n2k2r/f2pp1e/1pP4/7/2P4/q2PPP1/2K4 b - - 0 1" in shown
    assert "winning move: g5g0" in shown


def test_a_crashing_file_fails_every_puzzle_and_says_why(tmp_path, capsys):
    crash = student_file(tmp_path, "crash.py", "def studentAgent(gameboard):\n    raise ValueError('no idea')\n")
    text, _, summary = run_small(tmp_path, capsys, crash)
    assert summary["solved"] == 0 and summary["faults"] == {"crash": 6}
    assert all(m["played"] is None and "ValueError: no idea" in m["error"] for m in summary["missed"])
    assert "failed to answer: crash 6" in text
    assert "played nothing (crash: " in text


def test_greedy_mates_in_one_and_a_run_resumes(tmp_path, capsys):
    text, _, first = run_small(tmp_path, capsys, "greedy")
    assert first["themes"]["mate-in-1"]["solved"] == 3          # Greedy plays a mating move when it has one
    results = tmp_path / "out" / "results.jsonl"
    code, _, err = run_cli(["puzzles", "greedy", "--set", SMALL, "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and "already holds 6 attempts; add --resume" in err
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40], encoding="utf-8")   # killed mid-write
    _, err, again = run_small(tmp_path, capsys, "greedy", "--resume")
    assert "half-written last line" in err and "2 attempts kept, 4 to play" in err
    timeless = lambda summary: {k: v for k, v in summary.items() if not k.startswith("seconds")}  # noqa: E731
    assert timeless(again) == timeless(first)
    code, _, err = run_cli(["puzzles", "random", "--set", SMALL, "--out", str(tmp_path / "out"), "--resume"], capsys)
    assert code == 2 and "holds another puzzle run (it differs in agent); choose another --out" in err


# ----------------------------------------------------------------------------- the shipped set


def test_the_shipped_set_has_every_theme_and_at_least_200_positions():
    puzzles = read_set(SHIPPED)          # every line checked: FEN, legal solutions, game not over
    assert len(puzzles) >= 200
    counts = {theme: sum(1 for p in puzzles if p.theme == theme) for theme in THEMES}
    assert all(count >= 20 for count in counts.values()), counts
    assert len({p.fen.rsplit(" ", 4)[0] for p in puzzles}) == len(puzzles)       # no position twice
    for p in puzzles:
        assert p.origin["white"] in ("AB.py", "minimax", "smart", "greedy", "random")
        assert p.line[0] in p.solutions


def test_shipped_mates_in_one_are_exactly_the_mating_moves():
    search = MateSearch()
    for p in read_set(SHIPPED):
        if p.theme != "mate-in-1":
            continue
        state = p.state()
        assert not make_set.king_en_prise(state), p.id
        assert names(search.winning_moves(state, 1)) == list(p.solutions), p.id
        # agents.tactics.mating, written apart from the search, agrees
        assert [VARIANT.move_name(m) for m in VARIANT.legal_moves(state)
                if mating(state.board, (m.from_square, m.to_square))] == list(p.solutions), p.id


def test_shipped_mates_in_two_are_proved_again():
    search = MateSearch()
    for p in [p for p in read_set(SHIPPED) if p.theme == "mate-in-2"]:
        state = p.state()
        assert search.mate_distance(state, 1) is None, p.id
        assert names(search.winning_moves(state, 2)) == list(p.solutions), p.id


def test_shipped_engine_puzzles_hold_what_the_search_can_prove():
    """No forced win within two moves for the mover (else it would be a mate puzzle) nor for the
    opponent after the solution; a parry puzzle's threat is real."""
    search = MateSearch()
    for theme in ("winning-material", "parry-mate-threat"):
        for p in [p for p in read_set(SHIPPED) if p.theme == theme]:
            state = p.state()
            assert search.mate_distance(state, 2) is None, p.id
            after = VARIANT.apply(state, VARIANT.parse_move(p.solutions[0]))
            assert search.mate_distance(after, 2) is None, p.id
            if theme == "parry-mate-threat":
                assert search.mate_distance(passed(state), 2) is not None, p.id


# ----------------------------------------------------------------------------- the set's maker


def test_winning_chances_and_clearly_best():
    assert make_set.winning_chances({"cp": 0, "mate": None}) == 0.0
    assert make_set.winning_chances({"cp": None, "mate": 3}) == 1.0
    assert make_set.winning_chances({"cp": None, "mate": -2}) == -1.0
    assert round(make_set.winning_chances({"cp": 500, "mate": None}), 4) == 0.7616
    lines = [{"cp": 731, "mate": None}, {"cp": -301, "mate": None}]
    assert make_set.clearly_best(lines, "winning-material")
    assert not make_set.clearly_best([{"cp": 755, "mate": None}, {"cp": 300, "mate": None}], "winning-material")
    assert make_set.clearly_best([{"cp": -200, "mate": None}, {"cp": -600, "mate": None}], "parry-mate-threat")
    assert not make_set.clearly_best(lines[:1], "winning-material")


def test_material_gain_counts_the_line_to_its_first_quiet_point():
    # White's pawn f4 takes the Empress on e5, the King takes back, then a quiet move
    state = state_of("nbqka1r/1pppepf/1f3P1/7/3P3/FPP3F/1BQKAER w - - 0 1")
    line = [VARIANT.parse_move(name) for name in ("f4e5", "d6e5", "c1c2", "a5a4")]
    assert make_set.material(state, "White") == -300
    assert make_set.line_gain(state, line, make_set.material(state, "White")) == 700


@pytest.mark.skipif(not os.path.exists(make_set.ENGINE),
                    reason="fairy-stockfish not installed: apt-get install fairy-stockfish")
def test_the_engine_sees_the_small_sets_mate_as_mate_in_two_plies_plus_the_king_capture():
    from agents.uci import UciAgent
    engine = UciAgent(make_set.ENGINE, nodes=300_000)
    try:
        lines = engine.analyse("nb1kaer/fpp1ppf/3p3/7/1N4q/FPPPPPF/1BQKA1R w - - 0 1", 2)
        assert len(lines) == 2 and lines[0]["cp"] is not None and lines[0]["pv"][0] == lines[0]["move"]
        lines = engine.analyse(read_set(SMALL)[0].fen, 2)
    finally:
        engine.close()
    assert lines[0]["mate"] == 2 and lines[0]["move"] == "g6d6"        # course g5d5


def test_a_trial_scale_never_replaces_the_shipped_set(capsys, monkeypatch):
    def played(*args):
        raise AssertionError("the trial was played towards the shipped set")
    monkeypatch.setattr(make_set, "make", played)
    before = open(SHIPPED, "rb").read()
    assert make_set.main(["--scale", "0.05"]) == 2
    assert capsys.readouterr().err == ("error: --scale 0.05 makes a trial set: give --out FILE (and --work DIR), or "
                                       f"it would replace the shipped set {SHIPPED}\n")
    assert open(SHIPPED, "rb").read() == before


@pytest.mark.parametrize("given,how", [([], "with --resume"), (["--force"], "with --resume in place of --force")])
def test_ctrl_c_says_how_to_play_the_rest(tmp_path, capsys, monkeypatch, given, how):
    from harness.commands import puzzles as command

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(command, "run_set", interrupted)
    out = tmp_path / "out"
    code, _, err = run_cli(["puzzles", "greedy", "--set", SMALL, "--out", str(out), *given], capsys)
    assert (code, err) == (130, f"interrupted: the games finished so far are kept in {out}; run the same command "
                                f"{how} to play the rest\n")


def test_ctrl_c_stops_a_run_promptly_and_resume_plays_the_rest(tmp_path):
    slow = student_file(tmp_path, "slow.py", "import time\n\n\ndef studentAgent(gameboard):\n"
                                             "    time.sleep(0.5)\n    return None\n")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "harness", "puzzles", slow, "--set", SMALL, "--out", str(out), "--jobs", "2",
               "--progress", "none"]
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while not ((out / "results.jsonl").exists() and (out / "results.jsonl").read_text()) and time.monotonic() < deadline:
        time.sleep(0.1)                             # until the first attempt is recorded (each takes 0.5 s)
    err = ctrl_c(proc)
    assert proc.returncode == 130 and f"interrupted: the games finished so far are kept in {out}" in err
    kept = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert 0 < len(kept) < 6
    finished = subprocess.run(command + ["--resume"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr
    assert f"{len(kept)} attempts kept, {6 - len(kept)} to play" in finished.stderr
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["game"] for r in records) == list(range(6))
    assert all(r["reason"] == "illegal_move" for r in records)


def test_the_default_progress_is_plain_lines_off_a_terminal(tmp_path, capsys):
    """Without --progress a run shows its progress as every other run does (a bar on a terminal,
    plain lines in a log); 'auto' used to show nothing at all."""
    code, _, err = run_cli(["puzzles", "greedy", "--set", SMALL, "--out", str(tmp_path / "out"), "--jobs", "1"],
                           capsys)
    assert code == 0, err
    assert re.search(r"^greedy puzzles: 6/6 puzzles, ", err, re.M), err
