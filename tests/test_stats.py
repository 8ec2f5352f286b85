"""harness.stats against values computed by hand from the formulas in its docstring."""
import math

import pytest

from harness import stats
from harness.view.text import elo_line, score_line


def test_score_elo_margin_and_los_of_13_wins_8_losses_3_draws():
    # s = (13 + 3/2) / 24 = 0.604167; Elo = -400 log10(1/s - 1) = -400 log10(0.655172) = 73.46
    assert stats.score(13, 3, 8) == pytest.approx(14.5 / 24)
    assert stats.elo(13, 3, 8) == pytest.approx(73.46, abs=0.01)
    # variance per game = (13 (1-s)^2 + 3 (1/2-s)^2 + 8 s^2) / 24 = 0.207899; sigma = 0.093072
    # s +/- 1.96 sigma = 0.421750 .. 0.786583 -> Elo -54.82 .. 226.60 -> margin 140.7
    sigma = math.sqrt((13 * (1 - 14.5 / 24) ** 2 + 3 * (0.5 - 14.5 / 24) ** 2 + 8 * (14.5 / 24) ** 2) / 24 / 24)
    assert sigma == pytest.approx(0.093072, abs=1e-6)
    low, high = 14.5 / 24 - stats.Z95 * sigma, 14.5 / 24 + stats.Z95 * sigma
    expected = (-400 * math.log10(1 / high - 1) + 400 * math.log10(1 / low - 1)) / 2
    assert stats.elo_margin(13, 3, 8) == pytest.approx(expected)
    assert stats.elo_margin(13, 3, 8) == pytest.approx(140.7, abs=0.1)
    # LOS = 1/2 + 1/2 erf((13 - 8) / sqrt(2 * 21)) = 0.8623
    assert stats.los(13, 8) == pytest.approx(0.8623, abs=1e-4)


def test_the_two_lines_a_chess_engine_tester_expects():
    assert score_line("AB.py", "minimax", 13, 8, 3) == "Score of AB.py vs minimax: 13 - 8 - 3  [0.604] 24"
    assert elo_line(13, 8, 3) == "Elo difference: 73.5 +/- 140.7, LOS: 86.2 %, DrawRatio: 12.5 %"


def test_a_sweep_has_infinite_elo_and_margin():
    assert stats.elo(10, 0, 0) == math.inf and stats.elo(0, 0, 10) == -math.inf
    assert stats.elo_margin(10, 0, 0) == math.inf
    assert elo_line(10, 0, 0) == "Elo difference: +inf +/- inf, LOS: 99.9 %, DrawRatio: 0.0 %"
    # all draws: no spread at all, so no margin (and an even LOS)
    assert elo_line(0, 0, 4) == "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %"


def test_wilson_intervals_match_the_published_examples():
    low, high = stats.wilson(50, 50)
    assert (round(low, 3), high) == (0.929, 1.0)
    low, high = stats.wilson(12, 20)
    assert (round(low, 3), round(high, 3)) == (0.387, 0.781)
    assert stats.wilson(0, 0) is None
    low, high = stats.wilson(0, 10)
    assert (low, round(high, 3)) == (0.0, 0.278)


def test_summary_is_what_report_json_gives_per_side():
    assert stats.summary(13, 3, 8) == {
        "score": 0.6042, "elo": 73.5, "elo_margin": 140.7, "los": 0.8624,
        "win_wilson95": [0.3507, 0.7211], "not_lost_wilson95": [0.4671, 0.8203]}
    assert stats.summary(0, 0, 0) == {"score": None, "elo": None, "elo_margin": None, "los": 0.5,
                                      "win_wilson95": None, "not_lost_wilson95": None}


def test_mean_with_margin_of_paired_differences():
    # values 0, 0.5, 1, -0.5: mean 0.25, deviations -0.25, 0.25, 0.75, -0.75,
    # variance (0.0625 + 0.0625 + 0.5625 + 0.5625) / 3 = 0.41667, se = sqrt(0.41667 / 4)
    mean, margin = stats.mean_with_margin([0, 0.5, 1, -0.5])
    assert mean == 0.25
    assert abs(margin - stats.Z95 * math.sqrt(1.25 / 3 / 4)) < 1e-12
    assert abs(margin - 0.63259) < 1e-4
    assert stats.mean_with_margin([0.5]) is None and stats.mean_with_margin([]) is None
