"""An efficiently updatable network (NNUE) evaluation for NTHU MiniChess 6x5, and ab's search
on it (`NnueSearch`). Standard library only: `export-nthu nnue` puts this text, with the network
inline, into a single-file player.

**Inputs.** From each side's view, one feature per (piece kind, own or enemy, square): 6 x 2 x
30 = 360, of which a position sets one per piece on the board. Black's view turns the board
half a turn (square ``29 - sq``), so each side sees its own king start at the bottom right.

**Network.** One weight matrix W1 (360 x H) is shared by both views; a view's **accumulator** is
``b1 + sum of W1's rows of its features`` (H numbers) plus a linear piece-square term (one more
column, P, as Stockfish's PSQT). The output, for the side to move (us) against the other (them):
``y = P(us) - P(them) + w2 . [crelu(acc_us), crelu(acc_them)] + b2`` with ``crelu(x) =
min(max(x, 0), 1)``, in pawns; the evaluation is ``100 y`` (ab's units: a pawn is 100).

**Accumulator.** A move changes at most three features per view (the mover leaves its square,
it or its promoted queen arrives, a captured piece goes): make adds and subtracts those rows
from the two accumulators, unmake puts the old ones back. The evaluation itself is only the
small last layer (2H multiplications).

**Quantisation.** The file holds integers: W1 and b1 times QA = 64 (crelu clamps to 0..QA), w2
times QB = 64, P and b2 in ab's units (times 100). The quantised evaluation is
``P(us) - P(them) + b2 + (sum of clamp(acc, 0, QA) * w2) * 100 // (QA * QB)``.
"""
import json
from operator import add, sub

from agents.nthu.search import SCALE, Search  # export: drop
from harness.variants.nthu.core import STEP_LIMIT  # export: drop

FEATURES = 360
FORMAT = "nthu-nnue-1"


def feature(piece, sq, view):
    """The input index of signed `piece` on `sq` from `view`'s side (+1 White, -1 Black)."""
    own = piece * view > 0
    return ((0 if own else 6) + abs(piece) - 1) * 30 + (sq if view == 1 else 29 - sq)


class Network:
    """The quantised network of a JSON text's data (the file train-nnue writes)."""

    def __init__(self, data):
        if data.get("format") != FORMAT:
            raise ValueError(f"not an {FORMAT} network (format {data.get('format')!r})")
        self.hidden = h = int(data["hidden"])
        self.qa, self.qb = int(data["qa"]), int(data["qb"])
        w1, psqt = data["w1"], data["psqt"]
        if len(w1) != FEATURES or any(len(row) != h for row in w1) or len(psqt) != FEATURES:
            raise ValueError("network: w1 must be 360 rows of `hidden` numbers and psqt 360 numbers")
        # a feature's row: its H hidden weights then its piece-square value
        self.rows = [tuple(int(x) for x in w1[f]) + (int(psqt[f]),) for f in range(FEATURES)]
        self.bias = tuple(int(x) for x in data["b1"]) + (0,)
        w2 = [int(x) for x in data["w2"]]
        self.w2_us, self.w2_them = w2[:h], w2[h:]
        self.b2 = int(data["b2"])
        self.divisor = self.qa * self.qb
        # table[view][piece + 6][sq]: the row of that piece there, from that view
        self.table = {}
        for view in (1, -1):
            by_piece = [None] * 13
            for piece in range(-6, 7):
                if piece:
                    by_piece[piece + 6] = [self.rows[feature(piece, sq, view)] for sq in range(30)]
            self.table[view] = by_piece

    @classmethod
    def from_text(cls, text):
        return cls(json.loads(text))

    def refresh(self, board):
        """The two accumulators (White's view, Black's view) of `board`, from scratch."""
        out = []
        for view in (1, -1):
            acc = list(self.bias)
            rows = self.table[view]
            for sq, p in enumerate(board):
                if p:
                    acc = list(map(add, acc, rows[p + 6][sq]))
            out.append(acc)
        return out[0], out[1]

    def output(self, us, them):
        """The quantised evaluation (ab's units) for the side whose accumulator is `us`."""
        h, qa = self.hidden, self.qa
        hid = 0
        for x, w in zip(us, self.w2_us):
            if x > 0:
                hid += (qa if x > qa else x) * w
        for x, w in zip(them, self.w2_them):
            if x > 0:
                hid += (qa if x > qa else x) * w
        return us[h] - them[h] + self.b2 + hid * 100 // self.divisor

    def evaluate(self, board, side):
        """The side to move's evaluation of `board`, from scratch."""
        white, black = self.refresh(board)
        return self.output(white, black) if side == 1 else self.output(black, white)


class NnueSearch(Search):
    """ab's search (agents/nthu/search.py) with the network's evaluation: the two accumulators
    are kept along the tree (`acc`: White's view, Black's view) by make and unmake. As in ab,
    the part of the evaluation beyond material (course material x 50) fades over the last 16
    plies, where only material counts at the limit."""

    def __init__(self, net, seed=0):
        super().__init__(seed)
        self.net = net
        self.acc = None

    def _set(self, board, side, plies):
        super()._set(board, side, plies)
        self.acc = self.net.refresh(self.b)

    def _make(self, fr, to):
        b = self.b
        p, cap = b[fr], b[to]
        undo = Search._make(self, fr, to)
        np = b[to]
        old = self.acc
        tw, tb = self.net.table[1], self.net.table[-1]
        white = list(map(sub, map(add, old[0], tw[np + 6][to]), tw[p + 6][fr]))
        black = list(map(sub, map(add, old[1], tb[np + 6][to]), tb[p + 6][fr]))
        if cap:
            white = list(map(sub, white, tw[cap + 6][to]))
            black = list(map(sub, black, tb[cap + 6][to]))
        self.acc = (white, black)
        return undo, old

    def _unmake(self, fr, to, undo):
        undo, self.acc = undo
        Search._unmake(self, fr, to, undo)

    def evaluate(self, ply):
        white, black = self.acc
        s = self.side
        v = self.net.output(white, black) if s == 1 else self.net.output(black, white)
        left = STEP_LIMIT - self.plies - ply
        if left < 16:
            base = self.mat * SCALE * s
            v = base + (v - base) * left // 16
        return v

