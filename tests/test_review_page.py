"""The review as the pages show it (issue 60): a mate is 0 % or 100 % in every variant, whatever
its fitted curve; the arrow after a judged move is its mover's best move (the move the text
names); the evaluations are White's; endings read in the variant's words on the replay --html page;
the material balance's values and Gardner's check, through the variant interface."""
import json
import re

from harness.analysis.review import review_game
from harness.core.analyser import Analyser, Evaluation
from harness.core.game import Game
from harness.core.referee import play_game
from harness.players import build
from harness.variants import find_variant
from harness.view.board import board_geometry, material_values, move_cells
from harness.view.html import render_game_html, review_data


class Mating(Analyser):
    """Congo's fitted slope; every position scores `script[plies]`: ("cp", N) or ("mate", N), White's view."""
    nodes, win_slope, noise, second_look, label = 100, 0.001098, 0.3, 1, "mating"

    def __init__(self, variant, script):
        self.variant, self.script = variant, script

    def evaluate(self, state, nodes=None):
        kind, value = self.script[self.variant.plies(state)]
        best = self.variant.legal_moves(state)[0]
        return Evaluation(value, None, best) if kind == "cp" else Evaluation(None, value, best)


def test_a_mate_is_0_or_100_percent_on_congos_curve():
    # issue 60: a side mated in one was shown 25.01 % (Congo's slope on the mate's clamped 1,000 cp)
    variant = find_variant("congo")
    record = {"game": 0, **play_game(build("random", variant="congo"), build("random", variant="congo"), 1,
                                     Game(variant, max_plies=5))}
    entry = review_game(record, variant, Mating(variant, {0: ("cp", 0), 1: ("mate", -1), 2: ("mate", 1),
                                                          3: ("cp", 1000), 4: ("cp", -1000)}))
    # (the fifth position ends the game by its ply limit: a draw, 50 %, not searched)
    wins = [p["win_before"] for p in entry["plies"]] + [entry["plies"][-1]["win_after"]]
    assert wins[:3] == [50.0, 0.0, 100.0]
    assert record["plies"] == 5 and wins[3:] == [74.99, 25.01, 50.0]        # 1,000 cp on the curve: not a mate
    assert entry["plies"][0]["judgement"] == "blunder"          # White from 50 % to mated: a blunder


def test_the_arrow_after_a_move_is_its_movers_best():
    variant = find_variant("cs3243")
    record = {"game": 2, **play_game(build("greedy"), build("random"), 2, Game(variant))}
    moves = record["moves"]
    plies = [{"ply": k, "colour": "white" if k % 2 else "black", "move": moves[k - 1],
              "best": moves[k] if k < len(moves) else None, "cp_before": 0, "mate_before": None, "cp_after": 0,
              "mate_after": None, "win_before": 50.0, "win_after": 50.0, "accuracy": 100.0, "judgement": None}
             for k in range(1, 5)]
    plies[0].update(cp_after=30, win_after=52.76)
    plies[1].update(best="a5a4", cp_before=30, cp_after=400, win_before=52.76, win_after=80.1, judgement="blunder")
    plies[2].update(cp_before=400, win_before=80.1)
    entry = {"game": 2, "variant": "cs3243", "analyser": "test", "plies": plies,
             "accuracy": {"white": 100.0, "black": 20.0}, "turning_point": {"white": None, "black": 2}}
    data = review_data(entry, variant, len(moves) + 1)
    # after ply 2 (Black's "...?? (best a5a4)"), the arrow is a5a4, Black's best, not White's next best
    assert data["texts"][2].startswith(f"ply 2, Black {moves[1]}?? (best a5a4): +0.30 -> +4.00, Black's win 47.2 %")
    assert data["best"][2] == move_cells("a5a4", variant)
    assert data["best"][:5] == [None] + [move_cells(p["best"], variant) for p in plies]
    assert data["best"][1] == move_cells(moves[1], variant) and data["best"][1] != data["best"][2]
    # the evaluations are White's (a plus: White better) whoever moved
    assert data["evals"][1:3] == ["+0.30", "+4.00"] and data["wins"][2] == 80.1


def embedded_game(page):
    return json.loads(re.search(r'<script type="application/json" id="games-data">(.*?)</script>', page).group(1))[0]


def test_the_replay_page_says_the_ending_in_the_variants_words():
    variant = find_variant("cs3243")
    record = {"game": 1, **play_game(build("greedy"), build("random"), 2, Game(variant)),
              "result": "black", "reason": "out_of_valid_moves"}
    page = render_game_html(record, variant)
    ending = embedded_game(page)["ending"]
    assert ending == (f"Black wins: White has no legal move: every move walks into an attack "
                      f"(after {len(record['moves'])} plies).")
    assert "out_of_valid_moves" not in ending
    assert "Every score is White's" in page


def test_material_values_leave_the_king_out_whatever_the_variant():
    assert material_values(find_variant("cs3243")) == {"Q": 900, "R": 500, "B": 300, "N": 300, "E": 800, "A": 700,
                                                       "F": 150, "P": 100}          # King 100000 left out
    assert material_values(find_variant("nthu")) == {"P": 2, "R": 6, "N": 7, "B": 8, "Q": 20}   # King 100
    assert material_values(find_variant("gardner")) == {"P": 100, "N": 300, "B": 300, "R": 500, "Q": 900}
    assert material_values(find_variant("congo")) == {"P": 100, "E": 200, "Z": 300, "S": 350, "G": 400}
    assert board_geometry(find_variant("gardner"))["values"]["R"] == 500


def test_gardner_shows_check_on_the_king():
    gardner = find_variant("gardner")
    assert gardner.check_cell(gardner.start()) is None
    assert gardner.check_cell(gardner.start(fen="4k/5/5/5/K3r w - - 0 1")) == (4, 0)     # a1: row 4, column 0
    assert gardner.check_cell(gardner.start(fen="4k/5/5/5/K3R b - - 0 1")) == (0, 4)     # e5
