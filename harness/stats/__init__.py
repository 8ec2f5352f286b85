"""One place for the statistics every report and bench prints (model: cutechess-cli, fastchess):
numbers only; their lines of text are in harness/view/text.py (score, Elo) and
harness/compare/text.py (the pentanomial report and the SPRT).

From a win/draw/loss count of one side: its score, the Elo difference that score implies, the
95 % margin of that difference from the trinomial (win/draw/loss) variance, the likelihood of
superiority (LOS), and Wilson 95 % intervals for a rate (e.g. games won, games not lost).

Formulas, for W wins, D draws and L losses in N games:
- score s = (W + D/2) / N; Elo = -400 log10(1/s - 1) (+inf at s = 1, -inf at s = 0);
- sigma = sqrt((W/N)(1-s)^2 + (D/N)(1/2-s)^2 + (L/N)s^2) / sqrt(N); the margin is half the
  Elo width of s +/- 1.96 sigma (inf when that interval reaches 0 or 1);
- LOS = 1/2 + 1/2 erf((W - L) / sqrt(2 (W + L))) (1/2 when W + L = 0);
- a mean of n paired differences with margin z sqrt(sample variance / n);
- Wilson interval for k of n: centre (p + z^2/2n) / (1 + z^2/n), half-width
  z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n), with p = k/n and z = 1.96.
"""
import math
from typing import Dict, List, Optional, Sequence, Tuple

Z95 = 1.959963984540054


def score(wins: int, draws: int, losses: int) -> Optional[float]:
    games = wins + draws + losses
    return (wins + draws / 2) / games if games else None


def elo_from_score(s: float) -> float:
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400 * math.log10(1 / s - 1) + 0.0     # + 0.0: an even score is 0.0, not -0.0


def elo(wins: int, draws: int, losses: int) -> Optional[float]:
    s = score(wins, draws, losses)
    return None if s is None else elo_from_score(s)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Optional[Tuple[float, float]]:
    """(low, high): the Elo of score -/+ z standard errors (an end past 0 or 1 is -inf / +inf)."""
    games = wins + draws + losses
    if not games:
        return None
    s = score(wins, draws, losses)
    variance = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / games
    sigma = math.sqrt(variance / games)
    return elo_from_score(s - z * sigma), elo_from_score(s + z * sigma)


def elo_margin(wins: int, draws: int, losses: int, z: float = Z95) -> Optional[float]:
    """Half the Elo width of score +/- z standard errors; inf when that reaches 0 or 1."""
    interval = elo_interval(wins, draws, losses, z)
    if interval is None:
        return None
    low, high = interval
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the chance the side is the stronger, from wins and losses."""
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2 * (wins + losses)))


def wilson(successes: int, trials: int, z: float = Z95) -> Optional[List[float]]:
    """[low, high] Wilson interval of a rate; None with no trials."""
    if not trials:
        return None
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return [max(0.0, centre - half), min(1.0, centre + half)]


def mean_with_margin(values: Sequence[float], z: float = Z95) -> Optional[Tuple[float, float]]:
    """(mean, margin) of paired differences: the margin is z standard errors of the mean, from
    the sample variance (n - 1); None for fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(variance / n)


def _rounded(value: Optional[float], digits: int) -> Optional[float]:
    """Finite values rounded (-0.0 written 0.0); inf kept (JSON writes it as Infinity, which json reads back)."""
    if value is None or math.isinf(value):
        return value
    return round(value, digits) + 0.0


def summary(wins: int, draws: int, losses: int) -> Dict[str, object]:
    """The statistics report.json gives for one side: score, elo, elo_margin, los and the
    Wilson intervals of the win rate and of the not-lost rate."""
    games = wins + draws + losses
    interval = lambda k: None if not games else [round(x, 4) for x in wilson(k, games)]  # noqa: E731
    return {
        "score": _rounded(score(wins, draws, losses), 4),
        "elo": _rounded(elo(wins, draws, losses), 1),
        "elo_margin": _rounded(elo_margin(wins, draws, losses), 1),
        "los": round(los(wins, losses), 4),
        "win_wilson95": interval(wins),
        "not_lost_wilson95": interval(wins + draws),
    }


