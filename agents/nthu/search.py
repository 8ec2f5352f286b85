"""ab's search for NTHU MiniChess 6x5 (standard library only; `export-nthu` puts this text,
with the board module, into a single-file player).

Iterative deepening over a principal-variation alpha-beta search with a transposition table
(Zobrist keys that include the ply count, because the step limit makes a position's value depend
on it), move ordering (table move, captures by most valuable victim / least valuable attacker,
promotions, two killers per ply, history), null-move pruning and late-move reductions away from
the end, and a quiescence search of captures and promotions that answers a king threat with
every move.

The rules are in the tree as the referee applies them: at 50 plies material decides (a win or a
loss, not a score: a lead of one pawn is enough); a side to move that can capture the enemy king
has won; a side with no move has lost. The evaluation is the course's material times 50 plus
piece-square terms (pawns forward unless blocked, knights and bishops central, the king at home) that fade
over the last 16 plies, when only material counts at the limit.

The budget is a node count (so a game replays exactly) with a wall-clock cap as a safety net.
"""
import random
import time

from harness.variants.nthu.core import (  # export: drop
    BISHOP, KING, KNIGHT, PAWN, PAWN_CAPS, PAWN_STEP, QUEEN, RAYS, ROOK, STEP_LIMIT, STEPS, VALUE, attacked,  # export: drop
    moves)  # export: drop

MATE = 30000                    # a won game, less the plies to reach it
MATE_BOUND = MATE - 1000        # scores beyond this are won or lost games
INF = 10 ** 6
SCALE = 50                      # eval units per point of course material
PIECE = tuple(v * SCALE for v in VALUE[:6]) + (0,)
EXACT, LOWER, UPPER = 0, 1, 2


