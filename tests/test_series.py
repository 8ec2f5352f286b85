"""Series: records on disk, seeds and replays, parallel == serial, resume after a kill,
refusing to mix series, and hostile files that never stop a series."""
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.runs.results import RESULTS_FILE, ResultsError, read_records
from harness.runs.series import RunOptions, SeriesPlan, game_task, run_game, run_plans
from harness.runs.pool import worker_pool

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "fixtures" / "hostile"
MOVE = re.compile(r"^[a-g][0-6][a-g][0-6]$")


def run(out, white="random", black="dummy", games=6, jobs=2, resume=False, **settings):
    plan = SeriesPlan(out=str(out), white=white, black=black, games=games, **settings)
    return plan, run_plans([plan], RunOptions(jobs=jobs, resume=resume, progress=False)).records[0]


def lines(out):
    return (Path(out) / RESULTS_FILE).read_text().splitlines()


def essence(record):
    """What must replay exactly (think times never do)."""
    return (record["game"], record["seed"], record["result"], record["reason"], record["plies"],
            record["moves"])


def test_records_carry_the_contract_fields(tmp_path):
    plan, records = run(tmp_path / "s", games=6, seed=10)
    on_disk = [json.loads(line) for line in lines(plan.out)]
    assert len(on_disk) == 6
    assert sorted(r["game"] for r in on_disk) == list(range(6))
    for r in records:
        assert r["seed"] == 10 + r["game"]
        assert (r["white"], r["black"]) == ("random", "dummy")
        assert r["result"] in ("white", "black", "draw")
        assert r["plies"] == len(r["moves"]) and all(MOVE.match(m) for m in r["moves"])
        for side in ("white", "black"):
            think = r["think"][side]
            assert set(think) == {"total", "max", "moves", "seconds"}
            assert len(think["seconds"]) == think["moves"]
        assert r["printed"] == {"white": None, "black": None}
    summary = json.loads((Path(plan.out) / "report.json").read_text())
    assert summary["games"] == 6
    assert summary["score"] == {k: sum(r["result"] == k for r in records) for k in ("white", "draw", "black")}
    assert sum(summary["termination"].values()) == 6
    assert summary["settings"]["seed"] == 10


def test_parallel_games_equal_serial_games(tmp_path):
    _, serial = run(tmp_path / "one", games=6, jobs=1)
    _, parallel = run(tmp_path / "two", games=6, jobs=2)
    assert [essence(r) for r in serial] == [essence(r) for r in parallel]


def test_a_recorded_game_replays_from_its_seed(tmp_path):
    plan, records = run(tmp_path / "s", white="random", black="random", games=4, seed=7)
    _, replay = run_game(game_task(plan, 0, 3))
    assert essence(replay) == essence(records[3])
    assert replay["seed"] == 10


def test_resume_after_a_truncated_write(tmp_path):
    full, complete = run(tmp_path / "full", games=8)
    broken = tmp_path / "broken"
    broken.mkdir()
    kept = lines(full.out)[:3]
    (broken / RESULTS_FILE).write_text("\n".join(kept) + "\n" + lines(full.out)[3][:40])
    _, resumed = run(broken, games=8, resume=True)
    assert [essence(r) for r in resumed] == [essence(r) for r in complete]
    assert lines(broken)[:3] == kept and len(lines(broken)) == 8
    assert all(json.loads(line) for line in lines(broken))
    ours = json.loads((broken / "report.json").read_text())
    theirs = json.loads((Path(full.out) / "report.json").read_text())
    assert ours["score"] == theirs["score"] and ours["termination"] == theirs["termination"]


def test_run_plans_returns_the_games_each_plan_kept_whatever_it_says(tmp_path):
    """RunResult.kept: per plan, the games an earlier run played (the count the "resuming" line
    says), so a caller of many plans (grade) turns the line off and adds these instead."""
    grown, fresh, whole = (SeriesPlan(out=str(tmp_path / name), white="random", black="dummy", games=games, seed=seed)
                           for name, games, seed in (("grown", 4, 0), ("fresh", 3, 5), ("whole", 3, 9)))
    first = run_plans([grown, whole], RunOptions(jobs=2, progress=False))
    assert first.kept == [0, 0] and [len(r) for r in first.records] == [4, 3]
    grown = SeriesPlan(out=grown.out, white="random", black="dummy", games=6)
    said = []
    again = run_plans([grown, fresh, whole], RunOptions(jobs=2, resume=True, progress=False, say=said.append))
    assert again.kept == [4, 0, 3] and [len(r) for r in again.records] == [6, 3, 3]
    assert said == [f"resuming {grown.out}: 4 games kept, 2 to play", f"resuming {whole.out}: 3 games kept, 0 to play"]
    said.clear()
    quiet = run_plans([grown, fresh, whole], RunOptions(jobs=2, resume=True, progress=False, say=said.append,
                                                        note_kept=False))
    assert quiet.kept == [6, 3, 3] and said == []
    assert quiet.records == again.records
    forced = run_plans([whole], RunOptions(jobs=2, fresh=True, progress=False))
    assert forced.kept == [0] and [essence(r) for r in forced.records[0]] == [essence(r) for r in again.records[2]]


