"""Gardner's 5x5 minichess (harness/variants/gardner): the rules on crafted positions, perft
against Fairy-Stockfish's built-in ``gardner`` (the engine when installed, the figures written
down always), the end rules against pyffish, the generic agents, and every command that plays,
replays or reviews its games."""
import json
import os
import random
import subprocess

import pytest
from starlette.testclient import TestClient

from agents import builtin_names, make_builtin
from agents.generic import AlphaBetaAgent, GreedyAgent, RandomAgent
from harness.core.game import Game
from harness.core.referee import play_game
from harness.isolation.uci_engine import find_engine
from harness.variants import find_variant
from harness.core.variant import Move, Outcome, Termination
from harness.variants.gardner import GardnerEnding
from harness.variants.gardner import START_FEN, parse_fen, rules
from harness.web.app import Offer, Settings, create_app
from cli_run import run_cli

V = find_variant("gardner")
FSF = find_engine("fairy-stockfish")
needs_fsf = pytest.mark.skipif(FSF is None, reason="fairy-stockfish not installed (apt-get install fairy-stockfish)")
try:
    import pyffish
except ImportError:           # pragma: no cover: requirements-dev.txt pins it
    pyffish = None
needs_pyffish = pytest.mark.skipif(pyffish is None, reason="pyffish not installed")

# `go perft N` of Fairy-Stockfish 11.1 with UCI_Variant gardner from the start (measured:
# docs/gardner.md); depth 5 is the 52,512
START_PERFT = {1: 7, 2: 53, 3: 506, 4: 4775, 5: 52512, 6: 572874}
# two positions with promotions and a check, the engine's figures for depths 1-4
PROMOTION_FENS = {"r3k/1P3/5/3p1/R3K w - - 0 1": [3, 34, 475, 4298],
                  "r3k/1P3/5/3p1/R2K1 b - - 3 9": [10, 122, 1037, 12718]}


def names(state):
    return [V.move_name(m) for m in V.legal_moves(state)]


def play_names(state, *moves):
    for name in moves:
        move = V.parse_move(name)
        assert move in V.legal_moves(state), name
        state = V.apply(state, move)
    return state


def engine_perft(fen, depth):
    commands = f"uci\nsetoption name UCI_Variant value gardner\nposition fen {fen}\ngo perft {depth}\nquit\n"
    out = subprocess.run([FSF], input=commands, capture_output=True, text=True, timeout=120).stdout
    return int(next(line for line in out.splitlines() if line.startswith("Nodes searched")).split()[-1])


# ----------------------------------------------------------------------------- rules


def test_the_start_position_its_moves_and_its_fen():
    state = V.start()
    assert V.fen(state) == START_FEN == "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"
    # square by square from a1: the knight's two, then the pawns' single steps (no double step)
    assert names(state) == ["b1c3", "b1a3", "a2a3", "b2b3", "c2c3", "d2d3", "e2e3"]
    after = play_names(state, "b2b3")
    assert V.fen(after) == "rnbqk/ppppp/1P3/P1PPP/RNBQK b - - 0 1"
    assert names(after) == ["a4a3", "a4b3", "c4c3", "c4b3", "d4d3", "e4e3", "b5c3", "b5a3"]


def test_a_pawn_on_the_far_rank_becomes_the_movers_choice_of_four():
    state = V.start(fen="r3k/1P3/5/5/R3K w - - 0 1")
    promotions = [n for n in names(state) if n.startswith("b4")]
    assert promotions == ["b4b5q", "b4b5r", "b4b5b", "b4b5n", "b4a5q", "b4a5r", "b4a5b", "b4a5n"]
    knight = V.apply(state, V.parse_move("b4b5n"))
    assert V.fen(knight) == "rN2k/5/5/5/R3K b - - 0 1"
    assert V.parse_move("B4A5Q") == Move(16, 20, "Queen") and V.move_name(Move(16, 20, "Queen")) == "b4a5q"
    assert V.apply(state, V.parse_move("b4a5q")).board[20] == rules.QUEEN      # a capture that promotes
    assert V.parse_move("b4b5") not in V.legal_moves(state)         # a promotion names its piece
    black = V.start(fen="4k/5/5/3p1/K4 b - - 0 1")
    assert [n for n in names(black) if n.startswith("d2")] == ["d2d1q", "d2d1r", "d2d1b", "d2d1n"]


