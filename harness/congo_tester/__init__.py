"""The Congo program tester: `python -m harness congo test PART --program "CMD" ...` runs a
student's own program for one part of the course (moves, apply, eval1, minimax, eval2,
alphabeta, bestmove) on cases drawn from a seed and compares every answer with the reference
programs (harness/variants/congo/programs.py). See docs/congo.md ("Test your own program").

- `cases`: the cases, by kind (random play, placements, facing lions, the river, pawns and
  promotion, a missing lion, no move at all), the same first N for a seed whatever N;
- `check`: the course's input, the reference's answers, reading and comparing a program's output;
- `report`: the summary and differences as text, JSON and JUnit XML;
- `run`: the command line and the run (all cases at once, then each alone if that run fails).

The program runs through `harness.isolation.untrusted_run` (no shell, a clean environment, a timeout, an
output cap, its process group killed; the box unless --no-box). The entry is `run.main`.
"""
