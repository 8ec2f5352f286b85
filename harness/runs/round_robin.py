"""A round robin: every pair of players, both colours, as series plans; its crosstable; its ratings.

`tournament` and the NTHU class ranking (harness.grading.nthu_class) both play one: the pairings
become SeriesPlans (one series per pair, colours alternating game by game, so with openings both
games of a pair start from the same position) under OUT/pairs/; the games become a crosstable
(each player's score against each other, with the pentanomial count of its colour-reversed pairs);
the crosstable is rated all at once (`harness.stats.ratings`, Bradley-Terry).
"""
import os
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple

from .. import stats
from ..stats.ratings import fit_ratings
from .results import outcome, pair_points
from .series import SeriesPlan, directory_name

PAIRS = "pairs"


def plan_round_robin(players: Sequence[str], games: int, out: str, names: Optional[Dict[str, str]] = None,
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


def rate(players: Sequence[str], cross: Dict[str, Dict[str, dict]]) -> dict:
    """The ratings of a crosstable's players (`harness.stats.ratings.fit_ratings` of each pair's score
    and games); FitError (one line) when the games do not rate them."""
    between = {(a, b): (cross[a][b]["score"], cross[a][b]["games"])
               for a, b in combinations(players, 2) if cross[a].get(b, {}).get("games")}
    return fit_ratings(list(players), between)
