"""Round robin: every pair of agents, both colours, and ratings from all the games at once.

`python -m harness tournament A B C ... [--games N] [--openings N] [--out DIR]` plays, for every
pair, N games with each agent as White (one series per pair, colours alternating game by game,
so with --openings both games of a pair start from the same position). report.json holds the
crosstable and the ratings; report.md shows them.

Ratings: a Bradley-Terry (Elo) model, P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)), with a
draw counted as half a win for each side, fitted by maximum likelihood over all games by Newton's
method on theta = R ln(10) / 400. With W_i player i's score and N_ij the games between i and j:
gradient g_i = W_i - sum_j N_ij p_ij, observed information I_ii = sum_j N_ij p_ij p_ji and
I_ij = -N_ij p_ij p_ji. The ratings are anchored at a mean of 0; the covariance is the
pseudo-inverse of I (for a connected game graph (I + J/n)^-1 - J/n, J all ones), and the 95 %
interval is R_i +/- 1.96 sd_i. The maximum does not exist when some group of players never
dropped half a point to the rest (for instance a player who won every game); then one virtual
draw is added between every pair that played (a prior, as BayesElo's) and the report says so.
"""
import math
import os
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple

from .. import stats
from ..grading.report import directory_name, printed_text
from ..runs.results import group_settings, open_group, read_records, outcome, pair_points, write_json
from ..view.html import write_tournament_html
from ..runs.series import RunOptions, SeriesPlan, run_plans

ELO_PER_THETA = 400 / math.log(10)
REPORT_JSON, REPORT_MD = "report.json", "report.md"
PAIRS = "pairs"
PROGRESS_LABEL = "games (W/D/L: each pair's first-named agent)"


class FitError(ValueError):
    pass


# ----------------------------------------------------------------------------- the fit


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
                        "low": round(elo - stats.Z95 * sd, 1), "high": round(elo + stats.Z95 * sd, 1),
                        "score": round(points, 1), "games": int(round(played))})
    ratings.sort(key=lambda r: -r["elo"])
    return {"ratings": ratings, "prior_draws": prior,
            "covariance": [[round(c * ELO_PER_THETA ** 2, 3) for c in row] for row in covariance]}


# ----------------------------------------------------------------------------- the round robin


def plan_tournament(players: Sequence[str], games: int, out: str, names: Optional[Dict[str, str]] = None,
                    **series) -> List[Tuple[str, str, SeriesPlan]]:
    """(a, b, plan) for every pair: 2 * games games, colours alternating (a is White in even games).
    `names`: each player's name (a student's, for a class folder's files) for the report, the
    labels and the pair folders (default the spec itself); a and b are names."""
    names = names or {}
    plans = []
    for a, b in combinations(players, 2):
        na, nb = names.get(a, a), names.get(b, b)
        plan = SeriesPlan(out=os.path.join(out, PAIRS, directory_name(f"{na}-vs-{nb}")), white=a, black=b,
                          games=2 * games, swap=True, label=f"{na} vs {nb}", **series)
        plans.append((na, nb, plan))
    return plans


def player_faults(laid_out, all_records) -> Dict[str, Dict[str, int]]:
    """Per player (name), the games it printed in and the games it lost by an illegal move
    (only the players that did)."""
    faults: Dict[str, Dict[str, int]] = {}
    for (a, b, plan), records in zip(laid_out, all_records):
        for r in records:
            first = plan.first_colour(r["game"])
            for name, colour in ((a, first), (b, "black" if first == "white" else "white")):
                counts = faults.setdefault(name, {"printed": 0, "illegal_move": 0})
                counts["printed"] += bool((r.get("printed") or {}).get(colour))
                counts["illegal_move"] += outcome(r, colour) == "loss" and r.get("reason") == "illegal_move"
    return {name: counts for name, counts in faults.items() if any(counts.values())}


def fault_text(counts: Dict[str, int]) -> str:
    parts = [printed_text(counts["printed"])] if counts.get("printed") else []
    if counts.get("illegal_move"):
        parts.append(f"lost {counts['illegal_move']} by illegal_move")
    return "; ".join(parts)


