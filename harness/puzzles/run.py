"""An agent on a set of puzzles, each position played as `series` plays a game, and the tally.

Each puzzle is a one-ply game: the position is set up, the agent to move is built through
`harness.players` (a .py file in its own process, in the box, with the course's limits: 30 s
for the move and 30 s of thinking for the game) and asked for one move by the referee, which
scores a crash, a timeout or an illegal answer as it would in a game; then the game stops (its
ply limit is 1). The side not to move is `IDLE`, never asked. The games run through
`harness.runs.series.play_tasks` (the local pool, or a Dask cluster), and each record is appended to
OUT/results.jsonl the moment it ends, with the puzzle's id, so a run that is cut short resumes
(`--resume`; `harness.runs.results.open_run`) and `replay OUT/results.jsonl --game N` shows any attempt. OUT/series.json holds
what makes two runs the same (the agent, the set file's sha256, the limits); OUT/report.json
the summary.

A puzzle is solved when the agent's move is one of its solutions. Per theme: the solved rate
with its 95 % Wilson interval (`harness.stats.wilson`).
"""
import os
import shlex
from typing import Callable, Dict, List, Optional

from .. import stats
from ..runs.results import RESULTS_FILE, append_record, hold_folder, open_run, read_lines_noting_damage
from ..runs.progress import Progress
from ..runs.series import SeriesError, play_tasks
from ..core.variant import FAULTS, WHITE
from ..variants.cs3243 import VARIANT
from ..variants.cs3243.fen import from_fen
from .puzzle import DEFAULT_SET, THEMES, Puzzle

IDLE = "dummy"          # the side not to move: built, never asked
IDENTITY = ("agent", "agent_sha256", "set_sha256")    # what makes two runs one (limits may change)
PROGRAM = "python -m harness"


def puzzle_task(puzzle: Puzzle, index: int, agent: str, move_timeout: float, game_time: Optional[float],
                box: Optional[dict]) -> dict:
    """The `harness.runs.series.run_game` task of one puzzle: its position, one ply, the agent to move."""
    gameboard, colour, _, _ = from_fen(puzzle.fen)
    rows = [[c, r, piece, side] for (c, r), (piece, side) in gameboard.items()]
    white, black = (agent, IDLE) if colour == WHITE else (IDLE, agent)
    return {"plan": 0, "game": index, "white": white, "black": black, "seed": index, "variant": VARIANT.name,
            "options": {"start": rows, "to_move": colour, "max_plies": 1}, "move_timeout": move_timeout,
            "game_time": game_time, "openings": 0, "opening_seed": 0, "box": box}


def judge(puzzle: Puzzle, record: dict) -> dict:
    """One attempt: the move played (None when the agent failed), solved or not, and why not."""
    played = record["moves"][0] if record.get("moves") else None
    fault = record.get("reason") if record.get("reason") in FAULTS else None
    colour = "black" if puzzle.fen.split()[1:2] == ["b"] else "white"
    return {"id": puzzle.id, "theme": puzzle.theme, "solved": played in puzzle.solutions, "played": played,
            "fault": fault, "error": record.get("error"),
            "seconds": record["think"][colour]["total"], "printed": bool((record.get("printed") or {}).get(colour))}


def show_command(puzzle_id: str, set_name: str) -> str:
    """The command that prints a puzzle's board."""
    chosen = "" if set_name == DEFAULT_SET else f" --set {shlex.quote(set_name)}"
    return f"{PROGRAM} puzzles --show {shlex.quote(puzzle_id)}{chosen}"


def themes_in_order(puzzles: List[Puzzle]) -> List[str]:
    """The shipped themes first (in `THEMES` order), then the others as they first appear."""
    present = {p.theme for p in puzzles}
    extra = [t for t in dict.fromkeys(p.theme for p in puzzles) if t not in THEMES]
    return [t for t in THEMES if t in present] + extra


def rate_entry(solved: int, total: int) -> dict:
    return {"puzzles": total, "solved": solved, "rate": round(solved / total, 4) if total else None,
            "wilson95": [round(x, 4) for x in stats.wilson(solved, total)] if total else None}


def summarize(agent: str, set_name: str, set_file: str, puzzles: List[Puzzle], records: Dict[int, dict]) -> dict:
    """report.json of a run: overall and per-theme rates, faults, and every missed puzzle."""
    attempts = [judge(p, records[i]) for i, p in enumerate(puzzles) if i in records]
    by_id = {p.id: p for p in puzzles}
    themes = {theme: rate_entry(sum(1 for a in attempts if a["theme"] == theme and a["solved"]),
                                sum(1 for a in attempts if a["theme"] == theme))
              for theme in themes_in_order(puzzles)}
    faults: Dict[str, int] = {}
    for a in attempts:
        if a["fault"]:
            faults[a["fault"]] = faults.get(a["fault"], 0) + 1
    missed = [{"id": a["id"], "theme": a["theme"], "fen": by_id[a["id"]].fen,
               "solutions": list(by_id[a["id"]].solutions), "played": a["played"], "fault": a["fault"],
               "error": a["error"], "show": show_command(a["id"], set_name)}
              for a in attempts if not a["solved"]]
    seconds = [a["seconds"] for a in attempts]
    return {"agent": agent, "set": set_name, "set_file": set_file, "attempted": len(attempts),
            **rate_entry(sum(1 for a in attempts if a["solved"]), len(attempts)), "themes": themes,
            "faults": faults, "printed": sum(1 for a in attempts if a["printed"]),
            "seconds_max": round(max(seconds), 3) if seconds else None,
            "seconds_mean": round(sum(seconds) / len(seconds), 3) if seconds else None, "missed": missed}


