"""Game-pair statistics and the SPRT (harness.stats) against figures computed by hand, by a
second method (a brute-force maximum-likelihood search written here) and published by fastchess."""
import math

import pytest

from harness import stats
from harness.compare import text

X = stats.PAIR_SCORES


def test_pair_figures_of_a_worked_example_by_hand():
    counts = [2, 5, 10, 6, 3]                   # 26 pairs
    # s = (0*2 + .25*5 + .5*10 + .75*6 + 1*3) / 26 = 13.75 / 26 = 0.528846
    # v = (2*.528846^2 + 5*.278846^2 + 10*.028846^2 + 6*.221154^2 + 3*.471154^2) / 26
    #   = (0.559356 + 0.388775 + 0.008321 + 0.293454 + 0.665959) / 26 = 0.073687
    s, v = stats.pair_score_and_variance(counts)
    assert s == pytest.approx(13.75 / 26) and v == pytest.approx(0.073687, abs=1e-6)
    # Elo = -400 log10(1/s - 1) = -400 log10(0.890909) = 20.07; sd of s = sqrt(v / 26) = 0.053236;
    # s -/+ 1.96 sd = 0.424505 .. 0.633188 -> Elo -52.86 .. 94.84 -> margin 73.85
    elo, margin = stats.pentanomial_elo(counts)
    assert (round(elo, 2), round(margin, 2)) == (20.07, 73.85)
    # nElo = (s - 1/2) / sqrt(2 v) * 800 / ln 10 = 0.028846 / 0.383893 * 347.436 = 26.11;
    # margin = 1.96 / sqrt(2 * 26) * 347.436 = 94.43
    nelo, nelo_margin = stats.pentanomial_nelo(counts)
    assert (round(nelo, 2), round(nelo_margin, 2)) == (26.11, 94.43)
    # LOS = 1/2 + 1/2 erf(0.028846 / sqrt(2 v / 26)) = 1/2 + 1/2 erf(0.38315) = 0.70604
    assert stats.pentanomial_los(counts) == pytest.approx(0.70604, abs=1e-5)


def test_pair_figures_agree_with_fastchess_own_examples():
    # fastchess's elo tests (app/src/matchmaking/elo, Stats in the order LL, LD, WL, DD, WD, WW)
    for counts, elo, nelo, los in (([34, 54, 31 + 32, 64, 75], (55.58, 27.65), (57.94, 28.28), "100.00"),
                                   ([332, 433, 457 + 41, 333, 334], (-8.64, 10.33), (-9.17, 10.96), "5.05")):
        assert tuple(round(x, 2) for x in stats.pentanomial_elo(counts)) == elo
        assert tuple(round(x, 2) for x in stats.pentanomial_nelo(counts)) == nelo
        assert f"{100 * stats.pentanomial_los(counts):.2f}" == los


def test_the_lines_read_exactly_as_fastchess_prints_them():
    # a fastchess run published by the Zeno engine's author (github.com/Toudonou/zeno, docs/testing.md,
    # "Bishop pair"): 11048 games, SPRT [0, 5], alpha = beta = 0.01
    counts = [531, 1096, 2084, 1150, 663]
    assert text.pentanomial_lines(counts, 4138, 3820, 3090) == [
        "Elo: 10.00 +/- 5.16, nElo: 12.56 +/- 6.48",
        "LOS: 99.99 %, DrawRatio: 37.73 %, PairsRatio: 1.11",
        "Games: 11048, Wins: 4138, Losses: 3820, Draws: 3090, Points: 5683.0 (51.44 %)",
        "Ptnml(0-2): [531, 1096, 2084, 1150, 663]"]
    bounds = stats.sprt_bounds(0.01, 0.01)
    assert text.llr_line(stats.sprt_llr(counts, 0, 5), bounds, 0, 5) == "LLR: 4.60 (-4.60, 4.60) [0.00, 5.00]"
    assert text.sprt_line(0, 5, "H1", 11048) == "SPRT ([0.00, 5.00]) completed - H1 was accepted"
    assert text.sprt_line(0, 10, None, 1000) == "SPRT ([0.00, 10.00]) completed - no decision after 1000 games"


@pytest.mark.parametrize("counts, elo0, elo1, alpha, beta, printed", [
    ([224, 309, 874, 347, 246], 0, 2, 0.05, 0.10, "0.53 (-2.25, 2.89)"),       # History Heuristic
    ([183, 319, 779, 398, 321], 15, 18, 0.05, 0.10, "2.08 (-2.25, 2.89)"),     # ... vs Zeno 1.0
    ([200, 557, 1005, 643, 249], 0, 5, 0.05, 0.05, "2.97 (-2.94, 2.94)"),      # conditions ... from the TT
    ([4, 14, 58, 76, 91], 150, 180, 0.01, 0.01, "4.63 (-4.60, 4.60)"),         # Lazy SMP
    ([253, 458, 809, 412, 242], -35, -30, 0.01, 0.01, "4.60 (-4.60, 4.60)"),   # Setoption for threads
])
def test_normalized_llr_matches_published_fastchess_runs(counts, elo0, elo1, alpha, beta, printed):
    """LLR lines of fastchess runs (its default, normalized model) published in Zeno's docs/testing.md."""
    llr = stats.sprt_llr(counts, elo0, elo1)
    assert text.llr_line(llr, stats.sprt_bounds(alpha, beta), elo0, elo1) == \
        f"LLR: {printed} [{elo0:.2f}, {elo1:.2f}]"


