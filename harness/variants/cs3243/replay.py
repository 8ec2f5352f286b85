"""CS3243's replay text (the `replay` command's output for a CS3243 record: `CS3243.replay_text`).

Each ply shows its number, the mover, the move in course notation
(``a1b2``, course rows) and in engine notation (``a2b3``), any capture, the board after it and
its FEN, so the game can be checked step by step in Fairy-Stockfish or pyffish
(``pyffish.legal_moves('cs3243', start_fen, engine_moves[:n])``). The board prints row 6 at the
top (like a FEN), course row labels on the left, the engine's letters (upper case White) and
``.`` for an empty square.

A record is read from ``start_fen`` and ``engine_moves``; an older record without them is taken
to start from the start position with White to move and is read from its course ``moves``.
"""
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

from .fen import START_FEN, engine_move, game_from_fen, parse_engine_move, to_fen
from .game import move_name
from .rules import RULES, Rules


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


def replay_lines(record: Dict[str, Any], rules: Rules = RULES,
                 notes: Optional[Callable[[Optional[int]], Iterable[str]]] = None) -> Iterator[str]:
    """The text of a replay, line by line; `notes(ply)` the lines shown after a ply (harness/replay:
    its review, when the game was analysed) and `notes(None)` those after the result. ValueError
    when the record has no usable start."""
    notes = notes or (lambda ply: ())
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
        yield from notes(ply)
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
    yield from notes(None)
