"""Helpers for the Congo tests: crafted positions by square, moves as sorted names."""
from harness.variants.congo import rules


def fen(pieces, side="w", number=1):
    """A FEN from {'d1': 'L', 'd7': 'l', ...} (upper case White, lower case Black)."""
    board = [0] * rules.SQUARES
    for name, letter in pieces.items():
        code = rules.CODES[letter.upper()]
        board[rules.parse_square(name)] = code if letter.isupper() else -code
    return rules.format_fen(tuple(board), 1 if side == "w" else -1, number)


def moves(fen_text, source=None):
    """The side to move's moves as names in generation order; only from `source` if given."""
    p = rules.parse_fen(fen_text)
    out = [rules.move_text(s, t) for s, t in rules.generate(p.board, p.side)]
    return [m for m in out if source is None or m.startswith(source)]


def targets(fen_text, source):
    """The target squares of the moves from `source`, sorted, as one string."""
    return " ".join(sorted(m[2:] for m in moves(fen_text, source)))


def after(fen_text, move, edition="2022"):
    """The FEN after `move` (a name), executed with the edition's rules."""
    p = rules.parse_fen(fen_text)
    s, t = rules.parse_square(move[:2]), rules.parse_square(move[2:])
    assert (s, t) in rules.generate(p.board, p.side), move
    board = rules.execute(p.board, p.side, s, t, edition == "2022")
    return rules.format_fen(board, -p.side, p.move_number + (1 if p.side < 0 else 0))
