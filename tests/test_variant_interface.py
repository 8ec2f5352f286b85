"""A game is its folder plus one registry line: a tiny variant defined here, registered for one
test, brings its own endings, option defaults, help phrases, start-file errors, promotion letters
and replay text to the commands without any edit to the core or the commands; and the generic
modules no longer import one course's internals."""
import json
import re
import shutil
from pathlib import Path
from typing import NamedTuple, Optional

import pytest

from harness import variants
from harness.core.variant import BLACK, WHITE, Ending, Move, Outcome, SetupError, Termination, Variant
from harness.play.session import Refused, read_move
from harness.replay import record_lines
from harness.view.board import board_geometry, move_cells
from harness.view.words import ending_words
from cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
FSF = shutil.which("fairy-stockfish") or ("/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None)


class TinyEnding(Ending):
    SWEPT = "swept", "{W} swept {L}'s row"


class TinyFileError(SetupError):
    """tiny's own start-file error: the command line must write it as one line."""


class TinyState(NamedTuple):
    stones: tuple        # (White's column, Black's column), 0..2
    side: str
    plies: int = 0
    promoted: Optional[str] = None


class Tiny(Variant):
    """Two rows of three squares; each side walks its stone from a to c along its own row (White
    row 1, Black row 2); the stone reaching c becomes an x or a y (the mover names it) and its
    side wins by `swept`, an ending the core does not know."""
    name = "tiny"
    title = "a tiny test game"
    values = {"Stone": 1, "Ex": 2, "Why": 3}
    letters = {"Stone": "S", "Ex": "X", "Why": "Y"}
    terminations = TinyEnding
    promotion_pieces = ("x", "y")
    option_defaults = {"fifty": 9, "max_plies": 77, "config": None, "fen": None}
    option_notes = {"config": "a tiny.txt", "program": "a tiny program"}
    default_move_timeout = 4.0
    analyser_nodes = 123
    agent_forms = ("uci",)
    uci_variant = "tiny"
    can_start_black = True

    def game_options(self, fifty=None, max_plies=None, config=None, fen=None):
        if config is not None:
            raise TinyFileError(config, 3, "not a tiny position")
        return {}

    def start(self, **options):
        return TinyState((0, 0), options.get("to_move", WHITE))

    def to_move(self, state):
        return state.side

    def legal_moves(self, state):
        row = 0 if state.side == WHITE else 1
        column = state.stones[row]
        if column == 1:
            return [Move(row * 3 + 1, row * 3 + 2, "Ex"), Move(row * 3 + 1, row * 3 + 2, "Why")]
        return [Move(row * 3 + column, row * 3 + column + 1)]

    def apply(self, state, move):
        row = 0 if state.side == WHITE else 1
        stones = list(state.stones)
        stones[row] += 1
        return TinyState(tuple(stones), BLACK if state.side == WHITE else WHITE, state.plies + 1,
                         move.promotion or state.promoted)

    def outcome(self, state):
        for row, colour in ((0, WHITE), (1, BLACK)):
            if state.stones[row] == 2:
                return Outcome(TinyEnding.SWEPT, colour)
        return None

    def move_name(self, move):
        letter = {"Ex": "x", "Why": "y"}.get(move.promotion, "")
        return self._square(move.from_square) + self._square(move.to_square) + letter

    def _square(self, index):
        return "abc"[index % 3] + str(index // 3 + 1)

    def parse_move(self, text):
        match = re.fullmatch(r"([a-c])([12])([a-c])([12])([xy]?)", text or "")
        if not match:
            raise ValueError(f"'{text}' is not a tiny move")
        a, r, b, s, p = match.groups()
        return Move("abc".index(a) + 3 * (int(r) - 1), "abc".index(b) + 3 * (int(s) - 1),
                    {"x": "Ex", "y": "Why"}.get(p))

    def board_text(self, state, last=None):
        return "\n".join(self._row(state, row) for row in (1, 0))

    def _row(self, state, row):
        return "".join("S" if state.stones[row] == c else "." for c in range(3))

    def grid(self, state):
        return [[("S", BLACK if row else WHITE) if state.stones[row] == c else None for c in range(3)]
                for row in (1, 0)]

    def square_names(self):
        return ["a", "b", "c"], ["2", "1"]

    def replay_text(self, record, notes):
        return iter(["tiny's own replay", *notes(1), *notes(None)])


@pytest.fixture
def tiny(monkeypatch):
    """The tiny variant registered for one test: the registry line, nothing else."""
    game = Tiny()
    monkeypatch.setitem(variants._MODULES, "tiny", __name__)
    monkeypatch.setitem(variants._LOADED, "tiny", game)
    return game


def test_a_variant_declares_its_own_endings_and_their_words(tiny, tmp_path, capsys):
    assert "swept" not in {t.value for t in Termination}          # the core does not know it
    out = tmp_path / "game.jsonl"
    code, printed, err = run_cli(["play", "--variant", "tiny", "--white", "random", "--black", "random",
                                  "--out", str(out)], capsys)
    assert code == 0, err
    record = json.loads(out.read_text().splitlines()[0])
    assert (record["result"], record["reason"], record["plies"]) == ("white", "swept", 3)
    assert record["moves"][:2] == ["a1b1", "a2b2"] and record["moves"][2] in ("b1c1x", "b1c1y")
    assert tiny.termination("swept") is TinyEnding.SWEPT and tiny.termination("crash") is Termination.CRASH
    assert tiny.termination("lion_capture") is None                # another variant's ending is not tiny's
    assert ending_words(record, tiny) == "White wins: White swept Black's row (after 3 plies)."
    # the core's endings keep their words for every variant
    assert ending_words({**record, "result": "black", "reason": "timeout", "white": "AB.py"}, tiny) == \
        "Black wins: White (AB.py) did not answer in time (after 3 plies)."


def test_the_help_lists_a_new_variants_option_defaults(tiny, capsys):
    code, out, _ = run_cli(["play", "--help"], capsys)
    text = " ".join(out.split())
    assert code == 0
    for listed in ("cs3243, tiny: draw after this many plies without a capture (cs3243 default 50, tiny 9)",
                   "draw when a game reaches this many plies (cs3243 default 1000, congo 300, tiny 77)",
                   "(default 30; nthu 10, tiny 4, as the course)",
                   "start from the position in this file (cs3243: a config.txt; nthu: a state file; tiny: a tiny.txt)",
                   "start from this position (cs3243, nthu, congo, gardner, tiny)",
                   "gardner: random, greedy, ab, mcts; tiny: random, greedy, ab, mcts)",
                   "(a UCI engine such as Fairy-Stockfish, cs3243, gardner, tiny)"):
        assert listed in text, listed
    code, out, _ = run_cli(["analyse", "--help"], capsys)
    text = " ".join(out.split())
    assert "(default: cs3243 10000, nthu 3000, congo 1500, gardner 10000, tiny 123; see docs/analysis.md)" in text
    assert "cs3243, gardner, tiny: uci:PATH[,nodes=N]" in text
    code, out, _ = run_cli(["perft", "--help"], capsys)
    assert "cs3243, tiny: Black moves first" in " ".join(out.split())


def test_the_help_without_a_new_variant_reads_as_before(capsys):
    code, out, _ = run_cli(["series", "--help"], capsys)
    text = " ".join(out.split())
    for listed in ("cs3243: draw after this many plies without a capture (default 50)",
                   "draw when a game reaches this many plies (cs3243 default 1000, congo 300)",
                   "(default 30; nthu 10, as the course)",
                   "a path to a .py file with studentAgent (cs3243), nthu:PATH (an NTHU program), or "
                   "uci:PATH[,nodes=N][,movetime=MS] (a UCI engine such as Fairy-Stockfish, cs3243, gardner)"):
        assert listed in text, listed


def test_the_variants_option_defaults_are_the_resolved_ones():
    cs3243, congo = variants.find_variant("cs3243"), variants.find_variant("congo")
    assert cs3243.game_options()["fifty"] == cs3243.option_defaults["fifty"] == 50
    assert cs3243.game_options()["max_plies"] == cs3243.option_defaults["max_plies"] == 1000
    assert congo.game_options()["max_plies"] == congo.option_defaults["max_plies"] == 300
    from harness.analysis.analysers import make_analyser
    assert [make_analyser(None, name).nodes for name in ("cs3243", "nthu", "congo", "gardner")] == \
        [10000, 3000, 1500, 10000]


def test_a_variants_start_file_error_is_one_line(tiny, capsys):
    code, out, err = run_cli(["play", "--variant", "tiny", "--white", "random", "--black", "random",
                              "--config", "board.txt"], capsys)
    assert (code, out, err) == (2, "", "error: board.txt:3: not a tiny position\n")


def test_promotion_letters_come_from_the_variant(tiny):
    state = tiny.apply(tiny.apply(tiny.start(), Move(0, 1)), Move(3, 4))
    assert read_move(tiny, state, "b1c1y") == Move(1, 2, "Why")
    with pytest.raises(Refused, match="is a promotion: name the piece, one of b1c1x, b1c1y"):
        read_move(tiny, state, "b1c1")
    with pytest.raises(Refused, match="is not a move"):
        read_move(tiny, state, "b1c1s")             # a board letter, but not one a stone becomes
    assert board_geometry(tiny)["promotions"] == ["x", "y"]
    assert "promotions" not in board_geometry(variants.find_variant("cs3243"))
    assert move_cells("b1c1x", tiny) == [1, 1, 1, 2]
    gardner = variants.find_variant("gardner")
    assert board_geometry(gardner)["promotions"] == ["q", "r", "b", "n"]
    assert move_cells("a4a5q", gardner) == [1, 0, 0, 0]      # marked on the report's board
    script = (ROOT / "harness/view/templates/board.js").read_text()
    assert "g.promotions" in script and "[a-z]$" not in script


def test_replay_takes_the_variants_own_text(tiny):
    record = {"variant": "tiny", "moves": ["a1b1"], "result": "white", "reason": "swept"}
    ply = {"ply": 1, "move": "a1b1", "best": "a1b1", "colour": "white", "cp_before": 10, "mate_before": None,
           "win_before": 51.0, "cp_after": -20, "mate_after": None, "win_after": 48.0, "accuracy": 90.0}
    review = {"analyser": "an engine", "plies": [ply], "accuracy": {"white": 90.0}}
    assert list(record_lines(record)) == ["tiny's own replay"]
    lines = list(record_lines(record, review=review))
    assert lines[0] == "tiny's own replay" and lines[1].startswith("  review: a1b1: ")
    assert lines[2] == "review by an engine: accuracy White 90.0 %, Black -"


@pytest.mark.skipif(FSF is None, reason="fairy-stockfish is not installed")
def test_a_uci_engine_plays_gardner(tmp_path, capsys):
    out = tmp_path / "game.jsonl"
    code, printed, err = run_cli(["play", "--variant", "gardner", "--white", f"uci:{FSF},nodes=200",
                                  "--black", "random", "--seed", "1", "--out", str(out)], capsys)
    assert code == 0, err
    record = json.loads(out.read_text().splitlines()[0])
    gardner = variants.find_variant("gardner")
    state = gardner.start()
    for name in record["moves"]:
        move = gardner.parse_move(name)
        assert move in gardner.legal_moves(state), name
        state = gardner.apply(state, move)
    assert gardner.outcome(state).reason == record["reason"]
    assert record["white"].startswith("uci:") and record["reason"] not in ("crash", "illegal_move", "timeout")


def test_generic_modules_import_no_course():
    """The command line, the option help, the UCI engine and agent and replay name no course's
    module (a course's own features, such as puzzles/ for cs3243, may)."""
    for path in ("harness/cli.py", "harness/commands/common.py", "harness/isolation/uci_engine.py",
                 "agents/uci.py", "harness/replay/__init__.py", "harness/view/words.py",
                 "harness/analysis/analysers.py", "harness/commands/perft.py"):
        text = (ROOT / path).read_text()
        assert not re.search(r"variants\.(cs3243|nthu|congo|gardner)\b", text), path
        assert not re.search(r"\b(cs3243|nthu|congo|gardner)\b", re.sub(r'"""[\s\S]*?"""|#.*', "", text)), path
