"""Compact notation for crafted positions in tests: "Kd0 Rg0 kd6" and "a1b2"."""
from harness.variants.cs3243.rules import RULES

LETTERS = {p.letter: p.name for p in RULES.variant.pieces}


def gb(text):
    """Gameboard dict from "Kd0 Rg0 kd6"-style text (engine letters, upper case White), in order."""
    board = {}
    for token in text.split():
        board[(token[1], int(token[2:]))] = (LETTERS[token[0].upper()],
                                             "White" if token[0].isupper() else "Black")
    return board


def mv(name):
    """Course move from 'a1b2'."""
    return ((name[0], int(name[1])), (name[2], int(name[3])))
