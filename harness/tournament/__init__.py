"""Round robin: every pair of agents, both colours, and ratings from all the games at once.

`python -m harness tournament A B C ... [--games N] [--openings N] [--out DIR]` plays, for every
pair, N games with each agent as White (the round robin's plans, crosstable and rating:
`harness.runs.round_robin`; the Bradley-Terry fit: `harness.stats.ratings`). report.json holds the
crosstable and the ratings; report.md, report.html (`page`) and the terminal show them. When the
plain maximum-likelihood rating does not exist (someone never dropped half a point), the fit adds
one virtual draw per pair and the report says so.
"""
import os
from typing import Dict, List, Optional, Sequence, Tuple

from ..grading.report import printed_text
from ..runs.results import group_settings, open_group, read_records, outcome, write_json
from ..runs.round_robin import crosstable, pair_figures, plan_round_robin, rate
from ..runs.series import RunOptions, run_plans
from .page import write_tournament_html

REPORT_JSON, REPORT_MD = "report.json", "report.md"
PROGRESS_LABEL = "games (W/D/L: each pair's first-named agent)"


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


def build_tournament_report(players: Sequence[str], settings: dict, cross: Dict[str, Dict[str, dict]]) -> dict:
    fit = rate(players, cross)
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
    laid_out = plan_round_robin(players, games, out, names, **series)
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
    laid_out = plan_round_robin([files.get(p, p) for p in report["players"]], report["settings"]["games"], out,
                               {files.get(p, p): p for p in report["players"]})
    all_records = []
    for _, _, plan in laid_out:
        records, _ = read_records(plan.results_path)
        all_records.append([records[k] for k in sorted(records)])
    return write_tournament_html(out, report, tournament_games(laid_out, all_records))
