"""The box: what a student's file may touch while it plays, on top of the sandbox's own process.

`harness.isolation.sandbox` starts one worker process per side and game; with a `BoxSettings` it starts
that worker inside bubblewrap (`bwrap`):

- the file system is a read-only view of the Python install, /usr (with /lib, /bin ... as on the
  host) and the harness package (so the worker can import it), each at its own path, and the
  student's own folder (or, with ``share="file"``, the file alone) at the fixed STUDENT_MOUNT
  (/box/student; a folder it may write in at WORK_MOUNT, /box/work), so its working folder names
  no class folder, OUT or student; nothing else exists, so no classmate's file, gradebook or
  report can be read or written;
- /tmp is a private, small tmpfs, the only place it can write; /dev and /proc are the box's own;
- no network (a network namespace with nothing in it: every connect fails), a new PID, IPC and
  UTS namespace, a new session, and the box dies with the harness; only a repository's fetch
  (`BoxSettings.network`, harness.grading.repos) shares the host's network, and is shown
  /etc/resolv.conf, /etc/hosts and the certificates under /etc/ssl besides;
- a clean environment (`harness.isolation.untrusted_env`): PATH (the fixed /usr/local/bin:/usr/bin:/bin),
  LANG, HOME and TMPDIR (/tmp) and the box's settings (``MINICHESS_BOX``), nothing of the
  grader's (no token reaches the file);
- never the grader's working folder, OUT or a classmate: only what the caller names (the
  student's folder or file, a folder it may write in) besides the system, Python and harness;
- bwrap's options and the box's command go through memfds (`box_start.py`, ``--args FD``): the
  box's /proc/1/cmdline names no bind path, so no OUT path and no student's name;
- resource limits, set by the worker before it imports the file: address space (``memory_mb``),
  CPU seconds, file size, and, run as root, a private user id with a process limit (a fork
  bomb gets "Resource temporarily unavailable").

Where bwrap is missing or cannot run, the worker still applies the resource limits ("weaker
isolation": the file can then read and write what the harness's user can, and use the network).
The settings travel with every game task, so a pool or Dask worker boxes games the same way.
"""
import functools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .untrusted_env import untrusted_env

ENV = "MINICHESS_BOX"          # the worker reads its limits from this environment variable
BOX_TMP = "/tmp"               # the box's private tmpfs: the worker's HOME and TMPDIR
HARNESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOX_START = os.path.join(HARNESS_DIR, "isolation", "box_start.py")    # hands bwrap its options unseen
TMP_BYTES = 64 << 20           # the private /tmp's size
UID_RANGE = (200000, 1200000)  # a box's user id is drawn from here (run as root only)
SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin")
SYSTEM_FILES = ("/etc/ld.so.cache",)
NETWORK_FILES = ("/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/ssl", "/etc/ca-certificates")
STUDENT_MOUNT = "/box/student"  # the student's own folder (or its file alone) in the box, read-only
WORK_MOUNT = "/box/work"        # the folder the box may write in (a second one: /box/work2, ...)


@dataclass(frozen=True)
class BoxSettings:
    """How a student's file is boxed. Plain data (picklable, JSON-able) for game tasks."""
    enabled: bool = True
    memory_mb: int = 2048          # address space of the worker process
    processes: int = 32            # processes and threads of the box's user (root only)
    cpu_seconds: int = 600         # CPU time of one worker (one side of one game)
    file_mb: int = 16              # largest file it may write (its printed output included)
    share: str = "folder"          # "folder": its own folder is readable; "file": the file alone
    network: bool = False          # the host's network shared, with /etc/resolv.conf, hosts and ssl
    #                                certificates shown: only a repository's fetch (harness.grading.repos)
    fixed_mounts: bool = True      # the student's folder at STUDENT_MOUNT, the writable one at WORK_MOUNT;
    #                                False: each at its own path (`congo test`, on the student's own machine)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Optional[dict]) -> Optional["BoxSettings"]:
        return None if data is None else cls(**data)


@functools.lru_cache(maxsize=1)
def bwrap() -> Tuple[Optional[str], str]:
    """(path to a working bwrap, '') or (None, why not). Tried once per process."""
    path = shutil.which("bwrap")
    if path is None:
        return None, "bwrap is not installed (Debian package bubblewrap)"
    try:
        probe = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid",
                                "--die-with-parent", "true"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"bwrap cannot run ({exc})"
    if probe.returncode != 0:
        text = probe.stderr.decode(errors="replace").strip().splitlines()
        return None, f"bwrap cannot run here ({text[-1] if text else f'exit code {probe.returncode}'})"
    return path, ""


