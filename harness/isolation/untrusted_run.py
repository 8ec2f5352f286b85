"""One run of an untrusted program (a student's compiled or scripted program): its input on
stdin, what it prints on stdout, contained.

- No shell: the command line is split as a shell would split it (`shlex`) and the program is
  started directly. Its paths are taken from where the command is given (`command_line`).
- A clean environment (`harness.isolation.untrusted_env`): PATH, LANG (and LC_ALL), HOME and TMPDIR; HOME
  and TMPDIR are its scratch folder.
- Its own working folder: an empty scratch folder (a temporary folder deleted after the run,
  made in the run's parent folder, `harness.isolation.exchange.run_folder`, when one is open, so
  a killed grading leaves none behind; in the box, /tmp/run in the box's private /tmp).
- Its own session: when the run ends (it answered, timed out, printed too much, or Ctrl-C) the
  whole process group is killed, so nothing it started outlives the run.
- A wall-clock limit per run and a cap on what it prints (stdout; the end of stderr is kept for
  messages).
- The box (`harness.isolation.box`, when a `BoxSettings` is given): the program is started by
  `harness/isolation/program_launcher.py`, which applies the box's resource limits (address space, CPU
  seconds, file size; run as root, its own user id and a process limit) and then becomes the
  program; where bubblewrap works, inside bubblewrap (read-only system and Python, the program's
  own folder read-only (`home_of`; nothing of the grader's working folder), a private /tmp, no
  network, its own PID namespace, PATH the fixed /usr/local/bin:/usr/bin:/bin).
  bubblewrap reports a program killed by signal N as exit code 128 + N; `run` gives it back as
  the signal.
"""
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import List, Mapping, NamedTuple, Optional, Sequence

from .box import BOX_TMP, SYSTEM_DIRS, WORK_MOUNT, BoxSettings, bwrap
from .box import ENV as BOX_ENV
from .box import command as box_command
from .exchange import run_parent
from .sandbox import describe_exit
from .untrusted_env import untrusted_env

BOX_RUN_DIR = BOX_TMP + "/run"       # the program's working folder, HOME and TMPDIR in the box
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "program_launcher.py")
CANNOT_START = 127          # program_launcher's exit code when exec fails, with this mark:
START_MARK = "cannot start"
ERROR_TAIL = 2000           # bytes of stderr kept for messages
READ_CHUNK = 1 << 16
SIGNALS = {int(sig) for sig in signal.Signals}


class CommandError(ValueError):
    """A command line that cannot name a program to run; the text is one line."""


class Finished(NamedTuple):
    output: bytes               # stdout, at most the cap
    errors: bytes               # the end of stderr
    status: Optional[int]       # exit status (negative: killed by that signal); None if we stopped it
    timed_out: bool
    overflowed: bool            # printed more than the cap (stopped)
    seconds: float

    def failure(self, timeout: float, cap: int) -> Optional[str]:
        """What went wrong, as a phrase ("timed out after 10 s", "exited with code 1: ..."), or
        None when the program exited with status 0."""
        if self.timed_out:
            return f"timed out after {timeout:g} s"
        if self.overflowed:
            return f"printed more than {cap} bytes"
        if self.status == 0:
            return None
        last = self.last_error()
        if self.cannot_start:
            return last
        text = describe_exit(self.status)
        return f"{text}: {last}" if last else text

    @property
    def cannot_start(self) -> bool:
        """Could the program not be started at all (not found, not executable, in the box)?"""
        return self.status == CANNOT_START and self.last_error().startswith(START_MARK)

    def last_error(self) -> str:
        """The last line it wrote to stderr, cut to 200 characters."""
        lines = self.errors.decode("utf-8", "replace").strip().splitlines()
        return lines[-1].strip()[:200] if lines else ""


def command_line(text: str, cwd: Optional[str] = None) -> List[str]:
    """The argv of a command line given as text (split as a shell would, never run by one): the
    program as an absolute path (a name without '/' is looked up on PATH), and every later
    argument that names an existing file (relative to `cwd`) as an absolute path, since the
    program runs in a scratch folder. CommandError (one line) if there is no program."""
    cwd = cwd or os.getcwd()
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise CommandError(f"cannot split the command line {text!r}: {exc}") from None
    if not argv:
        raise CommandError("the command line is empty")
    program = argv[0]
    if "/" in program:
        path = os.path.join(cwd, program)
        if not os.path.isfile(path):
            raise CommandError(f"'{program}' is not a file")
        if not os.access(path, os.X_OK):
            raise CommandError(f"'{program}' is not executable (chmod +x {shlex.quote(program)})")
    else:
        path = shutil.which(program, path=untrusted_env(cwd)["PATH"])
        if path is None:
            raise CommandError(f"'{program}' is not a program on PATH (a file here is ./{program})")
    out = [os.path.abspath(path)]
    for arg in argv[1:]:
        full = os.path.join(cwd, arg)
        out.append(os.path.abspath(full) if not arg.startswith("-") and os.path.isfile(full) else arg)
    return out


