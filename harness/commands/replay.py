"""`replay RESULTS --game N`: one recorded game, ply by ply, with FENs (``--html FILE``: the same
game as a self-contained page with a board viewer)."""
import os
import sys
from typing import Any, Dict, Optional

from ..analysis.store import analysis_path, read_analyses, review_of
from ..view.html import render_game_html
from ..replay import load_record, record_lines
from ..runs.results import record_of
from ..variants import find_variant
from .common import UsageError


def write_game_page(path: str, record: Dict[str, Any], results: str, expected_variant=None,
                    review: Optional[Dict[str, Any]] = None) -> None:
    """The one-game HTML viewer (harness.view.html) for a record (with its review, if any),
    written to `path`. ValueError when the record is of another variant than `expected_variant`
    or cannot be read."""
    name = record_of(record).variant
    if expected_variant is not None and expected_variant != name:
        raise ValueError(f"the record is a game of {name}, not {expected_variant}")
    page = render_game_html(record, find_variant(name), results_path=results, review=review)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
    except OSError as exc:
        raise ValueError(f"cannot write '{path}': {exc.strerror or exc}") from None


def run(args) -> int:
    """The replay command: 0 after printing the game, 2 with a one-line error."""
    try:
        game = args.game if args.game_option is None else args.game_option
        if game is None:
            raise ValueError("which game? give GAME or --game N")
        results = args.results
        if os.path.isdir(results):
            found = os.path.join(results, "results.jsonl")
            if not os.path.isfile(found):
                raise ValueError(f"'{results}' is a folder without a results.jsonl: pass a results file")
            results = found
        record = load_record(results, game)
        found = read_analyses(results).get(record.get("game"))       # analysis.jsonl beside, if any
        review = review_of(found, record)
        if found is not None and review is None:
            print(f"note: {analysis_path(results)}'s line for game {record.get('game')} is not a review of "
                  f"this game's moves (damaged, or of other moves): not shown; `analyse` does it again",
                  file=sys.stderr, flush=True)
        if getattr(args, "html", None):
            write_game_page(args.html, record, results, getattr(args, "variant", None), review)
            print(f"written: {args.html}")
            return 0
        for line in record_lines(record, getattr(args, "variant", None), review):
            print(line)
        sys.stdout.flush()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return 0


def add_parser(subparsers) -> None:
    """Register `replay RESULTS.jsonl GAME` on the harness's sub-command parser."""
    p = subparsers.add_parser("replay", help="show one recorded game move by move, with FENs")
    p.add_argument("results", metavar="RESULTS", help="a results file written by the harness, or its folder")
    p.add_argument("game", type=int, nargs="?", default=None, metavar="GAME", help="the record's 'game' number")
    p.add_argument("--game", type=int, dest="game_option", default=None, metavar="N", help="the same as GAME")
    p.add_argument("--variant", default=None, metavar="NAME",
                   help="refuse a record of another variant (default: the record's own)")
    p.add_argument("--html", metavar="FILE",
                   help="write the game as a page with a board viewer to FILE instead of printing it")
    p.set_defaults(run=run)
