"""CS3243 tactics: puzzles (positions where one move wins), their themes, a shipped set, and an
agent's solved rate per theme (`python -m harness puzzles`; docs/puzzles.md).

- `puzzle`: the JSON-lines format, reading a set with one-line errors;
- `search`: exhaustive search for forced wins under the course's rules (what "mate" means);
- `run`: an agent on a set, each position played as `series` plays a game; the tally;
- `make_set`: the script that made the shipped set (`data/cs3243.jsonl`) from games.
"""
