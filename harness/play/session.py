"""One game with human and agent sides: what `play --white human` and the web app (`serve`) share.

A `Session` holds the variant, the `Game`, each side's spec (``human`` or an agent spec, built
through `harness.players` exactly as `series` builds it: a .py file runs in the sandbox and the
box with the same limits) and every ply played, so a human's move can be taken back. Agents
answer through the referee's own `agent_turn`, so an agent that crashes, hangs or answers
garbage loses here as it loses in a series. The human has no clock.

A human's typed move is read by `read_move`: record notation (``b1b2``; also ``b1-b2``,
``b1 b2``, any case); anything that is not one of the moves here is refused with the reason
(not a move name; no piece on the square; the other side's piece; a piece that cannot go
there). `probe` asks any agent what it would play in a position (its move, its time and, when
its search gives one, its score). `Session.record()` is the game as a results record (see
docs/report.md); a resignation ends the game by ``resignation``.
"""
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import players
from ..core.agent import Agent
from ..isolation.box import BoxSettings
from ..core.game import Game
from ..core.referee import Turn, agent_rng, agent_turn, game_record
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT
from ..core.variant import BLACK, COLOURS, FAULTS, OTHER, WHITE, Move, Outcome, Termination, Variant

HUMAN = "human"
SECONDS_DIGITS = 3


class Refused(ValueError):
    """A typed move that is not played; the text says why (one line)."""


class HumanSide(Agent):
    """A human's side in a record: its name only (the session asks the person, not this)."""

    name = HUMAN

    def choose_move(self, view, colour, rng):
        raise RuntimeError("a human side is asked through the session, not as an agent")


# ----------------------------------------------------------------------------- reading a move


def square_cells(variant: Variant) -> Dict[str, Tuple[int, int]]:
    """Square name -> (row, column) of `variant.grid`, from the variant's labels."""
    columns, rows = variant.square_names()
    return {f"{c}{r}".lower(): (i, j) for i, r in enumerate(rows) for j, c in enumerate(columns)}


def split_move(variant: Variant, text: str) -> Optional[Tuple[str, str]]:
    """(from-square, to-square) when `text` is two square names run together, perhaps followed by
    a promotion's piece letter (``a4a5q``: one of the variant's `promotion_pieces`), else None."""
    cells = square_cells(variant)
    pieces = set(variant.promotion_pieces)
    for cut in range(1, len(text)):
        source, target = text[:cut], text[cut:]
        if source in cells and target in cells:
            return source, target
        if source in cells and target[:-1] in cells and target[-1:] in pieces:
            return source, target[:-1]
    return None


def piece_name(variant: Variant, letter: str) -> str:
    names = {mark.upper(): name for name, mark in variant.letters.items()}
    return names.get(letter.upper(), f"piece {letter}")


def normalise(text: str) -> str:
    """``B1-b2`` / ``b1 b2`` -> ``b1b2``."""
    return re.sub(r"[\s\-]+", "", text).lower()


def read_move(variant: Variant, state: Any, text: str) -> Move:
    """The legal move `text` names in `state`; Refused with the reason otherwise."""
    name = normalise(text)
    squares = split_move(variant, name)
    if squares is None:
        raise Refused(f"'{text.strip()}' is not a move: give the from- and to-square, e.g. "
                      f"{example(variant, state)}")
    legal = variant.legal_moves(state)
    try:
        move = variant.parse_move(name)
    except ValueError:
        move = None
    if move is not None and move in legal:
        return move
    promotions = [variant.move_name(m) for m in legal if move is not None and m.promotion
                  and (m.from_square, m.to_square) == (move.from_square, move.to_square)]
    if promotions:
        raise Refused(f"'{text.strip()}' is a promotion: name the piece, one of {', '.join(promotions)}")
    raise Refused(f"'{text.strip()}' is not a move here: {why_not(variant, state, *squares, legal)}")


def why_not(variant: Variant, state: Any, source: str, target: str, legal: List[Move]) -> str:
    """Why the move from `source` to `target` is not one of `legal`."""
    row, col = square_cells(variant)[source]
    cell = variant.grid(state)[row][col]
    mover = variant.to_move(state)
    if cell is None:
        return f"there is no piece on {source}"
    letter, colour = cell
    piece = piece_name(variant, letter)
    if str(colour).lower() != mover.lower():
        return f"the {piece} on {source} is {colour}'s, and {mover} is to move"
    targets = [variant.move_name(m)[len(source):] for m in legal
               if variant.move_name(m).startswith(source) and split_move(variant, variant.move_name(m))]
    if not targets:
        return f"the {piece} on {source} has no move in this position"
    if source == target:
        return f"a move must leave {source}"
    return f"the {piece} on {source} cannot go to {target} (it can go to {', '.join(targets)})"


def example(variant: Variant, state: Any) -> str:
    legal = variant.legal_moves(state)
    return variant.move_name(legal[0]) if legal else "b1b2"


# ----------------------------------------------------------------------------- the probe


