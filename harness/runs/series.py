"""Plays series of games in parallel and records each game the moment it ends.

A SeriesPlan says what to play (two agent specs, how many games, the first seed, the limits) and
where (a directory, see `harness.runs.results`). Game i of a plan uses seed ``seed + i``, so any game
can be replayed on its own. Games run in a pool of `jobs` processes; only this process writes,
appending each finished record to its plan's results.jsonl, so a killed run loses at most the
games in flight and `resume` plays only the missing ones. Several plans share one pool (the
report command runs one plan per opponent), so no core idles between opponents. A run holds each
plan's directory while it plays (`results.hold_folder`), so two runs never write into one, and a
plan records the sha256 of its agent files, so a resume never mixes two versions of a file.
"""
import contextlib
import os
import random
import re
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from .. import players
from ..core.game import Game
from ..core.records import Record
from ..core.referee import play_game
from .results import (RESULTS_FILE, SUMMARY_FILE, append_record, differences, file_sha256, hold_folder, open_run,
                      record_of, series_summary, write_json)
from ..isolation.box import BoxSettings, map_texts
from ..isolation.exchange import run_folder
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT
from ..variants import DEFAULT_VARIANT, find_variant
from ..core.variant import Move
from .pool import run_tasks
from .progress import Progress, _Tally


def directory_name(key: str) -> str:
    """A series directory name for a key (a file opponent's path becomes one path component)."""
    return re.sub(r"[^A-Za-z0-9_.@+-]", "_", key)


@dataclass
class SeriesPlan:
    """One series: `white` against `black`, `games` games from seed `seed`, kept in `out`."""
    out: str
    white: str
    black: str
    games: int
    seed: int = 0
    fifty: Optional[int] = None        # None: the variant's default (where it has the rule)
    max_plies: Optional[int] = None
    move_timeout: float = DEFAULT_MOVE_TIMEOUT
    config: Optional[str] = None
    label: str = ""
    perspective: str = "white"     # whose wins/draws/losses the progress bar counts
    variant: str = DEFAULT_VARIANT
    fen: Optional[str] = None
    game_time: Optional[float] = None  # seconds of thinking per side and game (None: no limit)
    openings: int = 0                  # random plies before each game (0: the start position)
    opening_offset: int = 0            # game i's opening comes from seed `seed + i - offset(i)`
    swap: bool = False                 # odd games with the colours reversed (pairs share an opening)
    box: Optional[dict] = None         # harness.isolation.box.BoxSettings as a dict: .py files run boxed
    shown: Optional[Dict[str, str]] = None  # agent spec -> the name the records give it (default: the spec)

    def __post_init__(self):
        self.shown = dict(self.shown or {})
        self.label = self.label or f"{self.shown_name(self.white)} vs {self.shown_name(self.black)}"
        # the variant's start options (JSON-able; ValueError / ConfigError for bad ones)
        self.options = find_variant(self.variant).game_options(
            fifty=self.fifty, max_plies=self.max_plies, config=self.config, fen=self.fen)
        # what each agent file holds as the series begins, keyed by the file's shown name: a resume
        # with a changed file is refused
        self.files = {}
        for spec in (self.white, self.black):
            path = players.agent_file(spec, self.variant)
            if path is not None:
                self.files[shown_file(spec, self.shown_name(spec), self.variant) or path] = file_sha256(path)

    def shown_name(self, spec: str) -> str:
        """How the records, settings, label and progress name the agent `spec`: its shown name (a
        student's file relative to the class, never a folder of the TA's), else the spec itself.
        The spec itself only starts the agent."""
        return self.shown.get(spec, spec)

    def settings(self) -> dict:
        settings = {"variant": self.variant, "white": self.shown_name(self.white),
                    "black": self.shown_name(self.black), "seed": self.seed,
                    **self.options, "config": self.config, "games": self.games,
                    "move_timeout": self.move_timeout}
        if self.files:
            settings["files"] = self.files
        if self.game_time is not None:
            settings["game_time"] = self.game_time
        if self.openings:
            settings.update(openings=self.openings, swap=self.swap)
        return settings

    def swapped(self, index: int) -> bool:
        """Is game `index` played with the colours reversed?"""
        return self.swap and index % 2 == 1

    def players_of(self, index: int) -> Tuple[str, str]:
        """(white, black) of game `index`: the specs that start them."""
        return (self.black, self.white) if self.swapped(index) else (self.white, self.black)

    def shown_players_of(self, index: int) -> Tuple[str, str]:
        """(white, black) of game `index` as its record names them (`shown_name`)."""
        white, black = self.players_of(index)
        return self.shown_name(white), self.shown_name(black)

    def first_colour(self, index: int) -> str:
        """The colour the plan's first agent (`white`) plays in game `index`."""
        return "black" if self.swapped(index) else "white"

    def perspective_of(self, index: int) -> str:
        """The colour whose wins the progress counts in game `index`."""
        if not self.swapped(index):
            return self.perspective
        return "black" if self.perspective == "white" else "white"

    def opening_seed(self, index: int) -> int:
        """Both games of a colour-reversed pair start from the same opening."""
        return self.seed + (index - index % 2 if self.swap else index)

    @property
    def results_path(self) -> str:
        return os.path.join(self.out, RESULTS_FILE)


