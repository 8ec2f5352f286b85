"""The composition root: an agent spec from the command line -> an Agent for one game.

A spec is a built-in name of the variant (the `agents` registry; ours, run in this process), a
path to a ``.py`` file (CS3243: a student's file, run sandboxed by `harness.isolation.sandbox`), or
``uci:PATH[,...]`` (a UCI engine, CS3243). The text is parsed once, by `parse_spec`, into an
`AgentSpec` (harness/core/agent_spec.py); every function here takes the text or the AgentSpec.
`check_spec` turns every bad spec into a one-line AgentError before any game starts. This module
and the CLI are the only harness modules that import `agents`.
"""
import functools
import os
import shutil
from typing import Dict, List, Optional, Union

import agents
from ..core.agent import Agent, AgentError
from ..core.agent_spec import BUILTIN, FILE, PROGRAM, UCI, AgentSpec
from ..isolation.box import BoxSettings
from ..isolation.exchange import Folder
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT, SandboxAgent
from ..isolation.untrusted_env import untrusted_env
from ..isolation.untrusted_run import contained
from ..variants import DEFAULT_VARIANT, find_variant, variant_names

Spec = Union[str, AgentSpec]


def program_prefixes() -> Dict[str, str]:
    """Each variant whose games take programs -> its program prefix, in the registry's order."""
    return {name: find_variant(name).program_prefix for name in variants_taking("program")}


def parse_spec(spec: Spec, variant: str = DEFAULT_VARIANT) -> AgentSpec:
    """The agent spec `spec` for a game of `variant` (its built-in names, every variant's program
    prefix); an AgentSpec is returned as it is."""
    if isinstance(spec, AgentSpec):
        return spec
    return AgentSpec.parse(spec, agents.builtin_names(variant), program_prefixes())


def is_file_spec(spec: Spec, variant: str = DEFAULT_VARIANT) -> bool:
    """A student's file: ends in .py or names a path (an engine or program spec is not one)."""
    return parse_spec(spec, variant).kind == FILE


def builtin_names(variant: str = DEFAULT_VARIANT):
    """The variant's built-in agent names, in the registry's order."""
    return agents.builtin_names(variant)


def agent_forms(variant: str = DEFAULT_VARIANT) -> str:
    """The agent forms a variant accepts (its built-in names and `Variant.agent_forms`), for help
    texts and errors."""
    v = find_variant(variant)
    forms = {"file": "a path to a .py file", "uci": "uci:PATH",
             "program": f"{v.program_prefix}PATH (a program speaking the course's file protocol)"}
    parts = ["one of " + ", ".join(agents.builtin_names(variant))] + [forms[form] for form in v.agent_forms]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def variants_taking(form: str) -> List[str]:
    """The variants whose games take agents of `form` ("file", "uci", "program")."""
    return [name for name in variant_names() if form in find_variant(name).agent_forms]


def spec_variants(spec: Spec) -> List[str]:
    """The variants whose games `spec` can play, judged by its form: a program spec (nthu:PATH)
    its variant's, uci:PATH and a .py file those taking them, a built-in name every variant that
    has it."""
    files = variants_taking("file")
    parsed = parse_spec(spec, files[0] if files else DEFAULT_VARIANT)
    if parsed.kind == PROGRAM:
        return list(parsed.variants)
    if parsed.kind == UCI:
        return variants_taking("uci")
    if parsed.kind == FILE:
        return files
    return [name for name in variant_names() if parsed.text in agents.builtin_names(name)]


def agent_file(spec: Spec, variant: str = DEFAULT_VARIANT) -> Optional[str]:
    """The file an agent runs, whose content decides its games: a student's .py file, a UCI
    engine's program (found on PATH when named without a folder) or an nthu: program. None for
    a built-in (ours: the project's version covers it) or an engine that cannot be found."""
    parsed = parse_spec(spec, variant)
    if parsed.kind == UCI and parsed.path is not None:
        return parsed.path if os.sep in parsed.path else shutil.which(parsed.path)
    return parsed.path if parsed.kind in (FILE, PROGRAM) else None


