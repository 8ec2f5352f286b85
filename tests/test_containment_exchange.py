"""What the grader reads back from a student's program is hostile input (issue 56, part A):
NTHU's game folder (harness/isolation/exchange.py through harness/variants/nthu/program.py), the
played binary and the rules check (harness/grading/build.py), the build memory budget, the
players' folders after a killed grading. Each attack is a student program of
tests/fixtures/attacks, run boxed as the class grader runs it; each test failed on the code
before the exchange layer (see each test's text for how)."""
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

import pytest

from harness.core.agent import AgentCrash
from harness.core.variant import BLACK, WHITE
from harness.grading import build as building
from harness.grading.nthu_class import grade_nthu_class
from harness.isolation import exchange
from harness.isolation.box import BoxSettings
from harness.isolation.exchange import ExchangeError, Folder
from harness.isolation.untrusted_env import untrusted_env
from harness.players import containment
from harness.variants.nthu import VARIANT
from harness.variants.nthu.program import ProgramAgent
from tests.nthu_classroom import make_nthu_class

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTACKS = os.path.join(ROOT, "tests", "fixtures", "attacks")
SECRET = "ta-secret-7f3c"
VICTIM = b"a classmate's binary, byte for byte\n"
BOX = BoxSettings(memory_mb=1024)


@pytest.fixture
def shown(tmp_path):
    """A folder the box's own user can read (the class folders are), removed after the test."""
    folder = tempfile.mkdtemp(prefix="attack-", dir="/tmp")
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def attacker(folder: str, attack: str, target: str) -> str:
    """tests/fixtures/attacks/nthu/attacker.py with its attack.json in `folder`."""
    path = os.path.join(folder, "attacker.py")
    shutil.copy(os.path.join(ATTACKS, "nthu", "attacker.py"), path)
    with open(os.path.join(folder, "attack.json"), "w") as handle:
        json.dump({"repo": ROOT, "attack": attack, "target": target}, handle)
    for name in ("attacker.py", "attack.json"):
        os.chmod(os.path.join(folder, name), 0o644)
    return path


def boxed_agent(path: str) -> ProgramAgent:
    return ProgramAgent(path, untrusted_env, Folder, timeout=20.0, contain=containment(BOX))


def three_moves(agent: ProgramAgent) -> list:
    """The program's first three moves as White, Black answering with its first legal move."""
    state, moves = VARIANT.start(), []
    agent.start_game(WHITE, 0)
    try:
        for _ in range(3):
            move = agent.choose_move(state, WHITE, None)
            moves.append(VARIANT.move_name(move))
            state = VARIANT.apply(state, move)
            state = VARIANT.apply(state, VARIANT.legal_moves(state)[0])
    finally:
        agent.close()
    return moves


FIRST_MOVES = None


def honest_moves(folder: str) -> list:
    """The same player's three moves with no attack: what every attacker below still plays."""
    global FIRST_MOVES
    if FIRST_MOVES is None:
        os.mkdir(folder, 0o755)
        FIRST_MOVES = three_moves(boxed_agent(attacker(folder, "none", "")))
    return FIRST_MOVES


@pytest.mark.timeout(120)
def test_output_linked_to_a_secret_never_reaches_the_record(shown, tmp_path):
    # old code: after each run the grader opened `output` by path, through the link, and put the
    # secret into printed_output (the record's `printed`)
    secret = tmp_path / "secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    agent = boxed_agent(attacker(shown, "output_secret", str(secret)))
    assert three_moves(agent) == honest_moves(os.path.join(shown, "honest"))
    assert agent.printed_output() == "thinking\n" * 3
    assert SECRET not in agent.printed_output()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("attack", ["output_victim", "state_victim"])
def test_output_or_state_linked_to_a_writable_file_leaves_it_unchanged(shown, tmp_path, attack):
    # old code: the next move opened `output` (its stdout) or `state` (the board) for writing by
    # path, through the link: the victim was overwritten
    victim = tmp_path / "player_submission"
    victim.write_bytes(VICTIM)
    agent = boxed_agent(attacker(shown, attack, str(victim)))
    try:
        moves = three_moves(agent)
    finally:
        assert victim.read_bytes() == VICTIM
    assert moves == honest_moves(os.path.join(shown, "honest"))


GAME = """
import json, sys
sys.path[:0] = [{root!r}, {tests!r}]
from agents.nthu.baselines import Baseline1
from harness.isolation.box import BoxSettings
from harness.isolation.exchange import Folder
from harness.isolation.untrusted_env import untrusted_env
from harness.players import containment
from harness.variants.nthu.program import ProgramAgent
from nthu_boards import play
agent = ProgramAgent({path!r}, untrusted_env, Folder, timeout=20.0, contain=containment(BoxSettings(memory_mb=1024)))
record = play(agent, Baseline1())
print(json.dumps({{k: record.get(k) for k in ("result", "reason", "plies", "error")}}))
"""


