"""The shape of the house: a command is a module, cli.py only assembles them, and no import
circle runs through harness/ (module-level and function-level imports alike)."""
import ast
from pathlib import Path

from harness import cli
from harness.commands import COMMANDS

REPO = Path(__file__).resolve().parents[1]
HARNESS = REPO / "harness"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph():
    """{module: set of harness modules it imports}, over every .py file under harness/."""
    modules = {module_name(path): path for path in HARNESS.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                submodules = {f"{base}.{alias.name}" for alias in node.names} & set(modules)
                targets.update(submodules)
                if len(submodules) < len(node.names):      # names defined in the module itself
                    targets.add(base)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_runs_through_harness():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_command_module_is_assembled_and_holds_its_parser_and_run():
    folder = HARNESS / "commands"
    files = {p.stem for p in folder.glob("*.py")} - {"__init__", "common"}
    assert {c.__name__.rsplit(".", 1)[-1] for c in COMMANDS} == files
    for command in COMMANDS:
        assert callable(command.add_parser)
        assert callable(getattr(command, "run", None) or getattr(command, "run_raw", None)), command.__name__
    parser = cli.build_parser()
    names = set(parser._subparsers._group_actions[0].choices)
    assert {"perft", "play", "series", "report", "check", "replay", "congo", "grade", "tournament"} <= names


def test_cli_only_assembles_the_commands():
    tree = ast.parse((HARNESS / "cli.py").read_text(encoding="utf-8"))
    calls = {node.func.attr for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}
    assert "add_argument" not in calls
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert functions == {"build_parser", "main", "entry"}


def test_only_the_cli_imports_the_commands():
    graph = import_graph()
    importers = {name for name, targets in graph.items()
                 if any(t == "harness.commands" or t.startswith("harness.commands.") for t in targets)
                 and not name.startswith("harness.commands")}
    assert importers == {"harness.cli"}
