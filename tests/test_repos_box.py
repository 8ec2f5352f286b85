"""A student's repository is fetched in the box (issue 59): a file:// repository cloned and fetched
again boxed, and a source that leans on a folder the box does not show cannot be read."""
import os
import subprocess

import pytest

from harness.grading import repos
from harness.isolation.box import BoxSettings, bwrap

BOX = BoxSettings(memory_mb=1024, file_mb=500)


def git(folder, *args):
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "-c", "user.name=s", "-c", "user.email=s@x", *args], cwd=folder, env=env, check=True,
                   capture_output=True)


def make_repo(folder, files):
    os.makedirs(folder)
    git(folder, "init", "-q", "-b", "main")
    for name, text in files.items():
        with open(os.path.join(folder, name), "w") as handle:
            handle.write(text)
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "one")
    return folder


def test_a_file_url_is_fetched_boxed_and_fetched_again(tmp_path):
    source = make_repo(str(tmp_path / "alice"), {"main.cpp": "int main() { return 0; }\n"})
    folder = str(tmp_path / "out" / "repos" / "alice")
    settings = repos.FetchSettings(box=BOX)
    assert repos.fetch("file://" + source, folder, settings, False) == "cloned"
    assert repos.fetch("file://" + source, folder, settings, True) == "unchanged"
    git(source, "commit", "-q", "--allow-empty", "-m", "two")
    assert repos.fetch("file://" + source, folder, settings, True) == "fetched"
    assert len(repos.head_commits(folder)) == 2
    repos.extract(folder, repos.head_commits(folder)[0][0], settings)
    with open(os.path.join(folder, "main.cpp")) as handle:
        assert handle.read() == "int main() { return 0; }\n"
    # what the box's own user fetched is the grader's again, the configuration this module's
    for where, dirs, names in os.walk(os.path.join(folder, ".git")):
        for name in dirs + names:
            assert os.lstat(os.path.join(where, name)).st_uid == os.geteuid()
    with open(os.path.join(folder, ".git", "config")) as handle:
        assert handle.read() == "[core]\n\trepositoryformatversion = 0\n\tbare = true\n"


@pytest.mark.skipif(bwrap()[0] is None, reason="bubblewrap cannot run here: the fetch falls back to limits")
def test_the_box_shows_the_fetch_only_the_source_folder(tmp_path):
    """A repository whose objects lie in another folder (git's alternates, as `clone --shared`
    leaves them): on the host (--no-box) git follows the path and the clone succeeds; in the box
    that folder does not exist, so the clone fails and nothing is left."""
    elsewhere = make_repo(str(tmp_path / "elsewhere"), {"a.txt": "secret\n"})
    subprocess.run(["git", "clone", "-q", "--shared", elsewhere, str(tmp_path / "student")], check=True,
                   capture_output=True)
    url = "file://" + str(tmp_path / "student")
    unboxed = str(tmp_path / "out-host" / "student")
    assert repos.fetch(url, unboxed, repos.FetchSettings(), False) == "cloned"
    assert len(repos.head_commits(unboxed)) == 1
    boxed = str(tmp_path / "out" / "repos" / "student")
    with pytest.raises(repos.RepoError, match=r"^cannot clone file://.*student: "):
        repos.fetch(url, boxed, repos.FetchSettings(box=BOX), False)
    assert not os.path.exists(boxed)


@pytest.mark.skipif(bwrap()[0] is None, reason="bubblewrap cannot run here: the fetch falls back to limits")
def test_the_fetch_writes_nothing_outside_its_folder(tmp_path):
    """A clone told (by a crafted argument list) to write beside its folder cannot: the box binds
    only OUT/repos/NAME writable."""
    source = make_repo(str(tmp_path / "bob"), {"a.txt": "b\n"})
    folder = str(tmp_path / "out" / "repos" / "bob")
    os.makedirs(folder)
    beside = str(tmp_path / "out" / "repos" / "carol")
    status, _, err = repos.fetching(["clone", "--bare", "--quiet", "--", "file://" + source, beside],
                                    "file://" + source, folder, repos.FetchSettings(box=BOX))
    # in the box that path lies in its private /tmp (OUT is not there): written there, gone with the box
    assert not os.path.exists(beside) and os.listdir(os.path.dirname(folder)) == ["bob"]
    status, _, err = repos.fetching(["clone", "--bare", "--quiet", "--", "file://" + source, folder + "/.git"],
                                    "file://" + source, folder, repos.FetchSettings(box=BOX))
    assert status == 0 and os.path.isfile(os.path.join(folder, ".git", "HEAD"))


def test_only_the_fetch_shares_the_network(tmp_path, monkeypatch):
    """The fetch's box keeps the network (a clone needs it) with its own limits; every other box
    (a build, a game) unshares it; without bwrap the fetch is said to run on limits alone."""
    from harness.isolation import box as boxing
    settings = repos.FetchSettings(timeout=30.5, size_mb=64, box=BOX)
    fetch_box = repos.fetch_box(settings)
    assert (fetch_box.network, fetch_box.file_mb, fetch_box.cpu_seconds, fetch_box.memory_mb) == (True, 64, 31, 2048)
    assert repos.fetch_box(repos.FetchSettings()) is None
    if bwrap()[0] is not None:
        shared, _ = boxing.command(fetch_box, ["python", "x"], None, writable=[str(tmp_path)])
        unshared, _ = boxing.command(BOX, ["python", "x"], None, writable=[str(tmp_path)])
        assert "--unshare-net" in unshared and "--unshare-net" not in shared
        assert shared[shared.index("--bind") + 1] == str(tmp_path) and shared.count("--bind") == 1
        assert "--ro-bind-try" in shared and "/etc/resolv.conf" in shared and "/etc/resolv.conf" not in unshared
        assert repos.fetch_note(settings) is None
    monkeypatch.setattr(boxing, "bwrap", lambda: (None, "bwrap is not installed (Debian package bubblewrap)"))
    assert repos.fetch_note(settings).startswith("weaker isolation: resource limits only (2048 MiB address space, "
                                                 "31 s CPU, 64 MiB files)")


@pytest.mark.parametrize("url, https", [
    ("git@github.com:alice/minichess.git", "https://github.com/alice/minichess.git"),
    ("ssh://git@gitlab.example.edu:2222/course/bob.git", "https://gitlab.example.edu/course/bob.git"),
])
def test_an_ssh_url_is_refused_in_the_box_with_the_https_url(tmp_path, monkeypatch, url, https):
    """The fetch's box holds no ssh key or agent: an ssh URL is refused before git starts (no
    folder made), in one line naming the https URL to give instead; --no-box still tries it."""
    started = []
    monkeypatch.setattr(repos, "run_program", lambda *a, **k: started.append(a))
    folder = str(tmp_path / "repos" / "alice")
    with pytest.raises(repos.RepoError) as refused:
        repos.fetch(url, folder, repos.FetchSettings(box=BOX), False)
    text = str(refused.value)
    assert text == (f"'{url}': ssh URLs are not fetched in the box (it holds no ssh key or agent); "
                    f"give the https URL ({https}) or fetch with --no-box")
    assert "\n" not in text and not started and not os.path.exists(folder)
    assert repos.ssh_refused("https://github.com/alice/minichess.git") is None
    assert repos.ssh_refused("file:///srv/alice") is None
