"""`nthu:PATH` (harness/variants/nthu/program.py) against a fake protocol player written here,
and the player that export-nthu writes, run through it in real games."""
import json
import os
import stat
import sys
import time

import pytest

from agents.nthu.baselines import Baseline1, Baseline2
from harness import players
from harness.core.agent import AgentCrash, AgentError, AgentTimeout
from harness.core.variant import WHITE
from harness.isolation.exchange import Folder
from harness.isolation.untrusted_env import untrusted_env
from harness.variants.nthu import VARIANT
from harness.variants.nthu.export import export_nthu
from harness.variants.nthu.files import read_action
from harness.variants.nthu.program import ProgramAgent, program_agent

from nthu_boards import play, position

FAKE = """#!{python}
import signal, sys, time
with open(sys.argv[1]) as f, open({seen!r}, "w") as copy:
    copy.write(f.read())
out = open(sys.argv[2], "w")
def write(text):
    out.write(text)
    out.flush()
{body}
"""


def fake(tmp_path, body):
    """A protocol player that copies its state file to tmp_path/seen, then runs `body`."""
    path = tmp_path / "player.py"
    path.write_text(FAKE.format(python=sys.executable, seen=str(tmp_path / "seen"), body=body))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def ask(path, state=None, timeout=10.0, grace=1.0):
    agent = ProgramAgent(path, untrusted_env, Folder, timeout=timeout, grace=grace)
    agent.start_game(WHITE, 0)
    try:
        answer = agent.choose_move(state or VARIANT.start(), WHITE, None)
    finally:
        agent.close()
    return answer, agent


def test_the_player_is_shown_the_state_file_as_the_runner_writes_it(tmp_path):
    ask(fake(tmp_path, 'write("4 3 3 3\\n")'))
    assert (tmp_path / "seen").read_text() == VARIANT.state_text(VARIANT.start())


def test_several_moves_the_last_counts_and_the_count_is_the_depth(tmp_path):
    answer, agent = ask(fake(tmp_path, 'write("4 0 3 0\\n")\nwrite("4 1 3 1\\n")\nwrite("4 3 3 3\\n")'))
    assert (VARIANT.move_name(answer), agent.depths) == ("d2d3", [3])


def test_a_partial_last_group_is_ignored(tmp_path):
    answer, agent = ask(fake(tmp_path, 'write("4 0 3 0\\n4 1 3")'))
    assert (VARIANT.move_name(answer), agent.depths) == ("a2a3", [1])


def test_nothing_written_is_a_crash_with_the_exit_status(tmp_path):
    with pytest.raises(AgentCrash) as e:
        ask(fake(tmp_path, "pass"))
    assert str(e.value) == "wrote no complete move (exit status 0)"


def test_garbage_is_no_move(tmp_path):
    with pytest.raises(AgentCrash) as e:
        ask(fake(tmp_path, 'write("d2d3\\n")'))
    assert str(e.value) == "wrote no complete move (exit status 0)"


def test_the_program_runs_with_the_environment_it_is_handed_and_nothing_else(tmp_path):
    handed = []

    def environment(workdir):
        handed.append(workdir)
        return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": workdir, "HANDED": "yes"}

    path = fake(tmp_path, 'import json, os\nprint("ENV " + json.dumps(dict(os.environ)))\nwrite("4 3 3 3\\n")')
    agent = ProgramAgent(path, environment, Folder)
    agent.start_game(WHITE, 0)
    workdir = agent.workdir
    try:
        move = agent.choose_move(VARIANT.start(), WHITE, None)
    finally:
        agent.close()
    assert VARIANT.move_name(move) == "d2d3"
    assert handed == [workdir]
    seen = [json.loads(line[4:]) for line in agent.printed_output().splitlines() if line.startswith("ENV ")]
    assert seen == [{"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": workdir, "HANDED": "yes"}]


def test_an_illegal_move_is_returned_as_its_numbers_and_the_referee_scores_it(tmp_path):
    answer, _ = ask(fake(tmp_path, 'write("4 3 2 3\\n")'))       # d2d4: no double step
    assert answer == "4 3 2 3"
    record = play(ProgramAgent(fake(tmp_path, 'write("4 3 2 3\\n")'), untrusted_env, Folder), Baseline1())
    assert (record["result"], record["reason"], record["plies"]) == ("black", "illegal_move", 0)


def test_a_square_off_the_board_is_an_illegal_move(tmp_path):
    answer, _ = ask(fake(tmp_path, 'write("9 9 9 9\\n")'))
    assert answer == "9 9 9 9"
    assert VARIANT.protocol.read(VARIANT.start(), answer) is None


def test_a_player_stopped_at_the_limit_keeps_the_move_it_wrote(tmp_path):
    answer, agent = ask(fake(tmp_path, 'write("4 3 3 3\\n")\ntime.sleep(60)'), timeout=0.5)
    assert (VARIANT.move_name(answer), agent.depths, agent.timed_out) == ("d2d3", [1], [True])