def isolation(settings: Optional[BoxSettings]) -> str:
    """One line saying how student files are isolated, for reports and gradebooks."""
    if settings is None or not settings.enabled:
        return "no box: a student file runs in its own process with a 2 GiB memory limit only"
    path, why = bwrap()
    limits = (f"{settings.memory_mb} MiB address space, {settings.cpu_seconds} s CPU, "
              f"{settings.file_mb} MiB files")
    if path is None:
        return (f"weaker isolation: resource limits only ({limits}); {why}, so a file can read and "
                f"write what the harness's user can and use the network")
    procs = f", {settings.processes} processes" if os.geteuid() == 0 else ""
    seen = "its own folder" if settings.share == "folder" else "its own file"
    network = "the network shared (a repository's fetch)" if settings.network else "no network"
    return (f"bubblewrap: read-only system, Python and harness, {seen}, a private /tmp, {network}, "
            f"own PID namespace; {limits}{procs}")


def weaker(settings: Optional[BoxSettings]) -> bool:
    """Is the box asked for but bwrap missing (resource limits alone)?"""
    return settings is not None and settings.enabled and bwrap()[0] is None


def limits(settings: BoxSettings, boxed: bool = True) -> Dict[str, int]:
    """What the worker applies to itself before importing the file (see sandbox_worker)."""
    out = {"as": settings.memory_mb << 20, "cpu": settings.cpu_seconds, "fsize": settings.file_mb << 20}
    if boxed and os.geteuid() == 0:
        # root ignores the process limit: the worker drops to a user id of its own first (in the
        # box only, where everything it must read is shown world-readable)
        out.update(uid=random.SystemRandom().randrange(*UID_RANGE), nproc=settings.processes)
    return out


def _ancestors(path: str) -> List[str]:
    parts, out = path.strip("/").split("/")[:-1], []
    for i in range(len(parts)):
        out.append("/" + "/".join(parts[: i + 1]))
    return out


def _real_python() -> Tuple[str, List[str]]:
    """The interpreter to run in the box (the real file, not a venv's link; the worker runs with
    -S, so no site-packages are needed) and the folders it needs."""
    executable = os.path.realpath(sys.executable)
    needed = [os.path.realpath(sys.base_prefix)]
    if not executable.startswith(needed[0] + os.sep):
        needed.append(os.path.dirname(executable))
    return executable, needed


def mounts(settings: BoxSettings, student: Optional[str], writable: Sequence[str] = ()) -> List[Tuple[str, str]]:
    """(host path, path in the box) of what `command` shows of the student's: its folder (or, with
    ``share="file"``, the file alone) at STUDENT_MOUNT, each writable folder at WORK_MOUNT (then
    WORK_MOUNT2, ...): never at its own path, so no path of the class folder, OUT or the student's
    name is seen from inside (its working folder, /proc/self/cwd, a listing of /)."""
    out: List[Tuple[str, str]] = []
    fixed = settings.fixed_mounts
    if student is not None:
        student = os.path.abspath(student)
        if settings.share == "folder":
            out.append((os.path.dirname(student), STUDENT_MOUNT if fixed else os.path.dirname(student)))
        else:
            out.append((student, f"{STUDENT_MOUNT}/{os.path.basename(student)}" if fixed else student))
    for number, folder in enumerate(writable, 1):
        there = WORK_MOUNT if number == 1 else f"{WORK_MOUNT}{number}"
        out.append((os.path.abspath(folder), there if fixed else os.path.abspath(folder)))
    return out


def inside(path: str, shown: Sequence[Tuple[str, str]]) -> str:
    """`path` of the host as the box sees it through `shown` (`mounts`; the longest match wins;
    a ``file://`` URL too); a path under none of them as it is."""
    prefix = "file://" if path.startswith("file://") else ""
    bare = path[len(prefix):]
    for host, there in sorted(shown, key=lambda pair: -len(pair[0])):
        if bare == host or bare.startswith(host.rstrip("/") + "/"):
            return prefix + there + bare[len(host.rstrip("/")):]
    return path