def home_of(argv: Sequence[str], cwd: Optional[str] = None) -> Optional[str]:
    """The program's own folder, which the box shows it (read-only): the folder of the first file
    named after the program (the student's script: `python3 mine.py`), else the program's folder
    (`./moves`, `../build/moves`, `/home/me/congo/moves`); None for a program of the system (found
    on the box's PATH, under /usr, or standing in `/`), which the box shows anyway. Never the
    folder the command is given from: a build (`make`, `g++`) sees only its copy, which it is
    given as its working folder."""
    for arg in argv[1:]:
        if os.path.isabs(arg) and os.path.isfile(arg):
            return None if _system(os.path.dirname(arg)) else os.path.dirname(arg)
    folder = os.path.dirname(os.path.join(os.path.abspath(cwd or os.getcwd()), argv[0]))
    return None if _system(folder) else folder


def _system(folder: str) -> bool:
    """Is `folder` one the box shows anyway (a system folder, one of the box's PATH, `/`)?"""
    on_path = {os.path.abspath(d) for d in untrusted_env("/")["PATH"].split(os.pathsep) if d}
    return folder in on_path or folder == "/" or (folder + "/").startswith(tuple(d + "/" for d in SYSTEM_DIRS))


def run(argv: Sequence[str], data: bytes, timeout: float, cap: int,
        box: Optional[BoxSettings] = None, workdir: Optional[str] = None,
        shown: Optional[str] = None, settings: Optional[Mapping[str, str]] = None,
        hand_over: bool = False) -> Finished:
    """Run `argv` once with `data` on stdin; see the module's text for what contains it.
    workdir: a folder of the caller's to work in instead of a scratch folder (HOME and TMPDIR
    too), the one folder the box lets it write in (a student's copy of a repository, built by
    its Makefile). shown: the folder the box shows read-only (default `home_of(argv)`: the
    program's own folder, nothing for a system program). settings: variables added to its clean
    environment (a git fetch's own). hand_over: run as root in the box (a user id of its own), the
    workdir's files are that user's for the run (a repository fetched again) and the grader's after."""
    if workdir is not None:
        workdir = os.path.abspath(workdir)
    scratch = workdir or tempfile.mkdtemp(prefix="program-run-", dir=run_parent())
    try:
        command, env, cwd, boxed = list(argv), untrusted_env(scratch, settings), scratch, False
        owner = None
        if box is not None and box.enabled:
            boxed = bwrap()[0] is not None
            # in the box, a folder of its own inside the box's private /tmp: /tmp itself also holds
            # the paths leading to the folders bound into the box when those lie under /tmp
            inside = workdir or (BOX_RUN_DIR if boxed else scratch)
            launcher = [sys.executable, "-S", LAUNCHER, inside, *argv]
            home = shown or home_of(argv)
            command, box_env = box_command(box, launcher, os.path.join(home, "program") if home else None,
                                           writable=[workdir] if workdir else ())
            # a build's HOME and TMPDIR are the box's private /tmp, not its copy: the compiler's
            # temporary files (named in its messages) carry no path of the grader's
            env = untrusted_env(BOX_TMP if boxed and workdir else inside, {**(settings or {}),
                                                                           BOX_ENV: box_env[BOX_ENV]})
            owner = json.loads(box_env[BOX_ENV]).get("uid") if hand_over and workdir else None
        if owner is not None:
            _chown_tree(workdir, owner, owner)
        try:
            finished = _run(command, data, timeout, cap, env, cwd)
        finally:
            if owner is not None:
                _chown_tree(workdir, os.geteuid(), os.getegid())
        if boxed and finished.status is not None and finished.status > 128 and finished.status - 128 in SIGNALS:
            # bubblewrap exits with 128 + N when the program was killed by signal N
            finished = finished._replace(status=128 - finished.status)
        return finished
    finally:
        if workdir is None:
            shutil.rmtree(scratch, ignore_errors=True)


def _chown_tree(folder: str, uid: int, gid: int) -> None:
    """Every file under `folder` (and it) given to `uid`, links themselves (never followed)."""
    os.chown(folder, uid, gid, follow_symlinks=False)
    for where, dirs, names in os.walk(folder):
        for name in dirs + names:
            try:
                os.chown(os.path.join(where, name), uid, gid, follow_symlinks=False)
            except OSError:
                pass


