"""--cluster: games on a Dask LocalCluster (two worker processes, loopback only) give the same
games as the local pool, appended the same way, each record naming its worker."""
import json
import os

import pytest

from harness import cli
from harness.box import BoxSettings
from harness.cluster import ClusterError, DaskRunner
from harness.series import SeriesPlan, run_plans
from tests.classroom import FIXTURES

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
    local = run_plans(plans(str(tmp_path / "local")), jobs=2, progress="none")
    with DaskRunner(scheduler.scheduler_address) as runner:
        remote = run_plans(plans(str(tmp_path / "remote")), progress="none", executor=runner)
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
    from harness.grade import grade_class
    from tests.classroom import make_class
    class_dir = make_class(str(tmp_path / "class"), ab=False)
    run = dict(games=1, opponents=("dummy",), progress="none", say=lambda text: None)
    local = grade_class(class_dir, str(tmp_path / "local"), jobs=2, **run)
    with DaskRunner(scheduler.scheduler_address) as runner:
        remote = grade_class(class_dir, str(tmp_path / "remote"), executor=runner, **run)

    def rows(book):
        return [{k: v for k, v in row.items() if k != "max_game_seconds"} for row in book["students"]]
    assert rows(remote) == rows(local)
    assert remote["settings"]["cluster"] == scheduler.scheduler_address and local["settings"]["cluster"] is None
    with open(tmp_path / "remote" / "students" / "clean" / "dummy" / "results.jsonl") as handle:
        assert json.loads(handle.readline())["worker"] in scheduler.scheduler_info["workers"]
