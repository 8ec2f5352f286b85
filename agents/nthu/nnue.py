"""nnue: ab's search (agents/nthu/search.py) on the network evaluation of agents/nthu/nnue_eval.py,
with the quantised network shipped in agents/nthu/nnue.json (written by `train-nnue`, docs/advanced.md).

The budget is ab's: 100,000 nodes per move with a 1 s wall-clock cap. `ab-nodes` and `nnue-nodes`
are the two at an equal budget of NODES_EQUAL nodes and no clock, for `compare` at equal nodes
(a game replays exactly on any machine).
"""
import functools
import os

from .ab import AlphaBetaAgent
from .nnue_eval import Network, NnueSearch

NET_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nnue.json")
NODES_EQUAL = 5000
NO_CLOCK = 3600.0


@functools.lru_cache(maxsize=4)
def network(path: str = NET_FILE) -> Network:
    """The network of a train-nnue file (read once per process)."""
    with open(path, encoding="utf-8") as f:
        return Network.from_text(f.read())


class NnueAgent(AlphaBetaAgent):
    name = "nnue"

    def make_search(self):
        return NnueSearch(network())


class EqualNodesNnue(NnueAgent):
    name = "nnue-nodes"

    def __init__(self):
        super().__init__(nodes=NODES_EQUAL, seconds=NO_CLOCK)


class EqualNodesAb(AlphaBetaAgent):
    name = "ab-nodes"

    def __init__(self):
        super().__init__(nodes=NODES_EQUAL, seconds=NO_CLOCK)
