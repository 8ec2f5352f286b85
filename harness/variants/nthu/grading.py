"""The course's grading for NTHU MiniChess (docs/nthu.md, "Grading"): against each baseline, one
game as White and one as Black; a baseline is passed with 2 wins, or 1 win and 1 draw; baselines
in order 1 to 4; all 8 games won earns the bonus.

With more games per colour (`report --games N`), game i as White and game i as Black form pair i
(they share an opening with `--openings`); the course's rule is applied to every pair, and a
baseline is passed when every pair passes. The bonus asks for every game won.
"""
from typing import Dict, List, Sequence

BASELINES = ("baseline1", "baseline2", "baseline3", "baseline4")


def agent_result(record: dict, colour: str) -> str:
    """'win', 'draw' or 'loss' for the agent that played `colour` in `record`."""
    if record["result"] == "draw":
        return "draw"
    return "win" if record["result"] == colour else "loss"


def pair_passes(results: Sequence[str]) -> bool:
    """The course's rule for one game with each colour: 2 wins, or 1 win and 1 draw."""
    return results.count("win") == 2 or sorted(results) == ["draw", "win"]


def course_grading(games: Dict[str, Dict[str, List[dict]]]) -> dict:
    """games: opponent -> colour ('white'/'black', the agent's) -> records in game order.
    Returns report.json's `course` entry."""
    rows, every_game_won, complete = [], True, True
    for opponent in [b for b in BASELINES if b in games] + [o for o in games if o not in BASELINES]:
        by_colour = games[opponent]
        white = sorted(by_colour.get("white", []), key=lambda r: r.get("game", 0))
        black = sorted(by_colour.get("black", []), key=lambda r: r.get("game", 0))
        pairs = [(agent_result(w, "white"), agent_result(b, "black")) for w, b in zip(white, black)]
        passed_pairs = sum(1 for p in pairs if pair_passes(p))
        results = [agent_result(r, "white") for r in white] + [agent_result(r, "black") for r in black]
        every_game_won &= bool(results) and all(r == "win" for r in results)
        rows.append({"opponent": opponent, "pairs": len(pairs), "pairs_passed": passed_pairs,
                     "white": [agent_result(r, "white") for r in white],
                     "black": [agent_result(r, "black") for r in black],
                     "passed": bool(pairs) and passed_pairs == len(pairs)})
    complete = all(b in games for b in BASELINES)
    return {"rule": "per baseline, one game with each colour: 2 wins, or 1 win and 1 draw",
            "baselines": rows,
            "passed": bool(rows) and all(r["passed"] for r in rows),
            "bonus": complete and every_game_won}


def grading_lines(course: dict) -> List[str]:
    """The grading as text, one line per baseline and a verdict."""
    letters = {"win": "W", "draw": "D", "loss": "L"}
    lines = ["Course grading (NTHU): " + course["rule"]]
    for row in course["baselines"]:
        games = " ".join(f"{letters[w]}{letters[b]}" for w, b in zip(row["white"], row["black"]))
        lines.append(f"  {row['opponent']:<10} as White/Black: {games or '-'}   pairs passed "
                     f"{row['pairs_passed']}/{row['pairs']}: {'PASS' if row['passed'] else 'FAIL'}")
    lines.append(f"  verdict: {'PASS' if course['passed'] else 'FAIL'}; bonus (every game won): "
                 f"{'yes' if course['bonus'] else 'no'}")
    return lines
