"""Would the course's autograder accept this file? Static rules first, then one sandboxed call.

Static (the text and its syntax tree): only the allowed modules are imported, anywhere in the
file; none of the rejected words appears anywhere, comments and names included; nothing that
would get round the import rule (`__import__`, `importlib`, `exec`, `eval`); a module-level
`studentAgent` that the course can call with the board alone.
Dynamic (in a sandboxed process, as White, the way the course calls it): nothing printed on
import or during the call, no failure, an answer in the exact form ``((col, row), (col, row))``
that is a legal move on the start board, and the board argument left unchanged.
Each problem is ``(line, text)``; `format_problem` gives ``FILE:LINE: text``.
"""
import ast
import random
from typing import List, Optional, Tuple

from ..core.agent import AgentTimeout
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT, SandboxAgent, StudentCrash
from ..variants.cs3243.game import Game, start_gameboard
from ..variants.cs3243.pieces import WHITE
from ..variants.cs3243.protocol import parse_answer

ALLOWED_MODULES = frozenset((
    "sys", "queue", "collections", "heapq", "array", "copy", "enum", "string", "numbers", "math",
    "decimal", "fractions", "random", "itertools", "functools", "operator", "types", "typing"))
REJECTED_WORDS = ("print", "raise", "stdout", "exception")
DODGES = frozenset(("__import__", "importlib", "exec", "eval"))
AGENT = "studentAgent"

Problem = Tuple[int, str]


def _snippet(text: str, limit: int = 60) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")


def word_problems(text: str) -> List[Problem]:
    """Every line holding a rejected word, in any case (the course matches plain text)."""
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        lower = line.lower()
        for word in REJECTED_WORDS:
            if word in lower:
                problems.append((number, f"contains the word '{word}' (the course rejects "
                                         f"{', '.join(REJECTED_WORDS)} anywhere, comments included)"))
    return problems


def bound_names(tree: ast.AST) -> set:
    """Every name the file binds itself: assigned, a parameter, a def, a class or an import alias.
    A name such as `eval` bound here is the file's own variable, not the built-in. (Import aliases
    are not counted: `import sys as eval` is still a module.)"""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound


