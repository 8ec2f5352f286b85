"""Congo's built-in agents: each answers one of the mover's moves; greedy's preferences; the
course's agents play the programs' best move; ab takes a lion when it can, saves its own, and is
deterministic."""
import importlib
import random

import pytest

from agents import make_agent
from agents.congo import AGENTS
from agents.congo.ab import ABAgent
from agents.congo.basic import GreedyAgent, NoMove, RandomAgent
from agents.congo.course import AlphaBetaAgent, MinimaxAgent
from harness.core.agent import Agent, AgentError
from harness.variants.congo import VARIANT, rules, search


def state(fen, edition="2022"):
    return VARIANT.start(fen=fen, edition=edition)


def choose(agent, fen, seed=0, edition="2022"):
    s = state(fen, edition)
    agent.start_game(VARIANT.to_move(s), seed)
    return VARIANT.move_name(agent.choose_move(s, VARIANT.to_move(s), random.Random(seed)))


@pytest.mark.parametrize("name", list(AGENTS))
def test_every_agent_is_an_agent_and_answers_a_legal_move(name):
    agent = make_agent(name, "congo")
    module, cls = AGENTS[name].split(":")
    assert isinstance(agent, getattr(importlib.import_module(module), cls)) and isinstance(agent, Agent)
    if name == "ab":
        agent = ABAgent(nodes=2000)
    s = VARIANT.start()
    answer = agent.choose_move(s, "White", random.Random(1))
    assert VARIANT.protocol.read(s, answer) == answer


def test_unknown_agent_names_the_known_ones():
    with pytest.raises(AgentError) as err:
        make_agent("x", "congo")
    assert str(err.value) == "unknown agent 'x' for congo: use one of random, greedy, minimax, alphabeta, ab"


def test_random_agent_replays_for_a_seed():
    assert choose(RandomAgent(), VARIANT.start().fen, seed=7) == choose(RandomAgent(), VARIANT.start().fen, seed=7)


def test_agents_without_a_move_raise_no_move():
    stuck = "P2l3/p6/7/7/7/7/L6 w 1"
    for agent in (RandomAgent(), GreedyAgent(), MinimaxAgent(), AlphaBetaAgent(), ABAgent(nodes=100)):
        with pytest.raises(NoMove):
            choose(agent, stuck, edition="2021")


def test_greedy_takes_the_lion_first():
    # the zebra could take the giraffe, the lion can fly at the black lion
    assert choose(GreedyAgent(), "3l3/7/4g2/7/7/7/3L1Z1 w 1") == "d1d7"


def test_greedy_takes_the_most_valuable_piece():
    # the c2 pawn can take a pawn on b3 or an elephant on d3
    assert choose(GreedyAgent(), "3l3/7/7/7/1p1e3/2P4/3L3 w 1") == "c2d3"


def test_greedy_breaks_ties_with_its_random_generator():
    picks = {choose(GreedyAgent(), "3l3/7/7/7/1p1p3/2P4/3L3 w 1", seed=s) for s in range(20)}
    assert picks == {"c2b3", "c2d3"}


def test_minimax_agent_plays_the_first_best_move_of_minimax_depth_2():
    assert choose(MinimaxAgent(), "1z5/pPp1lP1/5ep/4P1e/4L1p/2p2pP/7 b 35", edition="2021") == "g4g2"


def test_alphabeta_agent_plays_what_bestmove_prints():
    assert [choose(AlphaBetaAgent(), f) for f in (
        "3l2z/ppppppp/7/7/7/PPP1PPP/3L2Z w 4",
        "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12",
        "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 w 35")] == ["c2c3", "g4f3", "e4e5"]


def test_course_agents_promote_as_the_game_edition_says():
    # White to move; a pawn push to the far rank is worth 250 more in 2022 (a superpawn)
    fen = "l6/3P3/7/7/7/7/3L3 w 1"
    assert choose(MinimaxAgent(depth=1), fen, edition="2022") == "d6c7"
    p = rules.parse_fen(fen)
    assert search.minimax_root(p.board, 1, 1, rules.eval1, True)[0] == 350
    assert search.minimax_root(p.board, 1, 1, rules.eval1, False)[0] == 100


def test_ab_takes_the_lion_when_it_can():
    assert choose(ABAgent(nodes=1000), "3l3/7/4g2/7/7/7/3L1Z1 w 1") == "d1d7"


def test_ab_flies_at_the_lion_as_black():
    assert choose(ABAgent(nodes=3000), "3l3/4z2/7/7/7/7/3L3 b 1") == "d7d1"


def test_ab_saves_its_lion_from_a_zebra():
    # the white zebra on c4 attacks the black lion on d6; Black must move the lion or take the zebra
    move = choose(ABAgent(nodes=5000), "7/7/3l3/2Z4/7/6P/3L2p b 1")
    s = state("7/7/3l3/2Z4/7/6P/3L2p b 1")
    after = VARIANT.apply(s, VARIANT.parse_move(move))
    assert all(VARIANT.move_name(m)[2:] != rules.square_name(after.board.index(-1))
               for m in VARIANT.legal_moves(after)), move


def test_ab_is_deterministic():
    fen = "1z5/pPp1lP1/5sp/4P1s/4L1p/2p2pP/7 b 12"
    assert choose(ABAgent(nodes=4000), fen, seed=1) == choose(ABAgent(nodes=4000), fen, seed=2)
