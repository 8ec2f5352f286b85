"""The progress display of a long run (a bar, a plain line every few seconds, or nothing), with
the wins, draws and losses so far. Used by the series, the game review and the puzzles."""
import sys
import time
from typing import Callable, Optional

from tqdm import tqdm

from .results import outcome


class _Tally:
    """Wins/draws/losses from each plan's perspective, for the progress display, and the caller's
    `status` text after them (e.g. a test statistic as it moves)."""

    def __init__(self, status: Optional[Callable[[], str]] = None):
        self.counts = {"win": 0, "draw": 0, "loss": 0}
        self.status = status

    def add(self, record: dict, colour: str) -> None:
        self.counts[outcome(record, colour)] += 1

    def __str__(self) -> str:
        text = f"W{self.counts['win']} D{self.counts['draw']} L{self.counts['loss']}"
        return f"{text} {self.status()}" if self.status is not None else text


PROGRESS_MODES = ("bar", "plain", "none")


PLAIN_EVERY_SECONDS = 5.0


class Progress:
    """A tqdm bar on a terminal; elsewhere (CI logs, `| tee`) a plain line every few seconds and
    at the end; or nothing. `tally` is shown beside the count (anything with a str())."""

    def __init__(self, mode, total: int, initial: int, label: str, tally, unit: str = "game"):
        """mode: one of PROGRESS_MODES; 'auto', None or True: a bar on a terminal, else plain
        lines; False: 'none'."""
        if mode is False:
            mode = "none"
        elif mode is None or mode is True or mode == "auto":
            mode = "bar" if sys.stderr.isatty() else "plain"
        self.mode, self.total, self.done, self.label, self.tally, self.unit = mode, total, initial, label, tally, unit
        self.started = self.last = time.monotonic()
        self.bar = None
        if mode == "bar":
            self.bar = tqdm(total=total, initial=initial, unit=unit, desc=label, dynamic_ncols=True)
            self.bar.set_postfix_str(str(tally))

    def update(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(str(self.tally))
        elif self.mode == "plain":
            now = time.monotonic()
            if now - self.last >= PLAIN_EVERY_SECONDS or self.done == self.total:
                self.last = now
                print(f"{self.label}: {self.done}/{self.total} {self.unit}s, {self.tally}, {now - self.started:.0f} s",
                      file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
