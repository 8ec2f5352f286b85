"""The NTHU bonus's advanced agents (docs/advanced.md): mcts (UCT), nnue (ab on a network), the
network's accumulator and quantisation, train-nnue's reproducibility, and the exported players."""
import ast
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from agents import make_builtin
from agents.nthu.mcts import MctsAgent
from agents.nthu.mcts_game import NthuGame
from agents.nthu.nnue import NET_FILE, network
from agents.nthu.nnue_eval import Network, NnueSearch, feature
from agents.uct import LOST, WON, Uct
from harness.core.game import Game
from harness.core.referee import play_game
from harness.training.nnue import float_evaluate, float_path
from harness.variants import find_variant
from harness.variants.nthu import VARIANT, core, parse_fen
from harness.variants.nthu.export import export_nthu
from harness.variants.nthu.files import read_action, state_text

# The quantised evaluation against the float network's, in ab's units (a pawn is 100): the
# rounding of W1 and b1 to 1/64 moves an accumulator by at most (pieces + 1) / 128 (under 0.2 for
# 20 pieces), times |w2| (about 1), over 2 x H hidden units (H = 32); P's and b2's to 1/100 pawn move it by
# at most (2 x pieces + 1) / 2 units; the shipped network's worst over these positions is far less.
QUANTISATION_BOUND = 30


