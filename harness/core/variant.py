"""The interface every game (variant) offers to the referee, series, reports, replay and perft.

Model: OpenSpiel's Game/State split and python-chess's Outcome. A variant is one object (a
subclass of `Variant`) that knows its rules; a *state* is one position plus whatever the end
rules need (side to move, ply count, counters). States are never changed in place: `apply`
returns a new one, so the referee can hand a state to anyone.

What the referee needs of a variant, and nothing else:

- ``name``, ``title``; ``start(...)`` the first state (optionally from a config file or a FEN,
  see each variant); ``to_move(state)`` the colour to move (``WHITE`` or ``BLACK``);
- ``legal_moves(state)`` the moves of the side to move, in the variant's fixed order, as
  `Move` values; ``apply(state, move)`` the next state;
- ``outcome(state)`` None while the game goes on, else an `Outcome` (the end rules, in the
  variant's documented order, checked before each ply);
- ``move_name(move)`` / ``parse_move(text)`` moves to and from text such as ``d2d3``;
- ``values`` material values by piece name; ``board_text(state, last=None)`` a text board;
  ``grid(state)`` and ``square_names()`` the board as data for pictures (the HTML viewer);
- ``perft(state, depth)`` move sequences of a given length (a variant may override the generic
  one with a faster path);
- ``protocol``: how an agent is shown the game and how its answer is read (`AgentProtocol`;
  CS3243 shows the course's gameboard dict, other variants may show the state itself).
"""
import enum
from dataclasses import dataclass
import importlib
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple, Type

WHITE, BLACK = "White", "Black"
COLOURS = (WHITE, BLACK)
OTHER = {WHITE: BLACK, BLACK: WHITE}


class Ending(str, enum.Enum):
    """The base of every list of endings (the core's `Termination` and each variant's own): a
    member's value is what results.jsonl records as ``reason``, its `words` how the ending reads
    ("{L} is checkmated": W the winner, L the other side, M the side to move, l the loser's agent;
    empty: the page says "by REASON"). A variant with endings of its own subclasses this
    (``class CongoEnding(Ending): LION_CAPTURE = "lion_capture", "{L}'s lion is gone"``) and
    names the class in `Variant.terminations`: a new game needs no edit here."""

    words: str

    def __new__(cls, value: str, words: str = ""):
        member = str.__new__(cls, value)
        member._value_ = value
        member.words = words
        return member

    def __str__(self) -> str:
        return self.value


class Termination(Ending):
    """The endings every game may meet: the limits and draws common to many games, the faults the
    referee sets when an agent fails (the other side wins) and a human's resignation."""
    CHECKMATE = "checkmate", "{L} is checkmated"         # every move leaves the attacked King attacked
    STALEMATE = "stalemate"                   # no legal move, not in check: draw
    REPETITION = "repetition"                 # a position stands for the third time: draw
    NO_MOVES_DRAW = "no_moves_draw", "{M} has no move at all"    # the side to move has no move: draw
    FIFTY_MOVE_DRAW = "fifty_move_draw", "too many plies without a capture"   # N quiet plies
    MAX_PLIES = "max_plies", "the game reached its ply limit"
    # Faults, set by the referee when an agent fails (the other side wins)
    ILLEGAL_MOVE = "illegal_move", "{L} ({l}) played a move that is not legal"
    TIMEOUT = "timeout", "{L} ({l}) did not answer in time"
    CRASH = "crash", "{L} ({l}) failed"
    GAME_TIME = "game_time", "{L} ({l}) used up its time for the game"   # its thinking over the game ran out
    # A human player (play --white human, serve) gave up: the other side wins
    RESIGNATION = "resignation", "{L} resigned"


FAULTS = frozenset((Termination.ILLEGAL_MOVE, Termination.TIMEOUT, Termination.CRASH,
                    Termination.GAME_TIME))


