"""Students' git repositories: fetched with their history, read with git's plumbing, and the graded
commit's files written out boxed.

A repository is hostile input. What is done, and why:
- The fetch (`fetch`) is `git clone --bare` (or, with --resume, `git fetch` of what changed) into
  OUT/repos/NAME/.git, a folder this module creates; git only transfers objects: no checkout,
  no hook (`core.hooksPath=/dev/null`), no submodule, no `ext::` or `fd::` transport (only https,
  http, ssh, git and file), objects checked (`transfer.fsckObjects`: a tree entry `..` or `.git`
  is refused), no credential prompt, a clean environment (no system or user git configuration,
  HOME a scratch folder), its own session killed at --clone-timeout, and a size cap (no file it
  writes may pass it, and the whole folder is measured after).
- The fetch runs in the box (`fetching`: harness.isolation.untrusted_run, as a build runs), with
  the box's differences from a build's (`fetch_box`): the network shared (`BoxSettings.network`,
  used by this fetch only; /etc/resolv.conf, /etc/hosts and /etc/ssl shown for https); the only
  folder it may write in is OUT/repos/NAME (handed to the box's own user id for the fetch, run as
  root, and back to the grader's after); a file:// source's folder shown read-only, nothing else
  of the host; CPU seconds --clone-timeout, files --repo-mb, FETCH_MEMORY_MB of address space,
  the box's process limit (few pack threads). An ssh URL is refused in the box (`ssh_refused`:
  the box holds no ssh key or agent, and a student's server must never reach the TA's): the
  one-line reason names the https URL to give instead. Its global configuration is git_fetch.ini
  (safe.directory: the box's user reads a source that is another user's). Without bwrap, the
  limits alone (`fetch_note` says so); --no-box (settings.box None): on the host (`run_git`).
- The repository's configuration is never the student's: after each fetch, .git/config is
  written anew by this module (the object format kept), so no `core.fsmonitor`, `core.pager`,
  filter or alias of anyone else's is ever read. Every later git command (`git`) runs with the
  same clean environment, `--git-dir` named (no discovery), and only reads (rev-list, log,
  ls-tree, cat-file, archive).
- The graded commit's files (`extract`): `git archive` of that commit, unpacked by `tar` in the
  box (harness.isolation.untrusted_run, as a build runs: no network, the box's limits) into an
  empty folder of its own, then moved beside .git (an entry named .git is never moved).
"""
import dataclasses
import json
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import urllib.parse
from dataclasses import dataclass
from typing import List, Optional, Tuple

from ..isolation.box import BoxSettings, isolation, weaker
from ..isolation.exchange import run_parent
from ..isolation.untrusted_run import run as run_program

GIT = shutil.which("git", path="/usr/bin:/bin:/usr/local/bin") or "git"
TAR = shutil.which("tar", path="/usr/bin:/bin") or "/bin/tar"
SAFE = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "core.pager=cat",
        "-c", "protocol.allow=never", "-c", "protocol.https.allow=always", "-c", "protocol.http.allow=always",
        "-c", "protocol.ssh.allow=always", "-c", "protocol.git.allow=always", "-c", "protocol.file.allow=always",
        "-c", "transfer.fsckObjects=true", "-c", "submodule.recurse=false", "-c", "credential.helper=",
        "-c", "core.askPass=", "-c", "safe.directory=*", "-c", "advice.detachedHead=false")
ALLOWED = re.compile(r"^(https?|ssh|git|file)://|^[\w.-]+@[\w.-]+:")
RECORD = "grader.json"            # in .git: the URL fetched and when (this module's own file)
CLONE_TIMEOUT = 300.0
REPO_MB = 500
FETCH_MEMORY_MB = 2048            # address space of the fetch's box, at least
FETCH_OUTPUT = 1 << 20            # bytes a boxed git command may print (ls-remote's few lines)
CANNOT_START = 127
FETCH_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "git_fetch.ini")  # safe.directory=*
# in the box: few threads (the box's process limit counts them) and small pack windows (its memory)
BOXED = ("-c", "pack.threads=2", "-c", "core.packedGitWindowSize=64m", "-c", "core.packedGitLimit=256m")


class RepoError(Exception):
    """A repository that cannot be fetched or read; one line (the student is graded 0 with it)."""


@dataclass
class FetchSettings:
    timeout: float = CLONE_TIMEOUT
    size_mb: int = REPO_MB
    box: Optional[BoxSettings] = None       # the box git fetches and `tar` unpacks in (None: --no-box)


