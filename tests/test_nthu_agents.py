"""NTHU agents: the baseline ports replay the course's own games move for move and match the
spec's pseudocode run literally; random, greedy and ab on crafted positions."""
import importlib
import json
import os
import random

import pytest

from agents.nthu import AGENTS
from agents.nthu.ab import AlphaBetaAgent
from agents.nthu.baselines import Baseline1, Baseline2, Baseline3, Baseline4
from agents.nthu.simple import GreedyAgent, RandomAgent
from harness.core.agent import Agent
from harness.core.variant import WHITE
from harness.variants.nthu import VARIANT, core

from nthu_boards import moves_from, play, position

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the course's games: the copy kept with the tests (the same 8 lines as the project's shared file,
# `../shared/nthu/baseline_games.jsonl`, which test_the_kept_copy_is_the_shared_file compares)
SHARED = os.path.join(ROOT, "..", "shared", "nthu", "baseline_games.jsonl")
GAMES = os.path.join(ROOT, "tests", "data", "nthu_baseline_games.jsonl")
PORTS = {"baseline1": Baseline1, "baseline2": Baseline2, "baseline3": Baseline3,
         "baseline4": Baseline4}


def course_games():
    if not os.path.isfile(GAMES):
        return []
    with open(GAMES, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_every_agent_in_the_table_is_an_agent_with_its_name():
    for name, target in AGENTS.items():
        module, cls = target.split(":")
        agent = getattr(importlib.import_module(module), cls)()
        assert isinstance(agent, Agent) and agent.name == name


# -- the course's games -----------------------------------------------------------------------

def test_the_course_file_holds_8_games():
    assert len(course_games()) == 8


@pytest.mark.skipif(not os.path.isfile(SHARED), reason=f"no shared folder beside the project ({SHARED})")
def test_the_kept_copy_is_the_shared_file():
    with open(SHARED, "rb") as shared, open(GAMES, "rb") as kept:
        assert kept.read() == shared.read()


@pytest.mark.parametrize("index", range(8))
def test_the_ports_replay_a_course_game_move_for_move(index):
    game = course_games()[index]
    record = play(PORTS[game["white"]](), PORTS[game["black"]]())
    assert record["moves"] == game["moves"]
    assert (record["result"], record["plies"]) == (game["result"], game["plies"])


# -- baselines by rule --------------------------------------------------------------------------

def test_baseline1_plays_index_128959393_mod_n_of_the_course_order():
    # 7 moves at the start: 128959393 = 7 * 18422770 + 3, so the 4th, d2d3
    assert VARIANT.move_name(Baseline1().choose_move(VARIANT.start(), WHITE, None)) == "d2d3"


def test_baseline2_takes_the_first_of_two_equal_captures_in_the_course_order():
    # the knight can take a pawn on e4 or on a4 (+2 either way, nothing recaptures);
    # the course lists c3e4 before c3a4
    state = position(c3="N", a6="K", e6="k", e4="p", a4="p")
    assert moves_from(state, "c3") == ["c3e2", "c3a2", "c3e4", "c3a4", "c3d1", "c3b1", "c3d5", "c3b5"]
    assert VARIANT.move_name(Baseline2().choose_move(state, WHITE, None)) == "c3e4"


def literal_minimax(board, side, d):
    if d <= 0:
        return core.WIN if core.can_take_king(board, side) else core.material(board, side)
    if core.can_take_king(board, side):
        return core.WIN
    best = -core.WIN
    for m in core.moves(board, side):
        best = max(best, -literal_minimax(core.play(board, m), -side, d - 1))
    return best


def literal_ab(board, side, d, a, b):
    if core.can_take_king(board, side):
        return core.WIN
    if d == 0:
        return core.material(board, side)
    for m in core.moves(board, side):
        a = max(a, -literal_ab(core.play(board, m), -side, d - 1, -b, -a))
        if a >= b:
            return a
    return a


def literal_root(board, side, depth, alphabeta):
    best, kept = -100010, None
    for m in core.moves(board, side):
        child = core.play(board, m)
        s = (-literal_ab(child, -side, depth - 1, -core.WIN, -best) if alphabeta
             else -literal_minimax(child, -side, depth - 1))
        if s > best:
            best, kept = s, m
    return kept


def positions_along(seed, plies):
    rng = random.Random(seed)
    state = VARIANT.start()
    out = []
    for _ in range(plies):
        if VARIANT.outcome(state) is not None:
            break
        out.append(state)
        state = VARIANT.apply(state, rng.choice(VARIANT.legal_moves(state)))
    return out


@pytest.mark.parametrize("port,depth", [(Baseline2, 2), (Baseline3, 4)])
def test_baselines_2_and_3_choose_as_the_literal_minimax(port, depth):
    agent = port()
    for seed in range(3):
        for state in positions_along(seed, 12):
            move = agent.choose_move(state, state.colour, None)
            assert (move.from_square, move.to_square) == literal_root(state.board, state.side, depth, False)


def test_baseline4_chooses_as_the_literal_fail_hard_alpha_beta_at_depth_6():
    agent = Baseline4()
    for state in positions_along(7, 10)[::3]:
        move = agent.choose_move(state, state.colour, None)
        assert (move.from_square, move.to_square) == literal_root(state.board, state.side, 6, True)


# -- random and greedy ------------------------------------------------------------------------

def test_random_draws_with_the_games_generator():
    moves = VARIANT.legal_moves(VARIANT.start())
    assert RandomAgent().choose_move(VARIANT.start(), WHITE, random.Random(4)) == random.Random(4).choice(moves)


def test_greedy_takes_the_most_material():
    # the knight on c3 can take a pawn (b5) or the queen (d5); nothing recaptures
    state = position(c3="N", a1="K", e6="k", b5="p", d5="q")
    assert VARIANT.move_name(GreedyAgent().choose_move(state, WHITE, random.Random(0))) == "c3d5"


def test_greedy_does_not_step_into_a_king_threat():
    # a1a2 walks onto the a6 rook's file, a1b2 onto the e2 rook's rank; a1b1 is safe
    state = position(a1="K", a6="r", e2="r", e6="k")
    assert VARIANT.move_name(GreedyAgent().choose_move(state, WHITE, random.Random(0))) == "a1b1"


# -- ab -----------------------------------------------------------------------------------------

def ab_move(state, nodes=20000):
    return VARIANT.move_name(AlphaBetaAgent(nodes=nodes, seconds=30).choose_move(state, state.colour, None))


def test_ab_takes_a_hanging_queen():
    state = position(c3="N", a1="K", e6="k", d5="q", a5="p")
    assert ab_move(state) == "c3d5"


def test_ab_escapes_a_king_threat():
    # Black's rook on a6 attacks the king on a1; the only other white piece is a pawn on e2
    state = position(a1="K", e2="P", a6="r", e6="k")
    assert ab_move(state) in ("a1b1", "a1b2")


def test_ab_takes_a_defended_pawn_on_the_49th_ply_the_game_ends_before_the_recapture():
    # at ply 49 Rxc5 wins on material at 50 even though d6 recaptures; at ply 20 it loses the rook
    late = position(plies=49, a1="K", c1="R", c5="p", d6="p", e6="k", white=True)
    early = position(plies=20, a1="K", c1="R", c5="p", d6="p", e6="k", white=True)
    assert ab_move(late) == "c1c5"
    assert ab_move(early) != "c1c5"


def test_ab_is_deterministic_for_a_node_budget():
    state = VARIANT.apply(VARIANT.start(), VARIANT.parse_move("d2d3"))
    assert len({ab_move(state, nodes=5000) for _ in range(3)}) == 1


def test_ab_wins_the_course_game_as_black_against_baseline4():
    record = play(Baseline4(), AlphaBetaAgent(nodes=100000, seconds=30))
    assert (record["result"], record["error"]) == ("black", None)


def test_abs_quiescence_generator_lists_exactly_the_captures_and_promoting_steps():
    from agents.nthu.search import captures
    rng = random.Random(3)
    for _ in range(20):
        state = VARIANT.start()
        while VARIANT.outcome(state) is None:
            b = state.board
            expected = sorted(m for m in core.moves(b, state.side)
                              if b[m[1]] or (b[m[0]] == 1 and m[1] < 5) or (b[m[0]] == -1 and m[1] >= 25))
            assert sorted(captures(b, state.side)) == expected
            state = VARIANT.apply(state, rng.choice(VARIANT.legal_moves(state)))


def test_ab_does_not_value_a_blocked_pawns_advance():
    from agents.nthu.search import Search
    search = Search()
    search._set(position(c4="P", a1="K", e6="k").board, 1, 0)
    free = search.evaluate(0)
    search._set(position(c4="P", c5="r", a1="K", e6="k").board, 1, 0)
    # the rook is 6 points (300) and has no square bonus on c5; c4 blocked loses 18 of its 30
    assert free - search.evaluate(0) == 300 + 18