def shown_file(spec: str, shown: str, variant: str) -> Optional[str]:
    """The file of the agent `spec` as its shown name `shown` names it (None when `shown` names no
    file: the spec itself is shown)."""
    if shown == spec:
        return None
    try:
        return players.agent_file(shown, variant) if players.agent_file(spec, variant) else None
    except Exception:          # a shown name that is no spec at all (a student's name)
        return None


def hide_paths(data, hidden: List[Tuple[str, str]]):
    """`data` (a record) with each real folder of `hidden` ((folder, shown folder) pairs) written
    as its shown folder in every text: a traceback or message naming the student's file names it
    as the records do."""
    def hide(text: str) -> str:
        for real, shown in hidden:
            text = text.replace(real, shown)
        return text
    return map_texts(data, hide)


def hidden_folders(spec: str, shown: str, variant: str) -> List[Tuple[str, str]]:
    """[(the real folder of `spec`'s file + '/', '')] for `hide_paths`: a path under the student's
    folder is written relative to it, as the student knows it (`../clean/AB.py`, `AB.py`, as the
    grade's reports write it); nothing when the agent is shown by its spec."""
    path = players.agent_file(spec, variant)
    if path is None or shown == spec:
        return []
    return [(os.path.dirname(os.path.abspath(path)) + os.sep, "")]


class SeriesError(Exception):
    """A game failed inside the harness itself (not an agent's fault); one line of text."""


# ----------------------------------------------------------------------------- one game


def opening_moves(variant, state, plies: int, seed: int) -> List[Move]:
    """`plies` random legal moves from `state`, drawn from a generator seeded by `seed`, that do
    not end the game (a draw that would end it is drawn again, deterministically)."""
    rng = random.Random(f"opening:{seed}")
    for _ in range(1000):
        moves, current = [], state
        while len(moves) < plies and variant.outcome(current) is None:
            move = rng.choice(variant.legal_moves(current))
            moves.append(move)
            current = variant.apply(current, move)
        if len(moves) == plies and variant.outcome(current) is None:
            return moves
    raise ValueError(f"no {plies}-ply opening that leaves the game going was found")


def run_game(task: dict) -> tuple:
    """Play one game in this process: (plan number, record). Picklable, for the pool."""
    index = task["game"]
    try:
        variant = find_variant(task["variant"])
        state = variant.start(**task["options"])
        opening = []
        if task.get("openings"):
            opening = opening_moves(variant, state, task["openings"], task["opening_seed"])
            for move in opening:
                state = variant.apply(state, move)
        box = BoxSettings.from_dict(task.get("box"))
        shown = task.get("shown") or {}
        white = players.build(task["white"], task["move_timeout"], variant.name, box)
        black = players.build(task["black"], task["move_timeout"], variant.name, box)
        try:
            white.name, black.name = shown.get(task["white"], white.name), shown.get(task["black"], black.name)
            record = play_game(white, black, task["seed"], Game(variant, state),
                               game_time=task.get("game_time"))
        finally:
            white.close()
            black.close()
        hidden = [pair for spec, name in shown.items() for pair in hidden_folders(spec, name, variant.name)]
        if hidden:
            record = hide_paths(record, hidden)
        if task.get("openings"):
            record["opening"] = [variant.move_name(m) for m in opening]
        return task["plan"], {"game": index, **record, "worker": "local"}
    except Exception as exc:
        lines = traceback.format_exception_only(type(exc), exc)
        return task["plan"], {"game": index, "harness_error": lines[-1].strip()}


