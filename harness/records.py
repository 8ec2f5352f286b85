"""A recorded game meets the rules: the state it started from, for any variant.

Used by the replay, the HTML viewer and the analysis alike (a record is a line of results.jsonl;
harness/results.py reads and writes the files).
"""
from typing import Any, Dict

from .variants.cs3243.fen import START_FEN


def start_state(record: Dict[str, Any], variant) -> Any:
    """The state a recorded game started from: CS3243's from the record's ``start_fen`` (the
    start position when it has none), another variant's from the record's start options.
    ValueError when the record's start cannot be set up."""
    try:
        if variant.name == "cs3243":
            limits = {k: record[k] for k in ("fifty", "max_plies") if type(record.get(k)) is int}
            return variant.start(fen=record.get("start_fen") or START_FEN, **limits)
        options = {k: record[k] for k in ("fen", "edition", "max_plies") if record.get(k) is not None}
        return variant.start(**options)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the record's start cannot be set up: {exc}") from None
