"""A series on disk and what its game records add up to.

A series lives in one directory: ``series.json`` (what is being played: agents and the sha256 of
every agent file, first seed, game-length limits, start position), ``results.jsonl`` (one game record per line, appended the
moment a game ends, keyed by its ``game`` index), ``report.json`` (the summary) and, once the
games are reviewed, ``analysis.jsonl`` (harness/analysis/store.py). Reading
tolerates a run that was killed mid-write: a line that does not parse (in practice only the
last) is dropped and the file rewritten without it before anything is appended.

The summaries are pure functions of the records, so a resumed series adds up exactly like an
uninterrupted one.

A run holds its directory while it writes there (`hold_folder`): an OS lock (flock) on the file
``.lock`` inside it, so a second run into the same directory is refused at once and a run that
is killed leaves nothing that blocks the next one.
"""
import contextlib
import fcntl
import hashlib
import json
import os
import statistics
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .. import stats
from ..core.records import Record
from ..variants import DEFAULT_VARIANT

RESULTS_FILE = "results.jsonl"
SETTINGS_FILE = "series.json"
SUMMARY_FILE = "report.json"
ANALYSIS_FILE = "analysis.jsonl"     # the game review's lines, beside results.jsonl (harness/analysis)
LOCK_FILE = ".lock"
# The settings that make two runs the same series (games may grow; timeouts and jobs may change).
IDENTITY = ("variant", "white", "black", "seed", "fifty", "max_plies", "start", "fen", "edition", "game_time",
            "openings", "swap")
DEFAULTS = {"variant": DEFAULT_VARIANT}    # what a settings file without the key meant
RATE_DIGITS = 4
ERRORS_KEPT = 5


class ResultsError(Exception):
    """A series directory that cannot be used as asked; the text is one line."""


# ----------------------------------------------------------------------------- records


def record_of(data: Mapping) -> Record:
    """A game record (a dict read from results.jsonl, or one just played) as the `Record` type;
    a record without a variant, from before records named theirs, is the default variant's. The
    one place the default is applied to records: core's `Record` must not know the variants, and
    every reader of game records reads through here (a Record is returned as it is)."""
    return Record.from_json(data, DEFAULT_VARIANT)


def settings_variant(settings: Optional[Mapping]) -> str:
    """The variant a series' settings (series.json, a report's ``settings``) name; settings from
    before they named one are the default variant's (`DEFAULTS`)."""
    return (settings or {}).get("variant") or DEFAULTS["variant"]


# ----------------------------------------------------------------------------- files


def _parse(raw: bytes) -> Optional[dict]:
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("game"), int) else None


def read_records(path: str) -> Tuple[Dict[int, Record], int]:
    """Records by game index (the first record of a game wins) and the number of damaged lines
    met. A missing file has no records."""
    records, damaged = read_records_noting_damage(path)
    return records, len(damaged)


def read_records_noting_damage(path: str) -> Tuple[Dict[int, Record], List[int]]:
    """Records by game index and the line numbers (from 1) of the lines that do not parse."""
    lines, damaged = read_lines_noting_damage(path)
    return {game: record_of(line) for game, line in lines.items()}, damaged


def records_from_bytes(data: bytes) -> Tuple[Dict[int, Record], List[int]]:
    """A results file's content: records by game index (the first record of a game wins) and the
    line numbers (from 1) of the lines that do not parse."""
    lines, damaged = lines_from_bytes(data)
    return {game: record_of(line) for game, line in lines.items()}, damaged


def read_lines_noting_damage(path: str) -> Tuple[Dict[int, dict], List[int]]:
    """A file of JSON lines keyed by ``game`` (results.jsonl, a puzzle run's attempts,
    analysis.jsonl) as plain dicts by game index, and the line numbers (from 1) of the lines that
    do not parse. A missing file has no lines."""
    if not os.path.exists(path):
        return {}, []
    with open(path, "rb") as handle:
        return lines_from_bytes(handle.read())


