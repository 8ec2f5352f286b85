"""Plays series of games in parallel and records each game the moment it ends.

A SeriesPlan says what to play (two agent specs, how many games, the first seed, the limits) and
where (a directory, see `harness.results`). Game i of a plan uses seed ``seed + i``, so any game
can be replayed on its own. Games run in a pool of `jobs` processes; only this process writes,
appending each finished record to its plan's results.jsonl, so a killed run loses at most the
games in flight and `resume` plays only the missing ones. Several plans share one pool (the
report command runs one plan per opponent), so no core idles between opponents.
"""
import multiprocessing
import os
import signal
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

from tqdm import tqdm

from . import players
from .game import Game
from .referee import play_game
from .results import (RESULTS_FILE, SETTINGS_FILE, SUMMARY_FILE, ResultsError, append_record,
                      differences, drop_damaged_lines, outcome, read_records, read_settings,
                      series_summary, write_json)
from .sandbox import DEFAULT_MOVE_TIMEOUT
from .variants import DEFAULT_VARIANT, find_variant

PARENT_POLL_SECONDS = 0.5


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

    def __post_init__(self):
        self.label = self.label or f"{self.white} vs {self.black}"
        # the variant's start options (JSON-able; ValueError / ConfigError for bad ones)
        self.options = find_variant(self.variant).game_options(
            fifty=self.fifty, max_plies=self.max_plies, config=self.config, fen=self.fen)

    def settings(self) -> dict:
        return {"variant": self.variant, "white": self.white, "black": self.black, "seed": self.seed,
                **self.options, "config": self.config, "games": self.games,
                "move_timeout": self.move_timeout}

    @property
    def results_path(self) -> str:
        return os.path.join(self.out, RESULTS_FILE)


class SeriesError(Exception):
    """A game failed inside the harness itself (not an agent's fault); one line of text."""


# ----------------------------------------------------------------------------- one game


def run_game(task: dict) -> tuple:
    """Play one game in this process: (plan number, record). Picklable, for the pool."""
    index = task["game"]
    try:
        variant = find_variant(task["variant"])
        white = players.build(task["white"], task["move_timeout"], variant.name)
        black = players.build(task["black"], task["move_timeout"], variant.name)
        try:
            game = Game(variant, variant.start(**task["options"]))
            record = play_game(white, black, task["seed"], game)
        finally:
            white.close()
            black.close()
        return task["plan"], {"game": index, **record}
    except Exception as exc:
        lines = traceback.format_exception_only(type(exc), exc)
        return task["plan"], {"game": index, "harness_error": lines[-1].strip()}


def game_task(plan: SeriesPlan, number: int, index: int) -> dict:
    return {"plan": number, "game": index, "white": plan.white, "black": plan.black,
            "seed": plan.seed + index, "variant": plan.variant, "options": plan.options,
            "move_timeout": plan.move_timeout}


# ----------------------------------------------------------------------------- directories


def prepare(plan: SeriesPlan, resume: bool = False, fresh: bool = False) -> Dict[int, dict]:
    """The records already in the plan's directory, after checking they belong to this series.

    fresh: forget any earlier series there. resume: continue a matching one. Neither: refuse a
    directory that already holds games, rather than mix two series."""
    os.makedirs(plan.out, exist_ok=True)
    path = plan.results_path
    if fresh:
        for name in (RESULTS_FILE, SETTINGS_FILE, SUMMARY_FILE):
            if os.path.exists(os.path.join(plan.out, name)):
                os.remove(os.path.join(plan.out, name))
    records, damaged = read_records(path)
    old = read_settings(plan.out)
    settings = plan.settings()
    if records and not resume:
        raise ResultsError(f"{path} already holds {len(records)} games; add --resume to continue "
                           f"that series, or choose another --out")
    if old is not None and (records or resume):
        changed = differences(old, settings)
        if changed:
            raise ResultsError(f"{plan.out} holds another series (it differs in {', '.join(changed)}); "
                               f"choose another --out")
    for index, record in records.items():
        if (record.get("variant", DEFAULT_VARIANT), record.get("white"), record.get("black"),
                record.get("seed")) != (plan.variant, plan.white, plan.black, plan.seed + index):
            raise ResultsError(f"{path} holds game {index} of another series "
                               f"({record.get('white')} vs {record.get('black')}, seed {record.get('seed')}); "
                               f"choose another --out")
    if damaged:
        drop_damaged_lines(path)
    write_json(os.path.join(plan.out, SETTINGS_FILE), settings)
    return records


