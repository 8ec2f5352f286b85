"""Command-line value types shared by every parser of the project (the CLI and the course programs
a variant ships): a bad value is argparse's one-line error naming the value. Also the parser of
the programs that write their own usage errors (the Congo course programs and their tester)."""
import argparse
import os
from typing import Callable, NoReturn, Optional


class UsageError(Exception):
    """A bad command line (exit code 2): the text is the one-line problem; when `Parser` found it,
    it begins with "PROG: error: "."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error raises UsageError("PROG: error: PROBLEM") instead of printing
    the usage and exiting, so that the caller writes it as one line and returns exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message}")


def whole_number(least: Optional[int] = None) -> Callable[[str], int]:
    """An int converter; with `least`, values below it are refused."""
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if least is not None and value < least:
            raise argparse.ArgumentTypeError(f"'{text}' must be at least {least}")
        return value
    return convert


def positive_number(unit: str) -> Callable[[str], float]:
    """A float converter for a positive, finite number of `unit` ("seconds", "points")."""
    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number of {unit}") from None
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"'{text}' must be a positive number of {unit}")
        return value
    return convert


positive_seconds = positive_number("seconds")


def check_writable(path: str, option: str = "--out") -> str:
    """UsageError now, before the run's work (games, cases), when the file `path` cannot be
    written: a folder, a folder that does not exist, no permission. A file that did not exist is
    not left behind."""
    if os.path.isdir(path):
        raise UsageError(f"{option} {path} is a folder: give a file name")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {path}: the folder {folder} does not exist")
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"{option} {path} cannot be written: {exc.strerror or exc}") from None
    if not existed:
        os.remove(path)
    return path
