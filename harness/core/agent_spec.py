"""An agent spec from the command line, parsed once: `AgentSpec`.

A spec is a built-in name of the variant (``random``), a path to a student's ``.py`` file,
``uci:PATH[,nodes=N][,movetime=MS][,timeout=S]`` (a UCI engine) or ``PREFIX:PATH`` (a program
speaking a course's file protocol, ``nthu:PATH``). Which it is depends on the variant (its
built-in names) and on the variants' program prefixes, which core does not know (it imports no
variant and no agent): `AgentSpec.parse` is told them. `harness.players.parse_spec(text, variant)`
tells it for the harness; `agents.make_agent` for the benches and tests. The spec is parsed here
and nowhere else: the factory (`harness.players`) and the agents read its fields.
"""
import dataclasses
import os
import re
from typing import Collection, Dict, Mapping, Optional, Sequence, Tuple

UCI_PREFIX = "uci:"
UCI_OPTIONS = ("nodes", "movetime", "timeout")      # what a uci: agent spec may set

# the kinds of spec
BUILTIN = "builtin"
FILE = "file"
UCI = "uci"
PROGRAM = "program"
UNKNOWN = "unknown"         # none of them: the factory names the forms the variant takes

_OPTION = re.compile(r"([a-z]+)=(.*)")


def parse_uci_spec(spec: str, allowed: Sequence[str]) -> Tuple[str, Dict[str, float]]:
    """(PATH, {option: value}) of ``uci:PATH[,OPTION=VALUE]...`` with options from `allowed`
    (``timeout`` in seconds, a float; the others whole numbers); ValueError with a one-line
    reason when malformed. Options are taken from the end, so a PATH may itself contain commas.
    (An analyser's spec, ``uci:PATH,nodes=N``, is read here too.)"""
    if not spec.startswith(UCI_PREFIX):
        raise ValueError(f"'{spec}' is not a uci: spec")
    parts = spec[len(UCI_PREFIX):].split(",")
    options: Dict[str, float] = {}
    usage = ", ".join(f"{key}={'S' if key == 'timeout' else 'N'}" for key in allowed)
    while len(parts) > 1 and (option := _OPTION.fullmatch(parts[-1].strip())):
        key, value = option.groups()
        if key not in allowed:
            break
        parts.pop()
        if key in options:
            raise ValueError(f"'{spec}': {key} given twice")
        try:
            options[key] = float(value) if key == "timeout" else int(value)
        except ValueError:
            raise ValueError(f"'{spec}': {key} must be a number, not '{value}'") from None
        if options[key] <= 0:
            raise ValueError(f"'{spec}': {key} must be positive")
    path = ",".join(parts).strip()
    if not path:
        raise ValueError(f"'{spec}': no engine path after 'uci:'")
    if len(parts) > 1 and "=" in parts[-1]:
        raise ValueError(f"'{spec}': unknown option '{parts[-1]}' (use {usage})")
    return path, options


@dataclasses.dataclass(frozen=True)
class AgentSpec:
    """One agent spec. `text`: as given (what records and messages name). `kind`: BUILTIN, FILE,
    UCI, PROGRAM or UNKNOWN. `path`: the .py file, the engine or the program (None for a built-in,
    an unknown spec, a malformed uci: spec and a program prefix with nothing after it).
    `options`: a uci: spec's nodes, movetime and timeout as given. `variants`: a program spec's
    variants (those whose prefix it starts with). `problem`: why a uci: spec cannot be read (one
    line; the factory raises it as an AgentError when the agent is made)."""
    text: str
    kind: str
    path: Optional[str] = None
    options: Dict[str, float] = dataclasses.field(default_factory=dict)
    variants: Tuple[str, ...] = ()
    problem: Optional[str] = None

    @classmethod
    def parse(cls, text: str, builtins: Collection[str], programs: Mapping[str, str] = {}) -> "AgentSpec":
        """The spec `text` for a variant whose built-in agent names are `builtins`; `programs`:
        each variant taking programs -> its prefix (``{"nthu": "nthu:"}``), in the registry's
        order. A file is a path (it names a folder or ends in .py) whose first part has no ':'."""
        matched = tuple(name for name, prefix in programs.items() if text.startswith(prefix))
        if matched:
            return cls(text, PROGRAM, text[len(programs[matched[0]]):] or None, variants=matched)
        if text.startswith(UCI_PREFIX):
            try:
                path, options = parse_uci_spec(text, UCI_OPTIONS)
            except ValueError as exc:
                return cls(text, UCI, problem=str(exc))
            return cls(text, UCI, path, options)
        if text in builtins:
            return cls(text, BUILTIN)
        if ":" not in text.split(os.sep)[0].split("/")[0] and (text.endswith(".py") or os.sep in text or "/" in text):
            return cls(text, FILE, text)
        return cls(text, UNKNOWN)