def test_a_king_in_check_must_get_out_and_a_pinned_piece_stays():
    in_check = V.start(fen="4k/5/5/5/K3r w - - 0 1")          # the rook on e1 checks along rank 1
    assert rules.in_check(in_check.board, 1) and names(in_check) == ["a1a2", "a1b2"]
    pinned = V.start(fen="k4/5/5/5/KB2r w - - 0 1")           # the bishop shields its king
    assert names(pinned) == ["a1a2", "a1b2"]
    assert V.outcome(in_check) is None


def test_checkmate_wins_and_stalemate_draws():
    before = V.start(fen="1r2k/p1ppp/B4/2PPP/1Q2K w - - 1 7")
    mated = V.apply(before, V.parse_move("b1b5"))
    assert names(mated) == [] and V.outcome(mated) == Outcome(Termination.CHECKMATE, "White")
    stalemate = V.start(fen="k4/5/1Q3/5/4K b - - 0 1")
    assert names(stalemate) == [] and V.outcome(stalemate) == Outcome(Termination.STALEMATE, None)
    assert V.outcome(stalemate).result == "draw" and V.outcome(stalemate).reason == "stalemate"


def test_fifty_moves_without_a_capture_or_pawn_move_draw_unless_the_last_one_mates():
    state = V.start(fen="4k/5/5/5/KR3 w - - 99 60")
    assert V.outcome(state) is None
    quiet = V.apply(state, V.parse_move("b1b2"))
    assert quiet.quiet == 100 and V.outcome(quiet) == Outcome(Termination.FIFTY_MOVE_DRAW, None)
    if pyffish is not None:
        assert pyffish.is_optional_game_end("gardner", "4k/5/5/5/KR3 w - - 99 60", ["b1b2"])[0] is True
        assert pyffish.is_optional_game_end("gardner", "4k/5/5/5/KR3 w - - 98 60", ["b1b2"])[0] is False
    capture = V.apply(V.start(fen="4k/5/5/5/KRn2 w - - 99 60"), V.parse_move("b1c1"))
    assert capture.quiet == 0 and V.outcome(capture) is None
    mate = V.apply(V.start(fen="k1K2/5/5/5/4R w - - 99 60"), V.parse_move("e1a1"))   # mate on ply 100
    assert mate.quiet == 100 and V.outcome(mate) == Outcome(Termination.CHECKMATE, "White")
    if pyffish is not None:      # the engine's rule too: no 50-move draw when the side to move is mated
        assert pyffish.is_optional_game_end("gardner", "k1K2/5/5/5/4R w - - 99 60", ["e1a1"])[0] is False


def test_the_third_time_a_position_stands_is_a_draw_and_a_capture_forgets_the_past():
    shuffle = ["b1a3", "b5c3", "a3b1", "c3b5"]
    twice = play_names(V.start(), *shuffle)
    assert V.outcome(twice) is None and twice.earlier.count((twice.board, twice.side)) == 1
    third = play_names(twice, *shuffle)
    assert V.outcome(third) == Outcome(Termination.REPETITION, None)
    pushed = play_names(V.start(), "a2a3")
    assert pushed.earlier == () and pushed.quiet == 0


