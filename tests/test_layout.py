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


# The layers, lowest first: a module may import its own folder or a folder of a LOWER layer, never
# one of its own layer or above (function-level imports included). "harness" is the entry
# (cli.py, __main__.py); "agents" is the top-level agents/ package, which harness.players alone
# imports. A new folder under harness/ must be given its layer here. In words: commands ->
# features -> shared services (running games, the game review, views, statistics) -> players and
# isolation -> variants -> core contracts.
LAYERS = [
    {"core"},                                           # contracts: variant, Move, Agent, Analyser, game, referee, records
    {"variants"},                                       # the games
    {"isolation"},                                      # running untrusted code
    {"agents"},                                         # our agents (agents/)
    {"players"},                                        # agent specs -> agents
    {"stats"},                                          # numbers only (the Elo fit too)
    {"runs"},                                           # series, results, pool, progress, cluster, round robin
    # The game review is a shared service, not one feature's: every page (the viewer shows a game's
    # review), report.md, replay and the web app read its analysis.jsonl store and its text, so the
    # whole of analysis/ (analysers, formulas, store, text, run) sits under the views; `analyse` is
    # its command.
    {"analysis"},
    {"view"},                                           # board geometry, the game viewer page, plots, templates
    {"puzzles", "congo_tester", "play", "similarity", "training"},  # features on the runs (training: train-nnue)
    {"grading", "replay"},                              # features on the reports (grading/report_html.py: report.html)
    {"compare", "tournament", "web"},                   # features on the reports and the round robin
    {"commands"},
    {"harness"},                                        # the entry: cli.py, __main__.py
]

# (importer, imported): imports that still run against the layers, each with why it is left.
UPWARD_ALLOWED: dict = {}


def folder_of(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "agents":
        return "agents"
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (HARNESS / parts[1]).is_dir()) else "harness"


def layer_of(folder: str) -> int:
    return next(number for number, folders in enumerate(LAYERS) if folder in folders)


def agents_import_graph():
    """{agents module: set of harness modules it imports}, over agents/."""
    modules = {module_name(path) for path in HARNESS.rglob("*.py")}
    graph = {}
    for path in (REPO / "agents").rglob("*.py"):
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = {f"{node.module}.{alias.name}" for alias in node.names}
                targets.update((names & modules) or {node.module})
        graph[module_name(path)] = {t for t in targets if t in modules}
    return graph


def upward_imports(graph):
    """(importer, imported) pairs that do not run down the layers."""
    found = set()
    for name, targets in graph.items():
        for target in targets:
            source, folder = folder_of(name), folder_of(target)
            if source != folder and layer_of(folder) >= layer_of(source):
                found.add((name, target))
    return found


def test_every_folder_has_a_layer():
    folders = {path.name for path in HARNESS.iterdir() if path.is_dir() and any(path.glob("*.py"))}
    placed = set().union(*LAYERS) - {"harness", "agents"}
    assert folders == placed


def test_the_root_of_harness_keeps_the_entry_only():
    assert {path.name for path in HARNESS.glob("*.py")} == {"__init__.py", "__main__.py", "cli.py"}


def test_imports_run_down_the_layers():
    graph = {**import_graph(), **agents_import_graph()}
    assert upward_imports(graph) == set(UPWARD_ALLOWED)


def test_the_layer_check_finds_an_import_running_up_or_sideways():
    graph = {"harness.core.game": {"harness.runs.series"},            # up
             "harness.runs.series": {"harness.core.game", "harness.runs.results"},   # down, own folder
             "harness.grading.report": {"harness.replay"},               # sideways: the same layer
             "agents.nthu.analyser": {"harness.core.analyser"}}          # down
    assert upward_imports(graph) == {("harness.core.game", "harness.runs.series"),
                                     ("harness.grading.report", "harness.replay")}


def test_stats_holds_numbers_only():
    """stats/ computes; the lines of text that show its numbers live with what prints them
    (harness/view/text.py, harness/compare/text.py): no function of stats returns a str."""
    texts = []
    for path in (HARNESS / "stats").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and isinstance(node.returns, ast.Name) and node.returns.id == "str":
                texts.append(f"{path.name}:{node.name}")
    assert texts == []
