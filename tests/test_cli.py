"""The command line: one-line errors (exit 2, no traceback) for every bad flag, agent or file;
play's move-by-move output; series' summary."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run_cli

from harness.commands import COMMANDS

# every command's name, in the order --help lists them (each module's add_parser names it)
COMMAND_NAMES = [command.__name__.rsplit(".", 1)[-1].replace("_", "-") for command in COMMANDS]


REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "fixtures" / "hostile"
BUILTINS = "use one of dummy, random, greedy, smart, minimax, a path to a .py file or uci:PATH"


SERIES = ["series", "--white", "random", "--black", "dummy", "--games", "2"]


@pytest.mark.parametrize("argv,message", [
    (["series", "--white", "nosuch", "--black", "dummy", "--games", "2"],
     f"error: unknown agent 'nosuch': {BUILTINS}"),
    (["series", "--white", "missing.py", "--black", "dummy", "--games", "2"],
     "error: agent file 'missing.py' does not exist"),
    (["series", "--white", "tests/fixtures", "--black", "dummy", "--games", "2"],
     "error: agent 'tests/fixtures' is not a .py file"),
    (["play", "--white", "dummy", "--black", "nosuch"], f"error: unknown agent 'nosuch': {BUILTINS}"),
    (["report", "dummy", "--opponents", "random,nosuch"], f"error: unknown agent 'nosuch': {BUILTINS}"),
    (["report", "dummy", "--opponents", "random,random"],
     "python -m harness report: error: argument --opponents: an opponent is named twice in 'random,random'"),
    (["report", "dummy", "--colour", "red"],
     "python -m harness report: error: argument --colour: invalid choice: 'red' (choose from 'white', 'black', 'both')"),
    (SERIES[:-1] + ["0"], "python -m harness series: error: argument --games: '0' must be at least 1"),
    (SERIES[:-1] + ["x"], "python -m harness series: error: argument --games: 'x' is not a whole number"),
    (SERIES + ["--jobs", "0"], "python -m harness series: error: argument --jobs: '0' must be at least 1"),
    (SERIES + ["--move-timeout", "-1"],
     "python -m harness series: error: argument --move-timeout: '-1' must be a positive number of seconds"),
    (SERIES + ["--move-timeout", "nan"],
     "python -m harness series: error: argument --move-timeout: 'nan' must be a positive number of seconds"),
    (SERIES + ["--fifty", "0"], "python -m harness series: error: argument --fifty: '0' must be at least 1"),
    (SERIES + ["--seed", "x"], "python -m harness series: error: argument --seed: 'x' is not a whole number"),
    (SERIES + ["--bogus"], "python -m harness: error: unrecognized arguments: --bogus"),
    (SERIES[:-2], "python -m harness series: error: the following arguments are required: --games"),
    (["nosuch"], "python -m harness: error: argument COMMAND: invalid choice: 'nosuch' "
                 "(choose from " + ", ".join(f"'{name}'" for name in COMMAND_NAMES) + ")"),
    (SERIES + ["--config", "nope.txt"], "error: nope.txt:0: cannot read file (No such file or directory)"),
    (["check", "nope.py"], "error: file 'nope.py' does not exist"),
])
def test_bad_input_is_one_line(argv, message, capsys):
    code, out, err = run_cli(argv, capsys)
    assert (code, out, err) == (2, "", message + "\n")


def test_a_malformed_config_names_its_line(tmp_path, capsys):
    config = tmp_path / "bad.txt"
    config.write_text("Rows:7\nCols:9\n")
    code, out, err = run_cli(SERIES + ["--config", str(config)], capsys)
    assert (code, out, err) == (2, "", f"error: {config}:2: Cols is 9, expected 7\n")


def test_the_default_agent_must_exist(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["report"], capsys)
    assert (code, err) == (2, "error: agent file 'AB.py' does not exist\n")


def test_an_out_dir_that_is_a_file(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out, err = run_cli(SERIES + ["--out", str(blocker), "--quiet"], capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_an_out_dir_holding_another_series(tmp_path, capsys):
    out = str(tmp_path / "s")
    assert run_cli(SERIES + ["--out", out, "--quiet", "--jobs", "1"], capsys)[0] == 0
    code, _, err = run_cli(SERIES + ["--out", out, "--quiet", "--seed", "3", "--resume"], capsys)
    assert (code, err) == (2, f"error: {out} holds another series (it differs in seed); choose another --out\n")


def test_the_module_entry_point_gives_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "harness", "play", "--white", "nosuch", "--black", "dummy"],
                            cwd=REPO, capture_output=True, text=True)
    assert (result.returncode, result.stdout, result.stderr) == (
        2, "", f"error: unknown agent 'nosuch': {BUILTINS}\n")


def test_play_shows_the_game_move_by_move(capsys):
    code, out, err = run_cli(["play", "--white", "random", "--black", "dummy", "--seed", "4"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("White: random   Black: dummy   seed 4")
    # row 6 (Black's back rank) at the top, as replay and FEN show it
    assert lines[1:4] == ["    a  b  c  d  e  f  g", " 6  n  b  q  k  a  e  r ", " 5  f  p  p  p  p  p  f "]
    assert lines[7:9] == [" 1  F  P  P  P  P  P  F ", " 0  N  B  Q  K  A  E  R "]
    moves = [line for line in lines if re.match(r"^ *\d+\. (White|Black) [a-g][0-6][a-g][0-6]  \(", line)]
    final = lines[-1]
    match = re.match(r"^(White \(random\) wins|Black \(dummy\) wins|Draw) by (\w+) after (\d+) plies\.$", final)
    assert match and int(match.group(3)) == len(moves)
    assert moves[0].startswith("  1. White ") and moves[1].startswith("  2. Black ")


def test_play_with_files_that_misbehave(capsys):
    code, out, _ = run_cli(["play", "--white", str(HOSTILE / "prints.py"), "--black", "dummy"], capsys)
    assert code == 0
    before, _, after = out.partition("White printed (the course rejects files that print):")
    assert "hello from import" not in before and after.startswith("\n    hello from import")
    code, out, _ = run_cli(["play", "--white", str(HOSTILE / "raises.py"), "--black", "dummy"], capsys)
    assert "Black (dummy) wins by crash after 0 plies." in out
    assert "Error: White: ValueError: boom (raises.py line 5)" in out


def test_series_prints_a_summary_and_writes_results(tmp_path, capsys):
    out_dir = tmp_path / "s"
    code, out, err = run_cli(SERIES[:-1] + ["4", "--out", str(out_dir), "--quiet", "--jobs", "2"], capsys)
    assert code == 0
    records = [json.loads(line) for line in (out_dir / "results.jsonl").read_text().splitlines()]
    score = {k: sum(r["result"] == k for r in records) for k in ("white", "draw", "black")}
    assert out.splitlines()[0] == (f"random (White) vs dummy (Black): 4 games: White won {score['white']}, "
                                   f"{score['draw']} drawn, Black won {score['black']}")
    assert out.splitlines()[-1] == (f"results: {out_dir / 'results.jsonl'}; summary: {out_dir / 'report.json'}; "
                                    f"pictures: {out_dir / 'report.html'}")


def test_series_prints_the_score_and_elo_lines(tmp_path, capsys):
    """The two lines after the summary, from White's view, agree with the recorded games."""
    out_dir = tmp_path / "s"
    code, out, _ = run_cli(["series", "--white", "greedy", "--black", "dummy", "--games", "3", "--out",
                            str(out_dir), "--quiet", "--jobs", "1"], capsys)
    assert code == 0
    records = [json.loads(line) for line in (out_dir / "results.jsonl").read_text().splitlines()]
    w = sum(r["result"] == "white" for r in records)
    b = sum(r["result"] == "black" for r in records)
    d = 3 - w - b
    lines = out.splitlines()
    from harness import stats
    from harness.view.text import elo_line
    assert lines[1] == f"Score of greedy vs dummy: {w} - {b} - {d}  [{(w + d / 2) / 3:.3f}] 3"
    assert lines[2] == elo_line(w, b, d) and lines[2].startswith("Elo difference: ")
    summary = json.loads((out_dir / "report.json").read_text())
    assert summary["settings"]["variant"] == "cs3243"
    assert summary["white"]["win_wilson95"] == [round(x, 4) for x in stats.wilson(w, 3)]
    assert set(summary["white"]) >= {"score", "elo", "elo_margin", "los", "win_wilson95", "not_lost_wilson95"}


