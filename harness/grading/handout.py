"""The pages a TA hands out and reads: students/NAME/report.html for an NTHU repository and a Congo
student (as CS3243's: a verdict box with the points and their breakdown, the reasons, the games in
the board viewer or the failing cases), and the class page OUT/index.html (a row per student:
points, verdict, flags; sortable; linking each report and similarity.html).

Every page is self-contained (inline CSS and script, no network) and names no folder of the TA's:
the student's pages name their files relative to their own folder (`reasons.strip_paths`).
"""
import datetime
import os
from typing import Callable, Dict, List, Optional, Sequence

from ..view.html import TEMPLATES as VIEW_TEMPLATES, game_data, template, viewer_context
from . import reasons
from .common import CLASS_PAGE, out_folder

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
INDEX_HTML = CLASS_PAGE
REPORT_HTML = "report.html"


def _write(path: str, page: str, *folders: str) -> str:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(reasons.strip_paths(page, *folders))
    return path


def rating_text(rating: Optional[dict]) -> str:
    """'Elo +35 (95 %: -80 .. +150)', or 'too few games' when the fit has no finite bound."""
    if not rating or rating.get("elo") is None:
        return "too few games"
    values = [rating.get(k) for k in ("elo", "low", "high")]
    if any(v is None or v != v or v in (float("inf"), float("-inf")) for v in values):
        return "too few games"
    return f"Elo {values[0]:+.0f} (95 %: {values[1]:+.0f} .. {values[2]:+.0f})"


def nthu_breakdown(row: dict, settings: dict) -> List[str]:
    """The points of an NTHU row, term by term."""
    passed = sum(1 for rung in row["baselines"].values() if rung["passed"])
    terms = [f"baselines passed: {passed} of 4 ({passed} point{'s' if passed != 1 else ''})",
             f"all 8 games won: {'yes (+1)' if row['all_eight'] else 'no (+0)'}"]
    penalty = settings.get("rules_penalty") or 0
    if row["rules"] and penalty:
        terms.append(f"rules broken: -{penalty:g}")
    bonus = settings.get("ranking_bonus") or []
    if row.get("rank") is not None and row["rank"] <= len(bonus):
        terms.append(f"class rank {row['rank']}: +{bonus[row['rank'] - 1]:g}")
    return terms


def nthu_reasons(row: dict) -> List[str]:
    out = []
    if row["build"] != "ok":
        out.append(f"the build {row['build']}: " + "; ".join(row["build_errors"]))
    if row.get("faults"):
        out.append(f"games lost by a fault: {reasons.faults_text(row['faults'])}"
                   + (f"; the first: {row['first_error']}" if row.get("first_error") else ""))
    if row.get("near_limit"):
        out.append(f"{row['near_limit']} moves took over {100 * reasons.NEAR_SHARE:.0f} % of the move limit: "
                   f"those games may depend on the machine's load")
    out += [f"rules: {problem}" for problem in row["rules"]]
    for baseline, rung in row["baselines"].items():
        if not rung["passed"]:
            out.append(f"{baseline} not passed (as White {rung['white']}, as Black {rung['black']}): "
                       f"the course asks for 2 wins, or 1 win and 1 draw; the ladder stops here")
    return out


def write_nthu_page(out: str, report: dict, games: Sequence[tuple], settings: dict, variant) -> str:
    """students/NAME/report.html of an NTHU repository: `games` as (baseline, colour, record) of
    `variant` (the board viewer's)."""
    folder = out_folder(out, report["student"])
    data = []
    for baseline, colour, record in games:
        label = f"{baseline} as {colour}"
        game = game_data(label, record, variant, colour, os.path.join("games", f"{baseline}-{colour}",
                                                                     "results.jsonl"))
        for side in ("white", "black"):
            if side == colour:
                game[side] = report["student"]      # the student's program, not its path in OUT
        game["command"] = (f"python -m harness replay games/{baseline}-{colour}/results.jsonl --game "
                           f"{game['game']} --variant nthu")
        data.append(game)
    context = {
        "title": f"{report['student']}: {report['points']} points (NTHU MiniChess)",
        "verdict": "pass" if report["baselines"] and all(r["passed"] for r in report["baselines"].values())
        and len(report["baselines"]) == 4 else "fail",
        "headline": f"{report['points']} points",
        "breakdown": nthu_breakdown(report, settings),
        "reasons": nthu_reasons(report),
        "rows": [(b, r["white"], r["black"], "yes" if r["passed"] else "no") for b, r in report["baselines"].items()],
        "rank": report.get("rank"), "rating": rating_text(report.get("rating")) if report.get("rank") else None,
        "build": report["build"], "build_log": report.get("build_log"),
        "settings": f"{settings.get('move_timeout', 10):g} s per move, {settings.get('memory_mb', 4096)} MB",
        "games": data, "command_label": "replay in the terminal, in this folder:", "congo": None,
        **viewer_context(variant, data),
    }
    page = template("handout.html.j2", TEMPLATES).render(**context)
    return _write(os.path.join(folder, REPORT_HTML), page, folder, out)


