"""The pairs of a comparison as their games end: NEW's pentanomial count, its wins/draws/losses,
the SPRT's log-likelihood ratio after every finished pair and its verdict; compare.json and the
fastchess lines from them. Game 2k and 2k+1 are a pair (NEW is White in the first, Black in the
second); a pair counts when both its games are done, in the order pairs finish."""
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .. import stats
from ..runs.results import POINTS, outcome
from ..runs.series import SeriesPlan
from .text import llr_line, pentanomial_lines, sprt_line

DASHES = "-" * 50
HISTORY_FIGURES = ("elo", "elo_margin", "nelo", "nelo_margin")


@dataclass(frozen=True)
class Sprt:
    """The test: H0 NEW is elo0 stronger, H1 elo1 stronger; error rates alpha (accepting H1 when H0
    holds) and beta (H0 when H1 holds); the model of Elo ('normalized' or 'logistic')."""
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self):
        problem = stats.sprt_problem(self.elo0, self.elo1, self.alpha, self.beta, self.model)
        if problem:
            raise ValueError(problem)

    @property
    def bounds(self) -> Tuple[float, float]:
        return stats.sprt_bounds(self.alpha, self.beta)


class PairTally:
    """NEW's results over the finished pairs of `plan` (NEW = plan.white), fed one game at a time
    (`add`, which says whether the test has decided). With `sprt` None: no test, figures only."""

    def __init__(self, plan: SeriesPlan, sprt: Optional[Sprt]):
        self.plan, self.sprt = plan, sprt
        self.waiting: Dict[int, str] = {}      # pair -> NEW's result in the pair's game seen first
        self.counts = [0, 0, 0, 0, 0]
        self.results = {"win": 0, "draw": 0, "loss": 0}
        self.llr = 0.0
        self.result: Optional[str] = None
        self.history: List[dict] = []          # after every finished pair, in the order they finished

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def add(self, plan: SeriesPlan, record: dict) -> bool:
        """One finished game (run_plans's on_game); True once the SPRT has decided."""
        index = record["game"]
        result = outcome(record, self.plan.first_colour(index))
        other = self.waiting.pop(index // 2, None)
        if other is None:
            self.waiting[index // 2] = result
            return self.result is not None
        self.counts[int(2 * (POINTS[result] + POINTS[other]))] += 1
        self.results[result] += 1
        self.results[other] += 1
        figures = stats.pentanomial_summary(self.counts)
        step = {"games": 2 * self.pairs, **{k: figures[k] for k in HISTORY_FIGURES}}
        if self.sprt is not None:
            self.llr = stats.sprt_llr(self.counts, self.sprt.elo0, self.sprt.elo1, self.sprt.model)
            self.result = stats.sprt_result(self.llr, self.sprt.bounds)
            step["llr"] = round(self.llr, 4)
        self.history.append(step)
        return self.result is not None

    def status(self) -> str:
        """The progress display's text: the LLR and its bounds (or the Elo without a test)."""
        if self.sprt is not None:
            low, high = self.sprt.bounds
            return f"LLR {self.llr:.2f} ({low:.2f}, {high:.2f})"
        elo, margin = stats.pentanomial_elo(self.counts) or (None, None)
        return "" if elo is None else f"Elo {elo:.1f} +/- {margin:.1f}"

    def summary(self) -> dict:
        """compare.json."""
        wins, draws, losses = (self.results[k] for k in ("win", "draw", "loss"))
        sprt = None
        if self.sprt is not None:
            sprt = {"elo0": self.sprt.elo0, "elo1": self.sprt.elo1, "alpha": self.sprt.alpha,
                    "beta": self.sprt.beta, "model": self.sprt.model, "llr": round(self.llr, 4),
                    "bounds": [round(b, 4) for b in self.sprt.bounds], "pentanomial": list(self.counts),
                    "result": self.result}
        return {"new": self.plan.white, "old": self.plan.black, "games": 2 * self.pairs,
                **stats.pentanomial_summary(self.counts),
                "wins": wins, "losses": losses, "draws": draws, "points": wins + draws / 2,
                "sprt": sprt, "history": self.history}


def text_lines(summary: dict) -> List[str]:
    """What compare prints: fastchess's block for NEW against OLD, and with a test its LLR line and
    verdict (`SPRT ([0.00, 10.00]) completed - H1 was accepted`)."""
    lines = [DASHES, f"Results of {summary['new']} vs {summary['old']}:",
             *pentanomial_lines(summary["pentanomial"], summary["wins"], summary["losses"], summary["draws"])]
    sprt = summary["sprt"]
    if sprt is not None:
        lines += [llr_line(sprt["llr"], sprt["bounds"], sprt["elo0"], sprt["elo1"]), DASHES,
                  sprt_line(sprt["elo0"], sprt["elo1"], sprt["result"], summary["games"])]
    else:
        lines.append(DASHES)
    return lines
