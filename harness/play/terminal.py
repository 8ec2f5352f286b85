"""`play` with a human side in the terminal: the board and a prompt on each human turn.

Input on a human turn: a move in record notation (``b1b2``, ``b1-b2``, ``b1 b2``, any case);
``moves`` (the legal moves on one line); ``undo`` (take back your last move and the reply);
``hint`` (what the hint agent would play here); ``resign``; ``help``. A line that is none of
these is answered by one line saying why, and the prompt comes again. The end of input (Ctrl-D,
a closed pipe) resigns. Standard input may be a pipe, so scripts and tests can play.
"""
import sys
import time
from typing import Callable, Optional, TextIO

from .session import Refused, Session, probe

HELP = ("type a move (e.g. {example}), or: moves (the legal moves), undo (take back your last move "
        "and the reply), hint (what {hint} would play), resign")


def ply_line(session: Session, colour: str, name: str, seconds: Optional[float]) -> str:
    timing = f"  ({seconds:.3f} s)" if seconds is not None else ""
    return f"{len(session.plies):>3}. {colour:<5} {name}{timing}"


def play_in_terminal(session: Session, hint: str, stdin: TextIO = None,
                     say: Callable[[str], None] = print) -> None:
    """Play `session` to its end, asking `stdin` (default sys.stdin) for the human's moves."""
    stdin = stdin or sys.stdin
    echo = not stdin.isatty()      # piped input is not shown by the terminal: show what was read
    variant = session.variant
    while not session.over:
        colour = session.to_move
        if not session.humans_turn:
            move, seconds = session.agent_move()
            if move is not None:
                say(ply_line(session, colour, variant.move_name(move), seconds))
            continue
        say(variant.board_text(session.game.state, last=session.last_move))
        asked = time.monotonic()
        while True:
            print(f"{colour} to move> ", end="", flush=True)
            line = stdin.readline()
            if not line:
                say("(end of input)" if echo else "")
                say(f"{colour} resigns.")
                session.resign(colour)
                break
            if echo:
                say(line.rstrip("\n"))
            if answer(session, line, hint, colour, time.monotonic() - asked, say):
                break
    say(variant.board_text(session.game.state, last=session.last_move))


def answer(session: Session, line: str, hint: str, colour: str, seconds: float,
           say: Callable[[str], None]) -> bool:
    """Act on one line of input; True when the position changed (a move, an undo, the end)."""
    word = line.strip().lower()
    variant = session.variant
    if not word:
        return False
    if word == "moves":
        say(" ".join(session.legal_names()))
        return False
    if word in ("help", "?"):
        names = session.legal_names()
        say(HELP.format(example=names[0] if names else "b1b2", hint=hint))
        return False
    if word == "hint":
        say(probe(variant, session.game.state, hint, session.move_timeout, session.box, session.seed).text())
        return False
    if word == "resign":
        say(f"{colour} resigns.")
        session.resign(colour)
        return True
    try:
        if word == "undo":
            taken = session.undo()
            say(f"took back {taken} {'ply' if taken == 1 else 'plies'}.")
            return True
        move = session.human_move(line, round(seconds, 6))
    except Refused as refused:
        say(str(refused))
        return False
    say(ply_line(session, colour, variant.move_name(move), None))
    return True
