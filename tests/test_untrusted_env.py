"""Untrusted processes start with a clean environment (harness/isolation/untrusted_env.py): a token in the
grader's environment reaches neither a student's file (boxed or --no-box) nor a program; and a
file that writes to the harness's channel loses with a reason that says so (issue 34)."""
import json
import os
import stat
import subprocess
import sys
import tempfile

import pytest

from harness.isolation import box
from harness import cli, players
from harness.isolation.sandbox import CHANNEL, well_formed
from harness.isolation.untrusted_env import untrusted_env
from harness.core.variant import WHITE
from harness.variants.nthu import VARIANT
from harness.variants.nthu.program import ProgramAgent

HOSTILE = os.path.join(os.path.dirname(__file__), "fixtures", "hostile")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECRET = "sk-test-123"


@pytest.fixture
def grader_env(monkeypatch):
    """The grader's environment holds a token and a PATH of the TA's own (a process sees the fixed
    one); the locale is fixed so the expected one is known."""
    monkeypatch.setenv("CODEPOST_API_KEY", SECRET)
    monkeypatch.setenv("PATH", "/opt/ta-tools/bin:" + os.environ["PATH"])
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


def one_game(white, tmp_path, capsys, *flags):
    out = tmp_path / "series"
    assert cli.main(["series", "--white", white, "--black", "dummy", "--games", "1", "--max-plies", "4",
                     "--out", str(out), "--progress", "none", "--jobs", "1", *flags]) == 0
    capsys.readouterr()
    with open(out / "results.jsonl") as handle:
        return json.loads(handle.readline())


def environments(printed):
    return [json.loads(line[4:]) for line in printed.splitlines() if line.startswith("ENV ")]


@pytest.mark.parametrize("flags", [(), ("--no-box",)], ids=["boxed", "no-box"])
def test_a_file_sees_none_of_the_graders_environment(grader_env, tmp_path, capsys, flags):
    record = one_game(os.path.join(HOSTILE, "env_reader.py"), tmp_path, capsys, *flags)
    printed = record["printed"]["white"]
    assert SECRET not in printed and "CODEPOST" not in printed
    seen = environments(printed)
    assert len(seen) == 3                 # at import and on each of its two moves
    boxed = not flags and box.bwrap()[0] is not None
    scratch = box.BOX_TMP if boxed else tempfile.gettempdir()
    expected = {**grader_env, "HOME": scratch, "TMPDIR": scratch}
    if boxed:
            expected["PWD"] = box.STUDENT_MOUNT   # bwrap's --chdir: the file's folder at its fixed mount
    for env in seen:
        limits = env.pop(box.ENV, None)
        assert env == expected
        assert (limits is not None) == (not flags)      # the box's settings, and only with the box
        if limits is not None:
            assert json.loads(limits)["as"] == 2048 << 20


@pytest.mark.parametrize("flags", [(), ("--no-box",)], ids=["boxed", "no-box"])
def test_proc_environ_shows_the_token_only_outside_the_box(tmp_path, flags):
    """The environment variables are not the only way in: /proc/PID/environ shows a process's
    environment (as it was started) to any process of the same user. The series is started as a
    TA would start it, with the token in its environment. In the box, /proc is the box's own PID
    namespace: neither the harness nor the grader's shell is there to be read. With --no-box the
    file finds the token in the harness's /proc entry (the limit docs/grading.md states)."""
    if not flags and box.bwrap()[0] is None:
        pytest.skip("bwrap cannot run here: " + box.bwrap()[1])
    out = tmp_path / "series"
    env = {**os.environ, "CODEPOST_API_KEY": SECRET}
    subprocess.run([sys.executable, "-m", "harness", "series", "--white", os.path.join(HOSTILE, "proc_environ.py"),
                    "--black", "dummy", "--games", "1", "--max-plies", "2", "--out", str(out), "--quiet",
                    "--jobs", "1", *flags], cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)
    with open(out / "results.jsonl") as handle:
        printed = json.loads(handle.readline())["printed"]["white"]
    seen, readable = (int(part.split("=")[1]) for part in
                      next(line for line in printed.splitlines() if line.startswith("PROC ")).split()[1:])
    assert seen >= 1 and readable <= seen
    if flags:
        assert f"FOUND CODEPOST_API_KEY={SECRET}" in printed          # the check can see it where it is
    else:
        assert "FOUND" not in printed and SECRET not in printed