@dataclass(frozen=True)
class Fault:
    """What an agent did wrong: the structured cause behind a fault termination."""
    colour: str                       # WHITE or BLACK: the side at fault
    message: str                      # one line, e.g. "no answer within 30 s"
    exc_type: Optional[str] = None    # the exception's class name, when it raised
    line: Optional[int] = None        # the line of the agent's file where it failed, if known

    def text(self) -> str:
        """The record's ``error`` text: ``White: ValueError: boom (AB.py line 3)``-style."""
        return f"{self.colour}: {self.message}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the termination, the winning colour (None for a draw), any fault."""
    termination: Ending               # the core's `Termination` or the variant's own `Ending`
    winner: Optional[str]
    fault: Optional[Fault] = None

    @property
    def result(self) -> str:
        """'white', 'black' or 'draw', as results.jsonl records it."""
        return self.winner.lower() if self.winner else "draw"

    @property
    def reason(self) -> str:
        return self.termination.value


class SetupError(ValueError):
    """A file a variant reads its start position from (a config or state file) that it cannot
    read: str() is ``<path>:<line>: <problem>`` (line 1-based, 0 = the whole file). Every variant's
    file errors derive from it, so the command line writes any of them as one line."""

    def __init__(self, path: str, line: int, problem: str):
        self.path = path
        self.line = line
        self.problem = problem
        super().__init__(f"{path}:{line}: {problem}")

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.problem}"


class Move(NamedTuple):
    """A move from one square index to another; `promotion` names the piece a pawn becomes
    when the mover chooses it (None when the variant promotes by itself or not at all)."""
    from_square: int
    to_square: int
    promotion: Optional[str] = None


class AgentProtocol:
    """How agents see a game and answer. The default: the agent is shown the state itself
    (states are immutable) and answers with a `Move` or a move name; the referee accepts it
    only when it is one of the legal moves."""

    def __init__(self, variant: "Variant"):
        self.variant = variant

    def view(self, state: Any, colour: str) -> Any:
        """What the agent to move is given (a fresh object each move)."""
        return state

    def changed(self, view: Any, state: Any) -> bool:
        """Did the agent change what it was given? (Immutable views cannot change.)"""
        return False

    def read(self, state: Any, answer: Any) -> Optional[Move]:
        """The legal move the answer names, or None."""
        legal = self.variant.legal_moves(state)
        if isinstance(answer, str):
            try:
                answer = self.variant.parse_move(answer)
            except ValueError:
                return None
        if isinstance(answer, tuple) and not isinstance(answer, Move) and len(answer) in (2, 3):
            answer = Move(*answer) if all(type(x) is int for x in answer[:2]) else None
        return answer if isinstance(answer, Move) and answer in legal else None


