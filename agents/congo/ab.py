"""ab: our Congo engine, the strongest we could make in plain Python.

Search: iterative deepening over a principal-variation (negamax) search with a transposition
table, then a quiescence search of captures at the leaves. A side whose lion is attacked is
"in check": its node is searched one ply deeper and its quiescence looks at every move, not just
captures, so a lion hunt is never cut off half-way. Move order: the table's move, captures of the
lion, captures by most valuable victim / least valuable attacker, two killer moves per ply, then
a history score; late quiet moves are searched one ply shallower first (and again at full depth
when they surprise). A position seen earlier in the game or on the current line counts as a draw,
as does the game's ply limit, so a won game is pressed on instead of repeated.

Evaluation (the side to move's view): material (the course's values, pawns worth more as they
near the far rank, more so when the edition promotes them), mobility (2 a move, both sides'
moves generated), pieces left in the river (all but the most valuable one of a side will drown:
their value is taken off), enemy pieces near each lion, and a tempo.

Budget: a number of nodes per move (default `NODES`, about 1 s a move on the bench machine, see
docs/congo.md), so the agent is deterministic: the same position and game give the same move
whatever the machine's load. A time cap (`seconds`, or the referee's deadline when smaller) is
only a safety net; it makes the choice depend on speed when it fires.
"""
import time
from typing import Dict, List, Optional, Tuple

from harness.core.agent import Agent, search_score
from harness.core.variant import Move
from harness.variants.congo import State
from harness.variants.congo.rules import (BETWEEN, EMPTY, GIRAFFE, LION, PAWN, RIVER, SIZE, SQUARES,
                                          SUPERPAWN, TABLE, VALUES, ZEBRA, ELEPHANT, ANY,
                                          QUIET, execute, generate, rank_of, file_of)

from .basic import NoMove

NODES = 80000            # nodes per move by default (about 1 s of one core, see docs/congo.md)
SAFETY_SECONDS = 10.0    # a search stops after this long whatever its budget
MATE = 1000000
MATE_BOUND = MATE - 1000
MAX_PLY = 64
EXACT, LOWER, UPPER = 0, 1, 2

# -- evaluation tables -----------------------------------------------------------------------
PIECE_VALUE = dict(VALUES)
PIECE_VALUE[LION] = 0
MOBILITY = 2
ZONE = 6                 # per attack on a square of the enemy castle
LAZY = 200
CONTEMPT = 150           # a draw is worth this much less than level to the searching side
RIVER_STAY = 10          # per piece standing in the river (it must spend a move to leave)
TEMPO = 10


def _advance_bonus(rank_from_home: int, promotion: bool) -> int:
    """A pawn's bonus by how far it stands from its first rank (1 = its starting rank 2)."""
    table = {0: 0, 1: 0, 2: 5, 3: 10, 4: 25, 5: 45 if promotion else 30, 6: 20}
    return table.get(rank_from_home, 0)


def _pst(promotion: bool) -> List[List[int]]:
    """Material plus placement, by piece code + 6 and square, from White's view (signed)."""
    out = [[0] * SQUARES for _ in range(13)]
    for piece, value in PIECE_VALUE.items():
        for s in range(SQUARES):
            for side in (1, -1):
                v = value
                r = rank_of(s)
                if piece == PAWN:
                    v += _advance_bonus(r - 1 if side > 0 else SIZE - r, promotion)
                elif piece in (ZEBRA, GIRAFFE, ELEPHANT, SUPERPAWN):
                    f = file_of(s)
                    v += 6 - 2 * abs(f - 3)          # a little for the centre files
                out[piece * side + 6][s] = v * side
    return out


PST = {True: _pst(True), False: _pst(False)}
# ZONES[side]: True on the squares of the enemy castle (where `side` attacks the enemy lion)
ZONES = {side: [2 <= file_of(s) <= 4 and (rank_of(s) >= 5 if side > 0 else rank_of(s) <= 3)
                for s in range(SQUARES)] for side in (1, -1)}

