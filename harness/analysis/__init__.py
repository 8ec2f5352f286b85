"""Game review: every position of a recorded game evaluated by an analyser, each move's accuracy
and judgement (inaccuracy, mistake, blunder), each side's game accuracy and turning point.

- `analyser`: the analyser interface (beside the agent contract) and `Evaluation`;
- `uci`: the cs3243 analyser, Fairy-Stockfish (or any UCI engine) at a node count;
  nthu's and congo's analysers are our own `ab` searches (agents/, through harness.players);
- `analysers`: an analyser spec (``uci:PATH[,nodes=N]``, ``ab[,nodes=N]``) -> an analyser;
- `formulas`: win %, move accuracy, judgement, game accuracy, turning point (lichess's);
- `review`: one game's analysis (an analysis.jsonl line);
- `store`: analysis.jsonl beside results.jsonl: reading, appending, resuming;
- `run`: many games in parallel with progress (the series' pool), for `analyse` and `report`;
- `text`: the review as lines of text (the analyse command, replay, report.md).

See docs/analysis.md.
"""