# ----------------------------------------------------------------------------- game pairs and the SPRT
#
# Game pairs (one opening, colours reversed; fastchess, Fishtest, OpenBench): a pair scores 0, 1/2, 1,
# 3/2 or 2 points for the first side, and the pentanomial counts [a, b, c, d, e] are the pairs that
# scored each. A pair's score per game x is 0, 1/4, 1/2, 3/4 or 1; with N pairs and p_k = count_k / N:
# - score s = sum p_k x_k, variance of one pair's score v = sum p_k (x_k - s)^2;
# - Elo = -400 log10(1/s - 1); its 95 % margin is half the Elo width of s +/- z sqrt(v / N);
# - normalized Elo nElo = (s - 1/2) / sqrt(2 v) * 800 / ln 10 (sqrt(2 v): a pair's spread per game),
#   margin z / sqrt(2 N) * 800 / ln 10 (nElo is linear in s);
# - LOS = 1/2 + 1/2 erf((s - 1/2) / sqrt(2 v / N)).
# The GSPRT (generalized sequential probability ratio test) compares H0: the first side is elo0
# stronger with H1: elo1 stronger. LLR = N sum p_k ln(P1_k / P0_k), where P_h is the distribution
# closest to the observed one (maximum likelihood) among those where the hypothesis holds:
# - logistic model: mean score 1 / (1 + 10^(-elo / 400));
# - normalized model (the default): (mu - 1/2) / sigma = t with t = sqrt(2) elo / (800 / ln 10).
# Zero counts become 1e-3 before the LLR, as fastchess does. It stops at LLR >= ln((1 - beta) / alpha)
# (H1) or LLR <= ln(beta / (1 - alpha)) (H0). Sources: M. Van den Bergh, "Comments on Normalized
# Elo" (proposition 1.1 and section 4.1); fastchess's elo_pentanomial and sprt; see docs/compare.md.

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
NELO_SCALE = 800 / math.log(10)
SPRT_MODELS = ("normalized", "logistic")
REGULARIZED_ZERO = 1e-3
T_STEP = 0.1           # mle_with_t's step in t (nElo 24.6 of a pair): one step for everyday bounds
ELO_LIMIT = 1000       # |elo0|, |elo1| the test takes (logistic 1000: a score of 0.997)
PROFILE_POINTS = 100   # means tried by mle_with_t_profile before its golden-section search


def pentanomial(pair_points: Sequence[float]) -> List[int]:
    """[a, b, c, d, e]: how many pairs scored 0, 1/2, 1, 3/2 and 2 points (of 2) for the first side."""
    counts = [0] * 5
    for points in pair_points:
        counts[int(round(2 * points))] += 1
    return counts


def pair_score_and_variance(counts: Sequence[int]) -> Optional[Tuple[float, float]]:
    """(s, v): the mean score per game and the variance of one pair's score; None with no pairs."""
    pairs = sum(counts)
    if not pairs:
        return None
    s = sum(c * x for c, x in zip(counts, PAIR_SCORES)) / pairs
    return s, sum(c * (x - s) ** 2 for c, x in zip(counts, PAIR_SCORES)) / pairs


def pentanomial_elo(counts: Sequence[int], z: float = Z95) -> Optional[Tuple[float, float]]:
    """(Elo, 95 % margin) from pair counts; the margin is inf when s +/- z sd reaches 0 or 1."""
    moments = pair_score_and_variance(counts)
    if moments is None:
        return None
    s, v = moments
    half = z * math.sqrt(v / sum(counts))
    low, high = elo_from_score(s - half), elo_from_score(s + half)
    margin = math.inf if math.isinf(low) or math.isinf(high) else (high - low) / 2
    return elo_from_score(s), margin