def play_limited(path: str) -> dict:
    """One game of the program against baseline1 in a process of at most 1 GiB of address
    space and 60 s: a grader that reads for ever fails here, never the test machine."""
    code = GAME.format(root=ROOT, tests=os.path.join(ROOT, "tests"), path=path)
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))"
    finished = subprocess.run([sys.executable, "-c", code],
                              preexec_fn=lambda: exec(limit), capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr[-2000:]
    return json.loads(finished.stdout.splitlines()[-1])


@pytest.mark.timeout(90)
@pytest.mark.parametrize("attack, what", [("action_fifo", "'action' is a FIFO, not a regular file: not read"),
                                          ("action_dev_zero", "'action' is a symbolic link, not a regular file: not read")])
def test_action_as_a_fifo_or_dev_zero_is_the_attacker_s_loss_with_its_reason(shown, attack, what):
    # old code: open("action") of a FIFO waited for a writer for ever (here: killed at 60 s); a
    # read of /dev/zero grew until memory ran out (here: MemoryError at 1 GiB)
    record = play_limited(attacker(shown, attack, ""))
    assert (record["result"], record["reason"], record["plies"]) == ("black", "crash", 0)
    assert record["error"] == f"White: the program's {what}"


def test_the_exchange_refuses_what_is_not_a_small_regular_file(tmp_path):
    folder = Folder("exchange-test-")
    try:
        os.mkfifo(os.path.join(folder.path, "fifo"))
        os.mkdir(os.path.join(folder.path, "dir"))
        with open(os.path.join(folder.path, "big"), "wb") as handle:
            handle.write(b"1 2 3 4\n" * 200)
        os.link(os.path.join(folder.path, "big"), os.path.join(folder.path, "hard"))
        problems = {}
        for name in ("fifo", "dir", "big", "hard"):
            try:
                folder.read_back(name, 1000)
            except ExchangeError as exc:
                problems[name] = str(exc)
        assert problems == {"fifo": "'fifo' is a FIFO, not a regular file: not read",
                            "dir": "'dir' is a folder, not a regular file: not read",
                            "big": "'big' is a hard link to another file: not read",
                            "hard": "'hard' is a hard link to another file: not read"}
        os.remove(os.path.join(folder.path, "hard"))
        with pytest.raises(ExchangeError, match="'big' holds 1600 bytes, more than the 1000 read"):
            folder.read_back("big", 1000)
        assert folder.read_back("missing", 10) is None
        target = tmp_path / "victim"
        target.write_text("victim")
        os.symlink(str(target), os.path.join(folder.path, "state"))
        os.mkdir(os.path.join(folder.path, "action"))
        folder.remove("action")
        folder.hand_over("state", b"board")
        assert target.read_text() == "victim"
        assert not os.path.islink(os.path.join(folder.path, "state"))
        assert folder.read_back("state", 10) == b"board"
        assert sorted(os.listdir(folder.path)) == ["big", "dir", "fifo", "state"]
    finally:
        folder.close()
    assert not os.path.exists(folder.path)


def test_a_program_that_made_a_folder_of_its_own_unreadable_is_still_removed():
    folder = Folder("exchange-test-")
    inner = os.path.join(folder.path, "state", "deep")
    os.makedirs(inner)
    open(os.path.join(inner, "file"), "w").close()
    os.chmod(inner, 0)
    os.chmod(os.path.join(folder.path, "state"), 0)
    folder.hand_over("state", b"x")
    assert folder.read_back("state", 10) == b"x"
    folder.close()
    assert not os.path.exists(folder.path)


# ----------------------------------------------------------------------------- builds


def repository(folder: str, attack: str, **fill) -> str:
    """A repository of the course's layout (our template) with the attack's Makefile."""
    repo = os.path.join(folder, attack)
    make_nthu_class(folder, ["greedy"])
    os.rename(os.path.join(folder, "greedy"), repo)
    with open(os.path.join(ATTACKS, "builds", attack, "Makefile")) as handle:
        text = handle.read()
    for key, value in fill.items():
        text = text.replace(f"@{key}@", value)
    with open(os.path.join(repo, "Makefile"), "w") as handle:
        handle.write(text)
    return repo


@pytest.mark.timeout(120)
def test_a_binary_linked_outside_the_repository_is_a_failed_build_never_played(tmp_path):
    # old code: os.path.isfile followed the link to the TA's binary: build ok, the link played
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    binary = private / "ta_player"
    binary.write_text("#!/bin/sh\necho 0 0 0 0 > $2\n")
    binary.chmod(0o750)
    repo = repository(str(tmp_path / "class"), "linked_binary", TARGET=str(binary))
    result = building.build(repo, str(tmp_path / "copy"), BOX, timeout=60.0)
    assert (result["build"], result["binary"]) == ("failed", None)
    assert result["errors"][0] == "build/player_submission is a symbolic link, not a file the build made: not played"


@pytest.mark.timeout(120)
def test_a_build_folder_linked_outside_the_repository_is_a_failed_build(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "player_submission").write_text("#!/bin/sh\n")
    repo = repository(str(tmp_path / "class"), "linked_build_folder", TARGET=str(elsewhere))
    result = building.build(repo, str(tmp_path / "copy"), BOX, timeout=60.0)
    assert (result["build"], result["binary"]) == ("failed", None)
    assert result["errors"][0] == ("build/player_submission lies outside the repository (its build folder is a "
                                   "link): not played")


def test_recipe_paths_outside_the_repository_are_rules_problems_never_read(tmp_path):
    # old code: recipe_sources kept /abs/outside.cpp (os.path.join drops the repository) and the
    # rules check read it: its system() call became a problem of "/tmp/.../outside.cpp"
    outside = tmp_path / "outside.cpp"
    outside.write_text('#include <cstdlib>\nint f() { return system("id"); }\n')
    repo = repository(str(tmp_path / "class"), "outside_recipe", OUTSIDE=str(outside))
    shutil.copy(str(outside), os.path.join(os.path.dirname(repo), "outside.cpp"))
    os.remove(os.path.join(repo, "src", "state", "state.cpp"))
    os.symlink(str(outside), os.path.join(repo, "src", "state", "state.cpp"))
    problems = building.check_rules(repo)
    assert problems == [
        f"Makefile:2: the submission recipe compiles {outside}, outside the repository",
        "Makefile:2: the submission recipe compiles ../outside.cpp, outside the repository",
        "src/state/state.cpp: 'src/state/state.cpp' is a link leading outside the repository: not read"]


def test_the_build_memory_is_one_budget_across_the_builds_at_once():
    assert building.build_memory(1, 16384) == (4096, 1)
    assert building.build_memory(2, 16384) == (4096, 2)
    assert building.build_memory(4, 8192) == (2048, 4)
    assert building.build_memory(8, 4096) == (1024, 4)     # fewer builds at once, each MIN_BUILD_MB
    assert building.build_memory(3, 500) == (1024, 1)


# ----------------------------------------------------------------------------- the class


ATTACKER_MAKEFILE = """submission:
\tcp src/attacker.py build/player_submission
\tchmod +x build/player_submission
"""
ATTACKER = """#!{python}
# writes its first legal move; on its first move plants `output` and `state` as links to the
# classmate's binary (the old grader wrote through them on its second move)
import os, sys
sys.path.insert(0, {root!r})
from harness.variants.nthu import VARIANT, State, course_move
from harness.variants.nthu.files import parse_state
board, side = parse_state(open(sys.argv[1]).read())
for name in ("output", sys.argv[1]):
    if os.path.lexists(name):
        os.remove(name)
    os.symlink({victim!r}, name)
move = VARIANT.legal_moves(State(board, side, 0))[0]
open(sys.argv[2], "w").write(" ".join(map(str, course_move(move))) + "\\n")
"""
QUIET = dict(move_timeout=2.0, jobs=2, progress="none", say=lambda text: None, build_timeout=60.0)


def comparable(row: dict) -> dict:
    return {key: row[key] for key in ("build", "baselines", "points", "all_eight")}


@pytest.mark.timeout(600)
def test_an_honest_classmate_s_grade_is_the_same_with_the_attacker_in_the_class(tmp_path):
    alone = make_nthu_class(str(tmp_path / "alone"), ["greedy"])
    together = make_nthu_class(str(tmp_path / "together"), ["greedy"])
    out = str(tmp_path / "out")
    victim = os.path.join(out, "students", "greedy", "repo", "build", "player_submission")
    bad = os.path.join(together, "attacker")
    shutil.copytree(os.path.join(together, "greedy"), bad)
    with open(os.path.join(bad, "Makefile"), "w") as handle:
        handle.write(ATTACKER_MAKEFILE)
    with open(os.path.join(bad, "src", "attacker.py"), "w") as handle:
        handle.write(ATTACKER.format(python=os.path.realpath(sys.executable), root=ROOT, victim=victim))
    expected = {r["student"]: r for r in grade_nthu_class(alone, str(tmp_path / "out_alone"), **QUIET)["students"]}
    graded = {r["student"]: r for r in grade_nthu_class(together, out, **QUIET)["students"]}
    assert comparable(graded["greedy"]) == comparable(expected["greedy"])
    assert graded["greedy"]["points"] >= 1
    assert graded["attacker"]["build"] == "ok"
    with open(victim, "rb") as handle:
        assert handle.read(4) == b"\x7fELF"


# ----------------------------------------------------------------------------- a killed grading


SLEEPER_MAKEFILE = """submission:
\tprintf '#!/bin/sh\\nsleep 60\\n' > build/player_submission
\tchmod +x build/player_submission
"""


@pytest.mark.timeout(180)
def test_a_grading_killed_by_sigterm_leaves_no_player_folder(tmp_path):
    # old code: the players' nthu-player-* folders were left in the temporary folder
    classroom = make_nthu_class(str(tmp_path / "class"), ["greedy"])
    with open(os.path.join(classroom, "greedy", "Makefile"), "w") as handle:
        handle.write(SLEEPER_MAKEFILE)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    stale = temporary / f"{exchange.RUN_PREFIX}999999999-x"      # a run killed outright before
    (stale / "nthu-player-old").mkdir(parents=True)
    env = {**os.environ, "TMPDIR": str(temporary), "PYTHONPATH": ROOT}
    env.pop(exchange.RUN_ENV, None)
    proc = subprocess.Popen([sys.executable, "-m", "harness", "grade", classroom, "--variant", "nthu", "--out",
                             str(tmp_path / "out"), "--move-timeout", "30", "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not any(name.startswith("nthu-player-") for _, dirs, _ in os.walk(temporary) for name in dirs
                      if name != "nthu-player-old"):
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "no game started"
            time.sleep(0.2)
        assert not stale.exists()                   # swept when the grading started
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    left = [os.path.join(where, name) for where, dirs, _ in os.walk(temporary) for name in dirs]
    assert left == []


def test_the_player_s_folder_is_under_the_run_s_folder_and_gone_with_it():
    with exchange.run_folder() as parent:
        folder = Folder("nthu-player-")
        assert os.path.dirname(folder.path) == parent
        assert stat.S_IMODE(os.stat(parent).st_mode) == 0o700
    assert not os.path.exists(parent)
    assert exchange.RUN_ENV not in os.environ
    folder.close()


@pytest.mark.timeout(60)
def test_a_crash_of_the_exchange_is_the_program_s_fault_not_the_grader_s(shown):
    # the agent turns the exchange's refusal into AgentCrash: the referee scores it as a loss
    agent = ProgramAgent(attacker(shown, "action_fifo", ""), untrusted_env, Folder, timeout=20.0)
    agent.start_game(BLACK, 0)
    try:
        state = VARIANT.apply(VARIANT.start(), VARIANT.legal_moves(VARIANT.start())[0])
        with pytest.raises(AgentCrash, match="^the program's 'action' is a FIFO, not a regular file: not read$"):
            agent.choose_move(state, BLACK, None)
    finally:
        agent.close()



# ----------------------------------------------------------------------------- a UCI engine's pipe


@pytest.mark.timeout(150)
@pytest.mark.parametrize("mode, said", [("endless_line", "a line longer than 65536"),
                                        ("flood", "more than 16777216")])
def test_an_engine_printing_without_end_is_a_crash_not_the_grader_s_memory(mode, said):
    # old code: the line (or the info lines) piled up in the grader until the 60 s timeout
    from agents.uci import UciAgent
    from harness.variants.cs3243.game import CRASH, Game
    from harness.core.referee import play_game
    from agents import make_agent
    engine = UciAgent(os.path.join(ROOT, "tests", "fixtures", f"fake_uci_{mode}.py"), nodes=10, timeout=60)
    white = make_agent("random")
    try:
        record = play_game(white, engine, 0, Game())
    finally:
        white.close()
        engine.close()
    assert (record["result"], record["reason"]) == ("white", CRASH)
    assert f"printed {said} characters while waiting for bestmove" in record["error"]


# ----------------------------------------------------------------------------- the CS3243 worker's channel


@pytest.mark.timeout(120)
def test_a_file_flooding_the_channel_is_a_crash_read_no_further_than_the_cap(tmp_path, capsys):
    # old code: the reply buffer kept all 8 MiB, then failed on the junk: "...: b'xxxx...'"
    from harness import cli
    from harness.isolation.sandbox import CHANNEL, REPLY_LIMIT
    out = tmp_path / "series"
    white = os.path.join(ATTACKS, "cs3243", "channel_flood.py")
    assert cli.main(["series", "--white", white, "--black", "dummy", "--games", "1", "--max-plies", "4",
                     "--out", str(out), "--progress", "none", "--jobs", "1"]) == 0
    capsys.readouterr()
    record = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert (record["result"], record["reason"]) == ("black", "crash")
    assert record["error"] == f"White: {CHANNEL}: more than {REPLY_LIMIT} bytes without a line end"
