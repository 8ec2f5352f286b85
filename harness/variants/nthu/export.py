"""`export-nthu`: our `ab`, `mcts` or `nnue` as a single-file program for the course's runner.

The program is the text of standard-library modules (harness/variants/smallchess.py: the
small-board chess tables and attack test; harness/variants/nthu/core.py: the board and move
generator; harness/variants/nthu/files.py: the state and action files;
agents/nthu/search.py: ab's search; for mcts agents/uct.py and agents/nthu/mcts_game.py, for
nnue agents/nthu/nnue_eval.py and the network agents/nthu/nnue.json inline) with their project
imports dropped (lines marked ``# export: drop``), then a main that reads `state`, searches and
writes its move to `action` (flushed), stopping after `seconds` of its own clock (6 s by default,
well inside the course's 10 s with the interpreter's start). ab and nnue deepen and write their
best move after each completed depth; mcts writes its first move to try at once (a move in hand if
it were stopped) and the most visited one at the end.

The state file has no ply count, so the exported player assumes the game is young (it does not
see the 50-ply limit coming); inside the harness, `ab` knows the ply count.
"""
import os
import stat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BASE = ("harness/variants/smallchess.py", "harness/variants/nthu/core.py", "harness/variants/nthu/files.py",
        "agents/nthu/search.py")
SOURCES = {"ab": BASE,
           "mcts": BASE + ("agents/uct.py", "agents/nthu/mcts_game.py"),
           "nnue": BASE + ("agents/nthu/nnue_eval.py",)}
NETWORK = "agents/nthu/nnue.json"
EXPORTABLE = tuple(SOURCES)
DEFAULT_SECONDS = 6.0

MAIN = '''

# ---- the player: python3 THIS_FILE state action ---------------------------------------------

SECONDS = {seconds!r}


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: %s STATE_FILE ACTION_FILE\\n" % argv[0])
        return 2
    try:
        with open(argv[1], encoding="ascii") as f:
            board, side = parse_state(f.read(), argv[1])
    except (OSError, UnicodeDecodeError, StateFileError) as e:
        sys.stderr.write("%s\\n" % e)
        return 1
    with open(argv[2], "w") as out:
        def write(move, depth=0, score=0):
            fr, fc = divmod(move[0], COLS)
            tr, tc = divmod(move[1], COLS)
            out.write("%d %d %d %d\\n" % (fr, fc, tr, tc))
            out.flush()

{search}
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''


DEEPEN = """
        move, _, depth = {make}.best_move(board, side, 0, seconds=SECONDS, on_depth=write)
        if move is not None and depth == 0:
            write(move)"""

UCT = """
        game = NthuGame()
        first = game.moves((board, side, 0))
        if first:
            write(first[0])         # a move in hand, should the runner stop us early
        move = Uct(game, seed=0, alpha=DEFAULT_ALPHA).search((board, side, 0), seconds=SECONDS)[0]
        if move is not None:
            write(move)"""

SEARCH = {"ab": DEEPEN.format(make="Search()"),
          "nnue": DEEPEN.format(make="NnueSearch(Network.from_text(NETWORK))"),
          "mcts": UCT}


def program_text(seconds: float = DEFAULT_SECONDS, agent: str = "ab") -> str:
    sources = SOURCES[agent]
    parts = ["#!/usr/bin/env python3\n",
             f'"""NTHU MiniChess 6x5 player ({agent}), written by export-nthu: {", ".join(sources)}\n'
             'of the minichess toolkit in one file. Standard library only.\n'
             'Run: python3 THIS_FILE state action"""\n',
             "import sys\n"]
    if agent == "nnue":
        with open(os.path.join(ROOT, NETWORK), encoding="utf-8") as f:
            parts.append(f"\n# ---- {NETWORK}: the network, quantised\nNETWORK = r\'\'\'{f.read()}\'\'\'\n")
    for rel in sources:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            lines = [line for line in f.read().splitlines(True) if "# export: drop" not in line]
        parts.append(f"\n# ---- {rel} " + "-" * max(4, 90 - len(rel)) + "\n")
        parts.append("".join(lines))
    parts.append(MAIN.format(seconds=float(seconds), search=SEARCH[agent]))
    return "".join(parts)


def export_nthu(agent: str, out: str, seconds: float = DEFAULT_SECONDS) -> str:
    """Write the single-file player for `agent` (ab, mcts or nnue) to `out`, executable; returns `out`."""
    if agent not in EXPORTABLE:
        raise ValueError(f"cannot export '{agent}': export-nthu writes one of {', '.join(EXPORTABLE)}")
    if not seconds > 0:
        raise ValueError(f"--seconds must be above 0, not {seconds}")
    text = program_text(seconds, agent)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    mode = os.stat(out).st_mode
    os.chmod(out, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return out