def pentanomial_nelo(counts: Sequence[int], z: float = Z95) -> Optional[Tuple[float, float]]:
    """(normalized Elo, 95 % margin) from pair counts. With no spread at all (every pair scored the
    same) nElo is 0 at an even score and +-inf otherwise."""
    moments = pair_score_and_variance(counts)
    if moments is None:
        return None
    s, v = moments
    margin = z / math.sqrt(2 * sum(counts)) * NELO_SCALE
    if v == 0:
        return (0.0 if s == 0.5 else math.copysign(math.inf, s - 0.5)), margin
    return (s - 0.5) / math.sqrt(2 * v) * NELO_SCALE + 0.0, margin


def pentanomial_los(counts: Sequence[int]) -> Optional[float]:
    """Likelihood of superiority from pair counts (the normal approximation of the pair scores)."""
    moments = pair_score_and_variance(counts)
    if moments is None:
        return None
    s, v = moments
    if v == 0:
        return 0.5 if s == 0.5 else float(s > 0.5)
    return 0.5 + 0.5 * math.erf((s - 0.5) / math.sqrt(2 * v / sum(counts)))


def pentanomial_summary(counts: Sequence[int]) -> Dict[str, object]:
    """What reports give for game pairs: pairs, pentanomial, elo, elo_margin, nelo, nelo_margin
    (2 decimals; inf kept) and los (4 decimals); None for the figures of no pairs."""
    elo, margin = pentanomial_elo(counts) or (None, None)
    nelo, nelo_margin = pentanomial_nelo(counts) or (None, None)
    los = pentanomial_los(counts)
    return {"pairs": sum(counts), "pentanomial": list(counts), "elo": _rounded(elo, 2),
            "elo_margin": _rounded(margin, 2), "nelo": _rounded(nelo, 2), "nelo_margin": _rounded(nelo_margin, 2),
            "los": None if los is None else round(los, 4)}


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    """Wald's bounds (lower, upper) of the LLR: ln(beta / (1 - alpha)), ln((1 - beta) / alpha)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_problem(elo0: float, elo1: float, alpha: float, beta: float, model: str = "normalized") -> Optional[str]:
    """Why these SPRT settings cannot be used (one line), or None when they can."""
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if not -ELO_LIMIT <= value <= ELO_LIMIT:
            return f"{name} ({value:g}) must be between {-ELO_LIMIT} and {ELO_LIMIT}"
    if not elo0 < elo1:
        return f"elo0 ({elo0:g}) must be below elo1 ({elo1:g})"
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 1:
            return f"{name} ({value:g}) must be between 0 and 1"
    if alpha + beta >= 1:
        return f"alpha + beta ({alpha + beta:g}) must be below 1"
    if model not in SPRT_MODELS:
        return f"unknown SPRT model '{model}' (known: {', '.join(SPRT_MODELS)})"
    return None


def sprt_result(llr: float, bounds: Tuple[float, float]) -> Optional[str]:
    """'H1' at or past the upper bound, 'H0' at or past the lower one, else None (go on)."""
    if llr >= bounds[1]:
        return "H1"
    if llr <= bounds[0]:
        return "H0"
    return None


def _closest(probs: Sequence[float], phi: Sequence[float]) -> List[float]:
    """The distribution q_k = p_k / (1 + theta phi_k) with sum p_k phi_k / (1 + theta phi_k) = 0:
    the one closest to `probs` (maximum likelihood) among those with sum q_k phi_k = 0. That sum
    falls from +inf to -inf as theta crosses (-1 / max phi, -1 / min phi): Newton's method kept
    inside the bracket, halving it when a step would leave it."""
    low, high = -1 / max(phi), -1 / min(phi)
    theta = 0.0 if low < 0 < high else (low + high) / 2
    for _ in range(200):
        terms = [f / (1 + theta * f) for f in phi]
        value = sum(p * t for p, t in zip(probs, terms))
        if value > 0:
            low = theta
        else:
            high = theta
        step = value / sum(p * t * t for p, t in zip(probs, terms))
        new = theta + step if low < theta + step < high else (low + high) / 2
        if new == theta or abs(new - theta) <= 1e-15 * max(1.0, abs(theta)):
            break
        theta = new
    return [p / (1 + theta * f) for p, f in zip(probs, phi)]


def mle_with_mean(probs: Sequence[float], scores: Sequence[float], mean: float) -> List[float]:
    """The maximum-likelihood distribution over `scores` whose mean is `mean` (Van den Bergh,
    proposition 1.1): q_k = p_k / (1 + theta (x_k - mean))."""
    return _closest(probs, [x - mean for x in scores])


def mle_with_t(probs: Sequence[float], scores: Sequence[float], t: float, reference: float = 0.5,
               tolerance: float = 1e-12) -> List[float]:
    """The maximum-likelihood distribution over `scores` with (mean - reference) / sd = t (Van den
    Bergh, section 4.1): from the uniform distribution, repeat q_k = p_k / (1 + theta phi_k) with
    phi_k = x_k - reference - t sd (1 + ((x_k - mean) / sd)^2) / 2 (mean and sd of the previous q)
    until it settles. A large |t| is reached in steps of at most T_STEP, each starting from the
    last one's answer (from the uniform distribution phi would have one sign: no theta)."""
    q = [1 / len(scores)] * len(scores)
    steps = max(1, math.ceil(abs(t) / T_STEP))
    for step in range(1, steps + 1):
        target = t * step / steps
        for _ in range(1000):
            mean = sum(w * x for w, x in zip(q, scores))
            sd = math.sqrt(sum(w * (x - mean) ** 2 for w, x in zip(q, scores)))
            phi = [x - reference - target * sd * (1 + ((x - mean) / sd) ** 2) / 2 for x in scores]
            new = _closest(probs, phi)
            change = max(abs(a - b) for a, b in zip(new, q))
            q = new
            if change < tolerance:
                break
    return q