def _run(command: List[str], data: bytes, timeout: float, cap: int, env: dict, cwd: str) -> Finished:
    started = time.monotonic()
    try:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=cwd, env=env, start_new_session=True, close_fds=True)
    except OSError as exc:           # unboxed: not a program the system can start
        message = f"{START_MARK} {command[0]}: {exc.strerror or exc}"
        return Finished(b"", message.encode(), CANNOT_START, False, False, 0.0)
    out, err = bytearray(), bytearray()
    overflowed = threading.Event()

    def read(stream, buffer: bytearray, head: bool):
        """Read `stream` to its end into `buffer`: its first `cap` bytes (more stops the run),
        or (head False) its last ERROR_TAIL bytes."""
        while True:
            chunk = os.read(stream.fileno(), READ_CHUNK)
            if not chunk:
                return
            buffer.extend(chunk)
            if not head:
                del buffer[:-ERROR_TAIL]
            elif len(buffer) > cap:
                del buffer[cap:]
                overflowed.set()
                _kill(proc)
                return

    def write_input():
        try:
            proc.stdin.write(data)
            proc.stdin.close()
        except OSError:            # it stopped reading (or exited): what it printed still counts
            pass

    threads = [threading.Thread(target=read, args=(proc.stdout, out, True), daemon=True),
               threading.Thread(target=read, args=(proc.stderr, err, False), daemon=True),
               threading.Thread(target=write_input, daemon=True)]
    for thread in threads:
        thread.start()
    timed_out = False
    try:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = not overflowed.is_set()
    finally:
        _kill(proc)                 # its group: whatever it started goes with it
        proc.wait()
        for thread, stream in zip(threads, (proc.stdout, proc.stderr, proc.stdin)):
            thread.join(timeout=1.0)
            if not thread.is_alive():  # a pipe still held by an escaped process stays open: a
                try:                   # closed descriptor's number could be reused under the reader
                    stream.close()
                except OSError:
                    pass
    stopped = timed_out or overflowed.is_set()
    return Finished(bytes(out), bytes(err), None if stopped else proc.returncode, timed_out,
                    overflowed.is_set(), time.monotonic() - started)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def contained(argv: Sequence[str], workdir: str, box: BoxSettings, limit: Optional[float] = None,
              grace: float = 1.0) -> tuple:
    """(argv, env) that start `argv` boxed (the box's limits; inside bubblewrap where it works)
    with `workdir` as its working folder, HOME and TMPDIR, the one folder it may write in; the
    program's own folder is shown read-only. For a program the caller starts and talks to itself
    (an NTHU player, a UCI engine). limit: a wall-clock limit kept inside the box as the NTHU
    runner keeps it (coreutils `timeout`: SIGTERM at the limit to the program and what it started,
    SIGKILL `grace` seconds later); the caller's own clock stays the last resort."""
    argv = list(argv)
    if argv and argv[0] == sys.executable:
        argv[0] = os.path.realpath(sys.executable)     # a venv's link is not shown in the box
    if bwrap()[0] is not None and os.geteuid() == 0:
        _copy_unreachable(argv, workdir)
    home = home_of(argv, workdir)
    if limit is not None and TIMEOUT_PROGRAM:
        argv = [TIMEOUT_PROGRAM, "--kill-after", f"{grace:g}", f"{limit:g}", *argv]
    launcher = [sys.executable, "-S", LAUNCHER, workdir, *argv]
    os.chmod(workdir, 0o777)     # run as root, the box's program has a user id of its own
    command, settings = box_command(box, launcher, os.path.join(home, "program") if home else None,
                                    writable=[workdir])
    # its HOME and TMPDIR: its working folder, as the box shows it (WORK_MOUNT)
    there = WORK_MOUNT if bwrap()[0] is not None and box.fixed_mounts else workdir
    return command, untrusted_env(there, {BOX_ENV: settings[BOX_ENV]})


TIMEOUT_PROGRAM = shutil.which("timeout", path="/usr/bin:/bin")
COPIES = ".program"          # in the working folder: programs the box's own user could not reach


def _reachable(path: str) -> bool:
    """Can any user read `path` (and pass through every folder above it)?"""
    try:
        if not os.stat(path).st_mode & 0o004:
            return False
        folder = os.path.dirname(path)
        while folder not in ("/", ""):
            if not os.stat(folder).st_mode & 0o001:
                return False
            folder = os.path.dirname(folder)
    except OSError:
        return False
    return True


def _copy_unreachable(argv: List[str], workdir: str) -> None:
    """Run as root, the box's program has a user id of its own, which cannot read a program kept
    in a folder only root may enter (a home folder of mode 0700): such a program file (the
    command, or the script an interpreter runs) is run from a copy in its working folder."""
    index = 1 if len(argv) > 1 and os.path.isabs(argv[1]) and os.path.isfile(argv[1]) else 0
    path = argv[index]
    if not os.path.isabs(path) or not os.path.isfile(path) or _reachable(path):
        return
    folder = os.path.join(workdir, COPIES)
    os.makedirs(folder, exist_ok=True)
    os.chmod(folder, 0o755)
    copy = os.path.join(folder, os.path.basename(path))
    if not os.path.exists(copy):
        shutil.copyfile(path, copy)
        os.chmod(copy, 0o755)
    argv[index] = copy
