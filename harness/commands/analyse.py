"""`analyse PATH [--game N ...] [--analyser SPEC] [--nodes N] [--jobs J]`: review recorded games
(harness/analysis): analysis.jsonl beside each results.jsonl, each side's accuracy and turning
point printed per game, and the folder's report.html drawn again with the review in its viewer."""
import json
import os

from ..analysis.run import analyse_games
from ..analysis.store import results_files
from ..analysis.text import accuracy_text, turning_point_text
from ..grading.report_html import REPORT_HTML, write_report_html, write_series_html
from ..grading.report import PREVIOUS
from ..tournament import redraw_tournament_html
from ..runs.results import SUMMARY_FILE, damage_notes, read_records_noting_damage, read_settings
from .common import (RESUME_HINT, UsageError, add_analyser_options, add_progress_options, positive_int, progress_mode,
                     whole_number)


def chosen_games(files, games):
    """(results file, record) for the games asked for (all when `games` is empty); UsageError
    naming the file for a game it does not hold."""
    chosen = []
    for path in files:
        records, damaged = read_records_noting_damage(path)
        for note in damage_notes(path, damaged):
            print(f"warning: {note.split(': dropped')[0]}: skipped", flush=True)
        if not records and len(files) == 1:
            raise UsageError(f"'{path}' holds no game records")
        for number in dict.fromkeys(games) if games else sorted(records):    # a number given twice: once
            if number not in records:
                span = f" (games {min(records)}..{max(records)})" if records else ""
                raise UsageError(f"'{path}' has no game {number}{span}")
            chosen.append((path, records[number]))
    return chosen


def redraw_pages(path: str, files) -> list:
    """Draw again the report.html pages that show these games: a report folder's, a tournament
    folder's and each series folder's that has one. The pages written."""
    written = []
    folders = [path] if os.path.isdir(path) else []
    folders += [os.path.dirname(f) for f in files if os.path.dirname(f) not in folders]
    for folder in folders:
        if not os.path.isfile(os.path.join(folder, REPORT_HTML)):
            continue
        try:
            with open(os.path.join(folder, SUMMARY_FILE), encoding="utf-8") as handle:
                summary = json.load(handle)
        except (OSError, ValueError):
            continue
        if isinstance(summary, dict) and "agent" in summary and "opponents" in summary:
            written.append(write_report_html(folder, summary))
            continue
        if isinstance(summary, dict) and "crosstable" in summary and "players" in summary:
            written.append(redraw_tournament_html(folder, summary))
            continue
        settings = read_settings(folder)
        results = os.path.join(folder, "results.jsonl")
        if settings and os.path.isfile(results):
            records, _ = read_records_noting_damage(results)
            written.append(write_series_html(folder, settings, [records[k] for k in sorted(records)]))
    return written


def run(args) -> int:
    files = results_files(args.path, skip=(PREVIOUS,))     # not the earlier reports kept in PATH/previous/
    games = chosen_games(files, args.game or [])
    RESUME_HINT[:] = ["the games analysed so far are kept in analysis.jsonl; run the same command to analyse the rest"]
    done = analyse_games(games, args.analyser, args.nodes, jobs=args.jobs or os.cpu_count() or 1,
                         progress=progress_mode(args))
    for path, record in games:
        entry = done[path][record["game"]]
        where = f"{path}, " if len(files) > 1 else ""
        print(f"{where}game {record['game']} ({record.get('white')} vs {record.get('black')}, "
              f"{record.get('result')}): {accuracy_text(entry)}")
        for side in ("white", "black"):
            print(f"  {turning_point_text(entry, side)}")
    analysers = sorted({done[p][r["game"]]["analyser"] for p, r in games})
    pages = redraw_pages(args.path, files)
    print(f"analyser: {', '.join(analysers) or '-'}; written: "
          + ", ".join(sorted({os.path.join(os.path.dirname(p), 'analysis.jsonl') for p in files}) + pages))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("analyse", help="review recorded games: evaluations, blunders, accuracy, turning points")
    p.add_argument("path", metavar="PATH",
                   help="a results.jsonl, a series folder, or a report folder (every series under it)")
    p.add_argument("--game", type=whole_number, nargs="+", action="extend", metavar="N",
                   help="only these games (the records' 'game' numbers; default: every game)")
    add_analyser_options(p)
    p.add_argument("--jobs", type=positive_int, default=None, metavar="J",
                   help="games analysed at once (default: the number of cores)")
    add_progress_options(p)
    p.set_defaults(run=run)
