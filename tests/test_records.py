"""The typed data that crosses layers: a game record (`Record`, read and written by the results
store, the default variant applied once when an old record is read) and an agent spec
(`AgentSpec`, parsed once)."""
import json
import re
import shutil
from pathlib import Path

import pytest

import agents
from harness import players
from harness.core.agent import AgentError
from harness.core.agent_spec import AgentSpec
from harness.core.records import Record
from harness.runs.results import (RESULTS_FILE, append_record, hold_folder, open_run, read_lines_noting_damage,
                                  read_records, record_of, records_from_bytes, settings_variant)
from harness.variants import DEFAULT_VARIANT

HARNESS = Path(__file__).resolve().parent.parent / "harness"

# A record as the harness wrote them before records named their variant (key order as written).
OLD_LINE = ('{"game": 4, "seed": 104, "white": "random", "black": "greedy", "result": "black", '
            '"reason": "checkmate", "plies": 3, "moves": ["a2a3", "b6b5", "a3a4"], '
            '"think": {"white": {"total": 0.1, "max": 0.1, "moves": 2, "seconds": [0.05, 0.05]}}, '
            '"error": null, "printed": {"white": false, "black": false}, "fifty": 50, "max_plies": 200, '
            '"start_fen": "x w - - 0 1", "engine_moves": ["a2a3", "b6b5", "a3a4"], "worker": "local"}')


def test_a_record_without_a_variant_reads_as_the_default_and_writes_back_the_same_line(tmp_path):
    path = tmp_path / RESULTS_FILE
    path.write_text(OLD_LINE + "\n", encoding="utf-8")
    records, damaged = read_records(str(path))
    assert damaged == 0 and list(records) == [4]
    record = records[4]
    assert isinstance(record, Record)
    assert record.variant == DEFAULT_VARIANT == "cs3243"
    assert (record.game, record.seed, record.white, record.black, record.result, record.reason, record.plies) == (
        4, 104, "random", "greedy", "black", "checkmate", 3)
    assert record.moves == ["a2a3", "b6b5", "a3a4"] and record.error is None
    assert "variant" not in record and record.get("variant") is None    # the JSON as read: no variant
    assert json.dumps(record.to_json()) == OLD_LINE
    again = tmp_path / "again.jsonl"
    with open(again, "w", encoding="utf-8") as handle:
        append_record(handle, record)
    assert again.read_bytes() == path.read_bytes()


def test_a_record_round_trips_with_the_keys_it_does_not_know_in_their_places():
    data = {"game": 0, "seed": 7, "custom": {"a": [1, 2]}, "white": "nthu:a", "black": "ab", "result": "draw",
            "reason": "max_plies", "plies": 2, "moves": ["a2a3", "e5e4"], "error": None, "fen": "k4/5 w 0",
            "depths": {"white": [3]}, "variant": "nthu", "opening": ["a2a3"]}
    record = record_of(data)
    assert record.variant == "nthu" and record.white == "nthu:a" and record.seed == 7
    assert record.extra == {"custom": {"a": [1, 2]}, "fen": "k4/5 w 0", "depths": {"white": [3]}, "opening": ["a2a3"]}
    assert list(record.to_json()) == list(data)
    assert json.dumps(record.to_json()) == json.dumps(data)
    assert record == data and data == record            # equal to the dict it stands for
    assert record["fen"] == "k4/5 w 0" and record.get("missing", 5) == 5 and len(record) == len(data)
    assert dict(record) == data and {**record} == data
    assert record_of(record) is record                  # read once
    with pytest.raises(KeyError):
        record["missing"]


def test_an_empty_or_null_variant_is_the_default_and_is_written_back_as_read():
    for value in ("", None):
        data = {"game": 1, "variant": value, "result": "white"}
        record = record_of(data)
        assert record.variant == DEFAULT_VARIANT
        assert json.dumps(record.to_json()) == json.dumps(data)


