"""The composition root: an agent spec from the command line -> an Agent for one game.

A spec is a built-in name of the variant (the `agents` registry; ours, run in this process), a
path to a ``.py`` file (CS3243: a student's file, run sandboxed by `harness.isolation.sandbox`), or
``uci:PATH[,...]`` (a UCI engine, CS3243). `check_spec` turns every bad spec into a one-line
AgentError before any game starts. This module and the CLI are the only harness modules that
import `agents`.
"""
import functools
import os
import shutil
from typing import List, Optional

import agents
from ..core.agent import Agent, AgentError
from ..isolation.box import BoxSettings
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT, SandboxAgent
from ..isolation.untrusted_env import untrusted_env
from ..isolation.untrusted_run import contained
from ..variants import DEFAULT_VARIANT, find_variant, variant_names

UCI_PREFIX = agents.UCI_PREFIX


def is_file_spec(spec: str, variant: str = DEFAULT_VARIANT) -> bool:
    """A student's file: ends in .py or names a path (an engine or program spec is not one)."""
    if spec in agents.builtin_names(variant) or ":" in spec.split(os.sep)[0].split("/")[0]:
        return False
    return spec.endswith(".py") or os.sep in spec or "/" in spec


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


def program_variants(spec: str) -> List[str]:
    """The variants whose program prefix `spec` starts with (nthu:PATH: nthu)."""
    return [name for name in variants_taking("program") if spec.startswith(find_variant(name).program_prefix)]


def spec_variants(spec: str) -> List[str]:
    """The variants whose games `spec` can play, judged by its form: a program spec (nthu:PATH)
    its variant's, uci:PATH and a .py file those taking them, a built-in name every variant that
    has it."""
    programs = program_variants(spec)
    if programs:
        return programs
    if spec.startswith(UCI_PREFIX):
        return variants_taking("uci")
    files = variants_taking("file")
    if files and is_file_spec(spec, files[0]):
        return files
    return [name for name in variant_names() if spec in agents.builtin_names(name)]


def agent_file(spec: str, variant: str = DEFAULT_VARIANT) -> Optional[str]:
    """The file an agent runs, whose content decides its games: a student's .py file, a UCI
    engine's program (found on PATH when named without a folder) or an nthu: program. None for
    a built-in (ours: the project's version covers it) or an engine that cannot be found."""
    if is_file_spec(spec, variant):
        return spec
    for name in program_variants(spec):
        return spec[len(find_variant(name).program_prefix):] or None
    if spec.startswith(UCI_PREFIX):
        try:
            engine = agents.make_uci(spec)
        except AgentError:
            return None
        path = engine.path
        engine.close()
        return path if os.sep in path else shutil.which(path)
    return None


def check_spec(spec: str, variant: str = DEFAULT_VARIANT) -> None:
    """AgentError with a one-line reason when `spec` cannot be played."""
    if is_file_spec(spec, variant):
        if "file" not in find_variant(variant).agent_forms:
            raise AgentError(f"agent '{spec}': {variant} does not run .py files; use {agent_forms(variant)}")
        if not os.path.exists(spec):
            raise AgentError(f"agent file '{spec}' does not exist")
        if not os.path.isfile(spec) or not spec.endswith(".py"):
            raise AgentError(f"agent '{spec}' is not a .py file")
        SandboxAgent(spec).verify()
        return
    try:
        agent = make(spec, variant)
    except AgentError:
        raise
    except ImportError as exc:
        raise AgentError(f"agent '{spec}' is not available ({exc})") from None
    try:
        agent.verify()
    finally:
        agent.close()


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


def make(spec: str, variant: str = DEFAULT_VARIANT, move_timeout: Optional[float] = None,
         box: Optional[BoxSettings] = None) -> Agent:
    """An in-process agent (a built-in), or a program (an nthu:PATH program, a uci: engine), which
    runs in `box` (default: `program_box`)."""
    programs = program_variants(spec)
    if programs:
        if variant not in programs:
            prefix = find_variant(programs[0]).program_prefix
            raise AgentError(f"agent '{spec}': {prefix}PATH programs play {' and '.join(programs)} only "
                             f"(--variant {programs[0]})")
        return find_variant(variant).program_agent(spec, move_timeout, containment(program_box(box)), untrusted_env)
    if spec.startswith(UCI_PREFIX):
        if variant not in variants_taking("uci"):
            raise AgentError(f"agent '{spec}': UCI engines play {' and '.join(variants_taking('uci'))} only")
        return agents.make_uci(spec, containment(program_box(box)))
    if spec in agents.builtin_names(variant):
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


def build(spec: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT, variant: str = DEFAULT_VARIANT,
          box: Optional[BoxSettings] = None) -> Agent:
    """A fresh agent for one game (the caller closes it); a file runs in `box` when given."""
    if is_file_spec(spec, variant):
        return SandboxAgent(spec, move_timeout, name=spec, box=box)
    return make(spec, variant, move_timeout, box)
