"""Crafted NTHU MiniChess 6x5 positions for the tests: pieces by square name, White upper case."""
from harness.variants.nthu import VARIANT, State
from harness.variants.nthu.core import COLS, ROWS

CODES = {"P": 1, "R": 2, "N": 3, "B": 4, "Q": 5, "K": 6}


def sq(name):
    """Square index of a runner name such as 'd2' (file a-e, rank 1-6)."""
    return (ROWS - int(name[1])) * COLS + "abcde".index(name[0])


def position(white=True, plies=0, **pieces):
    """A State from squares: position(e1="K", a6="k", c3="Q"); White to move unless white=False."""
    board = [0] * (ROWS * COLS)
    for name, letter in pieces.items():
        code = CODES[letter.upper()]
        board[sq(name)] = code if letter.isupper() else -code
    return State(tuple(board), 1 if white else -1, plies)


def names(moves):
    return [VARIANT.move_name(m) for m in moves]


def moves_from(state, square):
    """The names of the moves from `square`, in the generator's order."""
    return [n for n in names(VARIANT.legal_moves(state)) if n.startswith(square)]


def play(white, black, state=None, seed=0):
    """One game through the harness's referee; its record (the agents are closed after)."""
    from harness.core.game import Game
    from harness.core.referee import play_game
    try:
        return play_game(white, black, seed, Game(VARIANT, state))
    finally:
        white.close()
        black.close()
