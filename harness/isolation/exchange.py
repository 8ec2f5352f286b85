"""The exchange: the one place the grader hands files to a program it runs and reads back what
the program left. What a program leaves is hostile input (docs/grading.md, "What the grader reads
back"):

- a program's working folder is made fresh by the grader (`Folder`, under the run's own parent
  folder, `run_folder`) and is reached through a descriptor of it, never again by its path;
- a file handed over (NTHU's `state`) is created afresh each time: whatever the program left under
  that name (a file, a link, a FIFO, a folder) is removed first and the file is created with
  O_CREAT|O_EXCL|O_NOFOLLOW, so the grader never writes through a link the program planted;
- a file read back (NTHU's `action`) is opened with O_NOFOLLOW and O_NONBLOCK (a FIFO cannot hang
  the grader), checked with fstat to be a regular file with one link, and read up to a cap; a
  link, FIFO, device, socket, folder, hard link or larger file is `ExchangeError`, whose text (one
  line) is the program's fault: that program loses, the class goes on;
- what a program prints goes to a file of the grader's outside its folder (`capture`), read back
  from the grader's own descriptor with a cap (`read_printed`), never by a name the program can
  replace;
- a pipe a program writes to is read in lines of a capped length (`LineTooLong`; uci_engine,
  sandbox).

A run's player folders live in one parent folder (`run_folder`): removed when the run ends, on
Ctrl-C and SIGTERM too, and a parent left by a run that was killed outright (its process gone) is
removed when the next run starts, so a killed grading leaves no folder behind for long.
"""
import contextlib
import errno
import os
import shutil
import signal
import stat
import tempfile
import threading
from typing import Iterator, Optional

RUN_ENV = "MINICHESS_EXCHANGE_PARENT"   # the run's parent folder, inherited by the pool's workers
RUN_PREFIX = "minichess-run-"           # RUN_PREFIX + PID + "-" + random: the parent of one run
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_NOCTTY | os.O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_CHUNK = 1 << 16


class ExchangeError(Exception):
    """A file a program left that the grader does not read or replace; str() is one line naming
    the file and what it is."""


class LineTooLong(ExchangeError):
    """A program wrote a line longer than the grader reads to a pipe."""


def kind_of(mode: int) -> str:
    """What a file of `mode` is, in words."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def check_regular(info: os.stat_result, name: str, cap: int) -> None:
    """ExchangeError unless `info` is a regular file with one link and at most `cap` bytes."""
    if not stat.S_ISREG(info.st_mode):
        raise ExchangeError(f"'{name}' is {kind_of(info.st_mode)}, not a regular file: not read")
    if info.st_nlink > 1:
        raise ExchangeError(f"'{name}' is a hard link to another file: not read")
    if info.st_size > cap:
        raise ExchangeError(f"'{name}' holds {info.st_size} bytes, more than the {cap} read: not read")


def read_descriptor(fd: int, name: str, cap: int) -> bytes:
    """The bytes of the open regular file `fd` (fstat-checked), at most `cap` (more: ExchangeError)."""
    check_regular(os.fstat(fd), name, cap)
    data = bytearray()
    while len(data) <= cap:
        chunk = os.read(fd, min(READ_CHUNK, cap + 1 - len(data)))
        if not chunk:
            return bytes(data)
        data += chunk
    raise ExchangeError(f"'{name}' holds more than the {cap} bytes read: not read")


def open_read(path: str, name: Optional[str] = None, dir_fd: Optional[int] = None) -> int:
    """A descriptor of `path` opened to read without following a link at its end and without
    blocking on a FIFO; ExchangeError (naming it `name`) when it cannot be."""
    name = name or path
    try:
        return os.open(path, READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ExchangeError(f"'{name}' is a symbolic link: not read") from None
        if exc.errno == errno.ENOENT:
            raise
        raise ExchangeError(f"'{name}' cannot be read: {exc.strerror}") from None


def read_file(path: str, cap: int, name: Optional[str] = None) -> bytes:
    """The bytes of the regular file `path` (a file a program could have made: not a link at its
    end, not a FIFO or device, one link), at most `cap`; ExchangeError otherwise,
    FileNotFoundError when there is none."""
    fd = open_read(path, name)
    try:
        return read_descriptor(fd, name or path, cap)
    finally:
        os.close(fd)


def read_inside(root: str, relative: str, cap: int) -> bytes:
    """The bytes of `relative` under the folder `root` (a student's copy): ExchangeError when it
    names a place outside `root` (absolute, `..`, or through a link leading out), or is not a
    regular file of at most `cap` bytes; FileNotFoundError when there is none."""
    real_root = os.path.realpath(root)
    if os.path.isabs(relative) or os.path.normpath(relative).split(os.sep)[0] == "..":
        raise ExchangeError(f"'{relative}' is outside the repository: not read")
    target = os.path.realpath(os.path.join(root, relative))
    if not target.startswith(real_root + os.sep):
        if not os.path.lexists(os.path.join(root, relative)):
            raise FileNotFoundError(relative)
        raise ExchangeError(f"'{relative}' is a link leading outside the repository: not read")
    return read_file(target, cap, relative)


def remove_tree(path: str, dir_fd: Optional[int] = None) -> None:
    """Remove the folder `path` and all in it, never following a link; folders a program made
    unreadable are opened (fchmod of a descriptor opened without following links) and removed."""
    def retry(function, failed, info):
        parent = os.path.dirname(failed) if function is not os.rmdir else failed
        for folder in {parent, failed}:
            try:
                fd = os.open(folder, DIR_FLAGS, dir_fd=dir_fd)
            except OSError:
                continue
            try:
                os.fchmod(fd, 0o700)
            finally:
                os.close(fd)
        shutil.rmtree(failed, ignore_errors=True, dir_fd=dir_fd)
    shutil.rmtree(path, onerror=retry, dir_fd=dir_fd)


class Folder:
    """A program's working folder, made fresh by the grader under the run's parent: files handed
    over and read back by name through the folder's descriptor, never through a link. What the
    program prints goes to a `capture`, never into the folder."""

    Error = ExchangeError         # for callers below isolation (a variant's program agent)

    def __init__(self, prefix: str):
        self.path = tempfile.mkdtemp(prefix=prefix, dir=run_parent())
        self.fd = os.open(self.path, DIR_FLAGS)

    def remove(self, name: str) -> None:
        """Whatever the program left under `name` (a file, a link, a FIFO, a folder) removed."""
        try:
            info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return
        try:
            if stat.S_ISDIR(info.st_mode):
                remove_tree(name, dir_fd=self.fd)
            else:
                os.unlink(name, dir_fd=self.fd)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise ExchangeError(f"'{name}' ({kind_of(info.st_mode)}) cannot be removed: {exc.strerror}") from None

    def hand_over(self, name: str, data: bytes, mode: int = 0o644) -> None:
        """The file `name` created afresh with `data` (whatever had the name removed first)."""
        self.remove(name)
        try:
            fd = os.open(name, WRITE_FLAGS, mode, dir_fd=self.fd)
        except OSError as exc:
            raise ExchangeError(f"'{name}' cannot be created: {exc.strerror}") from None
        try:
            os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)

    def read_back(self, name: str, cap: int) -> Optional[bytes]:
        """The bytes the program left in `name` (None when there is no such file); ExchangeError
        for a link, FIFO, device, socket, folder, hard link or a file over `cap` bytes."""
        try:
            info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        check_regular(info, name, cap)            # refused before it is opened (a device is never opened)
        try:
            fd = open_read(name, name, self.fd)
        except FileNotFoundError:
            return None
        try:
            return read_descriptor(fd, name, cap)
        finally:
            os.close(fd)

    @staticmethod
    def capture():
        return capture()

    @staticmethod
    def printed(file, limit: int) -> str:
        """What the program printed into the capture `file`, cut to `limit` bytes ("" when nothing)."""
        return read_printed(file.fileno(), limit) or ""

    @staticmethod
    def printed_end(file, limit: int) -> str:
        """The last `limit` bytes the program printed into `file` ("" when nothing): where a
        crash's message (a traceback's last lines) is, however much came before."""
        size = os.fstat(file.fileno()).st_size
        return read_printed(file.fileno(), limit, max(0, size - limit)) or ""

    def close(self) -> None:
        """The folder and all in it removed (safe twice)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
            if os.path.isdir(self.path):
                remove_tree(self.path)