def game_task(plan: SeriesPlan, number: int, index: int) -> dict:
    white, black = plan.players_of(index)
    return {"plan": number, "game": index, "white": white, "black": black,
            "seed": plan.seed + index, "variant": plan.variant, "options": plan.options,
            "move_timeout": plan.move_timeout, "game_time": plan.game_time,
            "openings": plan.openings, "opening_seed": plan.opening_seed(index), "box": plan.box,
            "shown": {spec: name for spec, name in plan.shown.items() if spec in (white, black)}}


# ----------------------------------------------------------------------------- directories


def prepare(plan: SeriesPlan, resume: bool = False, fresh: bool = False,
            say: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True),
            note_kept: bool = True) -> Dict[int, Record]:
    """The records already in the plan's directory, after checking they belong to this series
    (`harness.runs.results.open_run`: fresh forgets an earlier series there, resume continues a
    matching one, neither refuses a directory that already holds games)."""
    def belongs(index: int, record: Record) -> Optional[str]:
        if (record.variant, record.get("white"), record.get("black"),
                record.get("seed")) != (plan.variant, *plan.shown_players_of(index), plan.seed + index):
            return (f"game {index} of another series ({record.get('white')} vs {record.get('black')}, "
                    f"seed {record.get('seed')})")
        return None
    return open_run(plan.out, plan.settings(), resume, fresh, say, differences, belongs, plan.games,
                    note_kept=note_kept)


def plan_records(plan: SeriesPlan, records: Dict[int, dict]) -> List[dict]:
    """The plan's games in index order (games beyond plan.games, from a longer run, left out)."""
    return [records[i] for i in sorted(records) if i < plan.games]


def write_summary(plan: SeriesPlan, records: List[dict]) -> dict:
    first = [plan.first_colour(r["game"]) for r in records] if plan.swap else None
    summary = series_summary(plan.settings(), records, first)
    write_json(os.path.join(plan.out, SUMMARY_FILE), summary)
    return summary


# ----------------------------------------------------------------------------- running


def _interleave(per_plan: List[List[dict]]) -> List[dict]:
    """Round-robin over the plans, so every series advances and the pool's tail is mixed."""
    tasks = []
    for i in range(max((len(t) for t in per_plan), default=0)):
        tasks.extend(t[i] for t in per_plan if i < len(t))
    return tasks


def play_tasks(tasks: List[dict], jobs: int, executor=None) -> Iterator[tuple]:
    """`run_game`'s (plan, record) for every task, as each game ends: on `executor` when given
    (see `run_plans`), else in the local pool (`harness.runs.pool.run_tasks`). Closing the generator before the end (a decision,
    Ctrl-C, an error in the caller) stops the pool at once and cancels the executor's queued
    games."""
    return run_tasks(run_game, tasks, jobs, executor)


@dataclass(frozen=True)
class RunOptions:
    """How `run_plans` plays its plans.

    jobs: games at once in the local pool (None: one per core). resume: continue the games in the
    plans' directories; fresh: forget them (`prepare`). progress: 'bar', 'plain', 'none', or
    'auto' (a bar on a terminal, else plain lines); True and False mean 'auto' and 'none'.

    executor: play the games elsewhere instead of in the local pool (harness.runs.cluster's Dask
    runner): an object whose ``run(run_game, tasks)`` yields (plan, record) as games end and whose
    ``cancel()`` drops the games still queued. say: where `prepare`'s notes go (default stderr).
    note_kept: say each resumed plan's "resuming OUT: N games kept, M to play" (a caller of very
    many plans, grade, turns it off and counts `RunResult.kept` instead). label: what the progress
    calls the games (default: the plan's label, or "games" for several; its W/D/L count each
    plan's `perspective`).

    hold: hold every plan's directory for the run (`results.hold_folder`; a directory another run
    holds is a ResultsError before anything is written). A caller with very many plans (grade)
    holds the folder above them instead.

    on_plan_done(plan, records): told once each plan has all its games (its summary written).
    on_game(plan, record): told of every game, first those kept from an earlier run (in the order
    they were recorded), then each new one once it is written. A true answer stops the run there:
    the games still being played are stopped (nothing of them is written), no other starts, and
    the games recorded so far are returned (a sequential test that has decided). status(): a short
    text the progress display shows after the W/D/L counts."""
    jobs: Optional[int] = None
    resume: bool = False
    fresh: bool = False
    progress: Union[str, bool] = "auto"
    executor: Any = None
    say: Optional[Callable[[str], None]] = None
    note_kept: bool = True
    hold: bool = True
    label: Optional[str] = None
    on_plan_done: Optional[Callable[[SeriesPlan, List[dict]], None]] = None
    on_game: Optional[Callable[[SeriesPlan, dict], bool]] = None
    status: Optional[Callable[[], str]] = None