def _root_name(node: ast.AST) -> Optional[str]:
    """The name an expression such as `a.b[0](x).c` starts from (`a`), or None."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def import_problems(tree: ast.AST) -> List[Problem]:
    """Imports of modules outside the allowed list, and ways round that rule: a call or reference
    to the built-ins `__import__`, `exec` or `eval` (not a variable or parameter of the file's own
    that happens to have such a name), or any use of `importlib` / `__builtins__`."""
    allowed = ", ".join(sorted(ALLOWED_MODULES))
    own = bound_names(tree)
    problems = []
    for node in ast.walk(tree):
        names: List[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                problems.append((node.lineno, "relative import: only standard modules may be imported"))
                continue
            if node.module == "__future__":
                continue                 # a compiler directive, not a module the file uses
            names = [node.module or ""]
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and (
                node.id in ("importlib", "__builtins__") or (node.id in DODGES and node.id not in own)):
            problems.append((node.lineno, f"uses '{node.id}', which would get round the import rule"))
        elif isinstance(node, ast.Attribute) and node.attr in DODGES and _root_name(node.value) not in own:
            # `sys.modules['builtins'].eval`, `some_module.exec`: the built-in reached another way;
            # a method of the file's own object (`self.eval(...)`, `engine.eval(...)`) is fine
            problems.append((node.lineno, f"uses '{node.attr}', which would get round the import rule"))
        for name in names:
            if name.split(".")[0] not in ALLOWED_MODULES:
                problems.append((node.lineno, f"imports '{name}', which the course does not allow "
                                              f"(allowed: {allowed})"))
    return problems


def agent_problems(tree: ast.Module) -> Tuple[List[Problem], Optional[int]]:
    """Is there a module-level studentAgent the course can call with the board alone?
    Returns the problems and the line of its definition (None when there is none)."""
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == AGENT for t in targets):
                return [], node.lineno     # assigned: the sandboxed call will tell
        if isinstance(node, ast.AsyncFunctionDef) and node.name == AGENT:
            return [(node.lineno, f"{AGENT} is async; the course calls a plain function")], node.lineno
        if isinstance(node, ast.FunctionDef) and node.name == AGENT:
            args = node.args
            positional = args.posonlyargs + args.args
            required = len(positional) - len(args.defaults)
            problems = []
            if required > 1:
                problems.append((node.lineno, f"{AGENT} needs {required} arguments; the course "
                                              f"passes only the board"))
            elif not positional and not args.vararg:
                problems.append((node.lineno, f"{AGENT} takes no positional argument; the course "
                                              f"passes the board"))
            missing = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
            if missing:
                problems.append((node.lineno, f"{AGENT} needs keyword arguments "
                                              f"{', '.join(missing)} that the course does not pass"))
            return problems, node.lineno
    return [(1, f"no module-level {AGENT}(gameboard) function")], None


def static_problems(text: str) -> Tuple[List[Problem], Optional[ast.Module], Optional[int]]:
    """Problems found without running the file, its tree (None on a syntax error), and the
    line of studentAgent."""
    problems = word_problems(text)
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        return problems + [(exc.lineno or 1, f"syntax error: {exc.msg}")], None, None
    found, line = agent_problems(tree)
    return problems + import_problems(tree) + found, tree, line


def runtime_problems(path: str, agent_line: Optional[int],
                     move_timeout: float = DEFAULT_MOVE_TIMEOUT,
                     warnings: Optional[List[Problem]] = None, box=None) -> List[Problem]:
    """Import the file and call studentAgent once on the start board, in a sandbox."""
    line = agent_line or 1
    problems: List[Problem] = []
    sandbox = SandboxAgent(path, move_timeout, mode="raw", box=box)
    try:
        sandbox.start_game(WHITE, 0)
        if sandbox.failure is not None:
            return [(sandbox.failure_line or 1, f"cannot be imported: {sandbox.failure}")]
        imported = sandbox.import_output_bytes
        if imported:
            problems.append((1, f"prints when imported ({imported} bytes, starting "
                                f"{_snippet(sandbox.printed_output() or '')}); the course rejects printing"))
        if agent_line is None:
            return problems          # no studentAgent to call: already reported
        try:
            answer = sandbox.choose_move(dict(start_gameboard()), WHITE, random.Random(0))
        except AgentTimeout as exc:
            return problems + [(line, f"{AGENT} gives {exc} on the start board")]
        except StudentCrash as exc:
            return problems + [(sandbox.failure_line or line, f"{AGENT} fails on the start board: {exc}")]
        reply = sandbox.last_reply
        printed = sandbox.printed_output(offset=imported)
        if printed:
            problems.append((line, f"{AGENT} prints when called (starting {_snippet(printed)}); "
                                   f"the course rejects printing"))
        if reply.get("move") is None:
            problems.append((line, f"{AGENT} answers {reply.get('repr')}, not a move "
                                   f"((col, row), (col, row))"))
        else:
            if not reply.get("exact") and warnings is not None:
                warnings.append((line, f"{AGENT} answers {reply.get('repr')}, not the course's own form "
                                       f"((col, row), (col, row)) made of tuples; the spec accepts a list"))
            if parse_answer(Game(), answer) is None:
                problems.append((line, f"{AGENT} answers {reply.get('repr')}, which is not a legal "
                                       f"White move on the start board"))
        if reply.get("mutated"):
            problems.append((line, f"{AGENT} changes the board it is given"))
    finally:
        sandbox.close()
    return problems


def check_file(path: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT,
               warnings: Optional[List[Problem]] = None, box=None) -> List[Problem]:
    """Every problem with the file, sorted by line; empty when the course would accept it.
    Things the course accepts but that are worth a look go to `warnings` when it is given."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8-sig")      # a byte-order mark is accepted
    except UnicodeDecodeError as exc:
        return [(data[: exc.start].count(b"\n") + 1, "the file is not UTF-8 text")]
    problems, tree, agent_line = static_problems(text)
    found: List[Problem] = []
    if tree is not None:
        problems += runtime_problems(path, agent_line, move_timeout, found, box)
    if warnings is not None:
        warnings.extend(sorted(set(found)))
    # by line; on one line the reason comes before its consequence (an import the course does not
    # allow before the "cannot be imported" it causes in the box)
    return sorted(set(problems), key=lambda p: (p[0], p[1].startswith("cannot be imported"), p[1]))


def check_summary(path: str, move_timeout: float = DEFAULT_MOVE_TIMEOUT, box=None,
                  name: Optional[str] = None) -> dict:
    """The check as report.json gives it: accepted, and the problems and warnings as text, each
    naming the file as `name` (default its path).
    `box`: a harness.isolation.box.BoxSettings to run the file's import and call in."""
    warnings: List[Problem] = []
    problems = check_file(path, move_timeout, warnings, box)
    shown = name or path
    return {"accepted": not problems, "problems": [format_problem(shown, p) for p in problems],
            "warnings": [format_problem(shown, w, "warning") for w in warnings]}


def format_problem(path: str, problem: Problem, kind: str = "") -> str:
    return f"{path}:{problem[0]}: {kind + ': ' if kind else ''}{problem[1]}"