@pytest.mark.parametrize("fen, white, black", [
    ("4k/5/5/5/K4 w - - 0 1", True, True),
    ("4k/5/5/5/KN3 w - - 0 1", True, True),
    ("4k/5/5/5/KB1B1 w - - 0 1", True, True),        # both bishops on light squares
    ("3bk/5/5/5/KB3 w - - 0 1", True, True),         # bishops on squares of one colour
    ("2b1k/5/5/5/KB3 w - - 0 1", False, False),      # bishops of both colours: a mate can be helped
    ("4k/5/5/5/KBB2 w - - 0 1", False, True),
    ("4k/5/5/5/KNN2 w - - 0 1", False, True),        # two knights: Fairy-Stockfish counts it as enough
    ("3nk/5/5/5/KB3 w - - 0 1", False, False),
    ("4k/5/5/1P3/K4 w - - 0 1", False, True),        # a pawn may become a queen
])
def test_who_cannot_mate_is_fairy_stockfishs_insufficient_material(fen, white, black):
    state = V.start(fen=fen)
    assert (rules.cannot_mate(state.board, 1), rules.cannot_mate(state.board, -1)) == (white, black)
    drawn = V.outcome(state) == Outcome(GardnerEnding.INSUFFICIENT_MATERIAL, None)
    assert drawn == (white and black)
    if pyffish is not None:
        assert pyffish.has_insufficient_material("gardner", fen, []) == (white, black)


@pytest.mark.parametrize("fen, problem", [
    ("rnbqk/ppppp/5/PPPPP w", "4 ranks, expected 5"),
    ("rnbqk/ppppp/5/PPPPP/RNBQX w", "rank 1 has 'X', not a piece letter or a digit"),
    ("rnbqk/ppppp/5/PPPPP/RNBQK x", "the side to move is 'w' or 'b', not 'x'"),
    ("rnbqk/ppppp/5/PPPPP/RNBQK w KQ - 0 1", "gardner has no castling"),
    ("rnbqk/ppppp/5/PPPPP/RNBQK w - - x 1", "the halfmove clock must be a whole number >= 0, not 'x'"),
    ("rnbq1/ppppp/5/PPPPP/RNBQK w", "Black has 0 kings"),
    ("P3k/5/5/5/K4 w", "a pawn on the first or last rank"),
    ("4k/4R/5/5/K4 w", "the side not to move is in check"),
])
def test_a_bad_fen_is_one_line_naming_the_problem(fen, problem):
    with pytest.raises(ValueError) as info:
        parse_fen(fen)
    assert problem in str(info.value) and "\n" not in str(info.value)


def test_game_options_take_fen_and_max_plies_only():
    assert V.game_options() == {}
    assert V.game_options(fen="4k/5/5/5/KR3 w", max_plies=20) == {"fen": "4k/5/5/5/KR3 w", "max_plies": 20}
    limited = V.start(max_plies=2)
    assert V.outcome(play_names(limited, "a2a3", "b4a3")) == Outcome(Termination.MAX_PLIES, None)
    for option, message in ((dict(fifty=10), "gardner has no --fifty option"),
                            (dict(config="config.txt"), "gardner starts from --fen, not a config file"),
                            (dict(fen="8/8 w"), "--fen '8/8 w': 2 ranks")):
        with pytest.raises(ValueError, match=message):
            V.game_options(**option)


# ----------------------------------------------------------------------------- perft


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_from_the_start_is_fairy_stockfishs(depth):
    assert V.perft(V.start(), depth) == START_PERFT[depth]


@pytest.mark.parametrize("fen", PROMOTION_FENS)
def test_perft_through_promotions_and_checks_is_fairy_stockfishs(fen):
    assert [V.perft(V.start(fen=fen), d) for d in (1, 2, 3, 4)] == PROMOTION_FENS[fen]


@needs_fsf
@pytest.mark.parametrize("fen, depth", [(START_FEN, 5), *((fen, 3) for fen in PROMOTION_FENS)])
def test_perft_equals_the_installed_engines(fen, depth):
    assert V.perft(V.start(fen=fen), depth) == engine_perft(fen, depth)