@dataclass
class Probe:
    """What an agent would play: its move (None when it failed), seconds, score, the failure."""
    agent: str
    move: Optional[str]
    seconds: float
    score: Optional[Dict[str, int]] = None
    error: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"agent": self.agent, "move": self.move, "seconds": self.seconds}
        if self.score is not None:
            data["score"] = self.score
        if self.error is not None:
            data["error"] = self.error
        return data

    def text(self) -> str:
        if self.move is None:
            return f"{self.agent} has no move here: {self.error}"
        return f"{self.agent} would play {self.move} ({self.seconds:.3f} s{score_text(self.score)})"


def score_text(score: Optional[Dict[str, int]]) -> str:
    """', score +0.35' / ', wins in 3' / '' from the mover's side."""
    if not score:
        return ""
    if "mate" in score:
        n = score["mate"]
        return f", wins in {n}" if n > 0 else f", loses in {-n}"
    return f", score {score['cp'] / 100:+.2f}"


def probe(variant: Variant, state: Any, spec: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT,
          box: Optional[BoxSettings] = None, seed: int = 0,
          called_off: Optional[Callable[[Agent], bool]] = None) -> Probe:
    """Ask the agent `spec` (a fresh one, built as for a game) for its move in `state`.
    `called_off(agent)`, when given, is told the agent before and after it starts (so another
    thread can `abort` it) and ends the probe (Refused) when it answers True."""
    colour = variant.to_move(state)
    agent = players.build(spec, move_timeout, variant.name, box)
    try:
        for step in (lambda: None, lambda: agent.start_game(colour, seed)):
            step()
            if called_off is not None and called_off(agent):
                raise Refused("the probe was called off")
        turn = agent_turn(agent, Game(variant, state), colour, agent_rng(seed, colour))
        score = agent.move_score() if turn.move is not None else None
    finally:
        agent.close()
    seconds = round(turn.seconds, SECONDS_DIGITS)
    if turn.move is None:
        return Probe(spec, None, seconds, error=turn.outcome.fault.message)
    return Probe(spec, variant.move_name(turn.move), seconds, score)


def default_hint(variant: Variant) -> str:
    """The strongest built-in of the variant (the registry lists them weakest first)."""
    return players.builtin_names(variant.name)[-1]


# ----------------------------------------------------------------------------- the session


@dataclass
class Ply:
    colour: str
    move: Move
    seconds: float
    mutated: bool = False
    state_before: Any = None


