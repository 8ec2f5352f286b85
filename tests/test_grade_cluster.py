"""grade --variant nthu|congo --cluster: the ladder's games and the Congo parts on a Dask LocalCluster
(two worker processes, loopback only) give the gradebook the local pool gives; every game and part
was done on a worker."""
import json
import os
import subprocess
import sys

import pytest

from harness.runs.cluster import DaskRunner
from harness.grading.congo_class import grade_congo_class
from harness.grading.nthu_class import grade_nthu_class
from tests.congo_classroom import make_congo_class
from tests.nthu_classroom import make_nthu_class

distributed = pytest.importorskip("distributed")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        yield cluster


def test_an_nthu_class_on_the_cluster(scheduler, tmp_path):
    class_dir = make_nthu_class(str(tmp_path / "class"), ["greedy", "segfaults"])
    quiet = dict(move_timeout=1.0, progress="none", say=lambda text: None, build_timeout=60.0)
    local = grade_nthu_class(class_dir, str(tmp_path / "local"), jobs=2, **quiet)
    with DaskRunner(scheduler.scheduler_address) as runner:
        remote = grade_nthu_class(class_dir, str(tmp_path / "remote"), executor=runner, **quiet)
    assert remote["students"] == local["students"]
    assert remote["settings"]["cluster"] == scheduler.scheduler_address
    with open(tmp_path / "remote" / "students" / "greedy" / "games" / "baseline1-white" / "results.jsonl") as f:
        record = json.loads(f.readline())
    assert record["worker"].startswith("tcp://127.0.0.1:")


def test_a_congo_class_on_the_cluster_from_the_command_line(scheduler, tmp_path):
    class_dir = make_congo_class(str(tmp_path / "class"), ["cpp_elephant", "exe_moves"])
    out = str(tmp_path / "out")
    done = subprocess.run([sys.executable, "-m", "harness", "grade", class_dir, "--variant", "congo", "--out", out,
                           "--cases", "7", "--cluster", scheduler.scheduler_address, "--quiet"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with open(os.path.join(out, "gradebook.json")) as handle:
        remote = {row["student"]: row for row in json.load(handle)["students"]}
    local = grade_congo_class(class_dir, str(tmp_path / "local"), count=7, say=lambda text: None)
    assert remote == {row["student"]: row for row in local["students"]}
    assert remote["exe_moves"]["parts"]["moves"] == {"passed": 7, "cases": 7, "build": "ok"}