# ----------------------------------------------------------------------------- a second method


def _project(q, mean=None, t=None):
    """Move mass between the 0 and the 1 cell until the distribution meets the hypothesis: its mean
    is `mean`, or (mean - 1/2) / sd = t. Moving h changes the mean m and E[x^2] by h alike, so with
    c = E[x^2 - x] (unchanged) the target mean u solves (u - 1/2)^2 = t^2 (c + u - u^2):
    u = 1/2 + t sqrt((1/4 + c) / (1 + t^2))."""
    m = sum(w * x for w, x in zip(q, X))
    if t is not None:
        c = sum(w * (x * x - x) for w, x in zip(q, X))
        mean = 0.5 + t * math.sqrt((0.25 + c) / (1 + t * t))
    r = list(q)
    r[0] -= mean - m
    r[4] += mean - m
    return r if min(r) > 0 else None


def _brute_force_mle(probs, **hypothesis):
    """Pattern search over the distributions meeting the hypothesis: move a step of mass from one
    cell to another (then back onto the hypothesis), keep it when the likelihood grows, halve the
    step when no move helps. No Lagrange multiplier, no fixed point: only the definition."""
    starts = ([0.2] * 5, [0.05, 0.05, 0.1, 0.3, 0.5], [0.5, 0.3, 0.1, 0.05, 0.05],   # one of them fits
              [0.05, 0.05, 0.05, 0.05, 0.8], [0.8, 0.05, 0.05, 0.05, 0.05])
    q = next(r for r in (_project(start, **hypothesis) for start in starts) if r is not None)
    best = sum(p * math.log(w) for p, w in zip(probs, q))
    step = 0.1
    while step > 1e-13:
        improved = False
        for i in range(5):
            for j in range(5):
                if i == j or q[i] <= step:
                    continue
                r = list(q)
                r[i] -= step
                r[j] += step
                r = _project(r, **hypothesis)
                if r is not None and sum(p * math.log(w) for p, w in zip(probs, r)) > best:
                    q, best, improved = r, sum(p * math.log(w) for p, w in zip(probs, r)), True
        if not improved:
            step /= 2
    return q


def _brute_force_llr(counts, elo0, elo1, model):
    regularized = [c if c else 1e-3 for c in counts]
    total = sum(regularized)
    probs = [c / total for c in regularized]
    if model == "normalized":
        q0, q1 = (_brute_force_mle(probs, t=math.sqrt(2) * e / (800 / math.log(10))) for e in (elo0, elo1))
    else:
        q0, q1 = (_brute_force_mle(probs, mean=1 / (1 + 10 ** (-e / 400))) for e in (elo0, elo1))
    return total * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1))


# (counts, elo0, elo1, model, the LLR the brute-force search found, to 6 decimals)
WORKED_LLRS = [
    ([2, 5, 10, 6, 3], 0, 10, "normalized", 0.090412),
    ([2, 5, 10, 6, 3], 0, 10, "logistic", 0.109102),
    ([2, 5, 10, 6, 3], -20, 40, "normalized", 0.414205),
    ([2, 5, 10, 6, 3], -20, 40, "logistic", 0.432021),
    ([0, 3, 7, 9, 1], 0, 10, "normalized", 0.350488),     # a zero cell: regularized to 1e-3
    ([0, 3, 7, 9, 1], 0, 10, "logistic", 0.563680),
    ([0, 0, 7, 21, 22], 0, 10, "normalized", 1.601113),   # lopsided: the zero cells hold the test back
    ([0, 0, 7, 21, 22], 0, 10, "logistic", 1.418384),
    ([2, 5, 10, 6, 3], 0, 300, "normalized", -12.679741),      # wide bounds: t reached in steps
    ([2, 5, 10, 6, 3], -300, 0, "normalized", 18.323898),
    ([2, 5, 10, 6, 3], 0, 300, "logistic", -18.613236),
]


@pytest.mark.parametrize("counts, elo0, elo1, model, recorded", WORKED_LLRS)
def test_llr_equals_a_brute_force_maximum_likelihood_search(counts, elo0, elo1, model, recorded):
    assert _brute_force_llr(counts, elo0, elo1, model) == pytest.approx(recorded, abs=1e-6)
    assert stats.sprt_llr(counts, elo0, elo1, model) == pytest.approx(recorded, abs=1e-6)