def test_an_unknown_variant_is_one_line_listing_the_known_ones(capsys):
    for argv in (["perft", "1", "--variant", "chess"], SERIES + ["--variant", "chess"]):
        code, out, err = run_cli(argv, capsys)
        assert (code, out) == (2, "")
        assert err.startswith("error: unknown variant 'chess': use one of cs3243") and err.count("\n") == 1


def test_perft_through_the_variant(capsys):
    code, out, _ = run_cli(["perft", "3", "--variant", "cs3243"], capsys)
    lines = [line.split()[:2] for line in out.splitlines()]
    assert code == 0 and lines == [["depth", "nodes"], ["1", "12"], ["2", "144"], ["3", "2532"]]


def test_replay_and_resume_refuse_a_series_of_another_variant(tmp_path, capsys):
    out_dir = tmp_path / "s"
    assert run_cli(SERIES + ["--out", str(out_dir), "--quiet", "--jobs", "1"], capsys)[0] == 0
    results = out_dir / "results.jsonl"
    code, out, err = run_cli(["replay", str(results), "0", "--variant", "nthu"], capsys)
    assert (code, err) == (2, "error: the record is a game of cs3243, not nthu\n")
    lines = results.read_text().splitlines()
    other = [json.dumps({**json.loads(line), "variant": "congo"}) for line in lines]
    results.write_text("\n".join(other) + "\n")
    code, _, err = run_cli(SERIES + ["--out", str(out_dir), "--quiet", "--resume"], capsys)
    assert code == 2 and "holds game 0 of another series" in err