def crosstable(players: Sequence[str], laid_out, all_records) -> Dict[str, Dict[str, dict]]:
    """cross[a][b]: a's wins, draws, losses and score against b, and the pentanomial count of its
    colour-reversed pairs (pairs in which a scored 0, 1/2, 1, 3/2, 2)."""
    cross: Dict[str, Dict[str, dict]] = {p: {} for p in players}
    for (a, b, plan), records in zip(laid_out, all_records):
        results = [outcome(r, plan.first_colour(r["game"])) for r in records]
        w, d, lo = results.count("win"), results.count("draw"), results.count("loss")
        counts = stats.pentanomial(pair_points(records, plan.first_colour))
        cross[a][b] = {"wins": w, "draws": d, "losses": lo, "score": w + d / 2, "games": len(records),
                       "pentanomial": counts}
        cross[b][a] = {"wins": lo, "draws": d, "losses": w, "score": lo + d / 2, "games": len(records),
                       "pentanomial": counts[::-1]}
    return cross


def pair_figures(players: Sequence[str], cross: Dict[str, Dict[str, dict]]) -> List[dict]:
    """Per pairing (in the order played), the first player's figures from its colour-reversed game
    pairs: the pentanomial count, Elo and normalized Elo with 95 % margins, LOS (harness.stats)."""
    figures = []
    for a, b in combinations(players, 2):
        counts = cross[a].get(b, {}).get("pentanomial")
        if not counts or not sum(counts):
            continue
        figures.append({"players": [a, b], **stats.pentanomial_summary(counts)})
    return figures


def build_tournament_report(players: Sequence[str], settings: dict, cross: Dict[str, Dict[str, dict]]) -> dict:
    between = {(a, b): (cross[a][b]["score"], cross[a][b]["games"])
               for a, b in combinations(players, 2) if cross[a].get(b, {}).get("games")}
    fit = fit_ratings(list(players), between)
    notes = []
    if fit["prior_draws"]:
        notes.append("some players never dropped half a point to the others, where a plain maximum-"
                     "likelihood rating is infinite: one virtual draw per pair is added (a prior)")
    return {"players": list(players), "settings": settings, "crosstable": cross,
            "ratings": fit["ratings"], "prior_draws": fit["prior_draws"], "pairs": pair_figures(players, cross),
            "notes": notes}


def render_markdown(report: dict) -> str:
    order = [r["player"] for r in report["ratings"]]
    number = {name: str(i + 1) for i, name in enumerate(order)}
    s = report["settings"]
    lines = ["# Tournament", "",
             f"Round robin of {len(order)} agents: {s['games']} games per pair and colour"
             + (f", openings of {s['openings']} random plies" if s.get("openings") else "")
             + f", seeds from {s['seed']}.", "",
             "## Ratings", "",
             "| # | player | Elo | 95 % interval | score | games |", "|---:|---|---:|---|---:|---:|"]
    for r in report["ratings"]:
        lines.append(f"| {number[r['player']]} | {r['player']} | {r['elo']:+.1f} | {r['low']:+.1f} .. "
                     f"{r['high']:+.1f} | {r['score']:g} | {r['games']} |")
    lines += ["", "Elo: maximum-likelihood Bradley-Terry fit of all games at once (draws half a point), "
                  "mean 0; intervals from the observed information.", "",
              "## Crosstable", "",
              "Each cell: the row player's score against the column player (wins + draws/2) / games.", "",
              "| # | player | " + " | ".join(number[p] for p in order) + " | total | faults |",
              "|---:|---|" + "---:|" * (len(order) + 1) + "---|"]
    for a in order:
        cells = []
        for b in order:
            c = report["crosstable"][a].get(b)
            cells.append("-" if a == b or c is None else f"{c['score']:g}/{c['games']}")
        total = sum(c["score"] for c in report["crosstable"][a].values())
        games = sum(c["games"] for c in report["crosstable"][a].values())
        faults = fault_text((report.get("faults") or {}).get(a, {})) or "-"
        lines.append(f"| {number[a]} | {a} | " + " | ".join(cells) + f" | {total:g}/{games} | {faults} |")
    if report.get("pairs"):
        lines += ["", "## Game pairs", "",
                  "Each pairing's games in colour-reversed pairs (both from one start, the random opening with "
                  "--openings; each side White once), from the first player's side: Ptnml(0-2) counts the pairs "
                  "in which it scored 0, 1/2, 1, 3/2 and 2 points; Elo and normalized Elo (nElo) with 95 % "
                  "margins from the pairs' spread (as fastchess).",
                  "", "| pairing | Ptnml(0-2) | Elo | nElo | LOS |", "|---|---|---:|---:|---:|"]
        lines += [f"| {p['players'][0]} vs {p['players'][1]} | {ptnml(p)} | {p['elo']:.2f} +/- {p['elo_margin']:.2f} | "
                  f"{p['nelo']:.2f} +/- {p['nelo_margin']:.2f} | {100 * p['los']:.2f} % |" for p in report["pairs"]]
    if report["notes"]:
        lines += ["", "## Notes", ""] + [f"- {note}" for note in report["notes"]]
    return "\n".join(lines) + "\n"