def test_the_results_reader_gives_records_and_names_the_damaged_lines():
    data = (OLD_LINE + "\n" + '{"game": 5, "variant": "congo", "result": "draw"}\n{"game": 6, "res').encode()
    records, damaged = records_from_bytes(data)
    assert damaged == [3]
    assert [(r.game, r.variant) for r in records.values()] == [(4, "cs3243"), (5, "congo")]


def test_settings_without_a_variant_are_the_default_variants():
    assert settings_variant({"white": "a"}) == settings_variant(None) == DEFAULT_VARIANT
    assert settings_variant({"variant": "congo"}) == "congo"


def test_a_puzzle_run_reads_its_attempts_as_they_are(tmp_path):
    """open_run reads game records as Records by default; a puzzle run's attempts stay dicts."""
    out = tmp_path / "run"
    out.mkdir()
    (out / RESULTS_FILE).write_text('{"game": 0, "puzzle": "p1", "moves": ["a2a3"]}\n', encoding="utf-8")
    with hold_folder(str(out)):
        done = open_run(str(out), {"set": "s"}, True, False, lambda text: None, lambda old, new: [],
                        lambda index, record: None, 1, "puzzle run", "attempts", read=read_lines_noting_damage)
    assert done == {0: {"game": 0, "puzzle": "p1", "moves": ["a2a3"]}} and type(done[0]) is dict
    with hold_folder(str(out)):
        done = open_run(str(out), {"set": "s"}, True, False, lambda text: None, lambda old, new: [],
                        lambda index, record: None, 1)
    assert isinstance(done[0], Record) and done[0].variant == DEFAULT_VARIANT


# ----------------------------------------------------------------------------- agent specs


def test_an_agent_spec_parses_each_form_into_its_fields():
    cs = agents.builtin_names("cs3243")
    programs = {"nthu": "nthu:"}
    assert AgentSpec.parse("random", cs, programs) == AgentSpec("random", "builtin")
    assert AgentSpec.parse("students/a_1.py", cs, programs) == AgentSpec("students/a_1.py", "file", "students/a_1.py")
    assert AgentSpec.parse("agent.py", cs, programs) == AgentSpec("agent.py", "file", "agent.py")
    assert AgentSpec.parse("uci:/usr/games/fairy-stockfish,nodes=500", cs, programs) == AgentSpec(
        "uci:/usr/games/fairy-stockfish,nodes=500", "uci", "/usr/games/fairy-stockfish", {"nodes": 500})
    assert AgentSpec.parse("uci:fsf,movetime=50,timeout=2.5", cs, programs) == AgentSpec(
        "uci:fsf,movetime=50,timeout=2.5", "uci", "fsf", {"movetime": 50, "timeout": 2.5})
    assert AgentSpec.parse("nthu:bin/agent", cs, programs) == AgentSpec(
        "nthu:bin/agent", "program", "bin/agent", variants=("nthu",))
    assert AgentSpec.parse("nthu:", cs, programs) == AgentSpec("nthu:", "program", None, variants=("nthu",))
    assert AgentSpec.parse("uci:fsf,nodes=x", cs, programs) == AgentSpec(
        "uci:fsf,nodes=x", "uci", problem="'uci:fsf,nodes=x': nodes must be a number, not 'x'")
    assert AgentSpec.parse("nosuch", cs, programs) == AgentSpec("nosuch", "unknown")
    assert AgentSpec.parse("http://x/a.py", cs, programs).kind == "unknown"    # a ':' before the first '/'
    assert AgentSpec.parse("ab", agents.builtin_names("gardner"), programs).kind == "builtin"
    assert AgentSpec.parse("ab", cs, programs).kind == "unknown"


