"""The positions bench/ab_hard_positions.py starts from: each is what its collector promises."""
import json
import os
import sys

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")
sys.path.append(BENCH)      # after the standard library: bench/html.py must not hide `html`

from ab_hard_positions import COLLECT_PLIES, DEFAULT_POSITIONS, undecided_position  # noqa: E402
from ab_vs_opponent import replay  # noqa: E402


def load_positions():
    with open(DEFAULT_POSITIONS) as handle:
        return json.load(handle)


def test_every_position_follows_a_capture_with_the_agent_to_move():
    positions = load_positions()
    assert len(positions) == 126
    for position in positions:
        game = replay(position["moves"])
        assert not game.over
        assert COLLECT_PLIES[0] <= game.plies <= COLLECT_PLIES[1]
        assert game.quiet_plies == 0
        assert game.to_move.lower() == position["colour"]


def test_collector_takes_the_first_position_after_a_capture_from_ply_40():
    position = load_positions()[0]
    moves = position["moves"]
    record = {"white": "AB.py" if position["colour"] == "white" else "minimax",
              "black": "AB.py" if position["colour"] == "black" else "minimax",
              "seed": position["seed"], "plies": 71, "moves": moves + ["a0a0"] * 5}
    assert undecided_position(record) == {"seed": position["seed"], "colour": position["colour"],
                                          "moves": moves}
    assert undecided_position(dict(record, plies=70)) is None
    assert undecided_position(dict(record, white="minimax", black="smart")) is None