def _mle_with_moments(probs: Sequence[float], scores: Sequence[float], mean: float,
                      second: float) -> Optional[Tuple[float, List[float]]]:
    """(sum p_k ln q_k, q): the maximum-likelihood distribution over `scores` (ascending) with mean
    `mean` and mean square `second`, or None when no distribution with every q_k > 0 has them. Two
    linear constraints make it a convex problem: q_k = p_k / (1 + a g1_k + b g2_k) with
    g1 = x - mean, g2 = x^2 - second and (a, b) the maximum of sum p_k ln(1 + a g1_k + b g2_k)
    (damped Newton's method from (0, 0) on its negative)."""
    pairs = list(zip(scores, scores[1:]))
    low = next((u * u + (u + v) * (mean - u) for u, v in pairs if u <= mean <= v), None)
    high = scores[0] ** 2 + (scores[0] + scores[-1]) * (mean - scores[0])
    if low is None or not low < second < high:
        return None
    g = [(x - mean, x * x - second) for x in scores]

    def objective(a: float, b: float) -> Optional[float]:
        d = [1 + a * g1 + b * g2 for g1, g2 in g]
        return None if min(d) <= 0 else -sum(p * math.log(v) for p, v in zip(probs, d))

    a = b = value = 0.0
    for _ in range(200):
        d = [1 + a * g1 + b * g2 for g1, g2 in g]
        w = [p / v for p, v in zip(probs, d)]
        grad_a, grad_b = -sum(wi * g1 for wi, (g1, _) in zip(w, g)), -sum(wi * g2 for wi, (_, g2) in zip(w, g))
        w2 = [wi / v for wi, v in zip(w, d)]
        haa = sum(wi * g1 * g1 for wi, (g1, _) in zip(w2, g))
        hab = sum(wi * g1 * g2 for wi, (g1, g2) in zip(w2, g))
        hbb = sum(wi * g2 * g2 for wi, (_, g2) in zip(w2, g))
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        step_a, step_b = -(hbb * grad_a - hab * grad_b) / det, -(haa * grad_b - hab * grad_a) / det
        slope, size = grad_a * step_a + grad_b * step_b, 1.0
        while size > 1e-12:
            new = objective(a + size * step_a, b + size * step_b)
            if new is not None and new <= value + 1e-4 * size * slope:
                break
            size /= 2
        else:
            break
        a, b, value = a + size * step_a, b + size * step_b, new
        if abs(size * step_a) + abs(size * step_b) < 1e-14:
            break
    q = [p / (1 + a * g1 + b * g2) for p, (g1, g2) in zip(probs, g)]
    return sum(p * math.log(w) for p, w in zip(probs, q)), q


