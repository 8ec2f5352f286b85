"""Ratings from all the games of a round robin at once: a Bradley-Terry (Elo) fit.

P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)), with a draw counted as half a win for each side,
fitted by maximum likelihood over all games by Newton's method on theta = R ln(10) / 400. With W_i
player i's score and N_ij the games between i and j: gradient g_i = W_i - sum_j N_ij p_ij, observed
information I_ii = sum_j N_ij p_ij p_ji and I_ij = -N_ij p_ij p_ji. The ratings are anchored at a
mean of 0; the covariance is the pseudo-inverse of I (for a connected game graph (I + J/n)^-1 - J/n,
J all ones), and the 95 % interval is R_i +/- 1.96 sd_i. The maximum does not exist when some group
of players never dropped half a point to the rest (for instance a player who won every game); then
one virtual draw is added between every pair that played (a prior, as BayesElo's).

Numbers only: `tournament` and the NTHU class ranking (harness.grading.nthu_class) print them.
"""
import math
from typing import Dict, List, Optional, Sequence, Tuple

from . import Z95

ELO_PER_THETA = 400 / math.log(10)


class FitError(ValueError):
    """The games do not rate the players (one line: why)."""


def _solve(matrix: List[List[float]], vector: List[float]) -> List[float]:
    """Gauss-Jordan elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise FitError("singular information matrix")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _inverse(matrix: List[List[float]]) -> List[List[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def _connected(n: int, score: List[List[float]], games: List[List[float]]) -> bool:
    """Can every player reach every other along 'scored something against' edges?"""
    for start in range(n):
        seen, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in range(n):
                if j not in seen and games[i][j] and score[i][j] > 0:
                    seen.add(j)
                    todo.append(j)
        if len(seen) < n:
            return False
    return True


def _probabilities(theta: List[float]) -> List[List[float]]:
    return [[1 / (1 + math.exp(tj - ti)) for tj in theta] for ti in theta]


def _log_likelihood(theta, score, games) -> float:
    total = 0.0
    for i in range(len(theta)):
        for j in range(len(theta)):
            if games[i][j]:
                total -= score[i][j] * math.log1p(math.exp(theta[j] - theta[i]))
    return total


def fit_ratings(names: Sequence[str], games_between: Dict[Tuple[str, str], Tuple[float, int]],
                prior_draws: Optional[float] = None) -> dict:
    """Maximum-likelihood Elo ratings (mean 0) with 95 % intervals.

    games_between[(a, b)] = (a's score against b, games played); each unordered pair once (or
    both orders, added up). prior_draws: virtual draws per pair that played (None: one, only
    when the plain maximum does not exist)."""
    n = len(names)
    if n < 2:
        raise FitError("ratings need at least two players")
    index = {name: i for i, name in enumerate(names)}
    score = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for (a, b), (points, count) in games_between.items():
        i, j = index[a], index[b]
        score[i][j] += points
        score[j][i] += count - points
        games[i][j] += count
        games[j][i] += count
    if not _connected(n, [[1.0 if games[i][j] else 0.0 for j in range(n)] for i in range(n)], games):
        raise FitError("some players are not linked by games to the others")
    prior = 0.0
    if prior_draws is not None:
        prior = prior_draws
    elif not _connected(n, score, games):
        prior = 1.0
    if prior:
        for i in range(n):
            for j in range(n):
                if games[i][j]:
                    score[i][j] += prior / 2
                    games[i][j] += prior
    total = [sum(row) for row in score]
    theta = [0.0] * n
    ones = 1.0 / n
    for _ in range(200):
        p = _probabilities(theta)
        gradient = [total[i] - sum(games[i][j] * p[i][j] for j in range(n)) for i in range(n)]
        info = [[(sum(games[i][k] * p[i][k] * p[k][i] for k in range(n)) if i == j
                  else -games[i][j] * p[i][j] * p[j][i]) + ones for j in range(n)] for i in range(n)]
        step = _solve(info, gradient)
        before = _log_likelihood(theta, score, games)
        scale = 1.0
        while True:
            trial = [t + scale * s for t, s in zip(theta, step)]
            if _log_likelihood(trial, score, games) >= before - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        mean = sum(trial) / n
        theta = [t - mean for t in trial]
        if max(abs(scale * s) for s in step) < 1e-12:
            break
    p = _probabilities(theta)
    info = [[(sum(games[i][k] * p[i][k] * p[k][i] for k in range(n)) if i == j
              else -games[i][j] * p[i][j] * p[j][i]) + ones for j in range(n)] for i in range(n)]
    inverse = _inverse(info)
    covariance = [[inverse[i][j] - ones for j in range(n)] for i in range(n)]
    ratings = []
    for i, name in enumerate(names):
        sd = math.sqrt(max(covariance[i][i], 0.0)) * ELO_PER_THETA
        elo = theta[i] * ELO_PER_THETA
        played = sum(games[i]) - prior * sum(1 for j in range(n) if games[i][j])
        points = total[i] - prior / 2 * sum(1 for j in range(n) if games[i][j])
        ratings.append({"player": name, "elo": round(elo, 1) + 0.0, "sd": round(sd, 1),
                        "low": round(elo - Z95 * sd, 1), "high": round(elo + Z95 * sd, 1),
                        "score": round(points, 1), "games": int(round(played))})
    ratings.sort(key=lambda r: -r["elo"])
    return {"ratings": ratings, "prior_draws": prior,
            "covariance": [[round(c * ELO_PER_THETA ** 2, 3) for c in row] for row in covariance]}
