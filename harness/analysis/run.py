"""Many games reviewed in parallel: the `analyse` command and `report --analyse`.

`analyse_games` takes (results file, record) pairs. It builds and starts each variant's analyser
once here first (a spec that cannot start is one line before any work), keeps the entries
already in each analysis.jsonl for the same analyser and moves (resume), and reviews the others
in the series' pool (`harness.runs.pool.worker_pool`), appending each entry to the analysis.jsonl
beside its results file the moment its game is done, with the series' progress display. On
Ctrl-C the pool stops at once; every entry written so far is kept. Each results file's folder is
held for the run (`results.hold_folder`): a second run there (another analyse, a series still
playing) is one line at once, not a file rewritten under the first.
"""
import contextlib
import os
import sys
import traceback
from typing import Callable, Dict, List, Optional, Tuple

from ..runs.results import append_record, hold_folder, record_of
from ..runs.progress import Progress
from ..runs.pool import worker_pool
from ..variants import find_variant
from ..core.analyser import AnalysisError, Analyser
from .analysers import make_analyser
from .review import review_game
from .store import analysis_path, prepare

Game = Tuple[str, dict]          # (results file, record)

_CACHE: Dict[tuple, Analyser] = {}     # this process's analysers, by (spec, variant, nodes)


def _analyser(spec: Optional[str], variant: str, nodes: Optional[int]) -> Analyser:
    key = (spec, variant, nodes)
    if key not in _CACHE:
        _CACHE[key] = make_analyser(spec, variant, nodes)
    return _CACHE[key]


def close_analysers() -> None:
    """Stop this process's analysers (before forking a pool, and at the end)."""
    while _CACHE:
        _CACHE.popitem()[1].close()


def review_task(task: dict) -> Tuple[str, dict]:
    """Review one game in this process: (results file, entry), or an entry with "error".
    Picklable, for the pool."""
    record = task["record"]
    try:
        variant = find_variant(task["variant"])
        analyser = _analyser(task["spec"], task["variant"], task["nodes"])
        return task["results"], review_game(record, variant, analyser, task["label"])
    except AnalysisError as exc:
        return task["results"], {"game": record.get("game"), "error": str(exc)}
    except Exception as exc:
        lines = traceback.format_exception_only(type(exc), exc)
        return task["results"], {"game": record.get("game"), "error": lines[-1].strip()}


class _Marks:
    """Judged moves found so far, for the progress display."""

    def __init__(self):
        self.counts = {"blunder": 0, "mistake": 0, "inaccuracy": 0}

    def add(self, entry: dict) -> None:
        for ply in entry.get("plies", []):
            if ply.get("judgement") in self.counts:
                self.counts[ply["judgement"]] += 1

    def __str__(self) -> str:
        return f"?? {self.counts['blunder']} ? {self.counts['mistake']} ?! {self.counts['inaccuracy']}"


def check_analyser(spec: Optional[str], variant: str, nodes: Optional[int]) -> str:
    """Start the analyser for `variant` once and stop it: its label, or AnalysisError (one line)
    when it cannot be started (call before any work)."""
    analyser = make_analyser(spec, variant, nodes)
    try:
        analyser.verify()
        return analyser.label
    finally:
        analyser.close()


def labels(games: List[Game], spec: Optional[str], nodes: Optional[int]) -> Dict[str, str]:
    """{variant: its analyser's label} for the variants of these games, each analyser started
    once (AnalysisError, one line, when one cannot be)."""
    return {variant: check_analyser(spec, variant, nodes)
            for variant in sorted({record_of(record).variant for _, record in games})}


def analyse_games(games: List[Game], spec: Optional[str] = None, nodes: Optional[int] = None,
                  jobs: int = 1, progress="auto", label: str = "analysis",
                  say: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True),
                  ) -> Dict[str, Dict[int, dict]]:
    """Review these games (each with its results file); return {results file: {game: entry}} for
    them, the entries kept from earlier runs included."""
    close_analysers()
    named = labels(games, spec, nodes)
    with contextlib.ExitStack() as held:      # one run at a time per folder: another would rewrite the file under it
        for folder in sorted({os.path.dirname(os.path.abspath(path)) for path, _ in games}):
            held.enter_context(hold_folder(folder, advice="wait for it to end"))
        return _analyse(games, spec, nodes, jobs, progress, label, say, named)


def _analyse(games: List[Game], spec: Optional[str], nodes: Optional[int], jobs: int, progress, label: str,
             say: Callable[[str], None], named: Dict[str, str]) -> Dict[str, Dict[int, dict]]:
    by_file: Dict[str, Dict[int, dict]] = {}
    for path, record in games:
        by_file.setdefault(path, {})[record["game"]] = record
    done: Dict[str, Dict[int, dict]] = {}
    tasks = []
    for path, records in by_file.items():
        variants = {record_of(record).variant for record in records.values()}
        if len(variants) > 1:
            raise AnalysisError(f"{path} holds games of several variants ({', '.join(sorted(variants))})")
        variant = variants.pop()
        kept, notes = prepare(path, records, named[variant])
        for note in notes:
            say(f"note: {note}")
        done[path] = dict(kept)
        for game in sorted(records):
            if game not in kept:
                tasks.append({"results": path, "record": records[game], "spec": spec, "nodes": nodes,
                              "variant": variant, "label": named[variant]})
    kept_count = sum(len(entries) for entries in done.values())
    if kept_count:
        say(f"resuming: {kept_count} games already analysed with the same settings kept, {len(tasks)} to analyse")
    marks = _Marks()
    for entries in done.values():
        for entry in entries.values():
            marks.add(entry)
    shown = Progress(progress, len(games), len(games) - len(tasks), label, marks)
    handles = {path: open(analysis_path(path), "a", encoding="utf-8") for path in {t["results"] for t in tasks}}
    try:
        with worker_pool(jobs, len(tasks)) as run:
            for path, entry in run(review_task, tasks):
                if "error" in entry:
                    raise AnalysisError(f"{path}, game {entry['game']}: {entry['error']}")
                append_record(handles[path], entry)
                done[path][entry["game"]] = entry
                marks.add(entry)
                shown.update()
    finally:
        shown.close()
        for handle in handles.values():
            handle.close()
        close_analysers()
    return done