# ATTACKERS[by][target]: (source, code) pairs such that a piece `code` of side `by` on `source`
# can capture on `target` (captures never need empty squares between, except the lion's flight)
ATTACKERS: Dict[int, List[Tuple[Tuple[int, int], ...]]] = {}
for _by in (1, -1):
    _lists: List[List[Tuple[int, int]]] = [[] for _ in range(SQUARES)]
    for _piece in (LION, ZEBRA, ELEPHANT, GIRAFFE, PAWN, SUPERPAWN):
        _code = _piece * _by
        for _s in range(SQUARES):
            for _t, _need in TABLE[_code + 6][_s]:
                if _need == ANY:
                    _lists[_t].append((_s, _code))
    ATTACKERS[_by] = [tuple(x) for x in _lists]

VICTIM = [0] * 13
for _piece, _value in PIECE_VALUE.items():
    VICTIM[_piece + 6] = VICTIM[-_piece + 6] = _value
VICTIM[LION + 6] = VICTIM[-LION + 6] = 100000


# CAPTURES[code + 6][square]: the targets where that piece may capture (any occupant)
CAPTURES = [[tuple(t for t, need in TABLE[c][s] if need == ANY) for s in range(SQUARES)]
            for c in range(13)]


def captures(board: Tuple[int, ...], side: int) -> List[Tuple[int, int]]:
    """`side`'s captures, the lion's flight left out (the searches test that one first)."""
    out = []
    for s in range(SQUARES):
        code = board[s]
        if code * side > 0:
            for t in CAPTURES[code + 6][s]:
                if board[t] * side < 0:
                    out.append((s, t))
    return out


def attacked(board: Tuple[int, ...], target: int, by: int) -> bool:
    """Can side `by` capture on `target` (as if it were to move)?"""
    for s, code in ATTACKERS[by][target]:
        if board[s] == code:
            return True
    lion = by * LION
    if lion in board:
        e = board.index(lion)
        between = BETWEEN[e][target]
        if between is not None and board[target] == -lion and not any(board[x] for x in between):
            return True
    return False


def evaluate(board: Tuple[int, ...], side: int, promotion: bool, alpha: int = -MATE,
             beta: int = MATE) -> int:
    """Our evaluation, from `side`'s view (both lions on the board). When material and placement
    alone are more than LAZY outside the window (alpha, beta), they are the answer (mobility and
    castle attacks are not worth that much)."""
    pst = PST[promotion]
    score = 0
    white_river = []
    black_river = []
    for s in range(SQUARES):
        x = board[s]
        if x:
            score += pst[x + 6][s]
    for s in RIVER:
        x = board[s]
        if x > 0:
            white_river.append(PIECE_VALUE[x])
        elif x < 0:
            black_river.append(PIECE_VALUE[-x])
    if white_river:
        score -= sum(white_river) - max(white_river) + RIVER_STAY * len(white_river)
    if black_river:
        score += sum(black_river) - max(black_river) + RIVER_STAY * len(black_river)
    quick = score * side + TEMPO
    if quick + LAZY <= alpha or quick - LAZY >= beta:
        return quick
    wm, wz = activity(board, 1)
    bm, bz = activity(board, -1)
    score += MOBILITY * (wm - bm) + ZONE * (wz - bz)
    return score * side + TEMPO


def activity(board: Tuple[int, ...], side: int) -> Tuple[int, int]:
    """(moves, zone) of `side`: its moves as if it were to move (a lion's flight left out), and
    how many of its capturing reaches land in the enemy castle, whatever stands there."""
    zone = ZONES[side]
    moves = hits = 0
    for s in range(SQUARES):
        code = board[s]
        if code * side <= 0:
            continue
        for t, need in TABLE[code + 6][s]:
            x = board[t]
            if need == ANY:
                if zone[t]:
                    hits += 1
                if x * side <= 0:
                    moves += 1
            elif x == 0 and (need == QUIET or board[need] == 0):
                moves += 1
    return moves, hits


class Stop(Exception):
    """The budget is spent."""