@needs_pyffish
def test_random_games_agree_with_pyffish_move_by_move():
    """Every position of 20 seeded random games: the same legal moves as pyffish's, and the same
    ends (mate, stalemate, the 50-move rule, threefold repetition, no mating material). pyffish
    is given each position's FEN, and for its 50-move and repetition rules the moves since the
    last capture or pawn move from the FEN there (no earlier position can come back). Its slower
    questions are skipped where its answer is sure: no repetition within 4 plies of a capture or
    pawn move, enough material while each side has a pawn, rook or queen."""
    ends = set()
    for seed in range(20):
        rng, state = random.Random(seed), V.start()
        since_fen, since = V.fen(state), []
        while True:
            fen, legal = V.fen(state), names(state)
            assert sorted(legal) == sorted(pyffish.legal_moves("gardner", fen, [])), (seed, fen)
            optional = len(since) >= 4 and pyffish.is_optional_game_end("gardner", since_fen, since)[0]
            heavy = [any(p * side > 0 and abs(p) in (rules.PAWN, rules.ROOK, rules.QUEEN) for p in state.board)
                     for side in (1, -1)]
            if not legal:
                expected = "checkmate" if pyffish.game_result("gardner", fen, []) else "stalemate"
            elif optional:
                expected = "fifty_move_draw" if state.quiet >= 100 else "repetition"
            elif not all(heavy) and all(pyffish.has_insufficient_material("gardner", fen, [])):
                expected = "insufficient_material"
            else:
                expected = None
            outcome = V.outcome(state)
            assert (outcome.reason if outcome else None) == expected, (seed, fen)
            if outcome:
                ends.add(outcome.reason)
                break
            move = V.parse_move(rng.choice(legal))
            after = V.apply(state, move)
            since_fen, since = (V.fen(after), []) if after.quiet == 0 else (since_fen, since + [V.move_name(move)])
            state = after
    assert ends == {"checkmate", "stalemate", "repetition", "insufficient_material"}


# ----------------------------------------------------------------------------- agents


def test_the_generic_agents_are_gardners_builtins():
    assert builtin_names("gardner") == ["random", "greedy", "ab", "mcts"]
    assert [type(make_builtin(n, "gardner")) for n in ("random", "greedy", "ab")] == [
        RandomAgent, GreedyAgent, AlphaBetaAgent]
    assert builtin_names("nthu")[:4] == ["baseline1", "baseline2", "baseline3", "baseline4"]   # a course keeps its own


def test_greedy_and_ab_mate_in_one_and_ab_says_so():
    state = V.start(fen="1r2k/p1ppp/B4/2PPP/1Q2K w - - 1 7")
    for agent in (GreedyAgent(V), AlphaBetaAgent(V)):
        assert V.move_name(agent.choose_move(state, "White", random.Random(0))) == "b1b5"
    ab = AlphaBetaAgent(V)
    ab.choose_move(state, "White", random.Random(0))
    assert ab.move_score() == {"mate": 1}


def test_greedy_takes_the_queen_and_ab_sees_the_recapture():
    free = V.start(fen="4k/5/q4/1n3/R3K w - - 0 1")          # the rook on a1 takes the queen on a3
    assert V.move_name(GreedyAgent(V).choose_move(free, "White", random.Random(0))) == "a1a3"
    # the queen on a3 is guarded by the knight on b5: taking it with the knight (900 - 300) beats
    # taking it with the rook (900 - 500); greedy sees +900 either way, ab sees the recapture
    guarded = V.start(fen="1n2k/5/q4/5/RN2K w - - 0 1")
    greedy = {V.move_name(GreedyAgent(V).choose_move(guarded, "White", random.Random(seed))) for seed in range(12)}
    assert greedy == {"a1a3", "b1a3"}
    ab = AlphaBetaAgent(V)
    assert [V.move_name(ab.choose_move(guarded, "White", random.Random(seed))) for seed in range(3)] == ["b1a3"] * 3
    assert ab.last_depth >= 2 and ab.move_score()["cp"] >= 500