def check_spec(spec: Spec, variant: str = DEFAULT_VARIANT) -> None:
    """AgentError with a one-line reason when `spec` cannot be played."""
    parsed = parse_spec(spec, variant)
    spec = parsed.text
    if parsed.kind == FILE:
        if "file" not in find_variant(variant).agent_forms:
            raise AgentError(f"agent '{spec}': {variant} does not run .py files; use {agent_forms(variant)}")
        if not os.path.exists(spec):
            raise AgentError(f"agent file '{spec}' does not exist")
        if not os.path.isfile(spec) or not spec.endswith(".py"):
            raise AgentError(f"agent '{spec}' is not a .py file")
        SandboxAgent(spec).verify()
        return
    try:
        agent = make(parsed, variant)
    except AgentError:
        raise
    except ImportError as exc:
        raise AgentError(f"agent '{spec}' is not available ({exc})") from None
    try:
        agent.verify()
    finally:
        agent.close()


def nnue_parts():
    """What train-nnue needs of the nnue agent, as modules: agents/nthu/nnue_eval.py (the network's
    features and format) and agents/nthu/search.py (ab's search, which labels the positions).
    players is the harness module that reaches agents/ (the composition root)."""
    from agents.nthu import nnue_eval, search
    return nnue_eval, search


def program_box(box: Optional[BoxSettings] = None) -> Optional[BoxSettings]:
    """The box of a program we do not trust (an nthu: program, a uci: engine): `box` when given,
    else the default box (bubblewrap where it works, the resource limits always); None with
    MINICHESS_NO_PROGRAM_BOX=1 in the grader's environment (speed comparisons only)."""
    if os.environ.get("MINICHESS_NO_PROGRAM_BOX") == "1":
        return None
    return box or BoxSettings()


def containment(box: Optional[BoxSettings]):
    """contain(argv, workdir, limit=None, grace=1.0) -> (argv, env): `argv` started in `box`."""
    if box is None or not box.enabled:
        return None
    return functools.partial(_contain, box)


def _contain(box, argv, workdir, limit=None, grace=1.0):
    return contained(argv, workdir, box, limit, grace)


def make(spec: Spec, variant: str = DEFAULT_VARIANT, move_timeout: Optional[float] = None,
         box: Optional[BoxSettings] = None) -> Agent:
    """An in-process agent (a built-in), or a program (an nthu:PATH program, a uci: engine), which
    runs in `box` (default: `program_box`)."""
    parsed = parse_spec(spec, variant)
    spec = parsed.text
    if parsed.kind == PROGRAM:
        programs = parsed.variants
        if variant not in programs:
            prefix = find_variant(programs[0]).program_prefix
            raise AgentError(f"agent '{spec}': {prefix}PATH programs play {' and '.join(programs)} only "
                             f"(--variant {programs[0]})")
        if not parsed.path:
            raise AgentError(f"'{spec}' is not {find_variant(variant).program_prefix}PATH")
        return find_variant(variant).program_agent(parsed, move_timeout, containment(program_box(box)), untrusted_env,
                                                   Folder)
    if parsed.kind == UCI:
        if variant not in variants_taking("uci"):
            raise AgentError(f"agent '{spec}': UCI engines play {' and '.join(variants_taking('uci'))} only")
        return agents.make_uci(parsed, containment(program_box(box)), find_variant(variant))
    if parsed.kind == BUILTIN:
        return agents.make_builtin(spec, variant)
    raise AgentError(f"unknown agent '{spec}': use {agent_forms(variant)}")


def move_timeout_for(variant, given: Optional[float] = None) -> float:
    """The per-move limit of a .py file or program agent: `given`, else the variant's own default
    (nthu: the course's 10 s), else the sandbox's 30 s."""
    if given is not None:
        return given
    return variant.default_move_timeout or DEFAULT_MOVE_TIMEOUT


def search_analyser(variant: str, nodes: Optional[int] = None):
    """The game review's analyser on our own `ab` search for `variant` (nthu, congo; see
    harness.analysis.analysers); AgentError when the variant has none."""
    return agents.make_analyser(variant, nodes)


def build(spec: Spec, move_timeout: float = DEFAULT_MOVE_TIMEOUT, variant: str = DEFAULT_VARIANT,
          box: Optional[BoxSettings] = None) -> Agent:
    """A fresh agent for one game (the caller closes it); a file runs in `box` when given."""
    parsed = parse_spec(spec, variant)
    if parsed.kind == FILE:
        return SandboxAgent(parsed.text, move_timeout, name=parsed.text, box=box)
    return make(parsed, variant, move_timeout, box)