def _tables():
    """Piece-square bonuses from White's view, by code then square; Black's mirrored."""
    white = {p: [0] * 30 for p in range(1, 7)}
    blocked_white = [0] * 30
    for sq in range(30):
        r, c = divmod(sq, 5)
        centre = 4 - abs(2 - c) * 2 - int(abs(2.5 - r))       # 0..4-ish, best in the middle
        white[PAWN][sq] = (0, 90, 30, 12, 4, 0)[r] + (4 if 1 <= c <= 3 else 0)
        blocked_white[sq] = (0, 30, 18, 10, 6, 0)[r]
        white[KNIGHT][sq] = 6 * centre - 6
        white[BISHOP][sq] = 3 * centre
        white[ROOK][sq] = 6 if r == 1 else 0
        white[QUEEN][sq] = 2 * centre
        white[KING][sq] = (-30, -30, -25, -20, -10, 0)[r] - (4 if c == 2 else 0)
    black = {p: [white[p][(5 - sq // 5) * 5 + sq % 5] for sq in range(30)] for p in white}
    blocked_black = [blocked_white[(5 - sq // 5) * 5 + sq % 5] for sq in range(30)]
    return white, black, blocked_white, blocked_black


# piece-square bonuses; a pawn whose square ahead is taken loses most of its advance bonus
PST_WHITE, PST_BLACK, BLOCKED_WHITE, BLOCKED_BLACK = _tables()


def captures(board, side):
    """The captures and promoting steps of `side` (quiescence's moves), in any order."""
    out = []
    append = out.append
    for sq in range(30):
        p = board[sq] * side
        if p <= 0:
            continue
        if p == PAWN:
            t = PAWN_STEP[side][sq]
            if t >= 0 and (t < 5 or t >= 25) and board[t] == 0:
                append((sq, t))
            for t in PAWN_CAPS[side][sq]:
                if board[t] * side < 0:
                    append((sq, t))
        elif p == KNIGHT or p == KING:
            for t in STEPS[p][sq]:
                if board[t] * side < 0:
                    append((sq, t))
        else:
            for ray in RAYS[p][sq]:
                for t in ray:
                    q = board[t]
                    if q:
                        if q * side < 0:
                            append((sq, t))
                        break
    return out


class Stop(Exception):
    """The budget ran out in the middle of a depth."""


class Search:
    def __init__(self, seed=0):
        rnd = random.Random(0x6E746875 ^ seed)
        self.zobrist = [[rnd.getrandbits(64) for _ in range(13)] for _ in range(30)]
        self.zside = rnd.getrandbits(64)
        self.zply = [rnd.getrandbits(64) for _ in range(STEP_LIMIT + 8)]
        self.table = {}
        self.history = {}
        self.nodes = 0

    # -- position --------------------------------------------------------------------------

    def _set(self, board, side, plies):
        self.b = list(board)
        self.side = side
        self.plies = plies
        self.kings = {1: -1, -1: -1}
        self.mat = 0
        h = 0 if side == 1 else self.zside
        for sq, p in enumerate(self.b):
            if p:
                h ^= self.zobrist[sq][p + 6]
                self.mat += VALUE[p] if p > 0 else -VALUE[-p]
                if p == KING:
                    self.kings[1] = sq
                elif p == -KING:
                    self.kings[-1] = sq
        self.h = h

    def _make(self, fr, to):
        b = self.b
        p, cap = b[fr], b[to]
        np = p
        if p == PAWN and to < 5:
            np = QUEEN
        elif p == -PAWN and to >= 25:
            np = -QUEEN
        z = self.zobrist
        h = self.h ^ z[fr][p + 6] ^ z[to][np + 6] ^ self.zside
        undo = (cap, p, self.h, self.mat)
        if cap:
            h ^= z[to][cap + 6]
            self.mat -= VALUE[cap] if cap > 0 else -VALUE[-cap]
        if np != p:
            self.mat += (VALUE[QUEEN] - VALUE[PAWN]) * (1 if p > 0 else -1)
        if p == KING:
            self.kings[1] = to
        elif p == -KING:
            self.kings[-1] = to
        b[to], b[fr] = np, 0
        self.h = h
        self.side = -self.side
        return undo

    def _unmake(self, fr, to, undo):
        cap, p, self.h, self.mat = undo
        b = self.b
        b[fr], b[to] = p, cap
        if p == KING:
            self.kings[1] = fr
        elif p == -KING:
            self.kings[-1] = fr
        self.side = -self.side

    def evaluate(self, ply):
        """The side to move's score: material, then piece-square terms fading near the limit."""
        pos = 0
        pw, pb = PST_WHITE, PST_BLACK
        b = self.b
        for sq, p in enumerate(b):
            if p > 0:
                pos += pw[p][sq]
                if p == PAWN and b[sq - 5]:
                    pos -= BLOCKED_WHITE[sq]
            elif p < 0:
                pos -= pb[-p][sq]
                if p == -PAWN and b[sq + 5]:
                    pos += BLOCKED_BLACK[sq]
        left = STEP_LIMIT - self.plies - ply
        if left < 16:
            pos = pos * left // 16
        return (self.mat * SCALE + pos) * self.side + 5

    def _end_score(self, ply):
        lead = self.mat * self.side
        return 0 if lead == 0 else (MATE - ply if lead > 0 else ply - MATE)

    # -- budget ----------------------------------------------------------------------------

    def _check(self):
        if self.nodes >= self.max_nodes or time.perf_counter() >= self.deadline:
            raise Stop
        self.next_check = self.nodes + 512

    # -- the tree --------------------------------------------------------------------------

    def _order(self, ms, first, ply):
        b = self.b
        killers = self.killers[ply] if ply < len(self.killers) else ()
        hist = self.history
        keyed = []
        for m in ms:
            fr, to = m
            if m == first:
                k = 1 << 30
            elif b[to]:
                k = (1 << 24) + PIECE[abs(b[to])] * 16 - PIECE[abs(b[fr])] // 16
            elif (b[fr] == PAWN and to < 5) or (b[fr] == -PAWN and to >= 25):
                k = 1 << 23
            elif m in killers:
                k = 1 << 22
            else:
                k = hist.get(m, 0)
            keyed.append((k, m))
        keyed.sort(key=lambda x: x[0], reverse=True)
        return [m for _, m in keyed]

    def _negamax(self, depth, alpha, beta, ply, allow_null):
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        s = self.side
        plies = self.plies + ply
        if plies >= STEP_LIMIT:
            return self._end_score(ply)
        b = self.b
        if attacked(b, self.kings[-s], s):
            return MATE - ply
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, 0)
        key = self.h ^ self.zply[plies]
        entry = self.table.get(key)
        first = None
        if entry is not None:
            edepth, v, flag, first = entry
            if edepth >= depth:
                if v > MATE_BOUND:
                    v -= ply
                elif v < -MATE_BOUND:
                    v += ply
                if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                    return v
        in_check = attacked(b, self.kings[s], -s)
        if (allow_null and not in_check and depth >= 3 and plies + depth < STEP_LIMIT - 2
                and beta < MATE_BOUND and self.evaluate(ply) >= beta
                and any(p * s > PAWN and p * s != KING for p in b)):
            self.side = -s
            self.h ^= self.zside
            try:
                v = -self._negamax(depth - 3, -beta, -beta + 1, ply + 1, False)
            finally:
                self.side = s
                self.h ^= self.zside
            if v >= beta:
                return beta
        ms = moves(b, s)
        if not ms:
            return ply - MATE
        ms = self._order(ms, first, ply)
        a0 = alpha
        best, best_move = -INF, ms[0]
        for i, m in enumerate(ms):
            fr, to = m
            quiet = not b[to] and not ((b[fr] == PAWN and to < 5) or (b[fr] == -PAWN and to >= 25))
            undo = self._make(fr, to)
            try:
                if i == 0:
                    v = -self._negamax(depth - 1, -beta, -alpha, ply + 1, True)
                else:
                    r = 0
                    if depth >= 3 and i >= 3 and quiet and not in_check and plies + depth < STEP_LIMIT:
                        r = 2 if (i >= 8 and depth >= 5) else 1
                    v = -self._negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, True)
                    if v > alpha and (r or v < beta):
                        v = -self._negamax(depth - 1, -beta, -alpha, ply + 1, True)
            finally:
                self._unmake(fr, to, undo)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if quiet:
                            ks = self.killers[ply]
                            if m != ks[0]:
                                self.killers[ply] = [m, ks[0]]
                            self.history[m] = self.history.get(m, 0) + depth * depth
                        break
        stored = best + ply if best > MATE_BOUND else best - ply if best < -MATE_BOUND else best
        flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
        if len(self.table) > 1_500_000:
            self.table.clear()
        self.table[key] = (depth, stored, flag, best_move)
        return best

    def _quiesce(self, alpha, beta, ply, qply):
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        s = self.side
        if self.plies + ply >= STEP_LIMIT:
            return self._end_score(ply)
        b = self.b
        if attacked(b, self.kings[-s], s):
            return MATE - ply
        if qply < 4 and attacked(b, self.kings[s], -s):
            ms = moves(b, s)
            if not ms:
                return ply - MATE
            best = -INF                      # a king threat: every move, no standing pat
        else:
            # standing pat; a side with no move at all (it loses) is left to the main search
            best = self.evaluate(ply)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
            ms = captures(b, s)
            ms.sort(key=lambda m: PIECE[abs(b[m[1]])] * 16 - PIECE[abs(b[m[0]])] // 16, reverse=True)
        for fr, to in ms:
            undo = self._make(fr, to)
            try:
                v = -self._quiesce(-beta, -alpha, ply + 1, qply + 1)
            finally:
                self._unmake(fr, to, undo)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    # -- the root --------------------------------------------------------------------------

    def best_move(self, board, side, plies, max_nodes=None, seconds=None, on_depth=None,
                  max_depth=64, score_forced=False):
        """(move, score, depth) for `side` to move; `on_depth(move, depth, score)` after each
        completed depth. The budget: `max_nodes` nodes and/or `seconds` of wall clock. A single
        legal move is played at once with score 0, unless `score_forced` (an analysis wants its
        score)."""
        self._set(board, side, plies)
        self.nodes = 0
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.deadline = time.perf_counter() + (seconds if seconds is not None else 1e9)
        self.next_check = 512
        self.killers = [[None, None] for _ in range(max_depth + 64)]
        root = moves(self.b, side)
        if not root:
            return None, -MATE, 0
        best, best_score, done = root[0], -INF, 0
        if len(root) == 1 and not score_forced:
            return best, 0, 0
        order = self._order(root, None, 0)
        for depth in range(1, max_depth + 1):
            alpha, beta = -INF, INF
            iter_best, iter_score = None, -INF
            try:
                for i, m in enumerate(order):
                    undo = self._make(*m)
                    try:
                        if i == 0:
                            v = -self._negamax(depth - 1, -beta, -alpha, 1, True)
                        else:
                            v = -self._negamax(depth - 1, -alpha - 1, -alpha, 1, True)
                            if v > alpha:
                                v = -self._negamax(depth - 1, -beta, -alpha, 1, True)
                    finally:
                        self._unmake(m[0], m[1], undo)
                    if v > iter_score:
                        iter_best, iter_score = m, v
                        alpha = max(alpha, v)
            except Stop:
                # a move that beat the previous best with a full window is safe to play
                if iter_best is not None and iter_score > best_score and iter_best != order[0]:
                    best, best_score = iter_best, iter_score
                break
            best, best_score, done = iter_best, iter_score, depth
            order.remove(best)
            order.insert(0, best)
            if on_depth is not None:
                on_depth(best, depth, best_score)
            if abs(best_score) > MATE_BOUND or plies + depth >= STEP_LIMIT:
                break
        return best, best_score, done
