"""Tests for AB.py, the course submission (iterative-deepening alpha-beta, plays White).

AB.py is loaded as a fresh, independent module for each group of tests (importlib under a
unique name), so no test sees another's module state. AB.py bounds its search by a node
budget, the module constant BUDGET_NAME; tests that ask for many moves load a copy whose budget
is a tenth of the default (the per-game allowances GAME_CAP and EXTRA_CAP, when present, are
scaled with it). The
mate and whole-game tests keep the default budget.

Black's moves are asked for by showing AB.py the mirrored board (rows r -> 6 - r, colours
swapped, dict order kept), which is what harness.isolation.student.StudentAgent does, and mapping the
answer back; tests that need the raw answer mirror by hand.

Every crafted position is verified by brute force over harness.variants.cs3243.rules in the test itself
(which moves capture the King, which moves mate, which first moves force a mate on the
third ply), so a wrong position fails its test loudly instead of passing vacuously.
Positions are written "Kd0 Rg0 kd6": engine letters (K King, Q Queen, R Rook, B Bishop,
N Knight, E Empress, A Princess, F Ferz, P Pawn), upper case White, in dict order.
"""
import copy
import importlib.util
import itertools
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))    # after the standard library: bench/html.py must not hide `html`

from agents import make_agent  # noqa: E402
from agents.minimax import MinimaxAgent  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from harness.isolation.student import StudentAgent  # noqa: E402
from harness.variants.cs3243.config import read_config  # noqa: E402
from harness.variants.cs3243.game import (CHECKMATE, KING_CAPTURE, OUT_OF_VALID_MOVES, Game,  # noqa: E402
                          board_from_gameboard, course_move, interleave, start_gameboard)
from harness.core.referee import play_game  # noqa: E402
from harness.variants.cs3243.rules import RULES  # noqa: E402
from ab_strength import BUDGET_NAME, set_budget  # noqa: E402

AB_PATH = ROOT / "AB.py"
LOW_BUDGET_DIVISOR = 10
COLS = "abcdefg"
LETTERS = {"K": "King", "Q": "Queen", "R": "Rook", "B": "Bishop", "N": "Knight",
           "E": "Empress", "A": "Princess", "F": "Ferz", "P": "Pawn"}
SIDE = {"White": 1, "Black": -1}
OTHER = {"White": "Black", "Black": "White"}
WINS = {KING_CAPTURE, CHECKMATE, OUT_OF_VALID_MOVES}
KING = RULES.king

_module_counter = itertools.count(1)


# -- loading AB.py ------------------------------------------------------------------------------