def test_a_player_stopped_at_the_limit_without_a_move_times_out(tmp_path):
    with pytest.raises(AgentTimeout) as e:
        ask(fake(tmp_path, "time.sleep(60)"), timeout=0.5)
    assert str(e.value) == "wrote no complete move within 0.5 s"


def test_a_player_that_ignores_sigterm_is_killed_after_the_grace(tmp_path):
    body = 'signal.signal(signal.SIGTERM, signal.SIG_IGN)\nwrite("4 3 3 3\\n")\ntime.sleep(60)'
    started = time.monotonic()
    answer, agent = ask(fake(tmp_path, body), timeout=0.5, grace=0.5)
    assert (VARIANT.move_name(answer), agent.timed_out) == ("d2d3", [True])
    assert time.monotonic() - started < 30          # not the 60 s it asked for


def test_a_crash_without_a_move_names_the_last_lines_it_printed(tmp_path):
    with pytest.raises(AgentCrash) as e:
        ask(fake(tmp_path, "1 / 0"))
    assert str(e.value) == (f'wrote no complete move (exit status 1): File "{tmp_path / "player.py"}", line 9, in '
                            "<module> | 1 / 0 | ZeroDivisionError: division by zero")


def test_a_crash_after_much_output_still_names_its_error(tmp_path):
    # what it printed first fills the kept output (OUTPUT_LIMIT): the fault message reads the end
    with pytest.raises(AgentCrash) as e:
        ask(fake(tmp_path, 'print(("x" * 99 + "\\n") * 300, end=""); sys.stderr.flush(); sys.stdout.flush()\n'
                           'raise MemoryError("the tree is too big")'))
    assert str(e.value).endswith("| MemoryError: the tree is too big")


def test_a_crash_after_a_valid_move_keeps_the_move_the_exit_status_is_not_checked(tmp_path):
    answer, _ = ask(fake(tmp_path, 'write("4 3 3 3\\n")\n1 / 0'))
    assert VARIANT.move_name(answer) == "d2d3"


def test_a_missing_program_is_a_one_line_agent_error(tmp_path):
    with pytest.raises(AgentError) as e:
        program_agent(f"{tmp_path}/nope", untrusted_env, Folder)
    assert str(e.value) == f"program '{tmp_path}/nope' does not exist"
    with pytest.raises(AgentError) as e:                  # the spec names no program at all
        players.make("nthu:", "nthu")
    assert str(e.value) == "'nthu:' is not nthu:PATH"


def test_the_depths_are_kept_move_by_move_over_a_game(tmp_path):
    # a player that always writes its first legal move twice (depth 2)
    body = """
from harness.variants.nthu.files import parse_state
from harness.variants.nthu.core import moves
board, side = parse_state(open(sys.argv[1]).read())
s, t = moves(board, side)[0]
write("%d %d %d %d\\n" % (*divmod(s, 5), *divmod(t, 5)) * 2)
"""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = fake(tmp_path, f"sys.path.insert(0, {root!r})\n" + body)
    agent = ProgramAgent(path, untrusted_env, Folder)
    record = play(agent, Baseline1())
    assert record["error"] is None
    assert agent.depths == [2] * ((record["plies"] + 1) // 2)


# -- the exported player ----------------------------------------------------------------------

def test_the_exported_player_uses_the_standard_library_only(tmp_path):
    out = export_nthu("ab", str(tmp_path / "player"), seconds=0.2)
    text = open(out).read()
    assert text.startswith("#!/usr/bin/env python3\n")
    assert os.access(out, os.X_OK)
    imports = sorted({line.split()[1] for line in text.splitlines() if line.startswith(("import ", "from "))})
    assert imports == ["random", "re", "sys", "time"]


def test_export_refuses_an_agent_it_cannot_write(tmp_path):
    with pytest.raises(ValueError) as e:
        export_nthu("baseline4", str(tmp_path / "p"))
    assert str(e.value) == "cannot export 'baseline4': export-nthu writes one of ab, mcts, nnue"


def test_the_exported_player_takes_a_hanging_queen_writing_a_move_per_depth(tmp_path):
    out = export_nthu("ab", str(tmp_path / "player"), seconds=0.3)
    (tmp_path / "state").write_text(VARIANT.state_text(position(c3="N", a1="K", e6="k", d5="q")))
    os.system(f"cd {tmp_path} && {out} state action")
    group, depth = read_action((tmp_path / "action").read_text())
    assert group == (3, 2, 1, 3)          # c3 -> d5
    assert depth >= 2


def test_the_exported_player_plays_a_whole_game_through_the_program_agent(tmp_path):
    out = export_nthu("ab", str(tmp_path / "player"), seconds=0.3)
    agent = program_agent(out, untrusted_env, Folder)
    record = play(agent, Baseline2())
    assert record["error"] is None
    assert record["result"] == "white"
    assert all(d >= 1 for d in agent.depths) and len(agent.depths) == (record["plies"] + 1) // 2