def percent(rate: Optional[float]) -> str:
    return "-" if rate is None else f"{100 * rate:.1f} %"


def interval(entry: dict) -> str:
    low, high = entry["wilson95"] or (None, None)
    return "-" if low is None else f"{100 * low:.1f}-{100 * high:.1f} %"


def render_text(summary: dict) -> str:
    """The summary as the command prints it."""
    lines = [f"{summary['agent']} on puzzle set {summary['set']} ({summary['attempted']} puzzles): solved "
             f"{summary['solved']}/{summary['puzzles']} ({percent(summary['rate'])}, 95 % CI {interval(summary)})",
             "", f"{'theme':<20} {'solved':>9} {'rate':>8}   95 % CI"]
    for theme, entry in summary["themes"].items():
        solved = f"{entry['solved']}/{entry['puzzles']}"
        lines.append(f"{theme:<20} {solved:>9} {percent(entry['rate']):>8}   {interval(entry)}")
    if summary["faults"]:
        lines.append("")
        lines.append("failed to answer: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["faults"].items())))
    if summary["printed"]:
        lines.append(f"note: the agent printed output on {summary['printed']} puzzles: the course's autograder "
                     f"rejects files that print")
    if summary["missed"]:
        lines += ["", f"missed ({len(summary['missed'])}):"]
    for miss in summary["missed"]:
        answer = miss["played"] or f"nothing ({miss['fault']}: {miss['error']})"
        lines.append(f"  {miss['id']} ({miss['theme']}): {miss['fen']}")
        lines.append(f"      winning move {' or '.join(miss['solutions'])}; played {answer}")
        lines.append(f"      show: {miss['show']}")
    return "\n".join(lines) + "\n"


class _Solved:
    """The progress display's tally."""

    def __init__(self):
        self.solved = 0

    def __str__(self) -> str:
        return f"solved {self.solved}"


def run_set(agent: str, puzzles: List[Puzzle], out: str, settings: dict, jobs: int = 1, resume: bool = False,
            fresh: bool = False, progress: Optional[str] = None, executor=None,
            say: Callable[[str], None] = print) -> Dict[int, dict]:
    """Play every puzzle not yet attempted in OUT; the records by puzzle index.

    `settings` holds move_timeout, game_time and box (a BoxSettings dict or None) besides what
    identifies the run. progress: 'bar', 'plain', 'none' or None (bar on a terminal)."""
    def belongs(index: int, record: dict) -> Optional[str]:
        if index >= len(puzzles) or record.get("puzzle") != puzzles[index].id:
            return f"attempt {index} of another set (puzzle {record.get('puzzle')!r})"
        return None

    def differs(old: dict, new: dict) -> List[str]:
        return [key for key in IDENTITY if old.get(key) != new.get(key)]
    with hold_folder(out):          # one run at a time in OUT
        return _run_set(agent, puzzles, out, settings, jobs, resume, fresh, progress, executor, say, differs, belongs)


def _run_set(agent, puzzles, out, settings, jobs, resume, fresh, progress, executor, say, differs, belongs):
    done = open_run(out, settings, resume, fresh, say, differs, belongs, len(puzzles), "puzzle run", "attempts",
                    read=read_lines_noting_damage)
    tasks = [puzzle_task(p, i, agent, settings["move_timeout"], settings["game_time"], settings["box"])
             for i, p in enumerate(puzzles) if i not in done]
    tally = _Solved()
    tally.solved = sum(1 for i, r in done.items() if judge(puzzles[i], r)["solved"])
    shown = Progress(progress, len(puzzles), len(puzzles) - len(tasks), f"{agent} puzzles", tally, unit="puzzle")
    results = play_tasks(tasks, jobs, executor)
    try:
        with open(os.path.join(out, RESULTS_FILE), "a", encoding="utf-8") as handle:
            for _, record in results:
                index = record["game"]
                if "harness_error" in record:
                    raise SeriesError(f"puzzle {puzzles[index].id}: {record['harness_error']}")
                record = {"game": index, "puzzle": puzzles[index].id, **{k: v for k, v in record.items() if k != "game"}}
                append_record(handle, record)
                done[index] = record
                tally.solved += judge(puzzles[index], record)["solved"]
                shown.update()
    finally:
        results.close()
        shown.close()
    return done