def url_of(text: str, base: Optional[str] = None) -> str:
    """A git URL to fetch: https/ssh/git/file URLs and `user@host:path` as they are, a local path
    as file:// (never a local clone's hard links). RepoError for anything else (`ext::`, an
    option)."""
    text = text.strip()
    if not text:
        raise RepoError("no repository URL")
    if text.startswith("-"):
        raise RepoError(f"'{text}' is not a repository URL")
    if ALLOWED.match(text):
        return text
    if "::" in text or re.match(r"^[a-z][a-z0-9+.-]*:", text, re.IGNORECASE):
        raise RepoError(f"'{text}': only https, ssh, git and file URLs are fetched")
    path = os.path.abspath(os.path.join(base or os.getcwd(), text))
    if not os.path.isdir(path):
        raise RepoError(f"'{text}' is not a URL and no such folder")
    return "file://" + path


def _env(home: str) -> dict:
    return {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C", "LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "/bin/false",
            "SSH_ASKPASS": "/bin/false", "GIT_SSH_COMMAND": "ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new",
            "GIT_OPTIONAL_LOCKS": "0", "GIT_ALLOW_PROTOCOL": "https:http:ssh:git:file", "GIT_NO_REPLACE_OBJECTS": "1",
            "GIT_PROTOCOL_FROM_USER": "0"}


