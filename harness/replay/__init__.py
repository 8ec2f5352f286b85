"""One recorded game as text, move by move, with a board (the `replay` command's output: harness/commands/replay.py).

GAME is the record's ``game`` field (if the file's records have none, GAME counts records from
1 in file order). Each ply shows its number, the mover, the move in course notation
(``a1b2``, course rows) and in engine notation (``a2b3``), any capture, the board after it and
its FEN, so the game can be checked step by step in Fairy-Stockfish or pyffish
(``pyffish.legal_moves('cs3243', start_fen, engine_moves[:n])``). The board prints row 6 at the
top (like a FEN), course row labels on the left, the engine's letters (upper case White) and
``.`` for an empty square.

A record is read from ``start_fen`` and ``engine_moves``; an older record without them is taken
to start from the start position with White to move and is read from its course ``moves``.
"""
import json
import sys
from typing import Any, Dict, Iterator, List, Optional

from ..variants.cs3243.fen import START_FEN, engine_move, game_from_fen, parse_engine_move, to_fen
from ..variants.cs3243.game import move_name
from ..variants.cs3243.rules import RULES, Rules
from ..analysis.text import accuracy_text, ply_text, turning_point_text
from ..core.records import Record, start_state
from ..runs.results import record_of


def board_lines(rules: Rules, board) -> List[str]:
    v = rules.variant
    lines = []
    for row in range(v.rows - 1, -1, -1):
        cells = []
        for col in range(v.cols):
            p = board[v.index(col, row)]
            letter = rules.piece_of[abs(p)].letter if p else "."
            cells.append(letter.upper() if p > 0 else letter.lower())
        lines.append(f"  {row} | {' '.join(cells)}")
    lines.append("      " + "-" * (2 * v.cols - 1))
    lines.append("      " + " ".join(v.column_letters()))
    return lines


def _record_moves(record: Dict[str, Any], rules: Rules) -> List[tuple]:
    """The record's moves as (internal move or None, the text it came from)."""
    if record.get("engine_moves") is not None:
        return [(parse_engine_move(rules, m) if isinstance(m, str) else None, m)
                for m in record["engine_moves"]]
    out = []
    for name in record.get("moves") or []:
        move = None
        if isinstance(name, str):
            v = rules.variant
            for split in range(2, len(name) - 1):
                s, t = v.parse_name(name[:split]), v.parse_name(name[split:])
                if s is not None and t is not None:
                    move = (s, t)
                    break
        out.append((move, name))
    return out


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


def replay_lines(record: Dict[str, Any], rules: Rules = RULES,
                 review: Optional[Dict[str, Any]] = None) -> Iterator[str]:
    """The text of a replay, line by line (with `review`, an analysis.jsonl entry, each ply's
    evaluation and judgement). ValueError when the record has no usable start."""
    fen = record.get("start_fen") or START_FEN
    limits = {}
    for key, name in (("fifty", "fifty_limit"), ("fifty_limit", "fifty_limit"), ("max_plies", "max_plies")):
        if type(record.get(key)) is int:
            limits[name] = record[key]
    game = game_from_fen(fen, rules, **limits)
    colour = game.to_move
    first_fullmove = int(fen.split()[5]) if len(fen.split()) > 5 else 1
    header = f"game {record.get('game', '?')}: {record.get('white', '?')} (White) vs {record.get('black', '?')} (Black)"
    if record.get("seed") is not None:
        header += f", seed {record['seed']}"
    yield header
    yield f"start FEN: {fen}" + ("" if record.get("start_fen") else " (assumed: the record has no start_fen)")
    yield f"ply 0: start, {colour} to move"
    yield from board_lines(rules, game.board)
    moves = _record_moves(record, rules)
    for ply, (move, text) in enumerate(moves, 1):
        mover = game.to_move
        if game.over:
            yield f"ply {ply}: {text!r} comes after the game ended ({game.reason}): the record is inconsistent"
            return
        if move is None or move not in game.legal_moves():
            yield f"ply {ply}: {mover} {text!r} is not a legal move here: the record is inconsistent"
            return
        captured = game.board[move[1]]
        game.play(move)
        took = f", takes {rules.piece_of[abs(captured)].name}" if captured else ""
        yield ""
        opening = " (opening)" if ply <= (record.get("opening_plies") or 0) else ""
        yield (f"ply {ply}: {mover} {move_name(rules, move)} (engine {engine_move(rules, move)}){took}{opening}")
        yield from review_lines(review, ply)
        yield from board_lines(rules, game.board)
        fullmove = first_fullmove + (game.plies + (1 if colour == "Black" else 0)) // 2
        yield f"  FEN: {to_fen(game, fullmove=fullmove)}"
    yield ""
    result, reason = record.get("result"), record.get("reason")
    if result in ("white", "black"):
        ending = f"result: {result.capitalize()} wins ({reason})"
    elif result == "draw":
        ending = f"result: draw ({reason})"
    else:
        ending = f"result: {result!r} ({reason})"
    yield ending
    if record.get("error"):
        yield f"error: {record['error']}"
    if game.adjudicate() and reason not in (None, game.reason) and game.reason is not None:
        yield f"note: replaying the moves here ends with {game.reason} (record says {reason})"
    yield from review_lines(review)


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
    the variant's `replay_style` chooses the text), with its review
    (an analysis.jsonl entry) when given. ValueError when `expected_variant` is given and the
    record is of another."""
    from ..variants import find_variant
    name = record_of(record).variant
    if expected_variant is not None and expected_variant != name:
        raise ValueError(f"the record is a game of {name}, not {expected_variant}")
    variant = find_variant(name)
    if variant.replay_style == "course":
        return replay_lines(record, review=review)
    return variant_replay_lines(record, variant, review)


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
