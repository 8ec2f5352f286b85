"""Gradescope: the course's grading as a Gradescope autograder, built by one command.

`bundle.build_bundle` writes the zip Gradescope's autograder specification asks for
(https://gradescope-autograders.readthedocs.io/en/latest/specs/): ``setup.sh`` and an executable
``run_autograder`` at its root, with the toolkit (harness/, agents/, the pinned
requirements.txt) and the grading settings (``gradescope.json``, `Settings`) beside them.
``run_autograder`` is a few lines of shell that call `autograder.main` with the toolkit's
Python; that finds the submission, runs the course's check, plays the games in the box and
writes ``results/results.json`` (`results`), always, also when something fails.

Two environment variables let the tests run it outside Gradescope: ``MINICHESS_AUTOGRADER_ROOT``
(default ``/autograder``) and ``MINICHESS_AUTOGRADER_PYTHON`` (default the virtual environment
setup.sh made, ``ROOT/source/venv/bin/python``).
"""
from dataclasses import asdict, dataclass, fields
from typing import Dict, Optional, Tuple

from ... import players
from ...isolation.box import BoxSettings
from ..report import split_points

ROOT_ENV = "MINICHESS_AUTOGRADER_ROOT"
PYTHON_ENV = "MINICHESS_AUTOGRADER_PYTHON"
DEFAULT_ROOT = "/autograder"
SETTINGS_FILE = "gradescope.json"          # in the bundle's root, i.e. ROOT/source/
VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")   # Gradescope's options
COLOURS = ("white", "black", "both")
RESUBMIT = "This is not a verdict on your file: submit again, and tell the course staff if it happens again."


class SettingsError(ValueError):
    """Settings Gradescope's autograder cannot grade with; one line of text."""


@dataclass(frozen=True)
class Settings:
    """How every submission is graded: what `gradescope` was given, with the course's defaults
    (`for_variant`). Plain data, kept in the bundle as gradescope.json."""
    variant: str
    games: int
    opponents: Tuple[str, ...]
    colour: str
    game_time: Optional[float]       # seconds of thinking per game (None: no clock)
    move_timeout: float
    points: float = 100.0
    partial: bool = False
    visibility: str = "visible"
    seed: int = 0
    memory_mb: int = BoxSettings.memory_mb
    jobs: int = 1
    review: bool = True              # the games not won are reviewed (their turning points shown)

    def __post_init__(self):
        problems = []
        if not self.opponents:
            problems.append("no opponent")
        for name in ("games", "jobs", "memory_mb"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                problems.append(f"{name} must be a whole number >= 1, not {value!r}")
        if type(self.seed) is not int or self.seed < 0:
            problems.append(f"seed must be a whole number >= 0, not {self.seed!r}")
        for name in ("points", "move_timeout") + (("game_time",) if self.game_time is not None else ()):
            value = getattr(self, name)
            if type(value) not in (int, float) or not 0 < value < float("inf"):
                problems.append(f"{name} must be a positive number, not {value!r}")
        if self.colour not in COLOURS:
            problems.append(f"colour must be one of {', '.join(COLOURS)}, not {self.colour!r}")
        if self.visibility not in VISIBILITIES:
            problems.append(f"visibility must be one of {', '.join(VISIBILITIES)}, not {self.visibility!r}")
        for name in ("partial", "review"):
            if type(getattr(self, name)) is not bool:
                problems.append(f"{name} must be true or false, not {getattr(self, name)!r}")
        if problems:
            raise SettingsError("; ".join(problems))

    @classmethod
    def for_variant(cls, variant, **given) -> "Settings":
        """The settings with every value not given (None) taken from the variant's course:
        its opponents, games, colour, game clock and move limit."""
        defaults = {"games": variant.report_games, "opponents": tuple(variant.report_opponents),
                    "colour": variant.report_colour, "game_time": variant.game_seconds,
                    "move_timeout": players.move_timeout_for(variant)}
        values = {key: value for key, value in given.items() if value is not None}
        if "opponents" in values:
            values["opponents"] = tuple(values["opponents"])
        return cls(variant=variant.name, **{**defaults, **values})

    @property
    def colours(self) -> Tuple[str, ...]:
        return ("white", "black") if self.colour == "both" else (self.colour,)

    def opponent_points(self) -> Dict[str, float]:
        """`points` split evenly over the opponents, to the hundredth; the last takes what rounding
        left, so they add up to `points`."""
        return split_points(self.points, self.opponents)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["opponents"] = list(self.opponents)
        return data

    @classmethod
    def from_dict(cls, data) -> "Settings":
        """SettingsError for a value that is not a settings object, or misses or adds keys."""
        if not isinstance(data, dict):
            raise SettingsError("the settings are not a JSON object")
        known = {f.name for f in fields(cls)}
        unknown, missing = sorted(set(data) - known), sorted(known - set(data))
        if unknown or missing:
            raise SettingsError("; ".join(([f"unknown settings {', '.join(unknown)}"] if unknown else []) +
                                          ([f"missing settings {', '.join(missing)}"] if missing else [])))
        if not isinstance(data["opponents"], list) or not all(isinstance(o, str) for o in data["opponents"]):
            raise SettingsError("opponents must be a list of names")
        return cls(**{**data, "opponents": tuple(data["opponents"])})
