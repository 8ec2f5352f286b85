"""A comparison on disk: NEW against OLD in colour-reversed pairs (harness.runs.series: results.jsonl
appended as games end, --resume, --force), stopped by the SPRT when it decides; compare.json and
report.html beside the games."""
import os
from typing import Optional

from ..runs.results import write_json
from ..runs.series import RunOptions, SeriesPlan, run_plans
from .page import write_compare_html
from .pairs import PairTally, Sprt

COMPARE_JSON = "compare.json"


def compare_plan(new: str, old: str, games: int, out: str, **series) -> SeriesPlan:
    """NEW (the plan's first agent) against OLD: `games` games, pairs from one opening with the
    colours reversed (NEW White in even games)."""
    return SeriesPlan(out=out, white=new, black=old, games=games, swap=True, label=f"{new} vs {old}", **series)


def run_compare(new: str, old: str, games: int, out: str, sprt: Optional[Sprt], jobs=None, executor=None,
                resume=False, force=False, progress="auto", **series) -> dict:
    """Play up to `games` games (all of them with `sprt` None) and write compare.json and report.html;
    return compare.json's content. The test sees the pairs in the order they finished (an earlier
    run's first, from its results.jsonl), so a resumed run decides where an uninterrupted one would."""
    plan = compare_plan(new, old, games, out, **series)
    tally = PairTally(plan, sprt)
    run = run_plans([plan], RunOptions(jobs=jobs, resume=resume, fresh=force, progress=progress, executor=executor,
                                       on_game=tally.add, status=tally.status))
    records, kept = run.records[0], run.kept[0]
    summary = tally.summary()
    summary["settings"] = plan.settings()
    counted = summary["games"] + len(tally.waiting)
    summary["notes"] = []
    if len(records) > counted:
        summary["notes"].append(f"{len(records) - counted} games in {plan.results_path} were recorded after the "
                                f"test decided and are not counted")
    if kept and len(records) == kept and tally.result is not None:
        summary["notes"].append(f"the test decided on the {kept} games kept in {plan.results_path}: "
                                f"no game was played")
    write_json(os.path.join(out, COMPARE_JSON), summary)
    write_compare_html(out, summary, records, plan.results_path)
    return summary