def lines_from_bytes(data: bytes) -> Tuple[Dict[int, dict], List[int]]:
    """JSON lines keyed by ``game``: dicts by game index (the first line of a game wins) and the
    line numbers (from 1) of the lines that do not parse."""
    records: Dict[int, dict] = {}
    damaged: List[int] = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        record = _parse(raw)
        if record is None:
            damaged.append(number)
        elif record["game"] not in records:
            records[record["game"]] = record
    return records, damaged


def damage_notes(path: str, damaged: List[int]) -> List[str]:
    """One line per damaged line: a half-written last line (a killed run) or a damaged record in
    the middle; either way the record is dropped and its game played again from its seed."""
    if not damaged:
        return []
    with open(path, "rb") as handle:
        total = len([raw for raw in handle.read().split(b"\n")])
    notes = []
    for number in damaged:
        what = ("a half-written last line (the run was killed)" if number >= total - 1
                else "a damaged record in the middle of the file")
        notes.append(f"{path}:{number}: {what}: dropped; its game will be played again")
    return notes


def drop_damaged_lines(path: str, games: Iterable[int] = ()) -> None:
    """Rewrite the file without the lines that do not parse (a killed run's half-written last
    line) and without the records of `games`, keeping the others byte for byte and in order, so
    appending can go on."""
    games = set(games)
    with open(path, "rb") as handle:
        kept = [raw for raw in handle.read().split(b"\n")
                if raw.strip() and (record := _parse(raw)) is not None and record["game"] not in games]
    temporary = path + ".tmp"
    with open(temporary, "wb") as handle:
        handle.write(b"".join(raw + b"\n" for raw in kept))
    os.replace(temporary, path)


def append_record(handle, record: Mapping) -> None:
    """One line per game (a `Record`, or a puzzle attempt's dict), flushed at once so a kill loses
    at most the game in flight."""
    handle.write(json.dumps(record.to_json() if isinstance(record, Record) else record) + "\n")
    handle.flush()


def read_settings(directory: str) -> Optional[dict]:
    path = os.path.join(directory, SETTINGS_FILE)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except ValueError:
        raise ResultsError(f"{path} is damaged; remove it or use another --out") from None