def congo_part_rows(parts: Dict[str, dict], names: Sequence[str]) -> List[dict]:
    """A row per part: passed/cases, build, wrong answers, timeouts, other failures, and its failing
    cases (the first differences, every failure, with a note on a comma-separated answer)."""
    rows = []
    for part in names:
        r = parts.get(part, {"passed": 0, "cases": 0, "build": "missing"})
        counts = r.get("counts") or {}
        cases = []
        for d in r.get("first_differences", []):
            cases.append({"case": d["case"], "kind": d["kind"], "fen": d["fen"], "move": d.get("move"),
                          "expected": d["expected"], "got": d["got"], "missing": d.get("missing"),
                          "extra": d.get("extra"), "what": None, "note": d.get("note")})
        for f in r.get("failures", []):
            cases.append({"case": f["case"], "kind": f["kind"], "fen": f["fen"], "move": f.get("move"),
                          "expected": None, "got": None, "missing": None, "extra": None, "what": f["what"],
                          "note": None})
        rows.append({"part": part, "passed": r["passed"], "cases": r["cases"], "build": r["build"],
                     "wrong": counts.get("wrong_answer", 0), "timeouts": counts.get("timeout", 0),
                     "other": sum(v for k, v in counts.items() if k not in ("wrong_answer", "timeout")),
                     "errors": r.get("errors", []), "note": r.get("note"), "failing": cases})
    return rows


def write_congo_page(out: str, name: str, parts: Dict[str, dict], row: dict, names: Sequence[str]) -> str:
    folder = out_folder(out, name)
    part_rows = congo_part_rows(parts, names)
    breakdown = [f"{p['part']}: {p['passed']}/{p['cases']}" + ("" if p["build"] == "ok" else f" ({p['build']})")
                 for p in part_rows]
    found = []
    if row.get("faults"):
        found.append(f"failed cases by kind: {reasons.faults_text(row['faults'])}"
                     + (f"; the first: {row['first_error']}" if row.get("first_error") else ""))
    if row.get("timeouts"):
        found.append(f"{row['timeouts']} case{'s' if row['timeouts'] != 1 else ''} timed out: not wrong answers, "
                     f"they may depend on the machine's load")
    if row.get("format_notes"):
        found += row["format_notes"]
    context = {
        "title": f"{name}: score {row['score']} (Congo)", "verdict": "pass" if row["score"] == 100 else "fail",
        "headline": f"score {row['score']} of 100",
        "breakdown": ["every part weighs the same: 100 x the mean of (cases passed / cases)"] + breakdown,
        "reasons": found, "rows": None, "rank": None, "rating": None, "build": None, "build_log": None,
        "settings": "", "games": [], "congo": part_rows, "style": viewer_context_style(),
    }
    page = template("handout.html.j2", TEMPLATES).render(**context)
    return _write(os.path.join(folder, REPORT_HTML), page, folder, out)


# ----------------------------------------------------------------------------- the class page


def _similar(gradebook: dict) -> Dict[str, List[str]]:
    pairs: Dict[str, List[str]] = {}
    for a, b, value in gradebook.get("similarity_flagged") or []:
        text = f"{100 * value:.0f} %" if isinstance(value, float) and value <= 1 else f"{value}"
        pairs.setdefault(a, []).append(f"{b} {text}")
        pairs.setdefault(b, []).append(f"{a} {text}")
    return pairs


def class_row(row: dict) -> dict:
    """A gradebook row (any course's) as the class page shows it: points, verdict, flags."""
    flags = []
    if row.get("late"):
        flags.append("late")
    faults = row.get("faults") or {}
    if "parts" in row:                                   # Congo programs
        verdict = "all cases pass" if row["score"] == 100 else "cases fail"
        points = row["score"]
        builds = [p for p, r in row["parts"].items() if r["build"] in ("failed", "missing")]
        if builds:
            flags.append(f"no program: {len(builds)} parts")
    elif "baselines" in row:                             # NTHU repositories
        verdict = f"build {row['build']}" if row["build"] != "ok" else (
            "all 8 won" if row["all_eight"] else f"{sum(1 for r in row['baselines'].values() if r['passed'])} of 4 baselines")
        points = row["points"]
        if row["rules"]:
            flags.append(f"rules: {len(row['rules'])}")
    else:                                                # CS3243 files
        verdict, points = row["verdict"], row["points"]
        if row.get("check") == "rejected":
            flags.append("rules: rejected")
    timeouts = faults.get("timeout", 0)             # games lost by a timeout; Congo: cases timed out
    if timeouts:
        flags.append(f"timeouts: {timeouts}")
    other = {k: v for k, v in faults.items() if k not in ("timeout", "wrong_answer")}
    if other:
        flags.append(f"faults: {reasons.faults_text(other)}")
    if row.get("near_limit"):
        flags.append(f"near-limit moves: {row['near_limit']}")
    return {"student": row["student"], "points": points, "verdict": verdict, "flags": flags}


def write_class_page(out: str, gradebook: dict, row_of: Callable[[dict], dict] = class_row) -> str:
    """OUT/index.html: the class at a glance (written again after --similar adds its pairs)."""
    similar = _similar(gradebook)
    rows = []
    for row in gradebook["students"]:
        shown = row_of(row)
        shown["similar"] = similar.get(row["student"], [])
        report = os.path.join("students", row["student"], REPORT_HTML)
        shown["report"] = report if os.path.exists(os.path.join(out, report)) else None
        rows.append(shown)
    page = template("class.html.j2", TEMPLATES).render(
        title=f"Class: {os.path.basename(gradebook['class'].rstrip(os.sep))}",
        gradebook=gradebook, rows=rows, similarity=gradebook.get("similarity"),
        written=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        style=viewer_context_style())
    return _write(os.path.join(out, INDEX_HTML), page)


def viewer_context_style() -> str:
    """The pages' shared style sheet (harness/view's)."""
    with open(os.path.join(VIEW_TEMPLATES, "style.css"), encoding="utf-8") as handle:
        return handle.read()
