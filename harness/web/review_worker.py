"""One game's review for the web app (`serve`'s Review button), in a process of its own so the
analyser's search never slows the server: ``python -m harness.web.review_worker`` reads the task
(``{"record", "spec", "nodes"}``, one JSON line) on standard input and writes JSON lines on
standard output: ``{"total": N}`` (the positions of the first look), ``{"done": K}`` after each
position evaluated (second looks go past N), then ``{"entry": ...}`` (the game's analysis.jsonl
line, `harness.analysis.review.review_game`) or ``{"error": "one line"}``. Ctrl-C is the
server's to handle: this process ignores it and is killed by the server (`Reviews.close`)."""
import json
import signal
import sys
from typing import Any, Callable, Optional

from ..analysis.analysers import make_analyser
from ..analysis.review import game_states, review_game
from ..core.analyser import AnalysisError
from ..variants import find_variant


class Counted:
    """An analyser that says each evaluation it makes (everything else is the analyser's own)."""

    def __init__(self, analyser, tell: Callable[[], None]):
        self._analyser = analyser
        self._tell = tell

    def evaluate(self, state: Any, nodes: Optional[int] = None):
        found = self._analyser.evaluate(state, nodes)
        self._tell()
        return found

    def __getattr__(self, name: str):
        return getattr(self._analyser, name)


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def review(task: dict) -> dict:
    record = task["record"]
    variant = find_variant(record["variant"])
    states, moves = game_states(record, variant)
    first = min(max(int(record.get("opening_plies") or 0), 0), len(moves))
    say({"total": sum(1 for state in states[first:] if variant.outcome(state) is None) if first < len(moves) else 0})
    analyser = make_analyser(task.get("spec"), variant.name, task.get("nodes"))
    try:
        analyser.verify()
        done = [0]

        def tell():
            done[0] += 1
            say({"done": done[0]})
        return review_game(record, variant, Counted(analyser, tell))
    finally:
        analyser.close()


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        entry = review(json.loads(sys.stdin.readline()))
    except AnalysisError as exc:
        say({"error": str(exc)})
        return 1
    except BrokenPipeError:             # the server has gone
        return 1
    except Exception as exc:            # one line for the page, never a traceback
        say({"error": f"{type(exc).__name__}: {exc}"})
        return 1
    say({"entry": entry})
    return 0


if __name__ == "__main__":
    sys.exit(main())
