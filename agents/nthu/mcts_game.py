"""NTHU MiniChess 6x5 for the UCT search (agents/uct.py): the rules, the expansion order and the
playout. Standard library only: `export-nthu mcts` puts this text into a single-file player.

A position is ``(board, side, plies)`` (30 signed course codes, +1/-1, plies played).

- ``terminal``: 50 plies played: material decides (a proof when it is not level); the side to
  move can capture the enemy king: it has won (a proof). No move at all is the search's business
  (the side to move has lost).
- ``moves``: captures first, most valuable victim first (least valuable attacker on ties), then
  promotions, then the rest in the course's order.
- ``playout`` (the simulation): up to `plies` plies of a capture-preferring random game (a king
  capture when there is one: that side has won; else a random capture when there is one, else
  a random move), then the mover's material after a short capture search (quiescence, at most
  4 plies, a king capture scores a win), squashed to [0, 1] by the logistic
  ``1 / (1 + exp(-m / K))`` with K = 4 course points (a pawn up: 0.62, a knight up: 0.85).
  With ``plies=0`` (the default, the stronger in our measurements) the simulation is that
  evaluation alone (an eval cut-off, as AlphaZero's value instead of a playout).
"""
import math

from harness.variants.nthu.core import (  # export: drop
    KING, PAWN, STEP_LIMIT, VALUE, can_take_king, material, moves, play)  # export: drop
from agents.nthu.search import captures  # export: drop

DEFAULT_ALPHA = 0.5              # UCT's implicit minimax weight for NTHU (agents/uct.py)
PLAYOUT_K = 4.0                  # course points for the logistic squash
QUIESCENCE_PLIES = 4
_WIN = 1000


def _ordered(board, side):
    ms = moves(board, side)
    keyed = []
    for i, (fr, to) in enumerate(ms):
        victim = board[to]
        if victim:
            k = 100000 + VALUE[abs(victim)] * 100 - VALUE[abs(board[fr])]
        elif (board[fr] == PAWN and to < 5) or (board[fr] == -PAWN and to >= 25):
            k = 50000
        else:
            k = -i                   # the course's order
        keyed.append((k, (fr, to)))
    keyed.sort(key=lambda x: x[0], reverse=True)
    return [m for _, m in keyed]


def _quiesce(board, side, alpha, beta, depth):
    """The side to move's material (course points) after captures, alpha-beta."""
    if can_take_king(board, side):
        return _WIN
    stand = material(board, side)
    if depth == 0 or stand >= beta:
        return stand
    if stand > alpha:
        alpha = stand
    caps = captures(board, side)
    caps.sort(key=lambda m: VALUE[abs(board[m[1]])] * 100 - VALUE[abs(board[m[0]])], reverse=True)
    for m in caps:
        v = -_quiesce(play(board, m), -side, -beta, -alpha, depth - 1)
        if v > alpha:
            alpha = v
            if alpha >= beta:
                break
    return alpha


class NthuGame:
    """The adapter agents/uct.py searches with; `playout_plies` random plies before the
    evaluation."""

    def __init__(self, playout_plies=0):
        self.playout_plies = playout_plies

    def moves(self, pos):
        return _ordered(pos[0], pos[1])

    def play(self, pos, move):
        return play(pos[0], move), -pos[1], pos[2] + 1

    def terminal(self, pos):
        board, side, plies = pos
        if plies >= STEP_LIMIT:
            lead = material(board, side)
            return (1.0, True) if lead > 0 else (0.0, True) if lead < 0 else (0.5, False)
        if can_take_king(board, side):
            return 1.0, True
        return None

    def playout(self, pos, rng):
        board, side, plies = pos
        sign = 1                      # +1 while `side` is the original side to move
        for _ in range(self.playout_plies):
            if plies >= STEP_LIMIT:
                lead = material(board, side)
                value = 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
                return value if sign == 1 else 1.0 - value
            ms = moves(board, side)
            if not ms:
                return 0.0 if sign == 1 else 1.0
            caps = [m for m in ms if board[m[1]]]
            for m in caps:
                if board[m[1]] == -KING * side:
                    return 1.0 if sign == 1 else 0.0
            m = rng.choice(caps) if caps else rng.choice(ms)
            board, side, plies, sign = play(board, m), -side, plies + 1, -sign
        if plies >= STEP_LIMIT:
            lead = material(board, side)
            value = 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
        else:
            v = _quiesce(board, side, -_WIN - 1, _WIN + 1, QUIESCENCE_PLIES)
            value = 1.0 if v >= _WIN else 0.0 if v <= -_WIN else 1.0 / (1.0 + math.exp(-v / PLAYOUT_K))
        return value if sign == 1 else 1.0 - value