def run_git(args: List[str], timeout: float, size_mb: Optional[int] = None, data: Optional[bytes] = None,
            cap: int = 256 << 20) -> Tuple[int, bytes, str]:
    """(status, stdout, the end of stderr) of `git SAFE args`, with the clean environment, in its
    own session (killed, with what it started, at `timeout`), no file it writes over `size_mb`."""
    home = tempfile.mkdtemp(prefix="git-home-", dir=run_parent())

    def limit():
        if size_mb:
            resource.setrlimit(resource.RLIMIT_FSIZE, (size_mb << 20, size_mb << 20))
    try:
        proc = subprocess.Popen([GIT, *SAFE, *args], stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(home), cwd=home,
                                start_new_session=True, preexec_fn=limit)
        try:
            out, err = proc.communicate(data, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            raise RepoError(f"git {args[0]} took more than {timeout:g} s (--clone-timeout)") from None
        except BaseException:
            _kill(proc)
            raise
        if len(out) > cap:
            raise RepoError(f"git {args[0]} printed more than {cap >> 20} MB")
        status = proc.returncode
        if status == -signal.SIGXFSZ:
            raise RepoError(f"the repository is over the {size_mb} MB cap (--repo-mb)")
        return status, out, err.decode("utf-8", "replace")[-2000:]
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _last_line(err: str) -> str:
    lines = [line.strip() for line in err.strip().splitlines() if line.strip()]
    fatal = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return (fatal or lines or ["no message"])[0][:300]


def git_dir_of(folder: str) -> str:
    """OUT/repos/NAME/.git, checked to be a real folder (never a link)."""
    path = os.path.join(os.path.abspath(folder), ".git")
    if os.path.islink(path) or not os.path.isdir(path):
        raise RepoError(f"{path} is not a git folder of the grader's")
    return path


def git(folder: str, *args: str, timeout: float = 120.0) -> str:
    """A reading git command on OUT/repos/NAME's history: its output (RepoError on failure)."""
    status, out, err = run_git(["--git-dir", git_dir_of(folder), *args], timeout)
    if status != 0:
        raise RepoError(f"git {args[0]}: {_last_line(err)}")
    return out.decode("utf-8", "replace")


def _write_config(git_dir: str) -> None:
    """.git/config as this module writes it: nothing of the fetched repository's."""
    config = os.path.join(git_dir, "config")
    sha256 = False
    try:
        with open(config, encoding="utf-8", errors="replace") as handle:
            sha256 = bool(re.search(r"^\s*objectformat\s*=\s*sha256\s*$", handle.read(), re.MULTILINE | re.IGNORECASE))
    except OSError:
        pass
    text = ("[core]\n\trepositoryformatversion = %d\n\tbare = true\n" % (1 if sha256 else 0)
            + ("[extensions]\n\tobjectformat = sha256\n" if sha256 else ""))
    os.remove(config) if os.path.lexists(config) else None
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(text)
    for sub in ("hooks", "info/attributes"):
        target = os.path.join(git_dir, sub)
        if os.path.isdir(target) and not os.path.islink(target):
            shutil.rmtree(target)
        elif os.path.lexists(target):
            os.remove(target)


def _size_mb(folder: str) -> float:
    total = 0
    for where, _, names in os.walk(folder):
        for name in names:
            try:
                total += os.lstat(os.path.join(where, name)).st_size
            except OSError:
                pass
    return total / (1 << 20)


def recorded(folder: str) -> Optional[dict]:
    try:
        with open(os.path.join(folder, ".git", RECORD), encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def _source_of(url: str) -> Optional[str]:
    """The local folder a file:// URL names (shown read-only in the fetch's box), else None."""
    if not url.startswith("file://"):
        return None
    path = os.path.abspath(urllib.parse.unquote(url[len("file://"):]) or "/")
    if os.path.isfile(path):
        path = os.path.dirname(path)
    return path if os.path.isdir(path) and path != "/" else None


def fetch_box(settings: FetchSettings) -> Optional[BoxSettings]:
    """The fetch's box: the grader's with the network shared, file size --repo-mb, CPU seconds
    --clone-timeout and at least FETCH_MEMORY_MB of address space (None: --no-box)."""
    if settings.box is None or not settings.box.enabled:
        return None
    return dataclasses.replace(settings.box, network=True, share="folder", file_mb=settings.size_mb,
                               cpu_seconds=max(1, math.ceil(settings.timeout)),
                               memory_mb=max(settings.box.memory_mb, FETCH_MEMORY_MB))


def fetch_note(settings: FetchSettings) -> Optional[str]:
    """The box's note when the fetch is asked to be boxed but bwrap cannot run (limits alone)."""
    box = fetch_box(settings)
    return isolation(box) if box is not None and weaker(box) else None


def fetching(args: List[str], url: str, folder: str, settings: FetchSettings) -> Tuple[int, bytes, str]:
    """(status, stdout, the end of stderr) of `git SAFE args`, a command of the fetch that reads
    `url` and writes only in `folder`: boxed (settings.box; see the module's text) or, --no-box,
    on the host (`run_git`)."""
    box = fetch_box(settings)
    if box is None:
        return run_git(args, settings.timeout, settings.size_mb)
    env = {name: value for name, value in _env("/").items() if name not in ("PATH", "HOME")}
    env["GIT_CONFIG_GLOBAL"] = FETCH_CONFIG
    finished = run_program([GIT, *SAFE, *BOXED, *args], b"", settings.timeout, FETCH_OUTPUT, box, workdir=folder,
                           shown=_source_of(url), settings=env, hand_over=True)
    if finished.timed_out:
        raise RepoError(f"git {args[0] if args[0] != '--git-dir' else args[2]} took more than "
                        f"{settings.timeout:g} s (--clone-timeout)")
    if finished.overflowed:
        raise RepoError(f"git printed more than {FETCH_OUTPUT >> 20} MB")
    if finished.status == -signal.SIGXFSZ:
        raise RepoError(f"the repository is over the {settings.size_mb} MB cap (--repo-mb)")
    errors = finished.errors.decode("utf-8", "replace")
    if finished.cannot_start:
        return CANNOT_START, b"", errors
    return (1 if finished.status is None else finished.status), finished.output, errors


SSH_URL = re.compile(r"^ssh://(?:[^@/]+@)?([^/:]+)(?::\d+)?/(.+)$|^[\w.-]+@([\w.-]+):(.+)$")


def ssh_refused(url: str) -> Optional[str]:
    """The one-line refusal of an ssh URL in the fetch's box (None for any other URL). The box
    holds none of the TA's keys and no ssh agent (a student's repository must never reach them),
    so an ssh fetch there could only fail on authentication: the TA is told the https URL."""
    match = SSH_URL.match(url)
    if match is None:
        return None
    host, path = (match[1], match[2]) if match[1] else (match[3], match[4])
    return (f"'{url}': ssh URLs are not fetched in the box (it holds no ssh key or agent); "
            f"give the https URL (https://{host}/{path.lstrip('/')}) or fetch with --no-box")


def fetch(url: str, folder: str, settings: FetchSettings, resume: bool) -> str:
    """The repository at `url` in `folder`/.git with its whole history: fetched afresh, or (resume,
    the same URL fetched before) only what changed. Returns "cloned", "fetched" or "unchanged".
    An ssh URL is refused when the fetch is boxed (`ssh_refused`)."""
    folder = os.path.abspath(folder)
    refused = ssh_refused(url) if fetch_box(settings) is not None else None
    if refused is not None:
        raise RepoError(refused)
    if resume and recorded(folder) and recorded(folder).get("url") == url:
        git_dir = git_dir_of(folder)
        before = git(folder, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads")
        status, _, err = fetching(["--git-dir", git_dir, "fetch", "--prune", "--no-tags", "--", url,
                                   "+refs/heads/*:refs/heads/*"], url, folder, settings)
        if status != 0:
            raise RepoError(f"cannot fetch {url}: {_last_line(err)}")
        status, out, _ = fetching(["ls-remote", "--symref", "--", url, "HEAD"], url, folder, settings)
        head = re.search(r"^ref: (refs/heads/\S+)\tHEAD$", out.decode("utf-8", "replace"), re.MULTILINE)
        if status == 0 and head:
            git(folder, "symbolic-ref", "HEAD", head[1])
        _write_config(git_dir)
        after = git(folder, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads")
        return "unchanged" if before == after else "fetched"
    if os.path.lexists(folder):
        shutil.rmtree(folder) if os.path.isdir(folder) and not os.path.islink(folder) else os.remove(folder)
    os.makedirs(folder)
    git_dir = os.path.join(folder, ".git")
    try:
        status, _, err = fetching(["clone", "--bare", "--no-tags", "--quiet", "--", url, git_dir], url, folder,
                                  settings)
    except RepoError:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    if status != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RepoError(f"cannot clone {url}: {_last_line(err)}")
    _write_config(git_dir)
    size = _size_mb(git_dir)
    if size > settings.size_mb:
        shutil.rmtree(folder, ignore_errors=True)
        raise RepoError(f"{url} is {size:.0f} MB, over the {settings.size_mb} MB cap (--repo-mb)")
    with open(os.path.join(git_dir, RECORD), "w", encoding="utf-8") as handle:
        json.dump({"url": url}, handle)
    return "cloned"


def extract(folder: str, commit: str, settings: FetchSettings) -> None:
    """The files of `commit` in `folder` (beside its .git; everything else there before is
    removed): `git archive` unpacked by tar in the box, in a folder of its own, then moved in."""
    folder = os.path.abspath(folder)
    git_dir = git_dir_of(folder)
    status, archive, err = run_git(["--git-dir", git_dir, "archive", "--format=tar", commit], settings.timeout,
                                   cap=settings.size_mb << 20)
    if status != 0:
        raise RepoError(f"git archive {commit[:12]}: {_last_line(err)}")
    for name in os.listdir(folder):
        if name != ".git":
            path = os.path.join(folder, name)
            shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)
    staging = tempfile.mkdtemp(prefix=".unpack-", dir=os.path.dirname(os.path.abspath(folder)))
    try:
        os.chmod(staging, 0o777)
        finished = run_program([TAR, "-x", "-f", "-", "--no-same-owner", "--no-same-permissions"], archive,
                               settings.timeout, 1 << 16, settings.box, workdir=staging)
        failure = finished.failure(settings.timeout, 1 << 16)
        if failure:
            raise RepoError(f"unpacking {commit[:12]}: tar {failure}")
        for name in os.listdir(staging):
            if name.lower() != ".git":
                os.replace(os.path.join(staging, name), os.path.join(folder, name))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def head_commits(folder: str) -> List[Tuple[str, int]]:
    """(sha, committer date as a Unix time) of HEAD's branch, its first-parent line, newest first."""
    text = git(folder, "log", "--first-parent", "--no-show-signature", "--format=%H %ct", "HEAD")
    return [(sha, int(stamp)) for sha, stamp in (line.split() for line in text.splitlines() if line.strip())]


def branch_name(folder: str) -> str:
    try:
        return git(folder, "symbolic-ref", "--short", "HEAD").strip()
    except RepoError:
        return "HEAD"


def history(folder: str, commit: str) -> List[Tuple[str, int]]:
    """Every commit reachable from `commit` (sha, committer Unix time), oldest first."""
    text = git(folder, "log", "--reverse", "--no-show-signature", "--format=%H %ct", commit)
    return [(sha, int(stamp)) for sha, stamp in (line.split() for line in text.splitlines() if line.strip())]


def count_between(folder: str, older: str, newer: str = "HEAD") -> int:
    return int(git(folder, "rev-list", "--count", f"{older}..{newer}").strip() or 0)


class Blobs:
    """`git cat-file --batch` on one repository, kept open: tree listings and file contents."""

    def __init__(self, folder: str):
        self.folder = folder

    def tree(self, commit: str) -> List[Tuple[str, str]]:
        """(blob sha, path) of every file of `commit`'s tree."""
        text = git(self.folder, "ls-tree", "-r", "-z", "--full-tree", commit)
        found = []
        for entry in text.split("\0"):
            if not entry:
                continue
            meta, path = entry.split("\t", 1)
            mode, kind, sha = meta.split()
            if kind == "blob" and mode != "120000":
                found.append((sha, path))
        return found

    def contents(self, shas: List[str], limit: int = 2 << 20) -> dict:
        """{sha: bytes} of each blob (those over `limit` left out)."""
        if not shas:
            return {}
        status, out, err = run_git(["--git-dir", git_dir_of(self.folder), "cat-file", "--batch"], 120.0,
                                   data=("\n".join(shas) + "\n").encode())
        if status != 0:
            raise RepoError(f"git cat-file: {_last_line(err)}")
        found, at = {}, 0
        for _ in shas:
            end = out.index(b"\n", at)
            head = out[at:end].split()
            at = end + 1
            if len(head) < 3 or head[1] != b"blob":
                continue
            size = int(head[2])
            if size <= limit:
                found[head[0].decode()] = out[at:at + size]
            at += size + 1
        return found
