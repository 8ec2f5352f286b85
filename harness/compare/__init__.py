"""compare: is a new agent stronger than an old one? Game pairs and an SPRT that stops as soon as it knows.

`python -m harness compare NEW OLD` plays NEW against OLD in pairs of games (one random opening,
the colours reversed, as `series --openings` plays them); each finished pair adds NEW's points
(0, 1/2, 1, 3/2 or 2) to the pentanomial count, and a sequential probability ratio test on it
(harness.stats: normalized Elo by default, as fastchess) stops the run when it decides.

- `pairs`: the tally of finished pairs as games end, the test's state and history, compare.json,
  the fastchess lines;
- `page`: report.html (the LLR over the games, the Elo interval narrowing, every game);
- `run`: the run itself on harness.runs.series (results.jsonl, resume, stop when decided).
See docs/compare.md.
"""