@dataclass(frozen=True)
class RunResult:
    """What `run_plans` played, per plan in the order given."""
    records: List[List[dict]]      # the plan's records in game order
    kept: List[int]                # games kept from an earlier run (resume), not played again


def run_plans(plans: List[SeriesPlan], options: RunOptions = RunOptions()) -> RunResult:
    """Play every missing game of every plan (as `options` say); return each plan's records in
    game order and how many of them an earlier run had played. On Ctrl-C the pool is stopped at
    once and KeyboardInterrupt raised; every game finished so far is already in its results file."""
    with contextlib.ExitStack() as held:
        if options.hold:
            for plan in plans:
                held.enter_context(hold_folder(plan.out))
        # every program agent's folder (an NTHU player, a UCI engine) under one parent of the run,
        # removed at the end, on Ctrl-C and SIGTERM too (harness.isolation.exchange.run_folder)
        held.enter_context(run_folder())
        return _run_plans(plans, options)


def _run_plans(plans: List[SeriesPlan], options: RunOptions) -> RunResult:
    say = {} if options.say is None else {"say": options.say}
    done = [prepare(plan, options.resume, options.fresh, note_kept=options.note_kept, **say) for plan in plans]
    kept = [len(plan_records(plan, done[k])) for k, plan in enumerate(plans)]
    per_plan = [[game_task(plan, k, i) for i in range(plan.games) if i not in done[k]]
                for k, plan in enumerate(plans)]
    remaining = [len(t) for t in per_plan]
    tally = _Tally(options.status)
    for k, plan in enumerate(plans):
        for record in plan_records(plan, done[k]):
            tally.add(record, plan.perspective_of(record["game"]))
    on_game = options.on_game
    stopped = on_game is not None and any(
        on_game(plan, record) for k, plan in enumerate(plans)
        for index, record in list(done[k].items()) if index < plan.games)
    tasks = [] if stopped else _interleave(per_plan)

    def plan_done(k: int) -> None:
        records = plan_records(plans[k], done[k])
        write_summary(plans[k], records)
        if options.on_plan_done is not None:
            options.on_plan_done(plans[k], records)

    handles = [open(plan.results_path, "a", encoding="utf-8") for plan in plans]
    total = sum(plan.games for plan in plans)
    label = options.label or (plans[0].label if len(plans) == 1 else "games")
    shown = Progress(options.progress, total, total - sum(remaining), label, tally)
    results = play_tasks(tasks, options.jobs or os.cpu_count() or 1, options.executor)
    try:
        for k in range(len(plans)):
            if not remaining[k]:
                plan_done(k)
        for k, record in results:
            if "harness_error" in record:
                raise SeriesError(f"{plans[k].label}, game {record['game']}: {record['harness_error']}")
            record = record_of(record)
            append_record(handles[k], record)
            done[k][record["game"]] = record
            tally.add(record, plans[k].perspective_of(record["game"]))
            stopped = on_game is not None and bool(on_game(plans[k], record))
            shown.update()
            remaining[k] -= 1
            if not remaining[k]:
                plan_done(k)
            if stopped:
                break           # closing `results` stops the games in flight at once
    finally:
        results.close()         # a run cut short (Ctrl-C, an error) stops the pool at once
        shown.close()
        for handle in handles:
            handle.close()
    if stopped:
        for k, plan in enumerate(plans):
            if remaining[k]:
                write_summary(plan, plan_records(plan, done[k]))
    return RunResult([plan_records(plan, done[k]) for k, plan in enumerate(plans)], kept)