# ----------------------------------------------------------------------------- issue 27


@pytest.mark.parametrize("target, message", [
    ("{tmp}", "error: --out {tmp} is a folder: give a file name"),
    ("{tmp}/no/such/game.jsonl", "error: --out {tmp}/no/such/game.jsonl: the folder {tmp}/no/such does not exist"),
])
def test_play_checks_out_before_the_first_move(tmp_path, capsys, target, message):
    target, message = target.format(tmp=tmp_path), message.format(tmp=tmp_path)
    code, out, err = run_cli(["play", "--white", "greedy", "--black", "dummy", "--out", target], capsys)
    assert (code, out, err) == (2, "", message + "\n")          # no game was played, none lost


def test_play_out_leaves_no_file_when_the_game_is_refused(tmp_path, capsys):
    target = tmp_path / "game.jsonl"
    code, _, err = run_cli(["play", "--white", "nosuch", "--black", "dummy", "--out", str(target)], capsys)
    assert code == 2 and err.startswith("error: unknown agent 'nosuch'") and not target.exists()


MIDGAME = "nbqka1r/fpBpppf/5e1/7/2P4/FP1PPPF/N1QKAER b - - 1 4"     # a FEN from replay, Black to move


def test_cs3243_plays_from_a_fen_with_black_to_move(tmp_path, capsys):
    saved = tmp_path / "g.jsonl"
    code, out, err = run_cli(["play", "--white", "greedy", "--black", "random", "--fen", MIDGAME, "--out", str(saved)],
                             capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1:4] == ["    a  b  c  d  e  f  g", " 6  n  b  q  k  a  .  r ", " 5  f  p  B  p  p  p  f "]
    moves = [line for line in lines if re.match(r"^ *\d+\. (White|Black) [a-g][0-6][a-g][0-6]  \(", line)]
    assert moves[0].startswith("  1. Black ")
    record = json.loads(saved.read_text())
    assert record["start_fen"] == MIDGAME and record["plies"] == len(moves)


def test_a_fen_from_replay_round_trips_through_play(tmp_path, capsys):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run_cli(["play", "--white", "greedy", "--black", "random", "--seed", "1", "--out", str(first)], capsys)[0] == 0
    code, text, _ = run_cli(["replay", str(first), "0"], capsys)
    fens = [line.split("FEN: ", 1)[1] for line in text.splitlines() if line.startswith("  FEN: ")]
    boards = text.split("\nply ")             # [header, ply 0, ply 1, ...]
    for ply in (5, 6):                          # Black to move after ply 5, White after ply 6
        fen = fens[ply - 1]
        assert run_cli(["play", "--white", "random", "--black", "greedy", "--fen", fen, "--out", str(second)],
                       capsys)[0] == 0
        assert json.loads(second.read_text())["start_fen"] == fen
        code, again, _ = run_cli(["replay", str(second), "0"], capsys)
        assert code == 0 and f"start FEN: {fen}" in again
        board = [line for line in boards[ply + 1].splitlines() if re.match(r"^  \d \|", line)]
        assert [line for line in again.split("\nply 1:")[0].splitlines() if re.match(r"^  \d \|", line)] == board


def test_perft_from_a_fen_is_the_position_it_names(capsys):
    from harness.variants.cs3243 import VARIANT
    from harness.variants.cs3243.fen import position_fen
    state = VARIANT.start()
    for name in ("c1c2", "c5c4", "d0c1"):
        state = VARIANT.apply(state, VARIANT.parse_move(name))
    fen = position_fen(state)
    assert fen.split()[1] == "b"
    code, out, _ = run_cli(["perft", "3", "--fen", fen], capsys)
    assert code == 0
    assert [line.split()[:2] for line in out.splitlines()[1:]] == [
        [str(d), str(VARIANT.perft(state, d))] for d in (1, 2, 3)]
    code, out, err = run_cli(["perft", "1", "--fen", fen, "--black"], capsys)
    assert (code, err) == (2, "error: --black is for cs3243's --config and start positions; a FEN gives the side "
                              "to move\n")


