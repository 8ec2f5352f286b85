"""The course's searches, exactly as its pseudocode defines them (negamax, fail-hard alpha-beta).

- ``minimax(depth)``: a lion gone or depth <= 0 -> eval; else the best of -minimax(child) over all
  moves, starting from -10000000 (so a side with no move gets -10000000).
- ``alphabeta(depth, alpha, beta)``: a lion gone or depth <= 0 -> eval; for each move
  e = -alphabeta(child, depth - 1, -beta, -alpha); e >= beta -> return beta; e > alpha -> alpha = e;
  finally return alpha. The root window is +-10000000.

Neither value depends on the order the moves are tried in. `AlphaBeta` uses that to be fast:
it searches depth 1, 2, ... up to the asked depth, and inside the tree tries first the move that
was best (or cut) in the same position before, then captures (bigger victims first), then two
"killer" moves that cut at the same ply, then the rest. The root always goes through the moves in
name order with the pseudocode's window, so its value is the course's and the move it picks is
the first best one in name order: a fail-hard answer is above alpha exactly when the true value
is, whatever order the tree below was searched in.
"""
from typing import Callable, Dict, List, Optional, Tuple

from .rules import INFINITY, LION, MATERIAL, execute, generate

Board = Tuple[int, ...]
Eval = Callable[[Board, int], int]
MoveT = Tuple[int, int]


def minimax(board: Board, side: int, depth: int, evaluate: Eval, promotion: bool) -> int:
    if depth <= 0 or LION not in board or -LION not in board:
        return evaluate(board, side)
    value = -INFINITY
    for s, t in generate(board, side):
        v = -minimax(execute(board, side, s, t, promotion), -side, depth - 1, evaluate, promotion)
        if v > value:
            value = v
    return value


def minimax_root(board: Board, side: int, depth: int, evaluate: Eval,
                 promotion: bool) -> Tuple[int, Optional[MoveT]]:
    """(the minimax value, the first move in name order that reaches it, or None)."""
    if depth <= 0 or LION not in board or -LION not in board:
        return evaluate(board, side), None
    value, best = -INFINITY, None
    for s, t in generate(board, side):
        v = -minimax(execute(board, side, s, t, promotion), -side, depth - 1, evaluate, promotion)
        if v > value or best is None:
            value, best = max(v, value), (s, t)
    return value, best


VICTIM = [abs(v) for v in MATERIAL]
VICTIM[LION + 6] = VICTIM[-LION + 6] = 100000
HINTED, CAPTURE, KILLER = 10 ** 8, 10 ** 6, 1000


class AlphaBeta:
    """One alpha-beta search (its move hints live as long as the object)."""

    def __init__(self, evaluate: Eval, promotion: bool):
        self.evaluate = evaluate
        self.promotion = promotion
        self.hints: Dict[Tuple[Board, int], MoveT] = {}
        self.killers: Dict[int, List[MoveT]] = {}
        self.leaves = 0

    def search(self, board: Board, side: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0 or LION not in board or -LION not in board:
            self.leaves += 1
            return self.evaluate(board, side)
        moves = generate(board, side)
        key = (board, side)
        hint = self.hints.get(key)
        killers = self.killers.get(ply, ())

        def rank(m):
            if m == hint:
                return HINTED
            x = board[m[1]]
            if x:
                return CAPTURE + VICTIM[x + 6]
            return KILLER if m in killers else 0

        moves.sort(key=rank, reverse=True)
        best = None
        promotion = self.promotion
        for m in moves:
            e = -self.search(execute(board, side, m[0], m[1], promotion), -side, depth - 1,
                             -beta, -alpha, ply + 1)
            if e >= beta:
                self.hints[key] = m
                if not board[m[1]]:
                    row = self.killers.setdefault(ply, [])
                    if m not in row:
                        row.insert(0, m)
                        del row[2:]
                return beta
            if e > alpha:
                alpha, best = e, m
        if best is not None:
            self.hints[key] = best
        return alpha

    def root(self, board: Board, side: int, depth: int) -> Tuple[int, Optional[MoveT]]:
        """(the value, the first move in name order that reaches it); the move is None with a
        lion gone, depth <= 0 or no move at all."""
        if depth <= 0 or LION not in board or -LION not in board:
            return self.evaluate(board, side), None
        alpha, best = -INFINITY, None
        for d in range(1, depth + 1):
            alpha, best = -INFINITY, None
            for s, t in generate(board, side):
                e = -self.search(execute(board, side, s, t, self.promotion), -side, d - 1,
                                 -INFINITY, -alpha, 1)
                if e > alpha or best is None:
                    alpha, best = max(e, alpha), (s, t)
        return alpha, best


def alphabeta_root(board: Board, side: int, depth: int, evaluate: Eval,
                   promotion: bool) -> Tuple[int, Optional[MoveT]]:
    return AlphaBeta(evaluate, promotion).root(board, side, depth)


def plain_alphabeta(board: Board, side: int, depth: int, alpha: int, beta: int, evaluate: Eval,
                    promotion: bool) -> int:
    """The pseudocode word for word, moves in name order (slow; the tests compare it with
    `AlphaBeta`)."""
    if depth <= 0 or LION not in board or -LION not in board:
        return evaluate(board, side)
    for s, t in generate(board, side):
        e = -plain_alphabeta(execute(board, side, s, t, promotion), -side, depth - 1, -beta, -alpha,
                             evaluate, promotion)
        if e >= beta:
            return beta
        if e > alpha:
            alpha = e
    return alpha
