"""The statistics in words, as cutechess-cli and fastchess print them: the score and Elo lines of a
series (the series command, the course report's Elo column, the benches). The numbers are
harness.stats's; the compare command's own lines (pentanomial, SPRT) are in harness/compare/text.py."""
import math
from typing import Optional

from ..stats import elo, elo_margin, los, score


def format_elo(value: Optional[float]) -> str:
    if value is None:
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.1f}"


def score_line(white: str, black: str, wins: int, losses: int, draws: int) -> str:
    """cutechess's line, from the first side's view: `Score of A vs B: W - L - D  [0.625] 24`."""
    games = wins + losses + draws
    s = score(wins, draws, losses)
    return f"Score of {white} vs {black}: {wins} - {losses} - {draws}  [{s if s is None else f'{s:.3f}'}] {games}"


def elo_line(wins: int, losses: int, draws: int) -> str:
    """`Elo difference: 88.7 +/- 120.3, LOS: 91.2 %, DrawRatio: 12.5 %`."""
    games = wins + losses + draws
    margin = elo_margin(wins, draws, losses)
    margin_text = "-" if margin is None else ("inf" if math.isinf(margin) else f"{margin:.1f}")
    draw_ratio = 100 * draws / games if games else 0.0
    return (f"Elo difference: {format_elo(elo(wins, draws, losses))} +/- {margin_text}, "
            f"LOS: {100 * los(wins, losses):.1f} %, DrawRatio: {draw_ratio:.1f} %")