def write_json(path: str, data: Any) -> None:
    """`data` as JSON in `path`, whole or not at all: written beside it, then renamed over it, so
    a run stopped mid-write (Ctrl-C, a kill) leaves the file as it was, not empty."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
            handle.write("\n")
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def differences(old: dict, new: dict, keys: Sequence[str] = IDENTITY) -> List[str]:
    """Names of the identity settings (`keys`) in which two runs differ."""
    return [key for key in keys if old.get(key, DEFAULTS.get(key)) != new.get(key, DEFAULTS.get(key))]


def resume_refusal(old: dict, new: dict, changed: List[str], out: str, what: str) -> Optional[str]:
    """The one line that refuses to resume the `what` recorded in `out` (settings `old`) with
    `new`: `changed` names the identity settings that differ; --games may only grow (a smaller
    number would rebuild the results from fewer games than were played). None: it may resume.
    Every command that resumes refuses through this (series and puzzles in `open_run`; the runs
    of several series in `open_group`)."""
    if changed:
        return f"{out} holds another {what} (it differs in {', '.join(changed)}); choose another --out"
    before, now = old.get("games"), new.get("games")
    if isinstance(before, int) and isinstance(now, int) and now < before:
        return (f"{out} holds a {what} of {before} games; --games may only grow on --resume (given {now}): "
                f"give --games {before} or more, or choose another --out")
    return None


RUN_FILE = "run.json"
# What makes two runs of several series the same run (grade, report, tournament): the series'
# identity without its two agents, and what the run adds (the opponents or players, the colours,
# the limits and points a verdict depends on). --games may grow (`resume_refusal`). (compare is
# one series: open_run refuses for it; its SPRT may change on --resume, which reads the same
# games again with the new bounds, docs/compare.md.)
RUN_IDENTITY = tuple(key for key in IDENTITY if key not in ("white", "black")) + (
    "config", "opponents", "colour", "players", "move_timeout", "memory_mb", "points", "partial")


def group_settings(series: dict, **extra) -> dict:
    """A run's settings for `open_group`: the series' limits (`series`, as given to SeriesPlan;
    its box as the memory it allows) and `extra` (games, opponents, players, colour, ...)."""
    settings = {key: value for key, value in series.items() if key != "box"}
    settings["memory_mb"] = (series.get("box") or {}).get("memory_mb")
    return {**settings, **extra}


def open_group(out: str, settings: dict, resume: bool, fresh: bool, what: str) -> None:
    """Before a run of several series in `out` starts: on --resume, refuse settings that differ
    from those the run began with (OUT/run.json; `resume_refusal`), before anything is written;
    then record `settings` there. A run from before run.json existed is not refused here (its
    series still refuse what differs in them)."""
    path = os.path.join(out, RUN_FILE)
    old = None
    if resume and not fresh and os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as handle:
                old = json.load(handle)
        except (OSError, ValueError):
            raise ResultsError(f"{path} is damaged; remove it (and resume with the same settings) or use "
                               f"--force") from None
    if isinstance(old, dict):
        refusal = resume_refusal(old, settings, differences(old, settings, RUN_IDENTITY), out, what)
        if refusal:
            raise ResultsError(refusal)
    if not (resume or fresh) and os.path.exists(path) and _holds_games(out):
        return                      # its series refuse to be overwritten: run.json stays as it is
    os.makedirs(out, exist_ok=True)
    write_json(path, settings)


def _holds_games(out: str) -> bool:
    """Does any results file under `out` hold a line?"""
    for here, _, names in os.walk(out):
        if RESULTS_FILE in names and os.path.getsize(os.path.join(here, RESULTS_FILE)):
            return True
    return False


def file_sha256(path: str) -> Optional[str]:
    """The sha256 of a file's bytes (hex); None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def changed_files(old: Optional[dict], new: dict) -> List[str]:
    """The agent files (settings' ``files``: path -> sha256) whose content differs between two
    series' settings. A file the old settings do not record (a series from before they did) is
    not known to have changed."""
    before = (old or {}).get("files") or {}
    return [path for path, sha in (new.get("files") or {}).items() if path in before and before[path] != sha]


# ----------------------------------------------------------------------------- one run per directory

_HELD: Dict[str, list] = {}       # real path -> [open lock file, times held] in this process


def _lock_path(directory: str) -> str:
    return os.path.join(directory, LOCK_FILE)


def _holder(handle) -> str:
    handle.seek(0)
    text = handle.read(32).strip()
    return f"process {text}" if text.isdigit() else "a process that has not said its number yet"


def _busy(directory: str) -> Optional[str]:
    """Who holds `directory` ("process N"), or None when no other process does. Only looks."""
    real = os.path.realpath(directory)
    if real in _HELD or not os.path.exists(_lock_path(real)):
        return None
    try:
        handle = open(_lock_path(real), "r", encoding="utf-8", errors="replace")
    except OSError:
        return None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _holder(handle)
        fcntl.flock(handle, fcntl.LOCK_UN)
    return None


def _in_use(directory: str, who: str, advice: str = "wait for it to end or choose another --out") -> ResultsError:
    return ResultsError(f"{directory} is in use by another run, {who}; {advice}")


def check_free(directory: str) -> None:
    """ResultsError when another process holds `directory` (see `hold_folder`)."""
    who = _busy(directory)
    if who:
        raise _in_use(directory, who)