def test_a_program_sees_none_of_the_graders_environment(grader_env, tmp_path, monkeypatch):
    program = tmp_path / "player.py"
    program.write_text(f"#!{sys.executable}\n"
                       "import json, os, sys\n"
                       "print('ENV ' + json.dumps(dict(os.environ)))\n"
                       "open(sys.argv[2], 'w').write('4 3 3 3\\n')\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("MINICHESS_NO_PROGRAM_BOX", "1")    # unboxed: the environment alone keeps the token out
    agent = players.make(f"nthu:{program}", "nthu")     # as every command makes it: players hands in the environment
    assert isinstance(agent, ProgramAgent) and agent.contain is None
    agent.start_game(WHITE, 0)
    workdir = agent.workdir
    try:
        move = agent.choose_move(VARIANT.start(), WHITE, None)
    finally:
        agent.close()
    assert VARIANT.move_name(move) == "d2d3"
    assert environments(agent.printed_output()) == [{**grader_env, "HOME": workdir, "TMPDIR": workdir}]


def test_the_environment_is_named_in_one_place(monkeypatch):
    monkeypatch.setenv("CODEPOST_API_KEY", SECRET)
    monkeypatch.setenv("PATH", "/opt/bin:/usr/bin")
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    monkeypatch.delenv("LANG", raising=False)
    assert untrusted_env("/scratch", {"MINICHESS_BOX": "{}"}) == {
        "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "de_DE.UTF-8", "HOME": "/scratch",
        "TMPDIR": "/scratch", "MINICHESS_BOX": "{}"}
    monkeypatch.delenv("PATH")
    assert untrusted_env("/s")["PATH"] == "/usr/local/bin:/usr/bin:/bin"


@pytest.mark.parametrize("flags", [(), ("--no-box",)], ids=["boxed", "no-box"])
def test_junk_on_the_channel_is_named_as_such(tmp_path, capsys, flags):
    record = one_game(os.path.join(HOSTILE, "channel_junk.py"), tmp_path / "move", capsys, *flags)
    assert (record["result"], record["reason"]) == ("black", "crash")
    assert record["error"] == f"White: {CHANNEL}: b'1'"
    record = one_game(os.path.join(HOSTILE, "channel_forged.py"), tmp_path / "import", capsys, *flags)
    assert (record["result"], record["reason"]) == ("black", "crash")
    assert record["error"] == f"White: {CHANNEL}: b'{{}}'"


def test_only_the_workers_own_messages_are_read():
    good_move = {"ok": True, "move": [["d", 1], ["d", 2]], "exact": True, "repr": "(('d', 1), ('d', 2))",
                 "mutated": None, "seconds": 0.1}
    assert well_formed(good_move, "ok")
    assert well_formed({"ok": True, "move": None, "repr": "5", "mutated": {"rows": None}}, "ok")
    assert well_formed({"ok": False, "error": "ValueError: x", "line": 3}, "ok")
    assert well_formed({"ready": True}, "ready") and well_formed({"ready": False, "error": "x"}, "ready")
    for forged in (1, [], {}, {"ok": 1}, {"ready": True}, {**good_move, "move": 5},
                   {**good_move, "move": [["d", "1"], ["d", 2]]}, {**good_move, "mutated": {"rows": 7}},
                   {**good_move, "mutated": {"rows": [[1, 2]]}}, {**good_move, "mutated": []},
                   {**good_move, "repr": 5}, {"ok": False, "error": 3}, {"ok": False, "line": "3"}):
        assert not well_formed(forged, "ok"), forged
    assert not well_formed({"ok": True}, "ready")
