"""Command-line value types shared by every parser of the project (the CLI and the course programs
a variant ships): a bad value is argparse's one-line error naming the value."""
import argparse
from typing import Callable, Optional


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