def random_positions(count, seed=7):
    """Positions along random games from the start (not finished ones)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board, side, plies = core.START, 1, 0
        while plies < core.STEP_LIMIT and not core.can_take_king(board, side) and len(found) < count:
            ms = core.moves(board, side)
            if not ms:
                break
            found.append((board, side, plies))
            board, side, plies = core.play(board, rng.choice(ms)), -side, plies + 1
    return found


# -- nnue: the network ------------------------------------------------------------------------

def test_the_features_see_each_side_from_its_own_end():
    # White's king on e1 (square 29) and Black's on a6 (square 0) are each one's own king at home
    assert feature(core.KING, 29, 1) == feature(-core.KING, 0, -1) == 5 * 30 + 29
    # an enemy pawn: the second half of the inputs
    assert feature(-core.PAWN, 7, 1) == 6 * 30 + 7
    assert feature(core.PAWN, 7, -1) == 6 * 30 + 22


class CheckedSearch(NnueSearch):
    """Compares the incremental accumulators with a from-scratch computation at every evaluation."""

    def __init__(self, net):
        super().__init__(net)
        self.checked = 0

    def evaluate(self, ply):
        assert [list(a) for a in self.acc] == [list(a) for a in self.net.refresh(self.b)]
        self.checked += 1
        return super().evaluate(ply)


def test_the_accumulator_equals_a_from_scratch_evaluation_after_every_move():
    net = network()
    rng = random.Random(3)
    searched = 0
    for _ in range(4):
        search = NnueSearch(net)
        board, side, plies = core.START, 1, 0
        search._set(board, side, plies)
        undos = []
        while plies < core.STEP_LIMIT and not core.can_take_king(board, side):
            ms = core.moves(board, side)
            if not ms:
                break
            m = rng.choice(ms)
            undos.append((m, search._make(*m)))
            board, side, plies = core.play(board, m), -side, plies + 1
            assert list(search.b) == list(board)
            assert [list(a) for a in search.acc] == [list(a) for a in net.refresh(board)]
            assert net.output(*search.acc if side == 1 else search.acc[::-1]) == net.evaluate(board, side)
        for m, undo in reversed(undos):        # unmake puts every accumulator back
            search._unmake(m[0], m[1], undo)
        assert [list(a) for a in search.acc] == [list(a) for a in net.refresh(core.START)]
    for board, side, plies in random_positions(6):   # inside a search, at every leaf
        checked = CheckedSearch(net)
        checked.best_move(board, side, plies, max_nodes=400, score_forced=True)
        searched += checked.checked
    assert searched > 1000


def test_the_quantised_evaluation_agrees_with_the_float_network():
    with open(float_path(NET_FILE), encoding="utf-8") as f:
        floats = json.load(f)
    net = network()
    assert floats["hidden"] == net.hidden
    worst = 0.0
    for board, side, _ in random_positions(300):
        worst = max(worst, abs(net.evaluate(board, side) - float_evaluate(floats, board, side)))
    assert worst <= QUANTISATION_BOUND


def test_the_shipped_network_is_small_and_knows_material():
    assert os.path.getsize(NET_FILE) < 64 * 1024
    net = network()
    start = core.START
    assert abs(net.evaluate(start, 1) + net.evaluate(start, -1)) < 200 * 2     # near level both ways
    no_queen = tuple(0 if p == -core.QUEEN else p for p in start)
    assert net.evaluate(no_queen, 1) > net.evaluate(start, 1) + 500               # a queen up is much better
    assert net.evaluate(no_queen, -1) < net.evaluate(start, -1) - 500


def test_a_network_file_of_another_format_is_refused():
    with pytest.raises(ValueError, match="not an nthu-nnue-1 network"):
        Network({"format": "other"})


def test_nnue_plays_a_legal_game_and_replays_it():
    records = []
    for _ in range(2):
        white, black = make_builtin("nnue-nodes", "nthu"), make_builtin("baseline2", "nthu")
        white.nodes = 300
        records.append(play_game(white, black, 5, Game(VARIANT, VARIANT.start())))
    assert records[0]["moves"] == records[1]["moves"] and len(records[0]["moves"]) > 4


# -- mcts ------------------------------------------------------------------------------------

def test_mcts_is_deterministic_with_a_seed():
    state = VARIANT.start()
    pos = (state.board, state.side, state.plies)
    runs = []
    for _ in range(2):
        uct = Uct(NthuGame(playout_plies=4), seed=11)
        move, visits, _ = uct.search(pos, max_iterations=600)
        runs.append((move, visits, [(ch.move, ch.n, ch.w) for ch in uct.root.children]))
    assert runs[0] == runs[1] and runs[0][1] == 600
    other = Uct(NthuGame(playout_plies=4), seed=12)
    other.search(pos, max_iterations=600)
    assert [(ch.move, ch.n, ch.w) for ch in other.root.children] != runs[0][2]   # the seed matters
    games = []
    for _ in range(2):
        agent = MctsAgent(iterations=150, seconds=None)
        games.append(play_game(agent, make_builtin("random", "nthu"), 9, Game(VARIANT, VARIANT.start()))["moves"])
    assert games[0] == games[1]


def test_mcts_takes_a_proven_win_and_avoids_a_proven_loss():
    # White to move with Black's queen on a2 next to its king on a1: every move but Ka1xa2 leaves
    # the king to be taken (a proven loss); the search plays Ka1xa2
    state = parse_fen("k4/5/5/5/q4/KR3 w 10")
    pos = (state.board, state.side, state.plies)
    uct = Uct(NthuGame(), seed=0)
    move, _, _ = uct.search(pos, max_iterations=300)
    assert move == (VARIANT.parse_move("a1a2").from_square, VARIANT.parse_move("a1a2").to_square)
    lost = [ch for ch in uct.root.children if ch.proof == WON]
    assert lost and all(ch.move != move for ch in lost)
    # a position whose side to move can take the king is a proven win for it
    win = parse_fen("k4/5/5/5/5/Q3K w 10")
    assert NthuGame().terminal((win.board, win.side, win.plies)) == (1.0, True)
    assert LOST == -WON


def test_the_generic_mcts_plays_any_variant_through_its_interface():
    variant = find_variant("gardner")
    agent = make_builtin("mcts", "gardner")
    agent.iterations, agent.seconds = 60, None
    state = variant.start()
    moves = []
    for _ in range(4):
        move = agent.choose_move(state, variant.to_move(state), random.Random(0))
        assert move in variant.legal_moves(state)
        moves.append(move)
        state = variant.apply(state, move)
    assert len(moves) == 4


# -- the exported players --------------------------------------------------------------------

@pytest.mark.parametrize("agent", ["mcts", "nnue"])
def test_the_exported_players_speak_the_course_s_protocol(tmp_path, agent):
    player = export_nthu(agent, str(tmp_path / f"{agent}.py"), seconds=0.3)
    with open(player, encoding="utf-8") as f:
        text = f.read()
    imported = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names)                  # standard library only
    assert os.access(player, os.X_OK)
    positions = [VARIANT.start(), parse_fen("kqbnr/p1ppp/1p3/3P1/PPP1P/RNBQK b 3"),
                 parse_fen("k4/5/5/5/q4/KR3 w 10")]
    for state in positions:
        (tmp_path / "state").write_text(state_text(state.board, state.side))
        done = subprocess.run([sys.executable, player, "state", "action"], cwd=tmp_path, timeout=60,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        group, depth = read_action((tmp_path / "action").read_text())
        assert depth >= 1
        fr, fc, tr, tc = group
        assert (fr * 5 + fc, tr * 5 + tc) in core.moves(state.board, state.side)
    assert group == (5, 0, 4, 0)          # the last position: the king takes the checking queen


# -- train-nnue ------------------------------------------------------------------------------

def test_a_tiny_training_is_reproducible_and_resumes(tmp_path):
    pytest.importorskip("torch")
    from harness.training.nnue import TrainSettings, train
    runs = []
    for name in ("a", "b"):
        settings = TrainSettings(out=str(tmp_path / name / "net.json"), positions=150, epochs=2, seed=4,
                                 hidden=4, label_nodes=60, work=str(tmp_path / name / "work"))
        if name == "b":          # b resumes a run cut short (two whole games and half of the next), with 2 workers
            os.makedirs(settings.work)
            with open(tmp_path / "a" / "work" / "positions.jsonl", encoding="utf-8") as f:
                lines = f.readlines()
            with open(os.path.join(settings.work, "positions.jsonl"), "w", encoding="utf-8") as f:
                f.writelines(lines[:2] + [lines[2][:40]])
            shutil.copy(tmp_path / "a" / "work" / "settings.json", settings.work)
        result = train(settings, jobs=1 if name == "a" else 2)
        with open(result.out, "rb") as f:
            runs.append(f.read())
        assert len(result.losses) == 2 and result.positions == 150
    assert runs[0] == runs[1]
    kept = [(tmp_path / name / "work" / "positions.jsonl").read_bytes() for name in ("a", "b")]
    assert kept[0] == kept[1]
    net = Network.from_text(runs[0].decode())
    assert net.hidden == 4
    page = (tmp_path / "a" / "work" / "loss.html").read_text()
    assert "<svg" in page and "validation" in page