class Engine:
    """One game's searcher (its table and history live across moves)."""

    def __init__(self, promotion: bool, nodes: int = NODES, seconds: Optional[float] = None,
                 contempt: int = CONTEMPT):
        self.promotion = promotion
        self.contempt = contempt      # an analysis wants 0: a draw is level for both sides
        self.limit = nodes
        self.seconds = seconds
        self.tt: Dict[Tuple[Tuple[int, ...], int], Tuple[int, int, int, Optional[Tuple[int, int]]]] = {}
        self.history: Dict[Tuple[int, int], int] = {}
        self.killers: List[List[Tuple[int, int]]] = [[] for _ in range(MAX_PLY + 8)]
        self.nodes = 0
        self.stop_at = 0.0
        self.seen: frozenset = frozenset()
        self.path: List[Tuple[Tuple[int, ...], int]] = []
        self.plies_left = 10 ** 9
        self.depth_done = 0
        self.root_side = 1

    # -- the search ----------------------------------------------------------------------

    def draw(self, side: int) -> int:
        """A draw's score for `side` to move: a little below level for the side searching."""
        return -self.contempt if side == self.root_side else self.contempt

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.limit:
            raise Stop
        if self.nodes & 1023 == 0 and time.perf_counter() > self.stop_at:
            raise Stop

    def _order(self, board, side, moves, hint, ply):
        killers = self.killers[ply]
        history = self.history

        def rank(m):
            if m == hint:
                return 1 << 40
            x = board[m[1]]
            if x:
                return (1 << 30) + VICTIM[x + 6] * 16 - VICTIM[board[m[0]] + 6] // 32
            if m in killers:
                return (1 << 29) - killers.index(m)
            return history.get(m, 0)

        moves.sort(key=rank, reverse=True)
        return moves

    def quiesce(self, board, side, alpha, beta, ply, qdepth):
        self._tick()
        if LION * side not in board:
            return -MATE + ply
        if -LION * side not in board:
            return MATE - ply
        if board.count(EMPTY) == SQUARES - 2:
            return self.draw(side)
        if attacked(board, board.index(-LION * side), side):
            return MATE - ply - 1
        danger = attacked(board, board.index(LION * side), -side)
        if danger and qdepth < 4 and ply < MAX_PLY:
            moves = generate(board, side)
            if not moves:
                return self.draw(side)
            best = -MATE + ply
            todo = self._order(board, side, moves, None, ply)
        else:
            best = evaluate(board, side, self.promotion, alpha, beta)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
            todo = captures(board, side)
            if not todo or ply >= MAX_PLY:
                return best
            todo.sort(key=lambda m: VICTIM[board[m[1]] + 6] * 16 - VICTIM[board[m[0]] + 6] // 32,
                      reverse=True)
        for s, t in todo:
            child = execute(board, side, s, t, self.promotion)
            score = -self.quiesce(child, -side, -beta, -alpha, ply + 1, qdepth + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    def search(self, board, side, depth, alpha, beta, ply):
        if LION * side not in board:
            return -MATE + ply
        if -LION * side not in board:
            return MATE - ply
        if board.count(EMPTY) == SQUARES - 2 or ply >= self.plies_left:
            return self.draw(side)
        key = (board, side)
        if ply and (key in self.seen or key in self.path):
            return self.draw(side)
        lion = board.index(LION * side)
        danger = attacked(board, lion, -side)
        if danger and ply < MAX_PLY:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self.quiesce(board, side, alpha, beta, ply, 0)
        self._tick()
        moves = generate(board, side)
        if not moves:
            return self.draw(side)
        enemy_lion = -LION * side
        for s, t in moves:
            if board[t] == enemy_lion:
                return MATE - ply - 1
        entry = self.tt.get(key)
        hint = None
        if entry is not None:
            d, flag, score, hint = entry
            if d >= depth and ply:
                if score > MATE_BOUND:
                    score -= ply
                elif score < -MATE_BOUND:
                    score += ply
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    return score
        self._order(board, side, moves, hint, ply)
        original_alpha = alpha
        best, best_move = -MATE, None
        self.path.append(key)
        try:
            for i, m in enumerate(moves):
                s, t = m
                child = execute(board, side, s, t, self.promotion)
                quiet = not board[t]
                if i == 0:
                    score = -self.search(child, -side, depth - 1, -beta, -alpha, ply + 1)
                else:
                    reduce = 1 if (quiet and i >= 4 and depth >= 3 and not danger) else 0
                    score = -self.search(child, -side, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1)
                    if score > alpha and (reduce or score < beta):
                        score = -self.search(child, -side, depth - 1, -beta, -alpha, ply + 1)
                if score > best:
                    best, best_move = score, m
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            if quiet:
                                row = self.killers[ply]
                                if m not in row:
                                    row.insert(0, m)
                                    del row[2:]
                                self.history[m] = self.history.get(m, 0) + depth * depth
                            break
        finally:
            self.path.pop()
        flag = LOWER if best >= beta else UPPER if best <= original_alpha else EXACT
        stored = best + ply if best > MATE_BOUND else best - ply if best < -MATE_BOUND else best
        if len(self.tt) > 400000:
            self.tt.clear()
        self.tt[key] = (depth, flag, stored, best_move)
        return best

    def choose(self, board, side, seen, plies_left, score_forced: bool = False) -> Tuple[Tuple[int, int], int]:
        """(the move, its score) for `side` on `board`; `seen` positions count as draws. A single
        legal move is played at once with score 0, unless `score_forced` (an analysis wants its
        score)."""
        moves = generate(board, side)
        if not moves:
            raise NoMove("no move in this position")
        enemy_lion = -LION * side
        for m in moves:
            if board[m[1]] == enemy_lion:
                return m, MATE - 1
        if len(moves) == 1 and not score_forced:
            return moves[0], 0
        self.nodes = 0
        self.seen = seen
        self.root_side = side
        self.path = [(board, side)]
        self.plies_left = plies_left
        cap = SAFETY_SECONDS if self.seconds is None else min(self.seconds, SAFETY_SECONDS)
        self.stop_at = time.perf_counter() + cap
        self.killers = [[] for _ in range(MAX_PLY + 8)]
        best_move, best_score = moves[0], -MATE
        entry = self.tt.get((board, side))
        if entry is not None and entry[3] in moves:
            moves.remove(entry[3])
            moves.insert(0, entry[3])
        scores: Dict[Tuple[int, int], int] = {}
        self.depth_done = 0
        for depth in range(1, MAX_PLY):
            try:
                alpha, beta = -MATE - 1, MATE + 1
                best_here, move_here = -MATE - 1, None
                for i, m in enumerate(moves):
                    child = execute(board, side, m[0], m[1], self.promotion)
                    if i == 0:
                        score = -self.search(child, -side, depth - 1, -beta, -alpha, 1)
                    else:
                        score = -self.search(child, -side, depth - 1, -alpha - 1, -alpha, 1)
                        if score > alpha:
                            score = -self.search(child, -side, depth - 1, -beta, -alpha, 1)
                    scores[m] = score
                    if score > best_here:
                        best_here, move_here = score, m
                        if score > alpha:
                            alpha = score
                            if depth > 1:      # a better move found in this iteration counts
                                best_move, best_score = m, score
            except Stop:
                break
            best_move, best_score = move_here, best_here
            self.depth_done = depth
            moves.remove(best_move)
            moves.insert(0, best_move)
            if abs(best_score) > MATE_BOUND or self.nodes * 2 > self.limit:
                break
        return best_move, best_score


class ABAgent(Agent):
    """Our engine as an agent. `nodes` per move (default NODES); `seconds` an optional time cap."""
    name = "ab"

    def __init__(self, nodes: int = NODES, seconds: Optional[float] = None):
        self.nodes = nodes
        self.seconds = seconds
        self.engine: Optional[Engine] = None
        self.seen: set = set()
        self.last_score: Optional[int] = None

    def start_game(self, colour: str, seed: int) -> None:
        self.engine = None
        self.seen = set()

    def set_deadline(self, seconds: float) -> None:
        if self.seconds is None or seconds < self.seconds:
            self.seconds = seconds

    def choose_move(self, view: State, colour, rng) -> Move:
        if self.engine is None or self.engine.promotion != view.promotion:
            self.engine = Engine(view.promotion, self.nodes, self.seconds)
        self.engine.seconds = self.seconds
        board, side = view.board, view.side
        self.seen.add((board, side))
        move, score = self.engine.choose(board, side, frozenset(self.seen),
                                         view.max_plies - view.plies)
        self.last_score = score
        self.seen.add((execute(board, side, move[0], move[1], view.promotion), -side))
        return Move(*move)

    def move_score(self):
        return None if self.last_score is None else search_score(self.last_score, MATE, MATE_BOUND)
