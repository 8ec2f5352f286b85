"""Congo's built-in agents (name -> "module:Class"); each subclasses harness.core.agent.Agent, is shown
the immutable `harness.variants.congo.State` and answers with a `Move`.

- random: a uniformly random move;
- greedy: captures the lion if it can, else the most valuable capture, else a random move;
- minimax: the course's minimax, depth 2, eval1 (first best move in name order);
- alphabeta: the course's alpha-beta, depth 4, eval2 (first best move in name order);
- ab: ours: iterative deepening, principal-variation search, transposition table, quiescence,
  lion-threat extensions and its own evaluation; about 1 s a move, deterministic.
"""
AGENTS = {
    "random": "agents.congo.basic:RandomAgent",
    "greedy": "agents.congo.basic:GreedyAgent",
    "minimax": "agents.congo.course:MinimaxAgent",
    "alphabeta": "agents.congo.course:AlphaBetaAgent",
    "ab": "agents.congo.ab:ABAgent",
}

