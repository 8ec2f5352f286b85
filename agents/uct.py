"""UCT (Monte Carlo tree search with the UCB1 rule), for any game given as a small adapter.
Standard library only and no project imports: `export-nthu mcts` puts this text into a
single-file player.

The game adapter answers four questions about a position:

- ``moves(pos)``: its moves, the ones to try first first (they are expanded in this order);
- ``play(pos, move)``: the position after the move;
- ``terminal(pos)``: None while the game goes on, else ``(value, proven)``: the side to move's
  result (1 won, 0.5 drawn, 0 lost) and whether it is a proof for the solver (a king capture, no
  move) rather than an end scored on points (NTHU's step limit);
- ``playout(pos, rng)``: an estimate in [0, 1] of the side to move's result (a playout).

One iteration: **selection** from the root by UCB1, ``Q + C * sqrt(ln N(parent) / N(child))``
(Q: the child's mean result for the player who moved into it; N: visits; with `alpha` > 0, Q is
``(1 - alpha) * mean + alpha * v``, v the minimax of the simulations' values over the tree grown so
far: implicit minimax backups, Lanctot et al. 2014), down to a node with an
untried move; **expansion** of that move (one new node); **simulation**: ``terminal`` or else
``playout`` from the new node; **backpropagation** of the result up the path, flipped at each
ply. An MCTS-Solver layer keeps proofs: a node whose side to move has won (``proven`` terminal)
or has a move to a lost node is won; a node all of whose moves lead to won nodes is lost;
selection skips moves proven to lose, and the root plays a proven win at once. The move played
is the most visited root move that is not proven lost (ties: the better mean).
"""
import math
import random
import time

DEFAULT_C = 0.7                 # the exploration constant (tuned for NTHU, docs/advanced.md)
WON, LOST = 1, -1               # a node's proof, from its side to move's view


class Node:
    __slots__ = ("move", "pos", "parent", "children", "untried", "n", "w", "proof", "v")

    def __init__(self, move, pos, parent):
        self.move = move
        self.pos = pos
        self.parent = parent
        self.children = []
        self.untried = None         # moves not yet expanded (None: not generated yet)
        self.n = 0                  # visits
        self.w = 0.0                # results summed for the player who moved INTO this node
        self.proof = 0              # WON / LOST for the side to move here, 0 unknown
        self.v = 0.5                # the implicit minimax value, for the player who moved in


class Uct:
    """The search. `c`: the exploration constant; `seed`: its playouts' generator (a search
    with a node budget and no deadline is the same every time)."""

    def __init__(self, game, c=DEFAULT_C, seed=0, alpha=0.0):
        self.game = game
        self.c = c
        self.alpha = alpha
        self.rng = random.Random(seed)
        self.iterations = 0
        self.root = None

    def _expand_moves(self, node):
        end = self.game.terminal(node.pos)
        if end is not None:
            node.untried = []
            value, proven = end
            if proven:
                node.proof = WON if value > 0.5 else LOST
            return end
        node.untried = list(reversed(self.game.moves(node.pos)))    # pop() takes the first
        if not node.untried:
            node.proof = LOST
            return (0.0, True)
        return None

    def _select(self, node):
        """The child to descend into: UCB1 over the children not proven won for their side."""
        log_n = math.log(node.n)
        c, alpha = self.c, self.alpha
        best, best_score = None, -1.0
        for child in node.children:
            if child.proof == WON:
                continue            # the opponent has won there: never worth a visit
            score = (1.0 - alpha) * child.w / child.n + alpha * child.v + c * math.sqrt(log_n / child.n)
            if score > best_score:
                best, best_score = child, score
        return best

    def _prove(self, node):
        """Update `node`'s proof from its children's (after one of them changed)."""
        if node.untried:
            for child in node.children:
                if child.proof == LOST:
                    node.proof = WON
                    return
            return
        all_won = True
        for child in node.children:
            if child.proof == LOST:
                node.proof = WON
                return
            if child.proof != WON:
                all_won = False
        if all_won:
            node.proof = LOST

    def _minimax_up(self, node):
        """Implicit minimax backups: each node on the path takes the best of its children's
        values (for its side to move), seen from the player who moved into it."""
        while node is not None:
            best = max(ch.v for ch in node.children)
            v = 1.0 - best
            if v == node.v:
                break
            node.v = v
            node = node.parent

    def iterate(self):
        """One selection-expansion-simulation-backpropagation."""
        node = self.root
        # selection
        while not node.untried and node.children and not node.proof:
            child = self._select(node)
            if child is None:
                break
            node = child
        # expansion and simulation
        if node.proof:
            value = 1.0 if node.proof == WON else 0.0
        elif node.untried:
            move = node.untried.pop()
            child = Node(move, self.game.play(node.pos, move), node)
            node.children.append(child)
            end = self._expand_moves(child)
            node = child
            value = end[0] if end is not None else self.game.playout(child.pos, self.rng)
            child.v = 1.0 - value
            if self.alpha:
                self._minimax_up(child.parent)
        else:
            end = self.game.terminal(node.pos)
            value = end[0] if end is not None else self.game.playout(node.pos, self.rng)
        # backpropagation: `value` is for the side to move at `node`
        proof_changed = node.proof != 0
        while node is not None:
            node.n += 1
            node.w += 1.0 - value           # for the player who moved into it
            value = 1.0 - value
            parent = node.parent
            if proof_changed and parent is not None and not parent.proof:
                self._prove(parent)
                proof_changed = parent.proof != 0
            else:
                proof_changed = False
            node = parent
        self.iterations += 1

    def search(self, pos, max_iterations=None, seconds=None):
        """(best move or None, root visits, the best move's mean result) after `max_iterations`
        iterations and/or `seconds` of wall clock (checked every 16 iterations); at least one
        iteration per root move when the budget allows."""
        self.root = Node(None, pos, None)
        self.iterations = 0
        end = self._expand_moves(self.root)
        if end is not None or not self.root.untried:
            return None, 0, 0.0
        if len(self.root.untried) == 1:
            return self.root.untried[0], 0, 0.5
        limit = max_iterations if max_iterations is not None else 1 << 62
        deadline = time.perf_counter() + seconds if seconds is not None else None
        while self.iterations < limit and not self.root.proof:
            self.iterate()
            if deadline is not None and self.iterations % 16 == 0 and time.perf_counter() >= deadline:
                break
        return self.best()

    def best(self):
        """The root's move to play: a proven win, else the most visited move not proven lost."""
        root = self.root
        for child in root.children:
            if child.proof == LOST:
                return child.move, root.n, 1.0
        candidates = [ch for ch in root.children if ch.proof != WON] or root.children
        if not candidates:          # nothing expanded yet
            return root.untried[-1], root.n, 0.5
        best = max(candidates, key=lambda ch: (ch.n, ch.w / ch.n if ch.n else 0.0))
        return best.move, root.n, best.w / best.n if best.n else 0.5
