"""The variant seam: the registry, the interface every variant offers, and CS3243 behind it."""
import ast
import random
from pathlib import Path

import pytest

from harness.core.agent import Agent
from harness.core.game import Game
from harness.core.referee import play_game
from harness.variants import UnknownVariant, find_variant, variant_names
from harness.core.variant import Ending, Move, Outcome, Variant
from harness.variants.cs3243.game import CS3243Ending

REPO = Path(__file__).resolve().parent.parent


def test_find_variant_names_the_known_ones_when_it_does_not_know_a_name():
    assert find_variant("cs3243").name == "cs3243"
    with pytest.raises(UnknownVariant) as info:
        find_variant("chess")
    assert str(info.value) == f"unknown variant 'chess': use one of {', '.join(variant_names())}"


@pytest.mark.parametrize("name", variant_names())
def test_random_games_keep_the_interface_invariants(name):
    """Every registered variant, random play from its start: states are not changed by apply,
    every legal move's name reads back to the same move, and each game ends with an Outcome."""
    variant = find_variant(name)
    assert isinstance(variant, Variant)
    rng = random.Random(7)
    for _ in range(3):
        state = variant.start()
        plies = 0
        while (outcome := variant.outcome(state)) is None:
            moves = variant.legal_moves(state)
            assert moves and all(isinstance(m, Move) for m in moves)
            for m in moves:
                assert variant.parse_move(variant.move_name(m)) == m
            before = variant.board_text(state)
            move = rng.choice(moves)
            after = variant.apply(state, move)
            assert variant.board_text(state) == before          # apply made a new state
            assert variant.plies(after) == variant.plies(state) + 1
            state = after
            plies += 1
            assert plies <= 2000
        assert isinstance(outcome, Outcome) and isinstance(outcome.termination, Ending)
        assert variant.termination(outcome.reason) is outcome.termination   # the variant declares it
        assert outcome.result in ("white", "black", "draw")


def test_cs3243_start_moves_through_the_interface():
    v = find_variant("cs3243")
    state = v.start()
    # square by square from a0, each piece's slides then leaps (the rules page's fixed order)
    assert [v.move_name(m) for m in v.legal_moves(state)] == [
        "a0b2", "e0f2", "e0d2", "f0g2", "f0e2", "a1b2", "b1b2", "c1c2", "d1d2", "e1e2", "f1f2", "g1f2"]
    assert v.perft(state, 3) == 2532
    assert v.to_move(state) == "White" and v.outcome(state) is None


def test_cs3243_parse_move_rejects_what_is_not_a_move_name():
    v = find_variant("cs3243")
    assert v.parse_move("c1c2") == Move(16 - 7, 16)
    for text in ("c1c", "h1h2", "c7c8", "", "c1-c2"):
        with pytest.raises(ValueError):
            v.parse_move(text)


def test_cs3243_king_capture_is_an_outcome_of_the_next_state():
    v = find_variant("cs3243")
    state = v.start(start=[["d", 0, "King", "White"], ["d", 3, "Rook", "White"], ["d", 6, "King", "Black"]])
    after = v.apply(state, v.parse_move("d3d6"))
    assert v.outcome(after) == Outcome(CS3243Ending.KING_CAPTURE, "White")
    assert v.outcome(after).result == "white" and v.outcome(after).reason == "king_capture"


def test_the_referee_plays_a_variant_game_through_the_interface_only():
    v = find_variant("cs3243")
    game = Game(v, v.start(start=[["d", 0, "King", "White"], ["d", 3, "Rook", "White"],
                                  ["d", 6, "King", "Black"]]))

    class Plays(Agent):          # the contract's default hooks do the rest
        name = "scripted"

        def __init__(self, answer):
            self.answer = answer

        def choose_move(self, view, colour, rng):
            return self.answer

    record = play_game(Plays((("d", 3), ("d", 6))), Plays(None), 5, game)
    assert (record["result"], record["reason"], record["moves"], record["variant"]) == (
        "white", "king_capture", ["d3d6"], "cs3243")


def test_results_of_cs3243_keep_their_fields_and_name_the_variant():
    record = play_game(*(__import__("agents").make_agent(n) for n in ("random", "dummy")), 3, Game(find_variant("cs3243")))
    assert list(record) == ["seed", "white", "black", "result", "reason", "plies", "moves", "think", "error",
                            "printed", "mutated", "fifty", "max_plies", "start_fen", "engine_moves", "variant"]
    assert record["variant"] == "cs3243"


def test_at_most_two_harness_modules_import_agents():
    """The layering: agents import the harness, not the other way, except the composition root
    (harness/players/__init__.py) and the CLI."""
    users = []
    for path in sorted((REPO / "harness").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            if any(n.split(".")[0] == "agents" for n in names):
                users.append(path.relative_to(REPO).as_posix())
                break
    assert len(users) <= 2, users
    assert set(users) <= {"harness/players/__init__.py", "harness/cli.py"}


def test_variant_modules_do_not_import_the_layers_above_them():
    above = {"referee", "series", "results", "report", "cli", "players", "check", "sandbox", "replay"}
    for path in sorted((REPO / "harness" / "variants").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = (node.module or "").split(".")
                name = module[0] if node.level else (module[1] if len(module) > 1 and module[0] == "harness" else "")
                if node.level >= 2 and module and module[0] in above:
                    pytest.fail(f"{path}: imports {node.module}")
                if not node.level and name in above:
                    pytest.fail(f"{path}: imports {node.module}")


def test_nothing_below_the_command_line_imports_it():
    """harness/cli.py sits on top: no other harness module imports it (not even inside a function)."""
    for path in sorted((REPO / "harness").rglob("*.py")):
        if path.name in ("cli.py", "__main__.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
                assert "cli" not in {n.split(".")[-1] for n in names if n}, f"{path} imports the CLI"
            elif isinstance(node, ast.Import):
                assert not any(a.name.endswith(".cli") for a in node.names), f"{path} imports the CLI"