@pytest.mark.parametrize("name", ["nthu", "congo", "gardner"])
def test_the_generic_agents_play_any_variant_to_its_end(name):
    variant = find_variant(name)
    white, black = AlphaBetaAgent(variant, nodes=300), GreedyAgent(variant)
    record = play_game(white, black, 5, Game(variant, variant.start()))
    assert record["variant"] == name and record["result"] in ("white", "black", "draw")
    assert record["reason"] not in ("illegal_move", "crash", "timeout") and record["plies"] >= 1


def test_ab_replays_the_same_game_from_the_same_seed():
    def game():
        return play_game(AlphaBetaAgent(V, nodes=500), RandomAgent(V), 11, Game(V, V.start()))["moves"]
    assert game() == game()


# ----------------------------------------------------------------------------- commands


def test_perft_command_prints_the_figures(capsys):
    code, out, err = run_cli(["perft", "4", "--variant", "gardner"], capsys)
    assert code == 0, err
    assert [line.split()[:2] for line in out.splitlines()[1:]] == [["1", "7"], ["2", "53"], ["3", "506"],
                                                                    ["4", "4775"]]
    code, out, _ = run_cli(["perft", "2", "--variant", "gardner", "--fen", "r3k/1P3/5/3p1/R3K w - - 0 1"], capsys)
    assert [line.split()[1] for line in out.splitlines()[1:]] == ["3", "34"]
    code, _, err = run_cli(["perft", "2", "--variant", "gardner", "--config", "config.txt"], capsys)
    assert (code, err.strip()) == (2, "error: gardner starts from --fen, not a config file")


def test_play_shows_the_game_to_its_end(capsys):
    code, out, err = run_cli(["play", "--variant", "gardner", "--white", "ab", "--black", "greedy", "--seed", "1",
                              "--fen", "1r2k/p1ppp/B4/2PPP/1Q2K w - - 1 7"], capsys)
    assert code == 0, err
    assert "1. White b1b5" in out and out.rstrip().endswith("White (ab) wins by checkmate after 1 plies.")


def test_series_replay_tournament_and_the_records(tmp_path, capsys):
    out = str(tmp_path / "s")
    code, printed, err = run_cli(["series", "--variant", "gardner", "--white", "ab", "--black", "random",
                                  "--games", "2", "--jobs", "1", "--out", out, "--quiet", "--max-plies", "60"], capsys)
    assert code == 0, err
    records = [json.loads(line) for line in open(os.path.join(out, "results.jsonl"), encoding="utf-8")]
    assert [r["variant"] for r in records] == ["gardner", "gardner"] and all(r["max_plies"] == 60 for r in records)
    assert "Score of ab vs random:" in printed
    # the recorded moves replay to the recorded result
    for record in records:
        state = V.start(max_plies=60)
        for name in record["moves"]:
            state = V.apply(state, V.parse_move(name))
        assert V.outcome(state).reason == record["reason"]
    code, shown, err = run_cli(["replay", os.path.join(out, "results.jsonl"), "0"], capsys)
    assert code == 0, err
    assert f"ply 1: White {records[0]['moves'][0]}" in shown
    assert shown.rstrip().splitlines()[-1].startswith("result: ")
    code, _, err = run_cli(["replay", os.path.join(out, "results.jsonl"), "0", "--variant", "nthu"], capsys)
    assert (code, err.strip()) == (2, "error: the record is a game of gardner, not nthu")
    code, printed, err = run_cli(["tournament", "random", "greedy", "--variant", "gardner", "--games", "1",
                                  "--jobs", "1", "--out", str(tmp_path / "t"), "--quiet"], capsys)
    assert code == 0, err
    report = json.load(open(tmp_path / "t" / "report.json", encoding="utf-8"))
    assert report["settings"]["variant"] == "gardner"
    assert sorted(row["player"] for row in report["ratings"]) == ["greedy", "random"]


