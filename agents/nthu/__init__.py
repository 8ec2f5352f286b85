"""Agents for NTHU MiniChess 6x5: the course's four baselines (ports), random, greedy, ab, and the
advanced methods of the course's bonus: mcts (UCT) and nnue (ab on a network; docs/advanced.md).

Each agent is a harness.core.agent.Agent shown the immutable state; it answers with a Move.
"""
AGENTS = {
    "baseline1": "agents.nthu.baselines:Baseline1",
    "baseline2": "agents.nthu.baselines:Baseline2",
    "baseline3": "agents.nthu.baselines:Baseline3",
    "baseline4": "agents.nthu.baselines:Baseline4",
    "random": "agents.nthu.simple:RandomAgent",
    "greedy": "agents.nthu.simple:GreedyAgent",
    "ab": "agents.nthu.ab:AlphaBetaAgent",
    "mcts": "agents.nthu.mcts:MctsAgent",
    "nnue": "agents.nthu.nnue:NnueAgent",
    "ab-nodes": "agents.nthu.nnue:EqualNodesAb",
    "nnue-nodes": "agents.nthu.nnue:EqualNodesNnue",
}