def load_ab(divisor=1):
    """AB.py imported as a new module; its node budget divided by `divisor`."""
    name = f"_ab_under_test_{next(_module_counter)}"
    spec = importlib.util.spec_from_file_location(name, AB_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if divisor != 1:
        set_budget(module, max(1, getattr(module, BUDGET_NAME) // divisor))
    return module


def ab_agent(divisor=1):
    """AB.py as a referee agent (StudentAgent: mirrors the board when it plays Black)."""
    agent = StudentAgent(str(AB_PATH))
    if divisor != 1:
        set_budget(agent.module, max(1, getattr(agent.module, BUDGET_NAME) // divisor))
    return agent


# -- positions and moves ------------------------------------------------------------------------

def gb(text):
    """Gameboard dict from "Kd0 Rg0 kd6"."""
    board = {}
    for token in text.split():
        square = (token[1], int(token[2:]))
        assert square not in board, token
        board[square] = (LETTERS[token[0].upper()], "White" if token[0].isupper() else "Black")
    return board


def mv(name):
    """Course move from "a1b2"."""
    return ((name[0], int(name[1])), (name[2], int(name[3])))


def mirror(gameboard):
    """The board seen from the other side: rows mirrored, colours swapped, order kept."""
    return {(c, 6 - r): (piece, OTHER[colour]) for (c, r), (piece, colour) in gameboard.items()}


def mirror_move(move):
    (a, r1), (b, r2) = move
    return ((a, 6 - r1), (b, 6 - r2))


def internal(move):
    """Course move -> the rules engine's (from_index, to_index)."""
    v = RULES.variant
    return (v.square_index(move[0]), v.square_index(move[1]))


def ask(module, gameboard, colour):
    """AB.py's raw answer for `colour` to move, and that answer in real board rows."""
    if colour == "White":
        raw = module.studentAgent(gameboard)
        return raw, raw
    raw = module.studentAgent(mirror(gameboard))
    try:
        return raw, mirror_move(raw)
    except (TypeError, ValueError):
        return raw, raw


def is_course_move(answer):
    """Exactly ((str, int), (str, int)) built from tuples, on the board."""
    if type(answer) is not tuple or len(answer) != 2:
        return False
    for square in answer:
        if type(square) is not tuple or len(square) != 2:
            return False
        col, row = square
        if type(col) is not str or len(col) != 1 or col not in COLS:
            return False
        if type(row) is not int or not 0 <= row < 7:
            return False
    return True


def course_moves(board, side):
    return {course_move(RULES, m) for m in RULES.moves(board, side)}


# -- brute force over the rules engine ----------------------------------------------------------

def captures_king(board, move):
    return RULES.captures_king(board, move)


def is_mating(board, move):
    """After `move` the opponent has a move and every one of them is unsafe (spec wording)."""
    if captures_king(board, move):
        return False
    side = 1 if board[move[0]] > 0 else -1
    after = RULES.make(board, move)
    replies = RULES.moves(after, -side)
    return bool(replies) and not any(RULES.is_safe(after, r) for r in replies)


def mating_moves(board, side):
    return [m for m in RULES.moves(board, side) if is_mating(board, m)]


def forces_mate_on_third_ply(board, move):
    """`move`, then whatever the opponent replies, the mover wins on its next ply: an unsafe
    reply lets it capture the King, and after every safe reply it has a mating move. At
    least one reply must be safe (otherwise `move` itself mates)."""
    if captures_king(board, move):
        return False
    side = 1 if board[move[0]] > 0 else -1
    after = RULES.make(board, move)
    replies = RULES.moves(after, -side)
    if not replies:
        return False                 # the opponent has no move at all: a draw
    any_safe = False
    for reply in replies:
        if captures_king(after, reply):
            return False
        if not RULES.is_safe(after, reply):
            continue
        any_safe = True
        if not mating_moves(RULES.make(after, reply), side):
            return False
    return any_safe


def checked(board, side):
    """Is `side`'s King attacked?"""
    return RULES.in_check(board, side)


# -- 1. the course's static checks -------------------------------------------------------------

def test_harness_check_accepts_ab_py():
    done = subprocess.run([sys.executable, "-m", "harness", "check", "AB.py"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ab_py_has_none_of_the_autograder_words_and_a_node_budget():
    text = AB_PATH.read_text()
    for word in ("print", "raise", "stdout", "exception"):
        assert re.search(word, text, re.IGNORECASE) is None, word
    module = load_ab()
    budget = getattr(module, BUDGET_NAME)
    assert type(budget) is int and budget > 0


# -- 2. 200 random positions, both colours ------------------------------------------------------

POSITIONS_PER_COLOUR = 100


def random_positions(per_colour=POSITIONS_PER_COLOUR, first_seed=3243):
    """(gameboard, colour to move) from seeded random-vs-random games, sampled at various
    plies; finished games are skipped. per_colour positions with each colour to move."""
    found = {"White": [], "Black": []}
    seed = first_seed
    while min(len(v) for v in found.values()) < per_colour:
        rng = random.Random(seed)
        seed += 1
        plies = set(rng.sample(range(0, 90), 5))
        game = Game()
        while not game.adjudicate():
            colour = game.to_move
            if game.plies in plies and len(found[colour]) < per_colour:
                found[colour].append(dict(game.gameboard))
            game.play(rng.choice(game.legal_moves()))
    return [(g, "White") for g in found["White"]] + [(g, "Black") for g in found["Black"]]


@pytest.fixture(scope="module")
def answers_on_random_positions():
    """AB.py (a tenth of its budget) asked once on each position; the dict it was given is
    kept with a deep copy taken before the call."""
    module = load_ab(LOW_BUDGET_DIVISOR)
    out = []
    for gameboard, colour in random_positions():
        shown = dict(gameboard) if colour == "White" else mirror(gameboard)
        before = copy.deepcopy(shown)
        before_items = list(before.items())
        raw = module.studentAgent(shown)
        try:
            real = raw if colour == "White" else mirror_move(raw)
        except (TypeError, ValueError):
            real = raw
        out.append({"gameboard": gameboard, "colour": colour, "raw": raw, "move": real,
                    "unchanged": shown == before and list(shown.items()) == before_items})
    return out


def test_random_positions_cover_both_colours(answers_on_random_positions):
    colours = [a["colour"] for a in answers_on_random_positions]
    assert colours.count("White") == POSITIONS_PER_COLOUR
    assert colours.count("Black") == POSITIONS_PER_COLOUR


def test_answer_is_exactly_a_tuple_of_two_str_int_tuples(answers_on_random_positions):
    bad = [(a["colour"], a["raw"]) for a in answers_on_random_positions
           if not is_course_move(a["raw"])]
    assert bad == []


def test_answer_is_one_of_the_sides_pseudo_legal_moves(answers_on_random_positions):
    bad = []
    for a in answers_on_random_positions:
        board = board_from_gameboard(a["gameboard"])
        if a["move"] not in course_moves(board, SIDE[a["colour"]]):
            bad.append((a["colour"], a["move"], a["gameboard"]))
    assert bad == []


def test_never_plays_an_unsafe_move_when_a_safe_one_exists(answers_on_random_positions):
    bad = []
    with_safe = 0
    for a in answers_on_random_positions:
        board = board_from_gameboard(a["gameboard"])
        moves = RULES.moves(board, SIDE[a["colour"]])
        if any(RULES.is_safe(board, m) for m in moves):
            with_safe += 1
            if not RULES.is_safe(board, internal(a["move"])):
                bad.append((a["colour"], a["move"], a["gameboard"]))
    assert with_safe == len(answers_on_random_positions)   # finished games were skipped
    assert bad == []


def test_captures_the_king_whenever_it_can_on_random_positions(answers_on_random_positions):
    bad = []
    for a in answers_on_random_positions:
        board = board_from_gameboard(a["gameboard"])
        side = SIDE[a["colour"]]
        if any(captures_king(board, m) for m in RULES.moves(board, side)):
            if not captures_king(board, internal(a["move"])):
                bad.append((a["colour"], a["move"], a["gameboard"]))
    assert bad == []


def test_argument_is_unchanged_on_random_positions(answers_on_random_positions):
    assert [a for a in answers_on_random_positions if not a["unchanged"]] == []


# -- 2b. AB.py's own move generator and check test against the referee's ---------------------

def ab_move_names(module, moves):
    """AB.py's packed moves as course moves."""
    return {module.move_to_tuple(m) for m in moves}


@pytest.fixture(scope="module")
def generator_positions():
    """(gameboard, AB.py flat board, rules-engine board) for the random positions; both sides'
    moves are compared on each."""
    module = load_ab()
    return module, [(g, module.dict_to_flat(g), board_from_gameboard(g))
                    for g, _ in random_positions()]


def test_ab_move_generator_equals_the_referees_moves_split_into_captures_and_quiets(
        generator_positions):
    module, positions = generator_positions
    bad = []
    compared = 0
    for gameboard, flat, board in positions:
        for colour, side in SIDE.items():
            caps = ab_move_names(module, [k & 4095 for k in module.gen_captures(flat, side)])
            quiets = ab_move_names(module, module.gen_quiets(flat, side))
            referee = course_moves(board, side)
            onto_enemy = {m for m in referee if gameboard.get(m[1], ("", colour))[1] != colour}
            compared += len(referee)
            if caps != onto_enemy or quiets != referee - onto_enemy:
                bad.append((colour, gameboard))
    assert compared > 5000
    assert bad == []


def moves_against_an_unattacked_king(module, positions):
    """(gameboard, flat board, side, enemy King's square, move, referee says check after it)
    for every move of either side that does not take the enemy King, in the random positions
    where that King is not attacked before the move (the search has returned a King capture
    otherwise)."""
    for gameboard, flat, board in positions:
        for side in (1, -1):
            enemy_king = module.king_sq(flat, -side)
            if enemy_king < 0 or checked(board, -side):
                continue
            for m in module.all_moves(flat, side):
                if flat[m >> 6] != -9 * side:
                    after = RULES.make(board, internal(module.move_to_tuple(m)))
                    yield gameboard, flat, side, enemy_king, m, checked(after, -side)


def test_ab_check_filter_never_misses_a_check(generator_positions):
    """The search asks gives_check() only for moves that MAYHIT/LINE say may give check; after
    every move that gives check, the filter says so."""
    module, positions = generator_positions
    missed = []
    checks = 0
    for gameboard, flat, side, enemy_king, m, check in moves_against_an_unattacked_king(module, positions):
        fr, to = m & 63, m >> 6
        if check:
            checks += 1
            if not (module.MAYHIT[flat[fr]][enemy_king][to] or module.LINE[enemy_king][fr]):
                missed.append((module.move_to_tuple(m), gameboard))
    assert checks > 300
    assert missed == []


def test_ab_gives_check_agrees_with_the_referee_after_every_move(generator_positions):
    """gives_check() (the moved piece, or a line through the square it left) is exact: after
    every such move it says check exactly when the referee's in_check does."""
    module, positions = generator_positions
    wrong = []
    checks = moves = 0
    for gameboard, flat, side, enemy_king, m, check in moves_against_an_unattacked_king(module, positions):
        fr, to = m & 63, m >> 6
        after = list(flat)
        after[to], after[fr] = after[fr], 0
        moves += 1
        checks += check
        if module.gives_check(after, enemy_king, flat[fr], fr, to, side) != check:
            wrong.append((module.move_to_tuple(m), gameboard))
    assert moves > 5000 and checks > 300
    assert wrong == []


# -- 3. crafted positions: King capture, mates --------------------------------------------------

# White's King on d0 is in check from the Queen on d4; the Rook could take that Queen, but the
# Knight on f3 takes the Black King on e5, which wins at once.
KING_IN_ONE = "Kd0 Nf3 Ra4 ke5 qd4 pa6 ef6"
KING_IN_ONE_MOVE = "f3e5"

# Mate in 2 plies with check: Qf6-f4 leaves Black (King e3) with moves that are all unsafe.
# Qf6xd6 would win an Empress instead.
MATE_2_CHECK = "Ke0 ke3 Ae2 Fd1 Qf6 qb3 ed6 ba3"
MATE_2_CHECK_MOVE = "f6f4"
# Mate in 2 plies without check ("out of valid moves"): after Qd1-e1 the Black King on g0 is
# not attacked, every King move is, and the pawn on a0 (Black's far row) cannot move.
MATE_2_QUIET = "Kc6 kg0 Qd1 pa0"
MATE_2_QUIET_MOVE = "d1e1"

# Mate in 3 plies: one quiet first move forces a mating move on the third ply whatever Black
# replies (captures of an Empress and a Knight are on offer instead).
MATE_3 = [("Ke2 kb5 Ng4 Qd0 Ef3 na3 eg0", "f3b3"),
          ("Ke6 ka6 Fb0 Ba2 Eb5 fd4 bf6", "a2c4")]


def oriented(text, colour):
    """The crafted White-to-move position, or its mirror image with Black to move."""
    board = gb(text)
    return board if colour == "White" else mirror(board)


def position(text, colour):
    """(gameboard, rules-engine board, side to move) of a crafted position for `colour`."""
    gameboard = oriented(text, colour)
    return gameboard, board_from_gameboard(gameboard), SIDE[colour]


def oriented_move(name, colour):
    return mv(name) if colour == "White" else mirror_move(mv(name))


@pytest.mark.parametrize("colour", ["White", "Black"])
def test_captures_the_king_in_one(colour):
    gameboard, board, side = position(KING_IN_ONE, colour)
    # brute force: exactly one King capture; the mover's own King is in check; the Queen
    # that gives the check can be taken
    king_captures = [m for m in RULES.moves(board, side) if captures_king(board, m)]
    assert [course_move(RULES, m) for m in king_captures] == [oriented_move(KING_IN_ONE_MOVE, colour)]
    assert checked(board, side)
    assert any(abs(board[m[1]]) == RULES.code_of["Queen"] for m in RULES.moves(board, side))

    raw, move = ask(load_ab(), dict(gameboard), colour)
    assert move == oriented_move(KING_IN_ONE_MOVE, colour)

    ab, other = ab_agent(), make_agent("minimax")
    white, black = (ab, other) if colour == "White" else (other, ab)
    record = play_game(white, black, seed=1, game=Game(gameboard, to_move=colour))
    assert (record["result"], record["reason"], record["plies"]) == (colour.lower(), KING_CAPTURE, 1)


@pytest.mark.parametrize("colour", ["White", "Black"])
@pytest.mark.parametrize("text,name,reason", [(MATE_2_CHECK, MATE_2_CHECK_MOVE, CHECKMATE),
                                              (MATE_2_QUIET, MATE_2_QUIET_MOVE, OUT_OF_VALID_MOVES)])
def test_finds_mate_in_two_plies(colour, text, name, reason):
    gameboard, board, side = position(text, colour)
    # brute force: no King capture, the mating moves are exactly the expected one, and after
    # it the opponent's King is attacked iff the reason is checkmate
    assert not any(captures_king(board, m) for m in RULES.moves(board, side))
    mates = [course_move(RULES, m) for m in mating_moves(board, side)]
    assert mates == [oriented_move(name, colour)]
    after = RULES.make(board, internal(mates[0]))
    assert checked(after, -side) == (reason == CHECKMATE)

    raw, move = ask(load_ab(), dict(gameboard), colour)
    assert move in mates

    # played out by the referee against Minimax: the game ends before the opponent moves
    ab, other = ab_agent(), MinimaxAgent()
    white, black = (ab, other) if colour == "White" else (other, ab)
    record = play_game(white, black, seed=2, game=Game(gameboard, to_move=colour))
    assert (record["result"], record["reason"], record["plies"]) == (colour.lower(), reason, 1)
    assert record["error"] is None


@pytest.mark.parametrize("text,name", MATE_3)
def test_finds_mate_in_three_plies(text, name):
    gameboard = gb(text)
    board = board_from_gameboard(gameboard)
    # brute force: no King capture, no mate in 2 plies; the first moves that force a mate on
    # the third ply are exactly the expected one; every mating move there gives check
    assert not any(captures_king(board, m) for m in RULES.moves(board, 1))
    assert mating_moves(board, 1) == []
    firsts = [course_move(RULES, m) for m in RULES.moves(board, 1) if forces_mate_on_third_ply(board, m)]
    assert firsts == [mv(name)]
    after = RULES.make(board, internal(mv(name)))
    for reply in RULES.moves(after, -1):
        if RULES.is_safe(after, reply):
            final = RULES.make(after, reply)
            for m3 in mating_moves(final, 1):
                assert checked(RULES.make(final, m3), -1)

    raw, move = ask(load_ab(), dict(gameboard), "White")
    assert move == mv(name)

    # against Minimax (it prefers the slower loss, a safe reply): checkmate on ply 3
    ab = ab_agent()
    record = play_game(ab, MinimaxAgent(), seed=3, game=Game(gameboard))
    assert (record["result"], record["reason"], record["plies"]) == ("white", CHECKMATE, 3)
    assert record["moves"][0] == name

    # against every reply: AB.py (the same module, which follows the game) wins on ply 3
    replies = RULES.moves(after, -1)
    assert len(replies) >= 2
    outcomes = set()
    for reply in replies:
        game = Game(gameboard)
        assert not game.adjudicate()
        game.play(internal(mv(name)))
        assert not game.adjudicate()
        game.play(reply)
        expected = CHECKMATE if RULES.is_safe(after, reply) else KING_CAPTURE
        record = play_game(ab, RandomAgent(), seed=4, game=game)
        assert (record["result"], record["reason"], record["plies"]) == ("white", expected, 3), reply
        outcomes.add(expected)
    assert CHECKMATE in outcomes


# -- 4. the argument is left alone --------------------------------------------------------------

def test_argument_is_unchanged_after_a_call_deep_compare_with_key_order():
    module = load_ab()
    positions = [start_gameboard(), gb(MATE_2_CHECK), gb(MATE_3[0][0]), gb(KING_IN_ONE),
                 mirror(gb(MATE_2_QUIET))]
    for gameboard in positions:
        before = copy.deepcopy(gameboard)
        before_items = [(k, v) for k, v in before.items()]
        module.studentAgent(gameboard)
        assert gameboard == before
        assert list(gameboard.items()) == before_items
        assert all(type(k) is tuple and type(v) is tuple for k, v in gameboard.items())


# -- 5. forced and desperate moves --------------------------------------------------------------

# White: King a6 boxed in by its own pawns on a5 (blocked by the King) and b6 (on White's far
# row, no move): the only move is Ka6-b5.
ONE_MOVE_SAFE = "Ka6 Pb6 Pa5 kd2 rg0"
# The same with a Black Rook on b0 watching b5: the only move is unsafe.
ONE_MOVE_UNSAFE = "Ka6 Pb6 Pa5 kd2 rb0"
# A lone White King on a0 in check from g0; g1 covers row 1 and b6 the b-file: all 3 moves unsafe.
LONE_KING_LOST = "Ka0 rg0 rg1 rb6 kd5"
# A lone White King in the middle against King and Queen: it has safe moves.
LONE_KING = "Kd3 kd6 qa0 pf4"


@pytest.mark.parametrize("colour", ["White", "Black"])
@pytest.mark.parametrize("text,safe", [(ONE_MOVE_SAFE, True), (ONE_MOVE_UNSAFE, False)])
def test_returns_the_only_move_whether_safe_or_not(colour, text, safe):
    gameboard = oriented(text, colour)
    board = board_from_gameboard(gameboard)
    moves = RULES.moves(board, SIDE[colour])
    only = oriented_move("a6b5", colour)
    assert [course_move(RULES, m) for m in moves] == [only]
    assert RULES.is_safe(board, moves[0]) == safe
    raw, move = ask(load_ab(), dict(gameboard), colour)
    assert is_course_move(raw)
    assert move == only


@pytest.mark.parametrize("colour", ["White", "Black"])
def test_lone_king_with_every_move_unsafe_returns_a_legal_king_move(colour):
    gameboard, board, side = position(LONE_KING_LOST, colour)
    moves = RULES.moves(board, side)
    assert len(moves) == 3 and not any(RULES.is_safe(board, m) for m in moves)
    raw, move = ask(load_ab(), dict(gameboard), colour)
    assert is_course_move(raw)
    assert move in {course_move(RULES, m) for m in moves}
    assert move[0] == oriented_move("a0a0", colour)[0]


@pytest.mark.parametrize("colour", ["White", "Black"])
def test_lone_king_returns_a_legal_safe_king_move(colour):
    gameboard, board, side = position(LONE_KING, colour)
    moves = RULES.moves(board, side)
    assert all(board[m[0]] == side * KING for m in moves)
    assert any(RULES.is_safe(board, m) for m in moves)
    raw, move = ask(load_ab(), dict(gameboard), colour)
    assert is_course_move(raw)
    assert move in {course_move(RULES, m) for m in moves}
    assert RULES.is_safe(board, internal(move))


# -- 6. endgame judgement: the course's rules make pawns alone weak ------------------------------

# From a real game (AB.py as Black against Minimax, a 50-ply draw), seen from White: Queen and two
# pawns against Empress. Qa3xa4 trades the Queen for the Empress (Ka5xa4 recaptures) and leaves
# King and pawns against a lone King, which without promotion is rarely a win in 50 plies.
QUEEN_KEPT = "Kd0 Pd1 Qa3 Pf3 ea4 ka5"
QUEEN_TRADE = "a3a4"


@pytest.mark.parametrize("colour", ["White", "Black"])
def test_keeps_its_queen_rather_than_trading_into_a_pawns_only_ending(colour):
    gameboard, board, side = position(QUEEN_KEPT, colour)
    # brute force: the trade is on the board, the King's recapture is safe, and after it the
    # mover has only its King and pawns against a lone King
    trade = internal(oriented_move(QUEEN_TRADE, colour))
    assert trade in RULES.moves(board, side) and RULES.is_safe(board, trade)
    after = RULES.make(board, trade)
    recapture = internal(oriented_move("a5a4", colour))
    assert recapture in RULES.moves(after, -side) and RULES.is_safe(after, recapture)
    left = sorted(RULES.piece_of[abs(p)].name for p in RULES.make(after, recapture) if p)
    assert left == ["King", "King", "Pawn", "Pawn"]

    raw, move = ask(load_ab(), dict(gameboard), colour)
    assert is_course_move(raw)
    assert move != oriented_move(QUEEN_TRADE, colour)
    assert RULES.is_safe(board, internal(move))


def test_a_pawn_on_the_far_row_counts_as_a_blocker_not_a_pawn():
    # no promotion: a pawn on its far row never moves again and attacks nothing
    module = load_ab()
    evaluate = module.full_eval
    bare = module.dict_to_flat(gb("Ka2 ka4"))
    for col in COLS:
        before = module.dict_to_flat(gb(f"Ka2 ka4 P{col}5"))
        far = module.dict_to_flat(gb(f"Ka2 ka4 P{col}6"))
        assert evaluate(far) - evaluate(bare) <= 30
        assert evaluate(before) - evaluate(far) >= 80
        # the same for Black, whose far row is row 0
        black_before = module.dict_to_flat(gb(f"Ka2 ka4 p{col}1"))
        black_far = module.dict_to_flat(gb(f"Ka2 ka4 p{col}0"))
        assert evaluate(bare) - evaluate(black_far) <= 30
        assert evaluate(black_far) - evaluate(black_before) >= 80


def static_value(module, text):
    """AB.py's static evaluation (White's view, no 50-ply counter) of a crafted position."""
    board = module.dict_to_flat(gb(text))
    engine = module.Engine()
    engine.b = board
    engine.mat = [0, module.material(board, 1), module.material(board, -1)]
    return engine.evaluate(1, module.full_eval(board), 0)


def test_a_small_lead_keeps_pieces_and_a_large_lead_trades_them():
    # without promotion a thin lead in a bare ending is rarely a win in 50 plies, so two
    # extra pawns are worth more with the Queens, Empresses and Rooks still on; a whole
    # Empress ahead is worth more with them traded (fewer defenders, the King hunt starts)
    # (each side keeps a Queen and an Empress, so no King hunt bonus is in play; with the
    # pieces' own worth, KEEP, a Rook ahead is about where trading starts to pay)
    module = load_ab()
    kept = "Qd1 Ee1 qd5 ee5"
    traded = "Rg1 Bf1 rg5 bf5"
    small = f"Ka0 Pb2 Pc2 Pd2 ka6 pb4 {kept}"
    big = f"Ka0 Ea1 Pb2 ka6 pb4 {kept}"
    assert static_value(module, f"{small} {traded}") > static_value(module, small)
    assert static_value(module, f"{big} {traded}") < static_value(module, big)


def test_pieces_on_the_board_are_worth_keep_to_the_agent():
    # a level game traded down is a likely 50-ply draw: the evaluation gives the agent (White)
    # KEEP times the share of the full board's pieces (Pawns and Kings aside) still on
    module = load_ab()
    bare = "Ka0 Pb2 ka6 pb4"
    queens = f"{bare} Qd1 qd5"
    assert module.KEEP > 0
    assert static_value(module, bare) == 0
    assert static_value(module, queens) == module.KEEP * 1800 // module.TOTAL_NPM
    start = module.dict_to_flat(start_gameboard())
    assert module.material(start, 1) + module.material(start, -1) == module.TOTAL_NPM


def test_a_fifty_ply_draw_scores_below_zero_for_the_agent():
    # a draw fails the course as a loss does: with 49 quiet plies behind it, every move of
    # King and Rook against a lone King (no capture, no mate in one) ends in a 50-ply draw,
    # which the search scores at -CONTEMPT; with the counter at 0 the extra Rook counts
    module = load_ab()
    board = module.dict_to_flat(gb("Kd0 Ra0 kd4"))
    assert module.CONTEMPT > 0
    _, drawn = module.Engine().think(board, 49, 2000, [])
    _, fresh = module.Engine().think(board, 0, 2000, [])
    assert drawn == -module.CONTEMPT
    assert fresh > 300


def test_static_exchange_counts_the_recaptures():
    module = load_ab()

    def exchange(text, fr, to):
        board = module.dict_to_flat(gb(text))
        index = {name: module.COLS.index(name[0]) + 7 * int(name[1]) for name in (fr, to)}
        return module.exchange(board, index[fr], index[to])

    # Queen takes a pawn that a pawn defends: 100 - 900
    assert exchange("Kd0 kd6 Qc2 pc4 pd5", "c2", "c4") == -800
    # Rook takes a Knight that a Bishop defends: 300 - 500
    assert exchange("Kd0 kd6 Ra0 na3 bb4", "a0", "a3") == -200
    # the same Knight undefended
    assert exchange("Kd0 kd6 Ra0 na3", "a0", "a3") == 300
    # a Rook defended only by its King, with a Knight also on it: the King may not recapture
    assert exchange("Kd0 kb6 Qa0 ra5 Nc4", "a0", "a5") == 500


def test_a_rook_on_an_open_file_beats_one_behind_its_own_pawn():
    # the tables built per move add, per square a piece would reach with only pawns in the way,
    # MOB_W: from a0 behind its pawn on a2 the Rook reaches a1 and b0..g0 (7 squares), from b0
    # it reaches b1..b6, a0 and c0..g0 (12); no other term differs but the fixed tables
    module = load_ab()
    closed = module.dict_to_flat(gb("Kd0 Ra0 Pa2 kd6"))
    opened = module.dict_to_flat(gb("Kd0 Rb0 Pa2 kd6"))
    lines = [module.full_eval(b, module.build_pst(b)) - module.full_eval(b) for b in (closed, opened)]
    assert lines[1] - lines[0] == module.MOB_W[5] * (12 - 7)


def test_an_open_king_costs_kopen_w_per_square_a_queen_there_would_reach():
    # the tables built per move charge each square a King could stand on KOPEN_W (by the
    # strongest enemy piece: 3 for a Queen) per square a Queen there would reach with only the
    # pawns in the way: from d0 behind Pc1 Pd1 Pe1 it reaches a0-c0 and e0-g0 (6 squares), from
    # g0 the row, the g-file and the long diagonal (18); Black's King costs nothing, White has
    # no piece
    module = load_ab()
    board = module.dict_to_flat(gb("Kd0 Pc1 Pd1 Pe1 kd6 qa6"))
    tables = module.build_pst(board)
    assert module.KOPEN_W[8] == 3
    assert [tables[9][sq] - module.PST[9][sq] for sq in (3, 6)] == [-3 * 6, -3 * 18]
    assert tables[10] == module.PST[10]


# -- 7. setUpBoard and import ------------------------------------------------------------------

def test_set_up_board_reads_config_txt_into_the_course_start_dict(monkeypatch):
    module = load_ab()
    monkeypatch.setattr(sys, "argv", ["AB.py", str(ROOT / "config.txt")])
    board = module.setUpBoard()
    assert list(board.items()) == list(start_gameboard().items())


def test_set_up_board_reads_crlf_config_without_final_newline_in_own_then_enemy_order(
        monkeypatch, tmp_path):
    lines = [
        "Rows:7",
        "Cols:7",
        "Number of Enemy King, Queen, Bishop, Rook, Knight, Ferz, Princess, Empress, Pawn (space between):1 1 0 0 0 0 0 0 2",
        "Position of Enemy Pieces:",
        "[King,d6]", "[Pawn,c5]", "[Queen,a3]", "[Pawn,g4]",
        "Number of Own King, Queen, Bishop, Rook, Knight, Ferz, Princess, Empress (space between):1 0 0 1 0 0 0 1 0",
        "Starting Position of Pieces [Piece, Pos]:",
        "[Rook,b0]", "[King,e1]", "[Empress,f2]",
    ]
    path = tmp_path / "position.txt"
    path.write_bytes("\r\n".join(lines).encode())          # no newline after the last line
    module = load_ab()
    monkeypatch.setattr(sys, "argv", ["AB.py", str(path)])
    board = module.setUpBoard()
    setup = read_config(path)
    expected = interleave(setup.white, setup.black)
    assert list(board.items()) == list(expected.items())
    assert list(board.items()) == [
        (("b", 0), ("Rook", "White")), (("d", 6), ("King", "Black")),
        (("e", 1), ("King", "White")), (("c", 5), ("Pawn", "Black")),
        (("f", 2), ("Empress", "White")), (("a", 3), ("Queen", "Black")),
        (("g", 4), ("Pawn", "Black"))]


def test_importing_and_calling_ab_py_prints_nothing(capsys):
    module = load_ab()
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")
    module.studentAgent(start_gameboard())
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")


# -- 8. whole games at the default budget -------------------------------------------------------

@pytest.mark.parametrize("opponent,seed", [("dummy", 0), ("random", 0)])
def test_whole_game_as_white_beats(opponent, seed):
    record = play_game(ab_agent(), make_agent(opponent), seed=seed, game=Game())
    assert record["error"] is None
    assert record["result"] == "white"
    assert record["reason"] in WINS
    assert record["mutated"] == {"white": 0, "black": 0}


# -- the strong-opponent boost --------------------------------------------------------------------


def budgets_in_a_game(scores, moves=14, **constants):
    """The node budgets AB.py's search is given, move by move, in a game against Random in
    which the k-th search reports scores(k) (the search replaced by a fake that uses its whole
    budget and plays a safe move that does not take the King, so that the game goes on);
    constants: module constants to set first."""
    agent = ab_agent()
    module = agent.module
    for name, value in constants.items():
        assert hasattr(module, name), name
        setattr(module, name, value)
    budgets = []

    def fake_think(board, hm, budget, seen, hard=None):
        module.ENGINE.nodes = budget
        module.ENGINE.depth_done = 1
        score = scores(len(budgets))
        budgets.append(budget)
        board = list(board)
        for move in module.all_moves(board, 1):
            after = list(board)
            after[move >> 6], after[move & 63] = after[move & 63], 0
            if board[move >> 6] != -9 and not module.in_check(after, 1):
                return move, score
        return module._fallback(board), score

    module.ENGINE.think = fake_think
    record = play_game(agent, make_agent("random"), seed=5, game=Game(max_plies=2 * moves))
    assert record["plies"] == 2 * moves and record["error"] is None
    return module, budgets


def test_a_level_game_gets_strong_mult_times_the_nodes_from_its_own_allowance():
    # the course's opponents fall behind within a few moves; a game in which the lead (the
    # score without the KEEP bonus: here about -150) stays at most LEVEL_LEAD for LEVEL_AFTER
    # searched moves is against a strong one: every later move gets STRONG_MULT times the
    # nodes, the extra counted against EXTRA_CAP and the plain share against GAME_CAP
    module, budgets = budgets_in_a_game(lambda k: 0)
    base, after, mult = module.NODE_BUDGET, module.LEVEL_AFTER, module.STRONG_MULT
    assert (base, after, mult, module.LEVEL_LEAD, module.EXTRA_CAP) == (18000, 6, 3, 0, 1800000)
    assert len(budgets) > after + 3
    assert budgets[:after] == [base] * after
    assert budgets[after:] == [base * mult] * (len(budgets) - after)
    assert module.GAME["extra"] == (len(budgets) - after) * (mult - 1) * base
    assert module.GAME["nodes"] == len(budgets) * base


def test_a_clear_lead_or_a_broken_streak_keeps_the_plain_budget():
    module, budgets = budgets_in_a_game(lambda k: 600)
    assert len(budgets) > module.LEVEL_AFTER + 3
    assert set(budgets) == {module.NODE_BUDGET}
    assert module.GAME["extra"] == 0 and module.GAME["level"] == 0
    # level for LEVEL_AFTER - 1 moves, then one move ahead, then level again: the streak
    # starts over, and the boost comes LEVEL_AFTER moves after the lead
    after = module.LEVEL_AFTER
    module, budgets = budgets_in_a_game(lambda k: 600 if k == after - 1 else 0, moves=2 * after + 4)
    base = module.NODE_BUDGET
    assert budgets[:2 * after] == [base] * (2 * after)
    assert set(budgets[2 * after:]) == {base * module.STRONG_MULT} and len(budgets) > 2 * after


def test_the_boost_lasts_until_its_allowance_is_spent():
    # the last boosted move gets what is left of EXTRA_CAP, later moves the plain budget
    base = 18000
    module, budgets = budgets_in_a_game(lambda k: 0, moves=16, EXTRA_CAP=5 * base)
    assert budgets[:6] == [base] * 6
    assert budgets[6:10] == [3 * base, 3 * base, base + base, base]
    assert set(budgets[10:]) == {base}
    assert module.GAME["extra"] == 5 * base


def test_a_mate_score_against_the_agent_breaks_the_streak():
    # being mated is no level game: a search that finds a mate against the agent (-MATE + 5)
    # resets the streak as a lead would; the boost then comes LEVEL_AFTER searched moves later
    mated = -(100000 - 5)
    module, budgets = budgets_in_a_game(lambda k: mated if k == 3 else 0, moves=16)
    base, after = module.NODE_BUDGET, module.LEVEL_AFTER
    assert module.MATE == 100000 and -module.MATE_BOUND > mated
    assert budgets[:4 + after] == [base] * (4 + after)
    assert set(budgets[4 + after:]) == {3 * base} and len(budgets) > 4 + after
