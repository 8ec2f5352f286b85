"""One recorded game as text, move by move, with a board (the `replay` command's output: harness/commands/replay.py).

GAME is the record's ``game`` field (if the file's records have none, GAME counts records from
1 in file order). A variant with a text of its own gives it (`Variant.replay_text`: CS3243's
course text, with each ply's course and engine move and FEN, harness/variants/cs3243/replay.py);
any other is replayed through the variant interface: each ply's number, mover and move name and
the board after it. With the game's review, each ply's evaluation and judgement follow it.
"""
import json
import sys
from typing import Any, Dict, Iterator, List, Optional

from ..analysis.text import accuracy_text, ply_text, turning_point_text
from ..core.records import Record, start_state
from ..runs.results import record_of


def review_lines(review: Optional[Dict[str, Any]], ply: Optional[int] = None) -> List[str]:
    """The game review's lines for a replay: with `ply`, that ply's evaluation and judgement
    (nothing when it was not analysed); without, the analyser, accuracies and turning points."""
    if not review:
        return []
    if ply is not None:
        found = [p for p in review.get("plies", []) if p.get("ply") == ply]
        return [f"  review: {ply_text(found[0])}"] if found else []
    return [f"review by {review.get('analyser')}: {accuracy_text(review)}"] + [
        f"  {turning_point_text(review, side)}" for side in ("white", "black")]


def variant_replay_lines(record: Dict[str, Any], variant, review: Optional[Dict[str, Any]] = None) -> Iterator[str]:
    """The replay of a record of any variant, through the variant interface only: each ply's
    number, mover and move name (and its review, with `review`), and the board after it."""
    state = start_state(record, variant)
    header = f"game {record.get('game', '?')}: {record.get('white', '?')} (White) vs {record.get('black', '?')} (Black)"
    if record.get("seed") is not None:
        header += f", seed {record['seed']}"
    yield header + f" ({variant.name})"
    yield f"ply 0: start, {variant.to_move(state)} to move"
    yield from variant.board_text(state).splitlines()
    for ply, text in enumerate(record.get("moves") or [], 1):
        mover = variant.to_move(state)
        try:
            move = variant.parse_move(text)
        except (TypeError, ValueError):
            move = None
        if move is None or move not in variant.legal_moves(state):
            yield f"ply {ply}: {mover} {text!r} is not a legal move here: the record is inconsistent"
            return
        state = variant.apply(state, move)
        yield ""
        yield f"ply {ply}: {mover} {variant.move_name(move)}"
        yield from review_lines(review, ply)
        yield from variant.board_text(state, last=move).splitlines()
    yield ""
    result, reason = record.get("result"), record.get("reason")
    yield (f"result: {result.capitalize()} wins ({reason})" if result in ("white", "black")
           else f"result: {result} ({reason})")
    if record.get("error"):
        yield f"error: {record['error']}"
    yield from review_lines(review)


def record_lines(record: Dict[str, Any], expected_variant=None,
                 review: Optional[Dict[str, Any]] = None) -> Iterator[str]:
    """The replay of a record, by its variant (records without one are the default variant's;
    a variant with a text of its own gives it: `Variant.replay_text`), with its review
    (an analysis.jsonl entry) when given. ValueError when `expected_variant` is given and the
    record is of another."""
    from ..variants import find_variant
    name = record_of(record).variant
    if expected_variant is not None and expected_variant != name:
        raise ValueError(f"the record is a game of {name}, not {expected_variant}")
    variant = find_variant(name)
    course = variant.replay_text(record, lambda ply: review_lines(review, ply))
    return course if course is not None else variant_replay_lines(record, variant, review)


def load_record(path: str, game: int, warn=None) -> Record:
    """The record of game `game` in a results file; ValueError with a one-line reason. Lines that
    are not records are named (FILE:LINE): when the game asked for is found elsewhere they are
    only warned about (to `warn`, default stderr), and when it is not, the first of them is the
    error (the game may be on that line)."""
    warn = warn or (lambda text: print(text, file=sys.stderr))
    record, damaged = _find_record(path, game)
    if record is None:
        raise ValueError(damaged[0] if damaged else f"'{path}' holds no game records")
    for note in damaged:
        warn(f"warning: {note}; skipped")
    return record_of(record)


def _find_record(path: str, game: int):
    """(the record or None, damaged-line texts); ValueError when the file has no such game and
    no damaged line could be it."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise ValueError(f"cannot read '{path}': {exc.strerror or exc}") from None
    records, damaged = [], []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            damaged.append(f"{path}:{number}: not a JSON record ({exc.msg})")
            continue
        if not isinstance(record, dict):
            damaged.append(f"{path}:{number}: not a game record")
            continue
        records.append(record)
    if not records:
        return None, damaged
    if any("game" in r for r in records):
        found = [r for r in records if r.get("game") == game]
        if not found:
            if damaged:
                return None, [f"{damaged[0]}; game {game} may have been on that line"]
            known = sorted(r["game"] for r in records if isinstance(r.get("game"), int))
            span = f" (games {known[0]}..{known[-1]})" if known else ""
            raise ValueError(f"'{path}' has no game {game}{span}")
        return found[0], damaged
    if not 1 <= game <= len(records):
        raise ValueError(f"'{path}' has {len(records)} records: GAME must be 1..{len(records)}")
    return records[game - 1], damaged