def test_a_series_from_a_fen_records_it_and_replays_from_it(tmp_path, capsys):
    out, fen = str(tmp_path / "f"), "r3k/1P3/5/3p1/R3K w - - 0 1"
    code, _, err = run_cli(["series", "--variant", "gardner", "--white", "greedy", "--black", "greedy", "--games", "1",
                            "--jobs", "1", "--out", out, "--quiet", "--fen", fen], capsys)
    assert code == 0, err
    record = json.loads(open(os.path.join(out, "results.jsonl"), encoding="utf-8").readline())
    assert record["fen"] == fen and record["moves"][0] in ("e1e2", "e1d1", "e1d2")
    code, shown, err = run_cli(["replay", os.path.join(out, "results.jsonl"), "0"], capsys)
    assert code == 0, err
    assert fen in shown


@needs_fsf
def test_analyse_reviews_a_game_with_fairy_stockfishs_gardner(tmp_path, capsys):
    out = str(tmp_path / "a")
    code, _, err = run_cli(["series", "--variant", "gardner", "--white", "ab", "--black", "random", "--games", "1",
                            "--jobs", "1", "--out", out, "--quiet"], capsys)
    assert code == 0, err
    code, printed, err = run_cli(["analyse", out, "--nodes", "2000", "--quiet", "--jobs", "1"], capsys)
    assert code == 0, err
    assert "analyser: Fairy-Stockfish" in printed
    entry = json.loads(open(os.path.join(out, "analysis.jsonl"), encoding="utf-8").readline())
    record = json.loads(open(os.path.join(out, "results.jsonl"), encoding="utf-8").readline())
    assert entry["variant"] == "gardner" and [p["move"] for p in entry["plies"]] == record["moves"]
    state = V.start()
    for ply in entry["plies"]:          # each best move the engine named is a legal move of its position
        assert ply["best"] is None or ply["best"] in names(state)
        state = V.apply(state, V.parse_move(ply["move"]))
    # White's mate at the end: the position before it is scored as a mate for White
    if record["reason"] == "checkmate" and record["result"] == "white":
        assert entry["plies"][-1]["mate_before"] == 1 and entry["plies"][-1]["win_after"] == 100.0
    code, _, err = run_cli(["analyse", out, "--analyser", "ab"], capsys)
    assert code == 2 and "gardner games are analysed by a UCI engine" in err


def test_serve_offers_the_generic_agents_and_a_human_promotes(tmp_path):
    app = create_app(Settings(Offer.build([]), move_timeout=5.0))
    try:
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            offered = client.get("/api/agents?variant=gardner").json()["agents"]
            assert [a["name"] for a in offered] == ["random", "greedy", "ab", "mcts"]
            variants = {v["name"]: v for v in client.get("/api/variants").json()["variants"]}
            assert variants["gardner"]["start_fen"] == START_FEN
            assert variants["gardner"]["board"]["columns"] == list("abcde")
            assert variants["gardner"]["board"]["rows"] == list("54321")
            body = {"variant": "gardner", "white": "human", "black": "random", "seed": 2,
                    "fen": "r3k/1P3/5/5/R3K w - - 0 1"}
            state = client.post("/api/games", content=json.dumps(body), headers={"Content-Type": "application/json"}).json()
            assert "b4b5q" in state["legal"] and state["fen"] == "r3k/1P3/5/5/R3K w - - 0 1"
            unnamed = client.post(f"/api/games/{state['id']}/moves", content=json.dumps({"move": "b4a5"}),
                                  headers={"Content-Type": "application/json"})
            assert (unnamed.status_code, unnamed.json()) == (400, {
                "error": "'b4a5' is a promotion: name the piece, one of b4a5q, b4a5r, b4a5b, b4a5n"})
            moved = client.post(f"/api/games/{state['id']}/moves", content=json.dumps({"move": "b4a5n"}),
                                headers={"Content-Type": "application/json"}).json()
            assert moved["moves"][0] == "b4a5n" and moved["fen"].startswith("N3k/5/5/5/R3K b")
    finally:
        app.state.games.close()
