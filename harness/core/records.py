"""A game record, typed: a line of results.jsonl, and how a recorded game meets the rules (the
state it started from, for any variant).

`Record` is the one type a game record has once it is read (harness/runs/results.py reads and
writes the files through it; the replay, the HTML viewer, the web app and the analysis use it).
Its fields are the keys every game record carries (`harness.core.referee.game_record` and the
series' ``game``); every other key (``think``, ``printed``, a variant's own start fields such as
``start_fen``, ``opening``, ``worker``, ...) is kept as it was read, in its place, so `to_json`
gives back the very line that was read. A record is also a read-only mapping over that JSON
(``record["think"]``), for code that reads the keys that are not fields.

The variant of a record from before records named it is the default variant. Core does not know
which that is (it must not import the variants): `Record.from_json` is told, and the one caller
that tells it is the results store's reader (`harness.runs.results.record_of`), which applies it
once, when the record is read.
"""
import dataclasses
from collections.abc import Mapping
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .variant import Move

# The fields, in the order a record written by the referee holds them (`game` first: the series'
# index of the game).
FIELDS = ("game", "seed", "white", "black", "result", "reason", "plies", "moves", "error", "variant")


@dataclasses.dataclass(frozen=True, eq=False)
class Record(Mapping):
    """One game record. The fields are as the line gave them (None when it has no such key),
    except `variant`, which is never None: a record without one is the default variant's. `extra`
    holds the other keys (and a ``variant`` read empty or null, to write it back so), `keys_read`
    the order of every key of the line (the JSON form). Equal to a dict (or a Record) with the
    same JSON form."""
    variant: str
    game: Optional[int] = None
    seed: Optional[int] = None
    white: Optional[str] = None
    black: Optional[str] = None
    result: Optional[str] = None
    reason: Optional[str] = None
    plies: Optional[int] = None
    moves: Optional[List[str]] = None
    error: Optional[str] = None
    extra: Dict[str, Any] = dataclasses.field(default_factory=dict)
    keys_read: Tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping, default_variant: str) -> "Record":
        """The record of a JSON object (a dict read from a line); `default_variant` is the variant
        of a record without one (or with an empty one), from before records named it."""
        if isinstance(data, Record):
            return data
        fields = {key: data[key] for key in FIELDS if key in data}
        fields["variant"] = data.get("variant") or default_variant
        extra = {key: value for key, value in data.items() if key not in FIELDS}
        if "variant" in data and data["variant"] != fields["variant"]:
            extra["variant"] = data["variant"]          # an empty or null variant is written back as read
        return cls(**fields, extra=extra, keys_read=tuple(data))

    def to_json(self) -> Dict[str, Any]:
        """The record as the JSON object it was read from: the same keys in the same order (a
        record read without ``variant`` is written without it), so ``json.dumps`` gives the same
        line back."""
        return {key: self[key] for key in self.keys_read}

    # the read-only mapping over the JSON form
    def __getitem__(self, key: str) -> Any:
        if key not in self.keys_read:
            raise KeyError(key)
        return self.extra[key] if key in self.extra or key not in FIELDS else getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys_read)

    def __len__(self) -> int:
        return len(self.keys_read)

    def __contains__(self, key: object) -> bool:
        return key in self.keys_read

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return self.to_json() == dict(other.items())

    __hash__ = None         # type: ignore[assignment]  # like the dict it stands for

    def __repr__(self) -> str:
        return f"Record({self.to_json()!r})"


def start_state(record: Dict[str, Any], variant) -> Any:
    """The state a recorded game started from (the variant's `record_start`: CS3243's from the
    record's ``start_fen``, another variant's from the record's start options).
    ValueError when the record's start cannot be set up."""
    try:
        return variant.record_start(record)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the record's start cannot be set up: {exc}") from None


def record_states(record: Dict[str, Any], variant) -> Tuple[List[Any], List[Move], Optional[str]]:
    """Every state of a recorded game (the start first), the moves that led from one to the next,
    and a note when a move of the record cannot be played (the states then end at the last one
    that could be reached). ValueError when the record's start cannot be set up."""
    state = start_state(record, variant)
    states: List[Any] = [state]
    moves: List[Move] = []
    for ply, name in enumerate(record.get("moves") or [], 1):
        try:
            move = variant.parse_move(name)
        except (TypeError, ValueError):
            move = None
        if move is None or move not in variant.legal_moves(state):
            return states, moves, f"ply {ply} ({name!r}) cannot be played here: the record is inconsistent"
        state = variant.apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves, None