class Variant:
    """Base class of a game; subclasses fill in the rules. See the module docstring."""

    name = "variant"
    title = "a game"
    values: Dict[str, int] = {}
    protocol_class = AgentProtocol
    default_move_timeout: Optional[float] = None   # seconds per move for program/file agents (None: 30)
    # The command line's game options the variant takes ("fifty", "max_plies", "config", "fen") ->
    # its default (None: none); `game_options` applies them and the option help lists them
    # (harness/commands/common.py), as it lists `default_move_timeout` and `analyser_nodes`.
    option_defaults: Dict[str, Any] = {}
    # short phrases for that help, by option: "config" what --config reads ("a config.txt"),
    # "program" what a PROGRAM_PREFIX:PATH agent is ("an NTHU program")
    option_notes: Dict[str, str] = {}
    # The course's grading, for `report`: the opponents it plays by default, games per opponent and
    # colour, the agent's colour(s), the pass marks (not-lost rate per opponent; none: no verdict
    # from marks) and its limit on thinking per game (None: none).
    report_opponents: Tuple[str, ...] = ()
    report_games = 50
    report_colour = "white"
    pass_marks: Dict[str, float] = {}
    game_seconds: Optional[float] = None
    # The game review's analyser when `analyse` is given none: "ab" (our own search for the
    # variant, agents' registry) or "uci" (a UCI engine such as Fairy-Stockfish, which knows the
    # game by the name `uci_variant`; None: no UCI engine plays it).
    default_analyser = "ab"
    uci_variant: Optional[str] = None
    uci_variant_file: Optional[str] = None      # the engine's variants file defining it (None: built in)
    analyser_nodes: Optional[int] = None        # --nodes' default for its default analyser (None: the analyser's)
    # How the UCI analyser's centipawns read as win %: the logistic slope and the noise floor in
    # win % points (docs/analysis.md, "The rule"). By default chess's slope (lichess's 0.00368208)
    # and the floor measured for Fairy-Stockfish in cs3243; a variant fitted to its own games
    # says so (cs3243 does).
    uci_win_slope = 0.00368208
    uci_noise = 6.5
    # how `grade` grades a class of this course: "files" (a .py file per student against
    # opponents: harness/grading/grade.py and the Gradescope bundle), a key of harness.grading.GRADERS
    # ("repositories", "programs"), or None: no class grading
    class_grading: Optional[str] = None
    # The agent forms the variant's games take besides its built-in names: "file" (a path to a
    # .py file with studentAgent, run in the sandbox), "uci" (uci:PATH, a UCI engine), "program"
    # (PROGRAM_PREFIX:PATH, a program speaking the course's file protocol: `program_agent`).
    agent_forms: Tuple[str, ...] = ()
    program_prefix: Optional[str] = None
    program_factory: Optional[str] = None    # "module:function(path, environment, workspace, move_timeout, contain)" -> Agent
    # perft --black: the start position may be given Black to move (start(to_move=BLACK))
    can_start_black = False
    # the variant's own endings besides the core's `Termination` (an `Ending` subclass; None: none)
    terminations: Optional[Type[Ending]] = None

    def __init__(self):
        self.protocol = self.protocol_class(self)

    # -- to be provided by every variant ---------------------------------------------------

    def start(self, **options) -> Any:
        raise NotImplementedError

    def to_move(self, state: Any) -> str:
        raise NotImplementedError

    def legal_moves(self, state: Any) -> List[Move]:
        raise NotImplementedError

    def apply(self, state: Any, move: Move) -> Any:
        raise NotImplementedError

    def outcome(self, state: Any) -> Optional[Outcome]:
        raise NotImplementedError

    def move_name(self, move: Move) -> str:
        raise NotImplementedError

    def parse_move(self, text: str) -> Move:
        """ValueError when `text` is not a move name of this variant (legal or not)."""
        raise NotImplementedError

    def board_text(self, state: Any, last: Optional[Move] = None) -> str:
        raise NotImplementedError

    def grid(self, state: Any) -> List[List[Optional[Tuple[str, str]]]]:
        """The board for drawing: rows from the top of the picture down, each a list of cells
        left to right, a cell None or (piece letter, colour); White's side at the bottom."""
        raise NotImplementedError

    def square_names(self) -> Tuple[List[str], List[str]]:
        """Labels for drawing: (column labels left to right, row labels top to bottom)."""
        raise NotImplementedError

    # -- with defaults -----------------------------------------------------------------------

    def game_options(self, fifty: Optional[int] = None, max_plies: Optional[int] = None,
                     config: Optional[str] = None, fen: Optional[str] = None) -> Dict[str, Any]:
        """The keyword arguments of `start` for the command line's --fifty, --max-plies,
        --config and --fen (None: not given), as JSON-able values that name the game's setup in
        a series' settings. ValueError (one line) for an option this variant does not have or a
        bad value; a variant overrides this for the options it has."""
        given = {"fifty": fifty, "max_plies": max_plies, "config": config, "fen": fen}
        for key, value in given.items():
            if value is not None:
                raise ValueError(f"{self.name} has no --{key.replace('_', '-')} option")
        return {}

    def legend(self) -> str:
        """What the board's letters mean, e.g. 'K King, Q Queen, ...'."""
        return ", ".join(f"{letter} {name}" for name, letter in self.letters.items())

    letters: Dict[str, str] = {}     # piece name -> board letter (upper case)
    # the letters a move name may end with to name the piece a pawn becomes ("a4a5q"), lower case,
    # in the variant's order; none: its moves are two square names only
    promotion_pieces: Tuple[str, ...] = ()

    def describe(self, state: Any) -> str:
        """One line on the game's limits, for `play`'s header."""
        return ""

    def plies(self, state: Any) -> int:
        return state.plies

    def perft(self, state: Any, depth: int) -> int:
        """Move sequences of length `depth` from `state`; a finished game has none beyond it."""
        if depth == 0:
            return 1
        if self.outcome(state) is not None:
            return 0
        moves = self.legal_moves(state)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.apply(state, m), depth - 1) for m in moves)

    def course_grading(self, games: Dict[str, Dict[str, List[dict]]]) -> Optional[Dict[str, Any]]:
        """A course with its own rule beyond pass marks grades a report's games (opponent ->
        the agent's colour -> records): report.json's `course` entry, with `passed` and `lines`
        (its text). None by default: the pass marks are the whole rule."""
        return None

    def termination(self, reason: str) -> Optional[Ending]:
        """The ending a record's ``reason`` names: the variant's own or the core's; None when
        neither knows it."""
        for kind in (self.terminations, Termination):
            if kind is not None:
                try:
                    return kind(reason)
                except ValueError:
                    pass
        return None

    def endings(self) -> List[Ending]:
        """Every ending a game of this variant may have: its own, then the core's."""
        return (list(self.terminations) if self.terminations else []) + list(Termination)

    def replay_text(self, record: Dict[str, Any], notes) -> Optional[Iterator[str]]:
        """The `replay` text of a record when the variant has its own (CS3243: the course's rows
        with each ply's FEN and engine move), `notes(ply)` giving the lines after a ply and
        `notes(None)` those after the result (the review's); None by default: replay's generic
        text (the variant's `board_text` after each ply)."""
        return None

    def record_fields(self, start: Any, moves: List[Move]) -> Dict[str, Any]:
        """Extra fields for a game's record (e.g. a start FEN); none by default."""
        return {}

    def record_start(self, record: Dict[str, Any]) -> Any:
        """The state a recorded game (a results.jsonl record) started from: by default from the
        record's start options (fen, edition, max_plies). TypeError or ValueError when it cannot be
        set up."""
        return self.start(**{k: record[k] for k in ("fen", "edition", "max_plies") if record.get(k) is not None})

    def program_agent(self, spec, move_timeout: Optional[float], contain, environment, workspace):
        """The agent of a PROGRAM_PREFIX:PATH spec, parsed (`harness.core.agent_spec.AgentSpec`,
        kind PROGRAM; a variant whose agent forms include "program"), made by `program_factory`
        from the program's path (imported only when a program plays). The caller
        (harness.players) hands in how an untrusted program starts: `environment(workdir)` its
        whole environment, `contain` (or None) the box, `workspace(prefix)` its working folder
        (harness.isolation.exchange.Folder: files handed over and read back, never through a
        link). The spec names a path (the caller checks)."""
        assert self.program_factory is not None, "a variant that plays programs names its program_factory"
        module, function = self.program_factory.split(":")
        return getattr(importlib.import_module(module), function)(spec.path, environment, workspace, move_timeout,
                                                                  contain)

    def engine_fen(self, state: Any) -> Optional[str]:
        """The position as sent to a UCI engine (``position fen ...``); by default `fen`."""
        return self.fen(state)

    def engine_move(self, state: Any, text: str) -> Optional[Move]:
        """The legal move a UCI engine's move text names in `state`, or None."""
        try:
            move = self.parse_move(text)
        except ValueError:
            return None
        return move if move in self.legal_moves(state) else None

    def engine_view_fen(self, view: Any, colour: str) -> Optional[str]:
        """The position a UCI engine playing as an agent sends (``position fen ...``), from what the
        agent is shown (`protocol.view`); by default the view is the state: `engine_fen`."""
        return self.engine_fen(view)

    def engine_answer(self, view: Any, text: str) -> Any:
        """What a UCI engine playing as an agent answers for its move text: by default the legal
        `Move` it names, else the text itself (which the referee rejects as an illegal move)."""
        return self.engine_move(view, text) or text

    def fen(self, state: Any) -> Optional[str]:
        """The state as the text `game_options(fen=...)` reads back (the side to move included),
        or None for a variant without one."""
        return None

    def check_cell(self, state: Any) -> Optional[Tuple[int, int]]:
        """The `grid` cell (row, column) of the mover's royal piece when the other side could
        capture it with its next move (the board shows it as check), else None."""
        return None

    def regions(self) -> Dict[str, List[Tuple[int, int]]]:
        """Named groups of `grid` cells the board draws apart (Congo's river): name -> cells."""
        return {}
