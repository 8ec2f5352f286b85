#!/usr/bin/env python3
"""Issue 57, helper C: move call sites of the old `Variant` members to its concern objects.

    python3 /work/brief/C-rename.py [--dry-run] PATH...      (files or folders; *.py and *.md)

A mapping old member -> concern attribute, applied by regex to `RECEIVER.member` where RECEIVER
is an expression that holds a variant in this code base (variant, v, game, self.variant, VARIANT,
find_variant(...), ...), and `Variant.member` in text -> `Concern.member`. Idempotent: an already
moved `variant.display.grid` is not touched again (its receiver `display` is not a variant name).
The variants' own class bodies are moved by hand (harness/variants/*/__init__.py, core/variant.py
are skipped).

Not regex work, for whoever merges (branch h57c):
- `forms.agent_forms` is a property: `forms.forms` plus "uci" whenever `engines.uci_variant` is set;
  `engines.default_analyser` is a property: `engines.analyser` or "uci" when an engine knows the game.
- `course.class_grading` is a `ClassGrading` (str enum: "files", "repositories", "programs"), equal to
  and hashing as the old strings, so `GRADERS[key]` and `== FILES` keep working.
- `forms.program_factory` is a callable (NTHU's `_program_agent`), no "module:function" string.
- `Variant.record_start`'s default reads `fen` and `max_plies` (no `edition`: Congo overrides it).
- `harness.variants.nthu.move_from_course` / `course_move` live in `harness/variants/nthu/moves.py`
  (re-exported by the package).
- Colours: `Colour` (str enum, value "White"/"Black", str/format/repr as that text); `WHITE`, `BLACK`
  are its members; `Colour.result` is "white"/"black".
- A line may pass ruff's 130 characters after the rename (two did here): wrap it by hand.
"""
import re
import sys
from pathlib import Path

CONCERNS = {
    # attribute on the variant, its class in harness.core.variant, the members it took over
    "display": ("Presentation", "board_text grid square_names legend letters promotion_pieces describe "
                                "check_cell regions replay_text"),
    "engines": ("Engines", "default_analyser uci_variant uci_variant_file analyser_nodes uci_win_slope uci_noise "
                           "engine_fen engine_move engine_view_fen engine_answer"),
    "course": ("CourseGrading", "report_opponents report_games report_colour pass_marks game_seconds "
                                "course_grading class_grading"),
    "cli": ("CommandLine", "option_defaults option_notes game_options default_move_timeout can_start_black"),
    "forms": ("AgentForms", "agent_forms program_prefix program_factory program_agent"),
}
MAPPING = {member: (attr, cls) for attr, (cls, members) in CONCERNS.items() for member in members.split()}
RECEIVERS = (r"variant|v|game|self\.game|self\.variant|VARIANT|V|nthu|cs3243|congo|gardner|tiny|_CS3243|CS3243"
             r"|find_variant\([^()]*\)|variants\.find_variant\([^()]*\)")
MEMBERS = "|".join(sorted(MAPPING, key=len, reverse=True))
CALL = re.compile(rf"(?<![\w.])(?P<receiver>{RECEIVERS})\.(?P<member>{MEMBERS})\b")
DOC = re.compile(rf"\bVariant\.(?P<member>{MEMBERS})\b")
SKIP = re.compile(r"harness/core/variant\.py$|harness/variants/[a-z0-9_]+/__init__\.py$")


def rename(text: str) -> str:
    text = CALL.sub(lambda m: f"{m['receiver']}.{MAPPING[m['member']][0]}.{m['member']}", text)
    return DOC.sub(lambda m: f"{MAPPING[m['member']][1]}.{m['member']}", text)


def main(argv):
    dry = "--dry-run" in argv
    paths = [Path(a) for a in argv if a != "--dry-run"]
    files = [f for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*.py")) + sorted(p.rglob("*.md")))]
    for f in files:
        if SKIP.search(f.as_posix()) or ".venv" in f.parts:
            continue
        old = f.read_text()
        new = rename(old)
        if new != old:
            changed = sum(1 for a, b in zip(old.splitlines(), new.splitlines()) if a != b)
            print(f"{f}: {changed} lines")
            if not dry:
                f.write_text(new)


if __name__ == "__main__":
    main(sys.argv[1:])
