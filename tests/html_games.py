"""Games for the HTML tests: real games between the built-in agents, with every position the
referee itself reached (so the pages are checked against the referee, not against the code
that drew them), and the report those games make."""
from typing import Dict, List, Tuple

from agents import make_agent
from harness.core.game import Game
from harness.core.referee import play_game
from harness.grading.report import build_report, entry_key, opponent_entry
from harness.variants import find_variant

CS3243 = find_variant("cs3243")

AGENT = "random"
# (opponent, the agent's colour, seeds): losses by king capture, fifty-move draws and a win.
PLAN = (("greedy", "white", (0, 1)), ("dummy", "black", (0, 1, 2)))
SETTINGS = {"variant": "cs3243", "games": 3, "colour": "both", "opponents": ["greedy", "dummy"], "seed": 0, "fifty": 50,
            "max_plies": 1000, "move_timeout": 10.0, "config": None, "jobs": 1}


def picture(gameboard) -> Dict[str, str]:
    """A gameboard as the viewer's board shows it: square name -> letter, upper case White."""
    out = {}
    for (column, row), (piece, colour) in gameboard.items():
        letter = CS3243.letters[piece]
        out[f"{column}{row}"] = letter if colour == "White" else letter.lower()
    return out


def play(opponent: str, colour: str, seed: int) -> Tuple[dict, List[Dict[str, str]]]:
    """A game record and the referee's board after every ply (the start first)."""
    game = Game(CS3243)
    boards = [picture(game.state.gameboard)]
    ours, theirs = make_agent(AGENT), make_agent(opponent)
    white, black = (ours, theirs) if colour == "white" else (theirs, ours)
    record = play_game(white, black, seed, game,
                       on_move=lambda g, mover, move, seconds: boards.append(picture(g.state.gameboard)))
    return record, boards


def report_and_games():
    """(report, [(key, record)], {(key, game number): boards})."""
    entries, games, boards = {}, [], {}
    for opponent, colour, seeds in PLAN:
        key = entry_key(opponent, colour)
        records = []
        for number, seed in enumerate(seeds):
            record, seen = play(opponent, colour, seed)
            record["game"] = number
            records.append(record)
            games.append((key, record))
            boards[(key, number)] = seen
        entries[key] = opponent_entry(opponent, colour, records)
    return build_report(AGENT, SETTINGS, entries), games, boards