def ptnml(figures: dict) -> str:
    return f"[{', '.join(str(c) for c in figures['pentanomial'])}]"


def pair_line(figures: dict) -> str:
    """`A vs B: Ptnml(0-2): [0, 1, 3, 1, 0], Elo: 0.00 +/- 95.67, nElo: 0.00 +/- 113.14` (A's side)."""
    a, b = figures["players"]
    return (f"{a} vs {b}: Ptnml(0-2): {ptnml(figures)}, "
            f"Elo: {figures['elo']:.2f} +/- {figures['elo_margin']:.2f}, "
            f"nElo: {figures['nelo']:.2f} +/- {figures['nelo_margin']:.2f}")


def render_text(report: dict) -> str:
    width = max(len(r["player"]) for r in report["ratings"])
    lines = [f"{'player'.ljust(width)}  {'Elo':>7}  95 % interval     score  games"]
    for r in report["ratings"]:
        lines.append(f"{r['player'].ljust(width)}  {r['elo']:+7.1f}  {r['low']:+7.1f} .. {r['high']:+7.1f}"
                     f"  {r['score']:>5g}  {r['games']:>5}")
    if report.get("pairs"):
        lines += ["game pairs (colours reversed), the first player's side:"] + [pair_line(p) for p in report["pairs"]]
    return "\n".join(lines + [f"note: {n}" for n in report["notes"]]) + "\n"


def run_tournament(players: Sequence[str], games: int, out: str, jobs=None, executor=None, resume=False,
                   force=False, progress="auto", names: Optional[Dict[str, str]] = None, **series) -> dict:
    laid_out = plan_tournament(players, games, out, names, **series)
    open_group(out, group_settings(series, games=games, players=list(players)), resume, force, "tournament")
    all_records = run_plans([plan for *_, plan in laid_out], RunOptions(
        jobs=jobs, resume=resume, fresh=force, progress=progress, executor=executor, label=PROGRESS_LABEL)).records
    settings = {"games": games, **{k: v for k, v in series.items()}}
    shown = [(names or {}).get(p, p) for p in players]
    report = build_tournament_report(shown, settings, crosstable(shown, laid_out, all_records))
    report["files"] = dict(zip(shown, players))
    report["faults"] = player_faults(laid_out, all_records)
    report["notes"] += [f"{name} {fault_text(counts)}" + (" (the course's autograder rejects files that print)"
                                                          if counts["printed"] else "")
                        for name, counts in report["faults"].items()]
    os.makedirs(out, exist_ok=True)
    write_json(os.path.join(out, REPORT_JSON), report)
    with open(os.path.join(out, REPORT_MD), "w", encoding="utf-8") as handle:
        handle.write(render_markdown(report))
    write_tournament_html(out, report, tournament_games(laid_out, all_records))
    return report


def tournament_games(laid_out, all_records) -> List[Tuple[str, str, dict]]:
    """(pair label, results file, record) for every game, pair by pair, for the page."""
    return [(plan.label, plan.results_path, record)
            for (_, _, plan), records in zip(laid_out, all_records) for record in records]


def redraw_tournament_html(out: str, report: dict) -> str:
    """Write OUT/report.html again from the games recorded under OUT (e.g. once they have been
    reviewed by `analyse`); return its path."""
    files = report.get("files") or {}
    laid_out = plan_tournament([files.get(p, p) for p in report["players"]], report["settings"]["games"], out,
                               {files.get(p, p): p for p in report["players"]})
    all_records = []
    for _, _, plan in laid_out:
        records, _ = read_records(plan.results_path)
        all_records.append([records[k] for k in sorted(records)])
    return write_tournament_html(out, report, tournament_games(laid_out, all_records))