# (counts, elo0, elo1, the LLR, its tolerance): wide normalized bounds where the fixed-point iteration
# (fastchess's, continued in steps of t) settles on a distribution that is not the most likely one.
# The LLRs come from a third method, run outside the suite (numpy): the profile likelihood over the
# mean m on a grid of 4001 means refined by golden section, each m's distribution (mean m, sd
# (m - 1/2) / t) from the convex dual of its two moment constraints; the pattern search above stops
# at the same local maximum as the iteration here (-27.265159 for the first).
GLOBAL_LLRS = [
    ([20, 0, 10, 10, 0], 0, 200, -26.821592, 1e-6),     # the iteration alone: -27.265159
    ([2, 20, 20, 50, 2], -300, 0, 84.915034, 1e-6),     # the iteration alone: 86.260983
    ([3, 10, 40, 12, 5], -1000, 1000, 16.2020, 1e-4),   # the iteration alone: 18.367670
]


@pytest.mark.parametrize("counts, elo0, elo1, recorded, tolerance", GLOBAL_LLRS)
def test_wide_normalized_bounds_take_the_most_likely_distribution(counts, elo0, elo1, recorded, tolerance):
    assert stats.sprt_llr(counts, elo0, elo1) == pytest.approx(recorded, abs=tolerance)
    regularized = [c if c else 1e-3 for c in counts]
    probs = [c / sum(regularized) for c in regularized]
    likelihood = lambda q: sum(p * math.log(w) for p, w in zip(probs, q))     # noqa: E731
    for elo in (elo0, elo1):
        t = math.sqrt(2) * elo / stats.NELO_SCALE
        q = stats.mle_with_t_profile(probs, X, t)
        mean = sum(w * x for w, x in zip(q, X))
        sd = math.sqrt(sum(w * (x - mean) ** 2 for w, x in zip(q, X)))
        assert sum(q) == pytest.approx(1, abs=1e-9) and (mean - 0.5) / sd == pytest.approx(t, abs=1e-7)
        assert likelihood(q) >= likelihood(stats.mle_with_t(probs, X, t)) - 1e-12


def test_the_closest_distributions_meet_their_hypotheses():
    probs = [2 / 26, 5 / 26, 10 / 26, 6 / 26, 3 / 26]
    q = stats.mle_with_mean(probs, X, 0.6)
    assert sum(q) == pytest.approx(1) and sum(w * x for w, x in zip(q, X)) == pytest.approx(0.6)
    q = stats.mle_with_t(probs, X, 0.3)
    mean = sum(w * x for w, x in zip(q, X))
    sd = math.sqrt(sum(w * (x - mean) ** 2 for w, x in zip(q, X)))
    assert sum(q) == pytest.approx(1) and (mean - 0.5) / sd == pytest.approx(0.3)


# ----------------------------------------------------------------------------- the test's frame


def test_bounds_decisions_and_bad_settings():
    low, high = stats.sprt_bounds(0.05, 0.05)
    assert (low, high) == (pytest.approx(math.log(0.05 / 0.95)), pytest.approx(math.log(19)))
    assert (round(low, 4), round(high, 4)) == (-2.9444, 2.9444)
    assert stats.sprt_result(2.95, (low, high)) == "H1" and stats.sprt_result(-2.95, (low, high)) == "H0"
    assert stats.sprt_result(2.94, (low, high)) is None
    assert stats.sprt_problem(0, 10, 0.05, 0.05) is None
    assert stats.sprt_problem(10, 10, 0.05, 0.05) == "elo0 (10) must be below elo1 (10)"
    assert stats.sprt_problem(0, 10, 0, 0.05) == "alpha (0) must be between 0 and 1"
    assert stats.sprt_problem(0, 10, 0.05, 1) == "beta (1) must be between 0 and 1"
    assert stats.sprt_problem(0, 10, 0.5, 0.5) == "alpha + beta (1) must be below 1"
    assert stats.sprt_problem(0, 10, 0.05, 0.05, "bayesian") == "unknown SPRT model 'bayesian' (known: normalized, logistic)"
    assert stats.sprt_problem(0, 1001, 0.05, 0.05) == "elo1 (1001) must be between -1000 and 1000"


def test_counts_from_pair_points_and_the_edges():
    assert stats.pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == [1, 1, 2, 1, 3]
    assert stats.sprt_llr([0, 0, 0, 0, 0], 0, 10) == 0.0
    assert stats.pentanomial_elo([0, 0, 0, 0, 0]) is None and stats.pentanomial_los([0] * 5) is None
    # every pair drawn: no spread, nElo 0 with the margin of 3 pairs; every pair won: infinite
    assert stats.pentanomial_nelo([0, 0, 3, 0, 0]) == (0.0, pytest.approx(stats.Z95 / math.sqrt(6) * stats.NELO_SCALE))
    assert stats.pentanomial_nelo([0, 0, 0, 0, 3])[0] == math.inf
    assert stats.pentanomial_elo([0, 0, 0, 0, 3]) == (math.inf, math.inf)
    assert text.pentanomial_lines([0, 0, 0, 0, 3], 6, 0, 0)[1] == "LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf"