@dataclass
class Session:
    """A game between `white` and `black`, each HUMAN or an agent spec (checked by the caller)."""
    variant: Variant
    white: str
    black: str
    seed: int = 0
    start: Any = None                           # the first state (default: the variant's start)
    move_timeout: float = DEFAULT_MOVE_TIMEOUT
    box: Optional[BoxSettings] = None
    game_time: Optional[float] = None
    plies: List[Ply] = field(default_factory=list, init=False)
    # the side that lost by a fault: (colour, seconds, changed its view) of that last turn
    faulted: Optional[Tuple[str, float, bool]] = field(default=None, init=False)

    def __post_init__(self):
        self.game = Game(self.variant, self.start)
        self.specs = {WHITE: self.white, BLACK: self.black}
        self.agents: Dict[str, Agent] = {}
        self.rngs = {colour: agent_rng(self.seed, colour) for colour in COLOURS}
        self.shut_down = False
        self.startup: Dict[str, float] = {}      # seconds each agent took to start (its latest start)
        self.starting = threading.Lock()         # one thread starts an agent at a time (serve starts them early)
        self.game.adjudicate()

    # -- questions ---------------------------------------------------------------------------

    @property
    def to_move(self) -> str:
        return self.game.to_move

    @property
    def over(self) -> bool:
        return self.game.over

    def is_human(self, colour: str) -> bool:
        return self.specs[colour] == HUMAN

    @property
    def humans_turn(self) -> bool:
        return not self.over and self.is_human(self.to_move)

    @property
    def last_move(self) -> Optional[Move]:
        return self.plies[-1].move if self.plies else None

    def legal_names(self) -> List[str]:
        return [] if self.over else [self.variant.move_name(m) for m in self.game.legal_moves()]

    # -- playing -----------------------------------------------------------------------------

    def _play(self, colour: str, move: Move, seconds: float, mutated: bool = False) -> None:
        self.plies.append(Ply(colour, move, seconds, mutated, self.game.state))
        self.game.play(move)
        self.game.adjudicate()

    def human_move(self, text: str, seconds: float = 0.0) -> Move:
        """Play the human's move named by `text`; Refused (nothing played) when it is not one."""
        if self.over:
            raise Refused(f"the game is over ({self.game.reason})")
        if not self.is_human(self.to_move):
            raise Refused(f"it is {self.to_move}'s turn, and {self.specs[self.to_move]} plays {self.to_move}")
        move = read_move(self.variant, self.game.state, text)
        self._play(self.to_move, move, seconds)
        return move

    def agent(self, colour: str) -> Agent:
        """The agent playing `colour`, built and started on first use (its start-up seconds in
        `startup`, apart from its thinking); Refused once the session is shut (`shut`), so no
        process starts after it."""
        with self.starting:
            if colour not in self.agents:
                if self.shut_down:
                    raise Refused("the game has been closed")
                began = time.perf_counter()
                agent = players.build(self.specs[colour], self.move_timeout, self.variant.name, self.box)
                self.agents[colour] = agent
                if self.shut_down:           # shut meanwhile (from another thread): this one too
                    self.agents.pop(colour, None)
                    agent.close()
                    raise Refused("the game has been closed")
                agent.start_game(colour, self.seed)
                self.startup[colour] = round(time.perf_counter() - began, SECONDS_DIGITS)
                if self.shut_down:
                    self.close()
                    raise Refused("the game has been closed")
            return self.agents[colour]

    def restore_move(self, name: str, seconds: float) -> None:
        """Play a kept game's move again (a game the web app reopens); ValueError when it is not
        a move here."""
        move = self.variant.parse_move(name) if isinstance(name, str) else None
        if move is None or self.over or move not in self.game.legal_moves():
            raise ValueError(f"ply {len(self.plies) + 1} ({name!r}) cannot be played here")
        self._play(self.to_move, move, float(seconds))

    def drop_agent(self, colour: str) -> None:
        """Stop the agent playing `colour`; the next `agent(colour)` builds and starts a new one."""
        agent = self.agents.pop(colour, None)
        if agent is not None:
            agent.close()

    def spent(self, colour: str) -> float:
        """`colour`'s thinking so far this game (against the game clock, when there is one)."""
        return sum(p.seconds for p in self.plies if p.colour == colour)

    def ask(self, colour: str, state: Any, spent: float) -> Turn:
        """The agent playing `colour` judged on `state` (the game itself is not changed, so a
        caller may ask without holding the game; see `take`)."""
        return agent_turn(self.agent(colour), Game(self.variant, state), colour, self.rngs[colour],
                          self.game_time, spent)

    def take(self, colour: str, turn: Turn) -> None:
        """Play the agent's judged turn: its move, or the end of the game by its fault."""
        if turn.outcome is not None:
            self.faulted = (colour, turn.seconds, turn.mutated)
            self.game.finish(turn.outcome)
        else:
            self._play(colour, turn.move, turn.seconds, turn.mutated)

    def agent_move(self) -> Tuple[Optional[Move], float]:
        """The agent to move plays (or loses by its fault): (its move or None, its seconds)."""
        colour = self.to_move
        turn = self.ask(colour, self.game.state, self.spent(colour))
        self.take(colour, turn)
        return turn.move, turn.seconds

    def undo(self) -> int:
        """Take back the last human move and every ply after it (the reply); the number of plies
        taken back. Refused when there is none, or the game ended by a resignation or a fault."""
        if self.over and self.game.outcome.termination in FAULTS | {Termination.RESIGNATION}:
            raise Refused(f"the game is over ({self.game.reason}): nothing can be taken back")
        humans = [i for i, p in enumerate(self.plies) if self.is_human(p.colour)]
        if not humans:
            raise Refused("there is no move of yours to take back")
        first = humans[-1]
        taken = len(self.plies) - first
        self.game.state = self.plies[first].state_before
        del self.game.moves[first:]
        del self.plies[first:]
        self.game.outcome = None
        self.game.adjudicate()
        return taken

    def resign(self, colour: Optional[str] = None) -> None:
        """`colour` (default: the human to move, else the only human) gives up."""
        if self.over:
            raise Refused(f"the game is over ({self.game.reason})")
        if colour is None:
            humans = [c for c in COLOURS if self.is_human(c)]
            if not humans:
                raise Refused("no human plays in this game: there is nobody to resign")
            colour = self.to_move if self.to_move in humans else humans[0]
        self.game.finish(Outcome(Termination.RESIGNATION, OTHER[colour]))

    def close(self) -> None:
        """Stop the agents' processes (an agent asked again starts afresh)."""
        for agent in list(self.agents.values()):
            agent.close()

    def abort(self) -> None:
        """From another thread: stop an agent's thinking now (see `Agent.abort`)."""
        for agent in list(self.agents.values()):
            agent.abort()

    def shut(self) -> None:
        """For good: no agent starts after this (one being started is stopped by its thread)."""
        self.shut_down = True
        self.abort()

    # -- the record --------------------------------------------------------------------------

    def record(self) -> Dict[str, Any]:
        """The game as a results record (as the referee writes it); call when it is over."""
        sides = {colour: self.agents.get(colour) or self._named(colour) for colour in COLOURS}
        seconds: Dict[str, List[float]] = {colour: [] for colour in COLOURS}
        mutated = {colour: 0 for colour in COLOURS}
        for ply in self.plies:
            seconds[ply.colour].append(ply.seconds)
            mutated[ply.colour] += ply.mutated
        if self.faulted is not None:
            colour, spent, changed = self.faulted
            seconds[colour].append(spent)
            mutated[colour] += changed
        return game_record(self.game, sides, self.seed, seconds, mutated)

    def _named(self, colour: str) -> Agent:
        side = HumanSide()
        side.name = self.specs[colour]
        return side