def mle_with_t_profile(probs: Sequence[float], scores: Sequence[float], t: float, reference: float = 0.5,
                       points: int = PROFILE_POINTS) -> Optional[List[float]]:
    """The maximum-likelihood distribution with (mean - reference) / sd = t, found globally: for a
    mean m the hypothesis fixes sd = (m - reference) / t, which leaves a convex problem
    (`_mle_with_moments`); the best of `points` means between the reference and the end of the
    scores is refined by golden-section search (t = 0: the mean is the reference, `mle_with_mean`).
    None when no mean on the grid is feasible."""
    if t == 0:
        return mle_with_mean(probs, scores, reference)
    end = scores[-1] if t > 0 else scores[0]

    def at(m: float):
        return _mle_with_moments(probs, scores, m, m * m + ((m - reference) / t) ** 2)

    grid = [reference + (end - reference) * (i + 0.5) / points for i in range(points)]
    found = [(r[0], i) for i, r in enumerate(at(m) for m in grid) if r is not None]
    if not found:
        return None
    _, best = max(found)
    half = abs(end - reference) / points
    lo, hi = grid[best] - half, grid[best] + half
    score = lambda m: (at(m) or (-math.inf,))[0]        # noqa: E731
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if score(c) >= score(d):
            hi = d
        else:
            lo = c
    candidates = [r for r in (at((lo + hi) / 2), at(grid[best])) if r is not None]
    return max(candidates, key=lambda r: r[0])[1]


def _meets_t(q: Sequence[float], scores: Sequence[float], t: float, reference: float = 0.5) -> bool:
    """Is q a distribution (to 1e-9) with (mean - reference) / sd = t (to 1e-7)?"""
    if min(q) <= 0 or abs(sum(q) - 1) > 1e-9:
        return False
    mean = sum(w * x for w, x in zip(q, scores))
    sd = math.sqrt(sum(w * (x - mean) ** 2 for w, x in zip(q, scores)))
    return sd > 0 and abs((mean - reference) / sd - t) < 1e-7


def _normalized_mle(probs: Sequence[float], t: float) -> List[float]:
    """H's closest distribution in the normalized model: fastchess's iteration (`mle_with_t`); past
    one step of t (|t| > T_STEP, bounds wider than about 25 normalized Elo), where that iteration
    can settle on a distribution that is not the most likely one, also the global search
    (`mle_with_t_profile`), and the more likely of the two."""
    q = mle_with_t(probs, PAIR_SCORES, t)
    if abs(t) <= T_STEP:
        return q
    other = mle_with_t_profile(probs, PAIR_SCORES, t)
    if other is None or not _meets_t(other, PAIR_SCORES, t):
        return q
    likelihood = lambda r: sum(p * math.log(w) for p, w in zip(probs, r))    # noqa: E731
    return other if likelihood(other) > likelihood(q) else q


def sprt_llr(counts: Sequence[int], elo0: float, elo1: float, model: str = "normalized") -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) from pentanomial counts."""
    if not sum(counts):
        return 0.0
    regularized = [c if c else REGULARIZED_ZERO for c in counts]
    total = sum(regularized)
    probs = [c / total for c in regularized]
    if model == "normalized":
        q0, q1 = (_normalized_mle(probs, math.sqrt(2) * elo / NELO_SCALE) for elo in (elo0, elo1))
    elif model == "logistic":
        q0 = mle_with_mean(probs, PAIR_SCORES, 1 / (1 + 10 ** (-elo0 / 400)))
        q1 = mle_with_mean(probs, PAIR_SCORES, 1 / (1 + 10 ** (-elo1 / 400)))
    else:
        raise ValueError(f"unknown SPRT model '{model}'")
    return total * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1))
