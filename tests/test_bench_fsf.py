"""bench/ab_vs_fsf.py --combine: runs of several opening seeds pooled, pairs kept apart by seed;
bench/ab_piece_values.py: the positions it takes and the fit;
bench/ab_move_quality.py: which positions it takes from recorded games; bench/ab_reply_quality.py:
which of the opponent's moves it judges, and how."""
import argparse
import json
import math
import os
import subprocess
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.append(BENCH)      # after the standard library: bench/html.py must not hide `html`

import ab_move_quality  # noqa: E402
import ab_piece_values  # noqa: E402
import ab_reply_quality  # noqa: E402
import ab_vs_fsf  # noqa: E402
import win_curve  # noqa: E402
from harness.isolation.student import load_student_module  # noqa: E402
from harness.variants.cs3243.game import Game, move_name  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402

from boards import gb  # noqa: E402
from ctrl_c import CATCHES_EVERYTHING, ctrl_c, start_thinking  # noqa: E402

AB_PATH = os.path.join(os.path.dirname(BENCH), "AB.py")


def record(ab_file, seed, pair, colour, result, old_style=False):
    """A game record as the bench writes it (only the fields --combine reads)."""
    r = {"seed": seed * 100000 + pair, "ab_file": ab_file, "pair": pair, "ab_colour": colour,
         "result": result, "reason": "checkmate", "nodes": 10000,
         "think": {colour.lower(): {"moves": 10, "total": 1.0}}}
    if not old_style:
        r["opening_seed"] = seed
    return r


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_combine_pools_seeds_and_pairs_games_by_seed_and_pair(tmp_path, capsys):
    # seed 1 (records from before the seed was written, so it comes from the game seed):
    # pair 0 old loses both, new wins both (+1); seed 2: pair 0 both draw both (0). Pooled
    # by (seed, pair) that is two pairs, +1 and 0: mean +0.5, margin 1.96 * sqrt(0.5 / 2) = 0.98.
    # Keyed by pair number alone the four games of each file would have been one pair.
    first = [record("old.py", 1, 0, "White", "black", True), record("old.py", 1, 0, "Black", "white", True),
             record("new.py", 1, 0, "White", "white", True), record("new.py", 1, 0, "Black", "black", True)]
    second = [record(name, 2, 0, colour, "draw") for name in ("old.py", "new.py") for colour in ("White", "Black")]
    files = [write(tmp_path / "a.jsonl", first), write(tmp_path / "b.jsonl", second)]
    assert ab_vs_fsf.main(["--combine", *files, "--ab", "old.py", "new.py"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "nodes=10000: 2 results files, opening seeds 1, 2"
    assert "games=4   W/D/L=0/2/2 " in lines[1] and "score= 25.0%" in lines[1]
    assert "games=4   W/D/L=2/2/0 " in lines[2] and "score= 75.0%" in lines[2]
    assert lines[3] == ("new.py - old.py: nodes=10000: score difference +50.0 +- 98.0 points "
                        "(95 %, 2 opening pairs, 1 pairs scored differently)")


def test_combine_counts_one_file_under_two_names_and_names_an_unreadable_file(tmp_path, capsys):
    games = [record("fast.py", 1, 0, "White", "white"), record("fast.py", 1, 0, "Black", "white"),
             record("new.py", 1, 0, "White", "white"), record("new.py", 1, 0, "Black", "black")]
    path = write(tmp_path / "a.jsonl", games)
    assert ab_vs_fsf.main(["--combine", path, "--ab", "base.py", "new.py", "--same", "fast.py=base.py"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("base.py: nodes=10000  games=2 ")
    assert out[3].startswith("new.py - base.py: nodes=10000: too few common pairs")
    missing = str(tmp_path / "missing.jsonl")
    assert ab_vs_fsf.main(["--combine", path, missing]) == 2
    assert capsys.readouterr().err == f"{missing}: cannot read it (No such file or directory)\n"


def test_each_opening_set_of_a_several_set_run_is_the_run_of_its_seed_alone():
    # --sets 2 --seed 3243 plays the openings of --seed 3243 and of --seed 3244, each with its
    # own game seeds, so its games pool with single-seed runs
    def args(seed, sets):
        return argparse.Namespace(seed=seed, sets=sets, games=4, first_game=0, nodes=[10000], ab=["AB.py"],
                                  engine="fsf", distinct=True, fifty=50, max_plies=1000, opening_plies=4)

    def without_number(tasks):
        return [{k: v for k, v in t.items() if k != "game"} for t in tasks]

    both = ab_vs_fsf.plan(args(3243, 2))
    assert [t["game"] for t in both] == list(range(1, 9))
    assert without_number(both[:4]) == without_number(ab_vs_fsf.plan(args(3243, 1)))
    assert without_number(both[4:]) == without_number(ab_vs_fsf.plan(args(3244, 1)))
    assert [(t["seed"], t["pair"], t["ab_colour"]) for t in both[4:]] == [
        (3244, 0, "White"), (3244, 0, "Black"), (3244, 1, "White"), (3244, 1, "Black")]
    assert len({t["game_seed"] for t in both}) == 8


def test_move_quality_takes_the_agents_own_plies_in_range_one_game_after_the_other(tmp_path):
    games = [{"opening_seed": 1, "pair": 0, "ab_colour": "White", "plies": 20},
             {"opening_seed": 1, "pair": 0, "ab_colour": "Black", "plies": 15}]
    path = write(tmp_path / "games.jsonl", games)
    chosen = [(r["ab_colour"], ply) for r, ply in ab_move_quality.positions([path], 7, 8, 14)]
    # White moves at even plies (8, 10, 12, 14), Black at odd ones below its last ply (9, 11, 13)
    assert [colour for colour, _ in chosen] == ["White", "Black"] * 3 + ["White"]
    assert sorted(p for c, p in chosen if c == "White") == [8, 10, 12, 14]
    assert sorted(p for c, p in chosen if c == "Black") == [9, 11, 13]
    assert ab_move_quality.positions([path], 7, 8, 14) == ab_move_quality.positions([path], 7, 8, 14)
    assert len(ab_move_quality.positions([path], 3, 8, 14)) == 3


def test_move_quality_names_a_missing_file_in_one_line(tmp_path, capsys):
    missing = str(tmp_path / "none.jsonl")
    assert ab_move_quality.main([missing, "--ab", "AB.py"]) == 2
    assert capsys.readouterr().err == f"error: '{missing}' does not exist\n"


def test_move_quality_with_no_position_in_range_says_so_in_one_line(tmp_path, capsys):
    path = write(tmp_path / "games.jsonl", [{"opening_seed": 1, "pair": 0, "ab_colour": "White", "plies": 6}])
    ab = os.path.join(os.path.dirname(BENCH), "AB.py")
    # (the engine is only checked to exist: no position, no search)
    assert ab_move_quality.main([path, "--ab", ab, "--plies", "8", "80", "--engine", sys.executable]) == 2
    assert capsys.readouterr().err == f"error: no position with AB.py to move at plies 8-80 in {path}\n"


def first_moves(plies):
    """The names of `plies` plies from the start, each side playing its first legal move."""
    game = Game()
    names = []
    for _ in range(plies):
        move = game.legal_moves()[0]
        names.append(move_name(RULES, move))
        game.play(move)
    return names


def test_reply_quality_judges_only_the_opponents_moves_after_the_opening():
    moves = first_moves(7)
    engine_game = {"ab_colour": "Black", "nodes": 30000, "opening_plies": 2, "moves": moves}
    course_game = {"opponent": "minimax", "colour": "white", "seed": 4, "moves": moves}
    # AB.py as Black after a 2-ply opening: White's plies 2, 4 and 6; as White in a course game:
    # Black's plies 1, 3 and 5, the first two of them with --moves 2
    judged = ab_reply_quality.game_quality((engine_game, AB_PATH, 8, 200))
    assert (judged["label"], judged["colour"], len(judged["losses"])) == ("engine@30000", "black", 3)
    judged = ab_reply_quality.game_quality((course_game, AB_PATH, 2, 200))
    assert (judged["label"], judged["colour"], judged["seed"], len(judged["ranks"])) == ("minimax", "white", 4, 2)
    assert all(loss >= 0 and 0 <= rank < 1 for loss, rank in zip(judged["losses"], judged["ranks"]))


def test_reply_quality_a_hanging_queen_taken_is_best_and_left_is_a_loss():
    # Black (the opponent, side -1 in AB.py's view) to move: Ra3 takes the Queen on d3
    module = load_student_module(AB_PATH)
    before = module.dict_to_flat(gb("Kd0 Qd3 kd6 ra3"))
    a3, d3, d6, c6 = 21, 24, 45, 44

    def played(fr, to):
        after = list(before)
        after[to], after[fr] = after[fr], 0
        return after

    assert ab_reply_quality.judge(module, before, played(a3, d3), 400) == (0, 0.0)
    loss, rank = ab_reply_quality.judge(module, before, played(d6, c6), 400)
    assert loss > 600 and rank > 0
    # a position the opponent cannot reach by a legal move: no verdict
    assert ab_reply_quality.judge(module, before, played(d3, d6), 400) is None


def test_reply_quality_names_the_file_and_line_of_a_bad_record(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"moves": []}) + "\n" + "{not json\n")
    assert ab_reply_quality.main([str(path)]) == 2
    assert capsys.readouterr().err == f"error: {path}, line 2: not a game record with its moves\n"
    assert ab_reply_quality.main([str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'none.jsonl'}: cannot read it (No such file or directory)\n"


FSF = "/usr/games/fairy-stockfish"


@pytest.mark.skipif(not os.path.exists(FSF), reason="fairy-stockfish not installed (apt-get install fairy-stockfish)")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_run_at_once_while_a_file_that_catches_it_thinks(tmp_path, jobs):
    # the file swallows KeyboardInterrupt and answers; the run must stop anyway, not go on
    agent, thinking, out = tmp_path / "catches.py", tmp_path / "thinking", tmp_path / "games.jsonl"
    agent.write_text(CATCHES_EVERYTHING)
    proc = start_thinking([sys.executable, os.path.join(BENCH, "ab_vs_fsf.py"), "--ab", str(agent), "--games", "4",
                           "--nodes", "1000", "--jobs", jobs, "--engine", FSF, "--out", str(out)], thinking)
    err = ctrl_c(proc, "the bench ")
    assert proc.returncode == 130
    rest = "; the rest: --first-game 0 with another --out" if jobs == "1" else ""
    assert err.splitlines()[-1] == f"interrupted: 0 games recorded in {out}{rest}"
    assert out.read_text() == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_other_benches_stop_on_ctrl_c_with_one_line_not_a_traceback(tmp_path, jobs):
    # bench/ab_vs_opponent.py stands for every bench but ab_vs_fsf.py (each ends in
    # harness.core.interrupts.exit_code): Ctrl-C while a file that swallows it thinks
    agent, thinking = tmp_path / "catches.py", tmp_path / "thinking"
    agent.write_text(CATCHES_EVERYTHING + "NODE_BUDGET = 18000       # the constant the bench sets\n")
    proc = start_thinking([sys.executable, os.path.join(BENCH, "ab_vs_opponent.py"), str(agent),
                           "--opponent", "minimax", "--seeds", "0", "4", "--jobs", jobs], thinking)
    err = ctrl_c(proc, "the bench ")
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert err.splitlines()[-1] == "interrupted"


# a Knight's raid: 5. c4e5 takes a Black pawn; the others capture nothing
RAID = ["a0b2", "g5f4", "b2c4", "f4g3", "c4e5", "b5b4", "e5c4"]


def test_piece_values_takes_the_positions_after_quiet_moves_and_counts_white_less_black():
    got = list(ab_piece_values.positions({"result": "white", "moves": RAID}, 1))
    nothing, pawn_up = (0,) * 8, (1,) + (0,) * 7
    # plies 1-4 and 6-7; ply 5 (the capture) is skipped
    assert got == [(nothing, 1.0)] * 4 + [(pawn_up, 1.0)] * 2
    assert list(ab_piece_values.positions({"result": "draw", "moves": RAID}, 6)) == [(pawn_up, 0.5)] * 2


def test_piece_values_fit_finds_the_weights_the_scores_were_made_with():
    truth = [0.3, 0.5, 1.1, 0.9, 1.6, 3.0, 2.9, 2.8, 0.05]        # 8 pieces and the constant
    groups = {}
    for i in range(8):
        for d in (-2, -1, 1, 2):
            for j in range(8):
                counts = [0] * 8
                counts[i] += d
                counts[j] += 1 if j != i else 0
                z = sum(w * c for w, c in zip(truth, counts)) + truth[-1]
                groups[tuple(counts)] = [1000, 1000 / (1 + math.exp(-z))]
    weights, errors = ab_piece_values.fit(groups)
    assert [round(w, 6) for w in weights] == truth
    assert all(0 < e < 0.2 for e in errors)


def test_win_curve_fit_finds_the_slope_the_results_were_made_with():
    # games whose positions' scores are exactly 1 / (1 + e^(-k cp)) for k = 0.0025: the fit (the
    # piece values' Newton fit, without its constant) gives k back
    k = 0.0025
    games = [[(cp, 1 / (1 + math.exp(-k * cp)))] * 50 for cp in range(-1000, 1001, 50)]
    slope, error = win_curve.slope(games)
    assert round(slope, 9) == k and 0 < error < 0.0005
    weights, _ = ab_piece_values.fit({(100,): [4, 3.0], (-100,): [4, 1.0]}, constant=False)
    assert weights[0] == pytest.approx(math.log(3) / 100, abs=1e-12)      # 3 of 4 won at +100


def test_win_curve_takes_every_position_of_a_reviewed_game_until_its_end(tmp_path, capsys):
    # NTHU: the Queen hung on ply 3 and taken on ply 4, White resigning there (recorded as a loss);
    # the analyser evaluates the 5 positions, from White's view, clamped to +-1000
    from harness.analysis.analysers import make_analyser
    from harness.variants import find_variant
    record = {"variant": "nthu", "result": "black", "moves": ["c2c3", "d6e4", "d1a4", "b5a4"]}
    analyser = make_analyser(None, "nthu", 500)
    try:
        points = list(win_curve.game_points(record, find_variant("nthu"), analyser, 1))
    finally:
        analyser.close()
    assert len(points) == 5 and all(score == 0.0 and -1000 <= cp <= 1000 for cp, score in points)
    assert points[-1][0] < -500                                   # a Queen down
    assert [cp for cp, _ in win_curve.game_points(record, find_variant("nthu"), make_analyser(None, "nthu", 500), 4)] \
        == [cp for cp, _ in points[3:]]
    results = tmp_path / "games.jsonl"
    results.write_text(json.dumps(record) + "\n" + json.dumps({"variant": "nthu", "result": "white",
                                                               "moves": ["c2c3", "a1a1"]}) + "\n")
    assert win_curve.main([str(results), "--nodes", "500"]) == 2
    assert capsys.readouterr().err == (f"error: {results}, line 2: ply 2 ('a1a1') cannot be played here: "
                                       "the record is inconsistent\n")


def test_piece_values_names_the_file_line_and_ply_of_a_bad_move(tmp_path, capsys):
    results = tmp_path / "games.jsonl"
    results.write_text(json.dumps({"result": "white", "moves": RAID}) + "\n"
                       + json.dumps({"result": "black", "moves": ["a0b2", "a3a4"]}) + "\n")
    assert ab_piece_values.main([str(results)]) == 2
    assert capsys.readouterr().err == (f"error: {results}, line 2: ply 2: 'a3a4' does not move a piece "
                                       "of the side to move\n")


def test_a_file_the_bench_cannot_play_stops_it_with_one_line_even_with_a_pool(tmp_path):
    agent = tmp_path / "no_budget.py"
    agent.write_text(CATCHES_EVERYTHING)            # no NODE_BUDGET for the bench to set
    done = subprocess.run([sys.executable, os.path.join(BENCH, "ab_vs_opponent.py"), str(agent),
                           "--opponent", "minimax", "--seeds", "0", "2", "--jobs", "2"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == f"{agent} has no NODE_BUDGET constant to set\n"
