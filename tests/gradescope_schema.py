"""Gradescope's results.json format, as its autograder specification gives it
(https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output format", and
/leaderboards/): the keys each level may hold and their types. `problems(results)` lists what
breaks it; [] for a valid file. Written from the specification, independent of the autograder."""
import json

FORMATS = ("text", "simple_format", "html", "md", "ansi")
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")


def _number(value) -> bool:
    return type(value) in (int, float)


TOP = {"score": _number, "execution_time": _number, "output": lambda v: isinstance(v, str),
       "output_format": lambda v: v in FORMATS, "test_output_format": lambda v: v in FORMATS,
       "test_name_format": lambda v: v in FORMATS, "visibility": lambda v: v in VISIBILITIES,
       "stdout_visibility": lambda v: v in VISIBILITIES, "extra_data": lambda v: isinstance(v, dict),
       "tests": lambda v: isinstance(v, list), "leaderboard": lambda v: isinstance(v, list)}
TEST = {"score": _number, "max_score": _number, "status": lambda v: v in ("passed", "failed"),
        "name": lambda v: isinstance(v, str), "name_format": lambda v: v in FORMATS,
        "number": lambda v: isinstance(v, str), "output": lambda v: isinstance(v, str),
        "output_format": lambda v: v in FORMATS,
        "tags": lambda v: isinstance(v, list) and all(isinstance(t, str) for t in v),
        "visibility": lambda v: v in VISIBILITIES, "extra_data": lambda v: isinstance(v, dict)}
BOARD = {"name": lambda v: isinstance(v, str), "value": lambda v: _number(v) or isinstance(v, str),
         "order": lambda v: v in ("asc", "desc")}


def _fields(where: str, data, allowed: dict) -> list:
    if not isinstance(data, dict):
        return [f"{where} is not an object"]
    out = [f"{where}: unknown key {key!r}" for key in data if key not in allowed]
    out += [f"{where}: bad {key} {data[key]!r}" for key in data if key in allowed and not allowed[key](data[key])]
    return out


def problems(results) -> list:
    try:
        json.dumps(results, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return [f"not strict JSON: {exc}"]
    found = _fields("results", results, TOP)
    if found:
        return found
    tests = results.get("tests", [])
    for i, test in enumerate(tests):
        found += _fields(f"tests[{i}]", test, TEST)
    if "score" not in results and any(isinstance(t, dict) and "score" not in t for t in tests):
        found.append("no top-level score and a test without one")
    for i, entry in enumerate(results.get("leaderboard", [])):
        found += _fields(f"leaderboard[{i}]", entry, BOARD)
        if isinstance(entry, dict) and not {"name", "value"} <= set(entry):
            found.append(f"leaderboard[{i}] needs name and value")
    return found