def capture():
    """A file of the grader's for what a program prints (its stdout and stderr), outside every
    folder a program is shown and without a name: read it with `read_printed`."""
    return tempfile.TemporaryFile(dir=run_parent())


def read_printed(fd: int, limit: int, offset: int = 0) -> Optional[str]:
    """What was printed into the capture `fd` from `offset` on (None when nothing), cut to
    `limit` bytes. pread: the file offset is shared with the program, which may still write."""
    size = os.fstat(fd).st_size - offset
    if size <= 0:
        return None
    text = os.pread(fd, min(size, limit), offset).decode("utf-8", errors="replace")
    if size > limit:
        text += f"\n... [{size - limit} more bytes]"
    return text


def read_line(stream, limit: int) -> bytes:
    """The next line of the binary `stream` (b"" at its end), at most `limit` bytes; LineTooLong
    when the program wrote a longer one."""
    line = stream.readline(limit + 1)
    if len(line) > limit and not line.endswith(b"\n"):
        raise LineTooLong(f"wrote a line longer than {limit} bytes")
    return line


# ----------------------------------------------------------------------------- the run's parent


def run_parent() -> Optional[str]:
    """The run's parent folder (`run_folder`) when one is open and still there, else None (the
    system's temporary folder)."""
    parent = os.environ.get(RUN_ENV)
    return parent if parent and os.path.isdir(parent) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep(folder: Optional[str] = None) -> int:
    """Remove the parents left by runs whose process is gone (killed outright: no `finally` ran);
    how many were removed. Only this user's, only those named RUN_PREFIX + PID."""
    folder = folder or tempfile.gettempdir()
    removed = 0
    for name in os.listdir(folder):
        if not name.startswith(RUN_PREFIX):
            continue
        pid = name[len(RUN_PREFIX):].split("-", 1)[0]
        path = os.path.join(folder, name)
        try:
            info = os.stat(path, follow_symlinks=False)
        except OSError:
            continue
        if pid.isdigit() and stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not _alive(int(pid)):
            remove_tree(path)
            removed += 1
    return removed


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be, so that the run stops as it does on Ctrl-C."""


def _on_sigterm(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def run_folder() -> Iterator[str]:
    """A run's parent folder of every program folder and capture made in this process and the
    pool workers it forks (through RUN_ENV): the parents of killed runs are swept first; the
    folder is removed when the block ends, whatever ends it. SIGTERM in the block (main thread
    only) stops it as Ctrl-C does."""
    sweep()
    parent = tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid()}-")
    previous_env = os.environ.get(RUN_ENV)
    os.environ[RUN_ENV] = parent
    previous_handler = None
    if threading.current_thread() is threading.main_thread():
        previous_handler = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield parent
    finally:
        if previous_handler is not None:
            signal.signal(signal.SIGTERM, previous_handler)
        if previous_env is None:
            os.environ.pop(RUN_ENV, None)
        else:
            os.environ[RUN_ENV] = previous_env
        remove_tree(parent)