def plan_records(plan: SeriesPlan, records: Dict[int, dict]) -> List[dict]:
    """The plan's games in index order (games beyond plan.games, from a longer run, left out)."""
    return [records[i] for i in sorted(records) if i < plan.games]


def write_summary(plan: SeriesPlan, records: List[dict]) -> dict:
    summary = series_summary(plan.settings(), records)
    write_json(os.path.join(plan.out, SUMMARY_FILE), summary)
    return summary


# ----------------------------------------------------------------------------- running


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def _pool_init() -> None:
    """Pool workers leave Ctrl-C to the main process and die with it if it is killed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()


def _interleave(per_plan: List[List[dict]]) -> List[dict]:
    """Round-robin over the plans, so every series advances and the pool's tail is mixed."""
    tasks = []
    for i in range(max((len(t) for t in per_plan), default=0)):
        tasks.extend(t[i] for t in per_plan if i < len(t))
    return tasks


class _Tally:
    """Wins/draws/losses from each plan's perspective, for the progress bar."""

    def __init__(self):
        self.counts = {"win": 0, "draw": 0, "loss": 0}

    def add(self, record: dict, colour: str) -> None:
        self.counts[outcome(record, colour)] += 1

    def __str__(self) -> str:
        return f"W{self.counts['win']} D{self.counts['draw']} L{self.counts['loss']}"


def run_plans(plans: List[SeriesPlan], jobs: Optional[int] = None, resume: bool = False,
              fresh: bool = False, progress: bool = True,
              on_plan_done: Optional[Callable[[SeriesPlan, List[dict]], None]] = None) -> List[List[dict]]:
    """Play every missing game of every plan; return each plan's records in game order."""
    jobs = jobs or os.cpu_count() or 1
    done = [prepare(plan, resume, fresh) for plan in plans]
    per_plan = [[game_task(plan, k, i) for i in range(plan.games) if i not in done[k]]
                for k, plan in enumerate(plans)]
    remaining = [len(t) for t in per_plan]
    tasks = _interleave(per_plan)
    tally = _Tally()
    for k, plan in enumerate(plans):
        for record in plan_records(plan, done[k]):
            tally.add(record, plan.perspective)
    finished = [False] * len(plans)

    def plan_done(k: int) -> None:
        finished[k] = True
        records = plan_records(plans[k], done[k])
        write_summary(plans[k], records)
        if on_plan_done is not None:
            on_plan_done(plans[k], records)

    pool = None
    if jobs > 1 and len(tasks) > 1:
        pool = multiprocessing.get_context("fork").Pool(min(jobs, len(tasks)), initializer=_pool_init)
    handles = [open(plan.results_path, "a", encoding="utf-8") for plan in plans]
    total = sum(plan.games for plan in plans)
    bar = tqdm(total=total, initial=total - len(tasks), unit="game", disable=None if progress else True,
               desc=plans[0].label if len(plans) == 1 else "games", dynamic_ncols=True)
    bar.set_postfix_str(str(tally))
    try:
        for k in range(len(plans)):
            if not remaining[k]:
                plan_done(k)
        results = pool.imap_unordered(run_game, tasks) if pool else map(run_game, tasks)
        for k, record in results:
            if "harness_error" in record:
                raise SeriesError(f"{plans[k].label}, game {record['game']}: {record['harness_error']}")
            append_record(handles[k], record)
            done[k][record["game"]] = record
            tally.add(record, plans[k].perspective)
            bar.update(1)
            bar.set_postfix_str(str(tally))
            remaining[k] -= 1
            if not remaining[k]:
                plan_done(k)
        if pool:
            pool.close()
    except BaseException:
        if pool:
            pool.terminate()
        raise
    finally:
        bar.close()
        for handle in handles:
            handle.close()
        if pool:
            pool.join()
    return [plan_records(plan, done[k]) for k, plan in enumerate(plans)]