def _processes_mentioning(text):
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline and int(pid) != os.getpid():
            found.append(pid)
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to look for orphans")
def test_resume_after_a_real_kill(tmp_path):
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "harness", "series", "--white", str(HOSTILE / "slow.py"),
               "--black", "dummy", "--games", "6", "--jobs", "2", "--out", str(out), "--quiet"]
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (out / RESULTS_FILE).exists() and len(lines(out)) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = len(read_records(str(out / RESULTS_FILE))[0])
    assert 2 <= done_before < 6
    # the killed run's pool workers and student processes do not outlive it
    deadline = time.monotonic() + 5
    while _processes_mentioning(str(out)) + _processes_mentioning(str(HOSTILE / "slow.py")):
        assert time.monotonic() < deadline, "processes outlived the killed series"
        time.sleep(0.1)
    resumed = subprocess.run(command + ["--resume"], cwd=REPO, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    records, damaged = read_records(str(out / RESULTS_FILE))
    assert sorted(records) == list(range(6)) and damaged == 0 and len(lines(out)) == 6
    # the same games as an uninterrupted run (slow.py plays exactly like clean.py)
    _, uninterrupted = run(tmp_path / "whole", white=str(HOSTILE / "clean.py"), games=6)
    assert [essence(records[i]) for i in range(6)] == [essence(r) for r in uninterrupted]


def test_a_directory_holds_one_series(tmp_path):
    out = tmp_path / "s"
    run(out, games=2)
    first = lines(out)
    with pytest.raises(ResultsError, match="already holds 2 games; add --resume"):
        run(out, games=2)
    with pytest.raises(ResultsError, match="differs in seed"):
        run(out, games=2, seed=5, resume=True)
    with pytest.raises(ResultsError, match="differs in black"):
        run(out, black="random", games=2, resume=True)
    _, records = run(out, games=4, resume=True)          # more games: only the new ones are played
    assert lines(out)[:2] == first and len(lines(out)) == 4
    assert [r["game"] for r in records] == [0, 1, 2, 3]


def test_hostile_files_never_stop_a_series(tmp_path):
    _, crashed = run(tmp_path / "raises", white=str(HOSTILE / "raises.py"), games=3)
    assert [(r["result"], r["reason"]) for r in crashed] == [("black", "crash")] * 3
    _, hung = run(tmp_path / "hang", black=str(HOSTILE / "hang.py"), white="dummy", games=2,
                  move_timeout=1.0)
    assert [(r["result"], r["reason"], r["plies"]) for r in hung] == [("white", "timeout", 1)] * 2
    summary = json.loads((tmp_path / "raises" / "report.json").read_text())
    assert summary["score"] == {"white": 0, "draw": 0, "black": 3}
    assert summary["termination"] == {"crash": 3}
    assert summary["white"]["lost_by"] == {"crash": 3}
    assert summary["white"]["errors"] == ["White: ValueError: boom (raises.py line 5)"]
    assert summary["black"]["errors"] == []


# ----------------------------------------------------------------------------- issue 27: one run per folder, files pinned


def test_a_second_run_into_a_busy_folder_is_refused_at_once(tmp_path):
    out = tmp_path / "busy"
    command = [sys.executable, "-m", "harness", "series", "--white", str(HOSTILE / "slow.py"),
               "--black", "dummy", "--games", "4", "--jobs", "1", "--out", str(out), "--quiet"]
    first = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not ((out / RESULTS_FILE).exists() and lines(out)) and first.poll() is None:
            assert time.monotonic() < deadline, "the first run wrote no game"
            time.sleep(0.05)
        assert first.poll() is None, "the first run ended before the second could meet it"
        other = [sys.executable, "-m", "harness", "series", "--white", "random", "--black", "dummy", "--games", "2",
                 "--out", str(out), "--quiet"]
        second = subprocess.run(other, cwd=REPO, capture_output=True, text=True, timeout=60)
        assert (second.returncode, second.stdout, second.stderr) == (
            2, "", f"error: {out} is in use by another run, process {first.pid}; wait for it to end or "
                   f"choose another --out\n")
        assert first.wait(timeout=120) == 0, first.stderr.read()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    records = [json.loads(line) for line in lines(out)]
    assert sorted(r["game"] for r in records) == [0, 1, 2, 3]          # each game once: nothing mixed in
    settings = json.loads((out / "series.json").read_text())
    assert (settings["white"], settings["games"]) == (str(HOSTILE / "slow.py"), 4)


def test_hold_folder_is_held_by_one_process_and_again_by_the_same(tmp_path):
    from harness.runs.results import check_free, hold_folder
    out = tmp_path / "held"
    with hold_folder(str(out)):
        with hold_folder(str(out)):              # the same process again (series inside its command)
            check_free(str(out))
        assert (out / ".lock").read_text() == f"{os.getpid()}\n"
        holder = subprocess.run([sys.executable, "-c", "import sys; from harness.runs.results import check_free; "
                                 "check_free(sys.argv[1])", str(out)], cwd=REPO, capture_output=True, text=True)
        assert holder.returncode == 1 and holder.stderr.strip().endswith(
            f"ResultsError: {out} is in use by another run, process {os.getpid()}; wait for it to end or choose "
            f"another --out")
    check_free(str(out))                          # let go: free again, the file stays
    again = subprocess.run([sys.executable, "-c", "import sys; from harness.runs.results import check_free; "
                            "check_free(sys.argv[1])", str(out)], cwd=REPO, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr


def test_series_json_records_the_sha256_of_every_agent_file(tmp_path):
    import hashlib
    engine, program = tmp_path / "engine", tmp_path / "player.py"
    engine.write_bytes(b"#!/bin/sh\necho engine\n")
    program.write_text("print('a player')\n")
    sha = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest()
           for path in (str(engine), str(program), str(HOSTILE / "clean.py"))}
    assert SeriesPlan(out=str(tmp_path / "a"), white=str(HOSTILE / "clean.py"), black=f"uci:{engine},nodes=5",
                      games=1).settings()["files"] == {str(HOSTILE / "clean.py"): sha[str(HOSTILE / "clean.py")],
                                                       str(engine): sha[str(engine)]}
    assert SeriesPlan(out=str(tmp_path / "b"), white=f"nthu:{program}", black="baseline1", games=1,
                      variant="nthu").settings()["files"] == {str(program): sha[str(program)]}
    assert "files" not in SeriesPlan(out=str(tmp_path / "c"), white="random", black="dummy", games=1).settings()


def test_a_resume_with_an_edited_agent_file_is_refused(tmp_path, capsys):
    from cli_run import run_cli
    agent, out = tmp_path / "AB.py", tmp_path / "s"
    agent.write_text((HOSTILE / "clean.py").read_text())
    argv = ["series", "--white", str(agent), "--black", "dummy", "--games", "2", "--jobs", "1", "--out", str(out),
            "--quiet", "--no-box"]
    assert run_cli(argv, capsys)[0] == 0
    before = lines(out)
    agent.write_text(agent.read_text() + "# tuned\n")
    code, stdout, err = run_cli(argv[:6] + ["4"] + argv[7:] + ["--resume"], capsys)
    assert (code, stdout, err) == (2, "", f"error: {agent} changed since the series in {out} began (its sha256 "
                                          f"differs); add --force to start it over with the file as it is now, "
                                          f"or choose another --out\n")
    assert lines(out) == before                            # nothing recorded is lost
    assert run_cli(argv + ["--force"], capsys)[0] == 0        # --force: the file as it is now
    settings = json.loads((out / "series.json").read_text())
    assert settings["files"] == {str(agent): __import__("hashlib").sha256(agent.read_bytes()).hexdigest()}


def _sleep(seconds):
    time.sleep(seconds)
    return seconds


def test_a_ctrl_c_python_dropped_still_stops_the_pool_at_once():
    """A Ctrl-C landing while the pool forks its workers is raised inside os.fork's after-fork
    hook, where Python prints it and drops it; the workers die of the same signal. The run must
    stop anyway, not wait for ever on them."""
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2, 2) as run:
            try:
                signal.getsignal(signal.SIGINT)(signal.SIGINT, None)     # Ctrl-C, raised then dropped
            except KeyboardInterrupt:
                pass
            list(run(_sleep, [30, 30]))
    assert time.monotonic() - started < 5
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_json_file_stopped_mid_write_keeps_what_it_held(tmp_path, monkeypatch):
    """Ctrl-C landing while series.json was rewritten used to leave it empty, and the folder
    could no longer be resumed ('series.json is damaged')."""
    import harness.runs.results as results
    path = tmp_path / "series.json"
    results.write_json(str(path), {"games": 6})

    def interrupted(data, handle, **kwargs):
        handle.write('{"games": ')
        raise KeyboardInterrupt
    monkeypatch.setattr(results.json, "dump", interrupted)
    with pytest.raises(KeyboardInterrupt):
        results.write_json(str(path), {"games": 8})
    assert json.loads(path.read_text()) == {"games": 6}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["series.json"]


def test_a_damaged_settings_file_with_no_game_recorded_is_written_afresh(tmp_path):
    out = tmp_path / "s"
    out.mkdir()
    (out / "series.json").write_text("")
    (out / RESULTS_FILE).write_text("")
    result = subprocess.run([sys.executable, "-m", "harness", "series", "--white", "greedy", "--black", "random",
                             "--games", "2", "--out", str(out), "--quiet", "--resume"], cwd=REPO, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads((out / "series.json").read_text())["games"] == 2
    assert len(lines(out)) == 2
    (out / "series.json").write_text("{")                # with games recorded, a damaged file is refused
    result = subprocess.run([sys.executable, "-m", "harness", "series", "--white", "greedy", "--black", "random",
                             "--games", "2", "--out", str(out), "--quiet", "--resume"], cwd=REPO, capture_output=True,
                            text=True)
    assert (result.returncode, result.stderr) == (2, f"error: {out / 'series.json'} is damaged; remove it or use "
                                                     f"another --out\n")