def test_series_and_report_start_every_game_from_the_fen(tmp_path, capsys):
    code, _, _ = run_cli(["series", "--white", "greedy", "--black", "random", "--games", "2", "--fen", MIDGAME,
                          "--out", str(tmp_path / "s"), "--quiet", "--jobs", "1"], capsys)
    records = [json.loads(line) for line in (tmp_path / "s" / "results.jsonl").read_text().splitlines()]
    assert code == 0 and [r["start_fen"] for r in records] == [MIDGAME, MIDGAME]
    assert json.loads((tmp_path / "s" / "series.json").read_text())["fen"] == MIDGAME
    code, out, _ = run_cli(["report", "greedy", "--opponents", "random", "--games", "1", "--fen", MIDGAME,
                            "--out", str(tmp_path / "r"), "--quiet"], capsys)
    assert code == 0 and f"from the position {MIDGAME}, seeds 0..0" in out


@pytest.mark.parametrize("argv, message", [
    (["--fen", "nbq1aer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1"],
     "error: --fen 'nbq1aer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1': Black has 0 Kings; a game needs exactly one "
     "per side"),
    (["--fen", "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER x"],
     "error: --fen 'nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER x': side to move must be 'w' or 'b', not 'x': "
     "'nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER x'"),
    (["--fen", MIDGAME, "--config", "config.txt"], "error: cs3243: give --config or --fen, not both"),
])
def test_a_bad_fen_is_one_line(argv, message, capsys):
    assert run_cli(["play", "--white", "dummy", "--black", "dummy"] + argv, capsys) == (2, "", message + "\n")


def test_the_agent_help_lists_every_variants_agents(capsys):
    code, out, _ = run_cli(["series", "--help"], capsys)
    text = " ".join(out.split())
    assert code == 0
    for listed in ("cs3243: dummy, random, greedy, smart, minimax",
                   "nthu: baseline1, baseline2, baseline3, baseline4, random, greedy, ab",
                   "congo: random, greedy, minimax, alphabeta, ab", "nthu:PATH", "uci:PATH"):
        assert listed in text


def test_minichess_help_names_itself(monkeypatch, capsys):
    from harness.cli import entry
    monkeypatch.setattr(sys, "argv", ["/somewhere/bin/minichess", "--help"])
    with pytest.raises(SystemExit) as exited:
        entry()
    assert exited.value.code == 0 and capsys.readouterr().out.startswith("usage: minichess [-h] COMMAND")


@pytest.mark.parametrize("argv, usage", [
    (["congo", "--help"], "usage: minichess congo [-h] PROGRAM"),
    (["congo", "test", "--help"], "usage: minichess congo test [-h] --program CMD"),
])
def test_minichess_congo_names_itself_too(monkeypatch, capsys, argv, usage):
    """congo parses its own options (RAW): its usage names the command as called, like the rest."""
    from harness.cli import entry
    monkeypatch.setattr(sys, "argv", ["/somewhere/bin/minichess", *argv])
    with pytest.raises(SystemExit) as exited:
        entry()
    out = capsys.readouterr().out
    assert exited.value.code == 0 and out.startswith(usage) and "python -m harness" not in out


@pytest.mark.parametrize("command,module,given,how", [
    (["series", "--white", "greedy", "--black", "random", "--games", "2"], "harness.commands.series.run_plans", [],
     "with --resume"),
    (["series", "--white", "greedy", "--black", "random", "--games", "2"], "harness.commands.series.run_plans", ["--force"],
     "with --resume in place of --force"),
    (["compare", "greedy", "random", "--games", "2"], "harness.commands.compare.run_compare", ["--force"],
     "with --resume in place of --force"),
    (["tournament", "greedy", "random", "--games", "2"], "harness.tournament.run_tournament", ["--force"],
     "with --resume in place of --force"),
])
def test_ctrl_c_says_how_to_play_the_rest_after_force_too(tmp_path, capsys, monkeypatch, command, module, given, how):
    """--resume and --force go together nowhere: after a --force run, Ctrl-C's hint names the
    option --resume replaces."""
    import importlib

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    where, name = module.rsplit(".", 1)
    monkeypatch.setattr(importlib.import_module(where), name, interrupted)
    out = tmp_path / "out"
    code, _, err = run_cli([*command, "--out", str(out), *given], capsys)
    assert (code, err) == (130, f"interrupted: the games finished so far are kept in {out}; run the same command "
                                f"{how} to play the rest\n")