def test_the_harness_parses_a_spec_for_its_variant():
    assert players.parse_spec("nthu:prog", "cs3243") == AgentSpec("nthu:prog", "program", "prog", variants=("nthu",))
    assert players.parse_spec("greedy", "congo").kind == "builtin"
    spec = players.parse_spec("x/a.py")
    assert players.parse_spec(spec, "congo") is spec            # parsed once
    assert players.is_file_spec(spec) and not players.is_file_spec("uci:/a/b.py")
    assert players.spec_variants("nthu:prog") == ["nthu"]
    assert players.spec_variants("uci:fsf") == ["cs3243", "gardner"]     # the games a UCI engine knows
    assert players.spec_variants("x/a.py") == ["cs3243"]
    assert players.agent_file("nthu:prog", "nthu") == "prog"
    assert players.agent_file("nthu:", "nthu") is None
    assert players.agent_file("x/a.py") == "x/a.py"
    assert players.agent_file("random") is None
    assert players.agent_file("uci:/usr/games/fairy-stockfish,nodes=5") == "/usr/games/fairy-stockfish"
    assert players.agent_file("uci:fsf,nodes=0") is None         # malformed: no file
    if shutil.which("fairy-stockfish"):
        assert players.agent_file("uci:fairy-stockfish,nodes=5") == shutil.which("fairy-stockfish")


def test_a_malformed_uci_spec_is_a_one_line_error_when_made():
    with pytest.raises(AgentError, match=r"^'uci:fsf,nodes=0': nodes must be positive$"):
        players.make("uci:fsf,nodes=0", "cs3243")
    with pytest.raises(AgentError, match=r"^'uci:fsf,depth=3': unknown option 'depth=3' \(use nodes=N, movetime=N, "
                                         r"timeout=S\)$"):
        agents.make_agent("uci:fsf,depth=3")
    with pytest.raises(AgentError, match=r"^agent 'uci:fsf': UCI engines play cs3243 and gardner only$"):
        players.make("uci:fsf", "congo")


def test_a_uci_agent_is_made_from_the_parsed_spec():
    agent = players.make("uci:/usr/games/fairy-stockfish,nodes=500,timeout=3", "cs3243")
    try:
        assert (agent.path, agent.nodes, agent.movetime, agent.timeout) == ("/usr/games/fairy-stockfish", 500, None, 3.0)
        assert agent.name == "uci:fairy-stockfish(nodes=500)"
    finally:
        agent.close()


# ----------------------------------------------------------------------------- one place


# `.get("variant")` followed by a default: `.get("variant", X)` or `.get("variant") or X`.
DEFAULTED = re.compile(r"""\.get\(\s*["']variant["']\s*(,|\)\s*or\b)""")
# The places allowed to default a variant read from data, each with why.
DEFAULTING_ALLOWED = {
    "runs/results.py": "the one reader: record_of and settings_variant apply the default variant",
    "core/records.py": "Record.from_json applies the default it is given (by runs/results.py's record_of)",
    "web/app.py": "a web request's own parameter (``variant`` of a new game), defaulted as the command "
                  "line's --variant is: not a stored record or settings",
}


def test_the_default_variant_is_applied_to_read_data_in_one_place():
    found = []
    for path in sorted(HARNESS.rglob("*.py")):
        where = path.relative_to(HARNESS).as_posix()
        if where.startswith("variants/") or where in DEFAULTING_ALLOWED:
            continue
        text = path.read_text(encoding="utf-8")
        found += [f"{where}: {m.group(0)}" for m in DEFAULTED.finditer(text)]
        found += [f"{where}: {m.group(0)}" for m in re.finditer(r"""\bor\s+["']cs3243["']""", text)]
    assert found == []


def test_the_one_place_check_finds_a_defaulted_variant():
    assert DEFAULTED.search('name = record.get("variant") or DEFAULT_VARIANT')
    assert DEFAULTED.search("settings.get('variant', 'cs3243')")
    assert not DEFAULTED.search('record.variant')
    assert not DEFAULTED.search('{k: record.get(k) for k in ("variant",)}')


def test_the_results_reader_is_where_records_come_from():
    """No module outside the results store parses results.jsonl lines into records by itself:
    every other reader of game records goes through record_of."""
    text = (HARNESS / "runs" / "results.py").read_text(encoding="utf-8")
    assert "Record.from_json(data, DEFAULT_VARIANT)" in text
    others = [p.relative_to(HARNESS).as_posix() for p in HARNESS.rglob("*.py")
              if "Record.from_json(" in p.read_text(encoding="utf-8") and p.name != "results.py"
              and p.relative_to(HARNESS).as_posix() != "core/records.py"]
    assert others == []
