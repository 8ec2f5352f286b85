"""Starts a box without showing it its own command line (stdlib only; run as ``python -S``).

Outside the box, as ``box_start.py BWRAP N OPTION*N COMMAND...`` (`harness.isolation.box.command`):
writes bwrap's N options and the box's COMMAND, NUL-separated, to two memfds and becomes
``BWRAP --args O -- PYTHON -S box_start.py --inside C O`` (exec: the same process, so the
caller's kill, its process group and bwrap's --die-with-parent work as before). bwrap reads its
options from O; its process 1 in the box shows only that short line in /proc/1/cmdline: no bind
path (OUT, the class folder, the student's name), no program argument.

Inside the box, as ``box_start.py --inside C O``: reads the COMMAND from C, closes C and O (what
the box's program could otherwise read back through /proc/self/fd), and becomes COMMAND.
If it cannot, one line on stderr and exit code 127 (as the program launcher).
"""
import os
import sys

CANNOT_START = 127


def _memfd(items, name: str) -> int:
    fd = os.memfd_create(name, 0)
    os.write(fd, b"".join(item.encode("utf-8", "surrogateescape") + b"\0" for item in items))
    os.lseek(fd, 0, os.SEEK_SET)
    os.set_inheritable(fd, True)
    return fd


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def outside(argv) -> int:
    bwrap, count = argv[1], int(argv[2])
    options, command = argv[3:3 + count], argv[3 + count:]
    python = command[0]
    options_fd = _memfd(options, "bwrap-options")
    command_fd = _memfd(command, "box-command")
    os.execv(bwrap, [bwrap, "--args", str(options_fd), "--", python, "-S", os.path.abspath(__file__),
                     "--inside", str(command_fd), str(options_fd)])
    return CANNOT_START


def inside(argv) -> int:
    command_fd, options_fd = int(argv[2]), int(argv[3])
    command = [item.decode("utf-8", "surrogateescape") for item in _read_all(command_fd).split(b"\0")[:-1]]
    for fd in (command_fd, options_fd):
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        os.execv(command[0], command)
    except (OSError, IndexError) as exc:
        os.write(2, f"cannot start {command[0] if command else 'the box'}: {getattr(exc, 'strerror', exc)}\n".encode())
    return CANNOT_START


if __name__ == "__main__":
    sys.exit(inside(sys.argv) if sys.argv[1:2] == ["--inside"] else outside(sys.argv))