def outside(data, shown: Sequence[Tuple[str, str]]):
    """`data` (a text, or a message of lists and dicts) read back from a box, with each path the
    box showed through `shown` (`mounts`) written as the host's path again: the grader's own
    messages then name the student's file as they always did (made relative to the student's
    folder where the student is shown them)."""
    def back(text: str) -> str:
        for host, there in sorted(shown, key=lambda pair: -len(pair[1])):
            text = text.replace(there + "/", host.rstrip("/") + "/")
            if text == there:
                text = host
        return text
    return map_texts(data, back)


def map_texts(data, change):
    """`data` (JSON-like: texts, lists, dicts) with `change` applied to every text in it."""
    if isinstance(data, str):
        return change(data)
    if isinstance(data, list):
        return [map_texts(item, change) for item in data]
    if isinstance(data, dict):
        return {key: map_texts(value, change) for key, value in data.items()}
    return data


def command(settings: BoxSettings, argv: List[str], student: Optional[str],
            writable: Sequence[str] = ()) -> Tuple[List[str], Dict[str, str]]:
    """(argv, env) that run the worker command `argv` (``python -S -u sandbox_worker.py ...``)
    boxed for the file `student` (None: a program that needs nothing of its own shown, a build in
    its `writable` copy). Without a working bwrap, the same command with the limits.
    env is the worker's whole environment (harness.isolation.untrusted_env): nothing of the grader's.
    `writable`: folders the box may write in, each shown at its own path (an NTHU program's
    working folder with its `state` and `action`; a student's copy of a repository, built).
    Nothing else of the host is shown: the grader's working folder, OUT, the class folder and the
    reference answers do not exist in the box. The student's folder is shown at STUDENT_MOUNT and
    the writable folder at WORK_MOUNT (`mounts`), and every argument of `argv` naming a path under
    them is rewritten to the box's path (`inside`): the program's working folder names no folder
    of the TA's and no student.

    The command returned starts `box_start.py` (outside the box), which hands bwrap its options
    and the box its command through two memfds (``bwrap --args FD``): the box's process 1 reads
    ``bwrap --args 3 -- python -S box_start.py --inside 4 3``, never a path of OUT, the class
    folder or the student's name."""
    path, _ = bwrap()
    box_env = {ENV: json.dumps(limits(settings, boxed=path is not None))}
    if path is None:
        return argv, untrusted_env(tempfile.gettempdir(), box_env)
    env = untrusted_env(BOX_TMP, box_env)
    executable, python_dirs = _real_python()
    shown = mounts(settings, student, writable)
    chdir = shown[0][1] if student is not None and settings.share == "folder" else \
        os.path.dirname(shown[0][1]) if student is not None else BOX_TMP
    args = [*([] if settings.network else ["--unshare-net"]), "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session",
            "--size", str(TMP_BYTES), "--perms", "1777", "--tmpfs", BOX_TMP, "--dev", "/dev", "--proc", "/proc"]
    for name in NETWORK_FILES if settings.network else ():
        args += ["--ro-bind-try", name, name]
    for name in SYSTEM_DIRS:
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            args += ["--ro-bind", name, name]
    for name in SYSTEM_FILES:
        if os.path.exists(name):
            args += ["--ro-bind", name, name]
    rw = {there for _, there in shown[1 if student is not None else 0:]}
    # (host, in the box): the system's own at their paths, the student's at the fixed mounts
    binds = sorted({*((d, d) for d in (*python_dirs, HARNESS_DIR)), *shown}, key=lambda pair: len(pair[1]))
    targets = [there for _, there in binds]
    made = set()
    for host, there in binds:
        for parent in _ancestors(there):
            # made by hand, mode 0755: bwrap would copy the host's mode (e.g. /root is 0700)
            if parent not in made and not any(parent == b or parent.startswith(b + "/") for b in targets
                                              if b != there and len(b) < len(there)):
                if not parent.startswith(tuple(SYSTEM_DIRS)):
                    args += ["--dir", parent]
                made.add(parent)
        args += ["--bind" if there in rw else "--ro-bind", host, there]
    args += ["--chdir", chdir]
    boxed = [inside(arg, shown) for arg in argv[1:]]
    return [executable, "-S", BOX_START, path, str(len(args)), *args, executable, *boxed], env
