"""A student's file as an agent: any .py file that defines `studentAgent(gameboard)`.

The file is imported under a fresh module name on every load (two loads of one file share no
state). While it is imported, its own directory is put at the front of sys.path so that it can
import its sibling modules; the entry is removed afterwards.

The course's student always plays White. When this agent plays Black it shows the file the
board seen from the other side: every row r becomes rows-1-r and the colours are swapped, the
dict keeping its order; the answer is mapped back the same way (rows mirrored). An answer that
is not two squares is returned unchanged for the referee to reject; a list where a tuple is
expected is accepted and converted. Errors raised by `studentAgent` propagate (the referee
scores them as a crash). Process isolation and time limits belong to the harness's sandbox.

A Ctrl-C while the file thinks stops the run even when the file catches it (AB.py's bare
`except:` answers with its fallback move): once the file has answered, KeyboardInterrupt is
raised again, and the answer is not played (harness.core.interrupts). Not in the sandbox's worker
(`ctrl_c_stops=False`): its parent stops it, and a SIGINT the file sent itself and caught is the
file's own business there, as in the course.
"""
import importlib.machinery
import importlib.util
import itertools
import os
import sys

from harness.variants.cs3243.rules import RULES
from harness.variants.cs3243.pieces import BLACK, WHITE

from ..core.agent import Agent, AgentError
from ..core.interrupts import CtrlC

_load_counter = itertools.count(1)
_OTHER = {WHITE: BLACK, BLACK: WHITE}


def load_student_module(path: str):
    """Import the file at `path` as a new, independent module and return it."""
    stem = os.path.splitext(os.path.basename(path))[0]
    safe_stem = "".join(c if c.isalnum() else "_" for c in stem)
    module_name = f"_student_{next(_load_counter)}_{safe_stem}"
    # the source loader named outright: a .PY (a second download's `AB (2).PY`) is Python source
    # too, which importlib would not take from the suffix alone
    spec = importlib.util.spec_from_file_location(module_name, path,
                                                  loader=importlib.machinery.SourceFileLoader(module_name, path))
    if spec is None or spec.loader is None:
        raise AgentError(f"cannot load '{path}' as a Python module")
    module = importlib.util.module_from_spec(spec)
    directory = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, directory)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    finally:
        try:
            sys.path.remove(directory)   # the first occurrence: the one inserted above
        except ValueError:
            pass
    return module


def mirror_gameboard(gameboard, rows: int = RULES.variant.rows):
    """The board as White would see it if it were Black: rows mirrored, colours swapped, the
    dict's order kept. Its own inverse. Entries that are not (square, (piece, colour)) pairs are
    left as they are."""
    out = {}
    for square, value in gameboard.items():
        try:
            (letter, row), (piece, colour) = square, value
            if type(row) is int and colour in _OTHER:
                square, value = (letter, rows - 1 - row), (piece, _OTHER[colour])
        except (TypeError, ValueError):
            pass
        out[square] = value
    return out


class StudentAgent(Agent):
    def __init__(self, path: str, rules=RULES, ctrl_c_stops: bool = True):
        self.path = path
        self.ctrl_c_stops = ctrl_c_stops
        self.name = path
        self.rules = rules
        self.module = load_student_module(path)
        function = getattr(self.module, "studentAgent", None)
        if not callable(function):
            raise AgentError(f"'{path}' does not define studentAgent(gameboard)")
        self.function = function

    def mirror_gameboard(self, gameboard):
        return mirror_gameboard(gameboard, self.rules.variant.rows)

    def close(self) -> None:
        """The game is over: the module leaves sys.modules, so that it (with whatever tables the
        agent built) goes when the agent does; a bench of hundreds of games in one process kept
        every game's copy before (AB.py's transposition tables: tens of MB a game)."""
        sys.modules.pop(self.module.__name__, None)

    def _square(self, square, mirror: bool):
        """The square as a tuple (row mirrored if asked), or None when it is not a square."""
        if self.rules.variant.square_index(square) is None:
            return None
        letter, row = square
        return (letter, self.rules.variant.rows - 1 - row) if mirror else (letter, row)

    def choose_move(self, gameboard, colour, rng):
        black = colour == BLACK
        shown = self.mirror_gameboard(gameboard) if black else dict(gameboard)
        with CtrlC(self.ctrl_c_stops) as ctrl_c:
            answer = self.function(shown)
        if ctrl_c.seen:
            raise KeyboardInterrupt   # the file caught it and answered anyway
        if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
            return answer
        source, target = self._square(answer[0], black), self._square(answer[1], black)
        if source is None or target is None:
            return answer
        return (source, target)
