"""The rating fit (harness/stats/ratings.py: Bradley-Terry, all games at once) on crafted games with
hand-checkable answers."""
import math

import pytest

from harness.stats.ratings import FitError, fit_ratings

ELO3 = 400 * math.log10(3)          # the Elo gap at which the stronger side scores 3 in 4


def by_player(fit):
    return {r["player"]: r for r in fit["ratings"]}


def test_two_players_three_points_of_four():
    # p = 3/4 -> a gap of 400 log10(3) = 190.85, split around the mean; the information of the
    # gap is n p (1 - p) = 4 * 3/16 = 3/4, so each rating (half the gap) has variance
    # (1/4) / (3/4) = 1/3 in natural units: sd = sqrt(1/3) * 400 / ln 10 = 100.3 Elo
    fit = fit_ratings(["A", "B"], {("A", "B"): (3, 4)})
    a, b = by_player(fit)["A"], by_player(fit)["B"]
    assert (a["elo"], b["elo"]) == (round(ELO3 / 2, 1), round(-ELO3 / 2, 1)) == (95.4, -95.4)
    assert a["sd"] == round(math.sqrt(1 / 3) * 400 / math.log(10), 1) == 100.3
    assert (a["low"], a["high"]) == (round(95.424 - 1.96 * 100.296, 1), round(95.424 + 1.96 * 100.296, 1))
    assert (a["score"], a["games"], b["score"], b["games"]) == (3, 4, 1, 4)
    assert fit["prior_draws"] == 0


def test_three_players_on_one_scale():
    # A 3/4 against B and B 3/4 against C put A, B, C at +190.85, 0, -190.85; then A against C
    # is expected to score 1 / (1 + 10^(-381.7/400)) = 9/10, which is exactly what A scored, so
    # the fit of all games at once is the same scale (draws count half: 2 wins 2 draws = 3/4)
    fit = fit_ratings(["A", "B", "C"], {("A", "B"): (3, 4), ("B", "C"): (3, 4), ("A", "C"): (9, 10)})
    elo = {name: r["elo"] for name, r in by_player(fit).items()}
    assert elo == {"A": round(ELO3, 1), "B": 0.0, "C": round(-ELO3, 1)} == {"A": 190.8, "B": 0.0, "C": -190.8}
    assert [r["player"] for r in fit["ratings"]] == ["A", "B", "C"]
    assert by_player(fit)["A"]["sd"] == by_player(fit)["C"]["sd"]


def test_a_clean_sweep_gets_the_prior_and_a_note():
    fit = fit_ratings(["A", "B"], {("A", "B"): (4, 4)})
    # one virtual draw: A 4.5 of 5 -> a gap of 400 log10(9) = 381.7
    assert fit["prior_draws"] == 1.0
    assert by_player(fit)["A"]["elo"] == round(400 * math.log10(9) / 2, 1)
    assert by_player(fit)["A"]["score"] == 4 and by_player(fit)["A"]["games"] == 4


def test_players_without_games_between_them_cannot_be_rated():
    with pytest.raises(FitError, match="not linked"):
        fit_ratings(["A", "B", "C", "D"], {("A", "B"): (1, 2), ("C", "D"): (1, 2)})