@contextlib.contextmanager
def hold_folder(directory: str, advice: Optional[str] = None):
    """Hold `directory` for a run (created if missing): an exclusive flock on its ``.lock``,
    which holds this process's number. Another process holding it is a ResultsError ("DIR is in
    use by another run, process N; ADVICE", by default to wait or choose another --out), raised
    at once. Held again by the same process, it is held
    until the outermost hold ends. The OS drops the lock when the process ends, however it ends
    (the file stays, harmless)."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise ResultsError(f"cannot create the output folder '{directory}': {exc.strerror or exc}") from None
    real = os.path.realpath(directory)
    if real in _HELD:
        _HELD[real][1] += 1
    else:
        try:
            handle = open(_lock_path(real), "a+", encoding="utf-8")
        except OSError as exc:
            raise ResultsError(f"cannot write in '{directory}': {exc.strerror or exc}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            who = _holder(handle)
            handle.close()
            raise (_in_use(directory, who, advice) if advice else _in_use(directory, who)) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        _HELD[real] = [handle, 1]
    try:
        yield
    finally:
        _HELD[real][1] -= 1
        if not _HELD[real][1]:
            _HELD.pop(real)[0].close()


def open_run(out: str, settings: dict, resume: bool, fresh: bool, say: Callable[[str], None],
             differs: Callable[[dict, dict], List[str]], belongs: Callable[[int, dict], Optional[str]],
             total: int, what: str = "series", unit: str = "games", *, note_kept: bool = True,
             read: Callable[[str], Tuple[Dict[int, Any], List[int]]] = read_records_noting_damage) -> Dict[int, Any]:
    """The records already in the run directory `out`, after checking they belong to this run,
    which `settings` describe (written to SETTINGS_FILE). fresh: forget any earlier run there.
    resume: continue a matching one. Neither: refuse a directory that already holds records,
    rather than mix two runs. `differs(old, new)` names the settings in which two runs differ;
    `belongs(index, record)` is None for a record of this run, else why not. An agent file
    recorded in the settings (``files``: path -> sha256) that changed since is refused, unless
    fresh. `say` gets the
    notes: damaged lines dropped, and how many records a resumed run kept (of `total`; unless not
    `note_kept`: a caller of many runs counts them itself). `read` reads the file: game records
    (`Record`s) by default; a puzzle run's attempts are read as they are (`read_lines_noting_damage`)."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise ResultsError(f"cannot create the output folder '{out}': {exc.strerror or exc}") from None
    path = os.path.join(out, RESULTS_FILE)
    if fresh:
        for name in (RESULTS_FILE, SETTINGS_FILE, SUMMARY_FILE, ANALYSIS_FILE):
            if os.path.exists(os.path.join(out, name)):
                os.remove(os.path.join(out, name))
    records, damaged = read(path)
    try:
        old = read_settings(out)
    except ResultsError:
        if records:
            raise
        old = None                  # damaged, and no game recorded with it: written afresh below
    if records and not resume:
        raise ResultsError(f"{path} already holds {len(records)} {unit}; add --resume to continue "
                           f"that {what}, --force to start it over, or choose another --out")
    if old is not None and (records or resume):
        edited = changed_files(old, settings)
        if edited and records:
            raise ResultsError(f"{edited[0]} changed since the {what} in {out} began (its sha256 differs); "
                               f"add --force to start it over with the file as it is now, or choose another --out")
        refusal = resume_refusal(old, settings, differs(old, settings), out, what)
        if refusal:
            raise ResultsError(refusal)
    for index, record in records.items():
        problem = belongs(index, record)
        if problem:
            raise ResultsError(f"{path} holds {problem}; choose another --out")
    for note in damage_notes(path, damaged):
        say(f"note: {note}")
    if damaged:
        drop_damaged_lines(path)
    if resume and records and note_kept:
        kept = len([i for i in records if i < total])
        say(f"resuming {out}: {kept} {unit} kept, {max(total - kept, 0)} to play")
    write_json(os.path.join(out, SETTINGS_FILE), settings)
    return records


# ----------------------------------------------------------------------------- summaries


def outcome(record: dict, colour: str) -> str:
    """'win', 'draw' or 'loss' for the side playing `colour` ('white' or 'black')."""
    if record["result"] == "draw":
        return "draw"
    return "win" if record["result"] == colour else "loss"


POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def pair_points(records: Iterable[dict], first_colour) -> List[float]:
    """The first agent's points (0, 1/2, 1, 3/2 or 2) in every finished pair of a series whose
    games 2k and 2k+1 are a pair (colours reversed, `SeriesPlan.swap`), pair by pair;
    `first_colour(game)` is its colour in a game. A pair missing a game is left out."""
    pairs: Dict[int, List[float]] = {}
    for record in records:
        pairs.setdefault(record["game"] // 2, []).append(POINTS[outcome(record, first_colour(record["game"]))])
    return [sum(points) for _, points in sorted(pairs.items()) if len(points) == 2]


def _rate(count: int, games: int) -> float:
    return round(count / games, RATE_DIGITS) if games else 0.0


def _counts(values: Iterable[str]) -> Dict[str, int]:
    """Counts, most frequent first (then by name), so reports read the same every run."""
    counts: Dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def seconds_summary(values: List[float]) -> Dict[str, Optional[float]]:
    if not values:
        return {"mean": None, "median": None, "max": None}
    return {"mean": round(statistics.fmean(values), 6), "median": round(statistics.median(values), 6),
            "max": round(max(values), 6)}


def side_summary(records: List[dict], colour: Union[str, Sequence[str]]) -> Dict[str, Any]:
    """How one side fared over these games, from its own point of view: the side playing `colour`
    ('white' or 'black'), or one colour per record (an agent whose colour alternates)."""
    colours = [colour] * len(records) if isinstance(colour, str) else list(colour)
    games = len(records)
    outcomes = _counts(outcome(r, c) for r, c in zip(records, colours))
    wins, draws, losses = (outcomes.get(k, 0) for k in ("win", "draw", "loss"))
    moves = [s for r, c in zip(records, colours) for s in r["think"][c]["seconds"]]
    errors: List[str] = []
    for r, c in zip(records, colours):
        error = r.get("error") or ""
        # the referee prefixes an error with the faulty side
        if error.startswith(c.capitalize() + ":") and error not in errors and len(errors) < ERRORS_KEPT:
            errors.append(error)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": _rate(wins, games),
        "not_lost_rate": _rate(wins + draws, games),
        **stats.summary(wins, draws, losses),
        "termination": _counts(r["reason"] for r in records),
        "lost_by": _counts(r["reason"] for r, c in zip(records, colours) if outcome(r, c) == "loss"),
        "move_seconds": seconds_summary(moves),
        "game_seconds_max": round(max((r["think"][c]["total"] for r, c in zip(records, colours)), default=0.0), 6),
        "plies": {"mean": round(statistics.fmean(r["plies"] for r in records), 1) if records else None,
                  "max": max((r["plies"] for r in records), default=None)},
        "printed_games": sum(1 for r, c in zip(records, colours) if (r.get("printed") or {}).get(c)),
        "printed_not_lost": sum(1 for r, c in zip(records, colours)
                                if (r.get("printed") or {}).get(c) and outcome(r, c) != "loss"),
        "mutated_games": sum(1 for r, c in zip(records, colours) if (r.get("mutated") or {}).get(c)),
        "errors": errors,
    }


def series_summary(settings: dict, records: List[dict],
                   first_colours: Optional[List[str]] = None) -> Dict[str, Any]:
    """The series command's report.json: the settings, the overall score and each side's view.
    With colours swapped game by game (`first_colours`: the colour of the first agent, --white,
    in each game), also each agent's own view under "agents"."""
    extra = {}
    if first_colours is not None:
        other = ["black" if c == "white" else "white" for c in first_colours]
        extra = {"agents": {"first": side_summary(records, first_colours),
                            "second": side_summary(records, other)}}
    return {
        "settings": settings,
        "games": len(records),
        "score": {"white": sum(1 for r in records if r["result"] == "white"),
                  "draw": sum(1 for r in records if r["result"] == "draw"),
                  "black": sum(1 for r in records if r["result"] == "black")},
        "termination": _counts(r["reason"] for r in records),
        "white": side_summary(records, "white"),
        "black": side_summary(records, "black"),
        **extra,
    }
