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
from ..isolation.untrusted_run import contained
from ..variants import DEFAULT_VARIANT, variant_names

UCI_PREFIX = agents.UCI_PREFIX
NTHU_PREFIX = "nthu:"


def is_file_spec(spec: str, variant: str = DEFAULT_VARIANT) -> bool:
    """A student's file: ends in .py or names a path (an engine or program spec is not one)."""
    if spec in agents.builtin_names(variant) or ":" in spec.split(os.sep)[0].split("/")[0]:
        return False
    return spec.endswith(".py") or os.sep in spec or "/" in spec


def builtin_names(variant: str = DEFAULT_VARIANT):
    """The variant's built-in agent names, in the registry's order."""
    return agents.builtin_names(variant)


def agent_forms(variant: str = DEFAULT_VARIANT) -> str:
    """The agent forms a variant accepts, for help texts and errors."""
    names = "one of " + ", ".join(agents.builtin_names(variant))
    if variant == "cs3243":
        return f"{names}, a path to a .py file or uci:PATH"
    if variant == "nthu":
        return f"{names} or nthu:PATH (a program speaking the course's file protocol)"
    return names


def spec_variants(spec: str) -> List[str]:
    """The variants whose games `spec` can play, judged by its form: nthu:PATH plays nthu,
    uci:PATH and a .py file cs3243, a built-in name every variant that has it."""
    if spec.startswith(NTHU_PREFIX):
        return ["nthu"]
    if spec.startswith(UCI_PREFIX) or is_file_spec(spec, "cs3243"):
        return ["cs3243"]
    return [name for name in variant_names() if spec in agents.builtin_names(name)]


def agent_file(spec: str, variant: str = DEFAULT_VARIANT) -> Optional[str]:
    """The file an agent runs, whose content decides its games: a student's .py file, a UCI
    engine's program (found on PATH when named without a folder) or an nthu: program. None for
    a built-in (ours: the project's version covers it) or an engine that cannot be found."""
    if is_file_spec(spec, variant):
        return spec
    if spec.startswith(NTHU_PREFIX):
        return spec[len(NTHU_PREFIX):] or None
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
        if variant != "cs3243":
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
    if spec.startswith(NTHU_PREFIX):
        if variant != "nthu":
            raise AgentError(f"agent '{spec}': nthu:PATH programs play nthu only (--variant nthu)")
        from ..variants.nthu.program import COURSE_TIMEOUT, program_agent_from_spec
        return program_agent_from_spec(spec, move_timeout or COURSE_TIMEOUT, containment(program_box(box)))
    if spec.startswith(UCI_PREFIX):
        if variant != "cs3243":
            raise AgentError(f"agent '{spec}': UCI engines play cs3243 only")
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
