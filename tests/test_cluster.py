"""--cluster: games on a Dask LocalCluster (two worker processes, loopback only) give the same
games as the local pool, appended the same way, each record naming its worker."""
import json
import os

import pytest

from harness import cli
from harness.isolation.box import BoxSettings
from harness.runs.cluster import ClusterError, DaskRunner
from harness.runs.series import RunOptions, SeriesPlan, run_plans
from tests.classroom import FIXTURES, ROOT

distributed = pytest.importorskip("distributed")
CLEAN = os.path.join(FIXTURES, "hostile", "clean.py")


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        yield cluster


def plans(out):
    return [SeriesPlan(out=os.path.join(out, "a"), white=CLEAN, black="greedy", games=3,
                       box=BoxSettings().to_dict()),
            SeriesPlan(out=os.path.join(out, "b"), white="random", black="smart", games=2, seed=7)]


def test_the_cluster_plays_the_same_games_as_the_local_pool(scheduler, tmp_path):
    local = run_plans(plans(str(tmp_path / "local")), RunOptions(jobs=2, progress="none")).records
    with DaskRunner(scheduler.scheduler_address) as runner:
        remote = run_plans(plans(str(tmp_path / "remote")), RunOptions(progress="none", executor=runner)).records
    workers = set(scheduler.scheduler_info["workers"])
    for mine, theirs in zip(local, remote):
        assert [r["moves"] for r in mine] == [r["moves"] for r in theirs]
        assert [(r["game"], r["seed"], r["result"], r["reason"]) for r in mine] == [
            (r["game"], r["seed"], r["result"], r["reason"]) for r in theirs]
        assert {r["worker"] for r in mine} == {"local"}
        assert {r["worker"] for r in theirs} <= workers
    with open(tmp_path / "remote" / "a" / "results.jsonl") as handle:
        assert sorted(json.loads(line)["game"] for line in handle) == [0, 1, 2]


def test_series_and_resume_on_the_cluster(scheduler, tmp_path, capsys):
    argv = ["series", "--white", "random", "--black", "greedy", "--games", "2", "--out", str(tmp_path),
            "--cluster", scheduler.scheduler_address, "--progress", "none"]
    assert cli.main(argv) == 0
    with open(tmp_path / "results.jsonl") as handle:
        first = handle.read()
    assert cli.main(argv[:-2] + ["--games", "3", "--resume", "--progress", "none"]) == 0
    with open(tmp_path / "results.jsonl") as handle:
        lines = handle.read()
    assert lines.startswith(first) and len(lines.splitlines()) == 3
    capsys.readouterr()


def test_an_unreachable_scheduler_is_one_line():
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        DaskRunner("tcp://127.0.0.1:9", timeout=1)


def test_a_class_graded_on_the_cluster_gets_the_local_gradebook(scheduler, tmp_path):
    from harness.grading.grade import ClassGradeSettings, grade_class
    from tests.classroom import make_class
    class_dir = make_class(str(tmp_path / "class"), ab=False)
    run = dict(games=1, opponents=("dummy",), progress="none", say=lambda text: None)
    local = grade_class(class_dir, str(tmp_path / "local"), ClassGradeSettings(jobs=2, **run))
    with DaskRunner(scheduler.scheduler_address) as runner:
        remote = grade_class(class_dir, str(tmp_path / "remote"), ClassGradeSettings(executor=runner, **run))

    def rows(book):
        return [{k: v for k, v in row.items() if k != "max_game_seconds"} for row in book["students"]]
    assert rows(remote) == rows(local)
    assert remote["settings"]["cluster"] == scheduler.scheduler_address and local["settings"]["cluster"] is None
    with open(tmp_path / "remote" / "students" / "clean" / "dummy" / "results.jsonl") as handle:
        assert json.loads(handle.readline())["worker"] in scheduler.scheduler_info["workers"]


@pytest.mark.parametrize("address, problem", [
    ("foo", "'foo' is not a scheduler address: expected tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"),
    ("tcp://localhost", "'tcp://localhost' is not a scheduler address: expected tcp://HOST:PORT "
                        "(e.g. tcp://127.0.0.1:8786)"),
    ("http://127.0.0.1:8786", "'http://127.0.0.1:8786': only tcp:// scheduler addresses are supported"),
    ("tcp://127.0.0.1:99999", "'tcp://127.0.0.1:99999': port 99999 is not between 1 and 65535"),
])
def test_a_mistyped_address_is_one_line_before_anything_runs(address, problem, tmp_path, capsys):
    from cli_run import run_cli
    code, out, err = run_cli(["series", "--white", "random", "--black", "dummy", "--games", "1", "--out",
                              str(tmp_path / "s"), "--cluster", address], capsys)
    assert (code, out, err) == (2, "", f"python -m harness series: error: argument --cluster: {problem}\n")
    assert not (tmp_path / "s").exists()


@pytest.fixture
def listener():
    """A loopback port that accepts connections and then says nothing, or only rubbish."""
    import socket
    import threading
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    state = {"reply": b"", "open": []}

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            state["open"].append(conn)
            if state["reply"]:
                conn.sendall(state["reply"])
    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1], state
    server.close()
    for conn in state["open"]:
        conn.close()


@pytest.mark.parametrize("reply, message", [
    (b"", "cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: no answer within 3 s"),
    (b"HTTP/1.1 400 Bad Request\r\n\r\n" * 50, "what answers at tcp://127.0.0.1:{port} is not a Dask scheduler"),
], ids=["silent", "rubbish"])
def test_a_port_without_a_scheduler_is_one_line_and_nothing_after(listener, reply, message, tmp_path):
    """The command gives up within the probe's 3 s (a Client would wait for ever on a silent port,
    then hang 20 s in its clean-up and print a traceback)."""
    import subprocess
    import sys
    port, state = listener
    state["reply"] = reply
    result = subprocess.run([sys.executable, "-m", "harness", "series", "--white", "random", "--black", "dummy",
                             "--games", "1", "--out", str(tmp_path / "s"), "--cluster", f"tcp://127.0.0.1:{port}"],
                            cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", "error: " + message.format(port=port) + "\n")
