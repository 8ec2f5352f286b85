"""harness/ by layer (issue 50): move modules into folders and rewrite every reference to them.

Run from the repository root, on a clean work tree (commit or stash first: the run is checked by
`git diff`, and undone by `git reset --hard && git clean -fd harness`):

    python tools/relayout.py            # move, rewrite, print a summary
    python tools/relayout.py --dry-run  # print what would change, touch nothing

Deterministic and idempotent: a move whose source is gone is done already; a name is rewritten only
from an old module name that no longer exists, so a second run changes nothing. Standard library
only (it runs before anything is installed), `git mv` for the moves so history follows the files.

Steps, in order: MOVES, the rewrite for them, DEFINITION_MOVES, the rewrite for those.
1. MOVES: `git mv` each old path (a file or a folder) to its new path; folders that become packages
   get an ``__init__.py`` (PACKAGES) unless they have one (harness/grading/ may exist already:
   the moves merge into it).
2. DEFINITION_MOVES: top-level definitions carried by name from one module to another (their
   source lines by the syntax tree, with the imports they use); the old module imports back what
   it still uses. A carried definition that uses something left behind stops the run with a
   one-line message (the moves and the first rewrite are done; add the name to the table, run again).
3. Every tracked text file is rewritten, old name -> new name:
   - Python imports, by the syntax tree: ``from harness import series`` -> ``from harness.runs import
     series``; relative imports resolved from where the file stood (``from .series import X``,
     ``from ..html_report import Y``) and written relative to where it stands now; a name carried by
     step 2 imported from its new module;
   - everywhere else (dotted strings for importlib, monkeypatch, mock.patch, ``-m``; comments; docs;
     Makefile, pyproject, .ci): ``harness.series`` -> ``harness.runs.series`` and
     ``harness/series.py`` -> ``harness/runs/series.py`` as whole names;
   - FIXES: the few lines that name a place relative to their own file (``__file__``), changed
     because the file moved deeper; a fix whose old text is missing and new text absent is reported.
"""
import argparse
import ast
import os
import re
import subprocess
import sys
from collections import OrderedDict
from typing import Dict, List, Optional, Tuple

# old path -> new path, relative to the repository root. A module that becomes a folder's
# __init__.py keeps its import name (harness.players, harness.stats, harness.replay,
# harness.tournament): no old name is a prefix of a new one, which keeps the rewrite idempotent.
MOVES: Dict[str, str] = OrderedDict([
    # core: the contracts every layer above builds on
    ("harness/agent.py", "harness/core/agent.py"),
    ("harness/game.py", "harness/core/game.py"),
    ("harness/referee.py", "harness/core/referee.py"),
    ("harness/records.py", "harness/core/records.py"),
    ("harness/interrupts.py", "harness/core/interrupts.py"),
    ("harness/argtypes.py", "harness/core/argtypes.py"),
    ("harness/analysis/analyser.py", "harness/core/analyser.py"),
    ("harness/variants/base.py", "harness/core/variant.py"),
    # isolation: running untrusted code
    ("harness/box.py", "harness/isolation/box.py"),
    ("harness/sandbox.py", "harness/isolation/sandbox.py"),
    ("harness/sandbox_worker.py", "harness/isolation/sandbox_worker.py"),
    ("harness/student.py", "harness/isolation/student.py"),
    ("harness/untrusted_run.py", "harness/isolation/untrusted_run.py"),
    ("harness/untrusted_env.py", "harness/isolation/untrusted_env.py"),
    ("harness/program_launcher.py", "harness/isolation/program_launcher.py"),
    ("harness/uci.py", "harness/isolation/uci_engine.py"),     # not a third uci.py
    # players: agent specs -> agents
    ("harness/players.py", "harness/players/__init__.py"),
    # runs: many games
    ("harness/series.py", "harness/runs/series.py"),
    ("harness/results.py", "harness/runs/results.py"),
    ("harness/cluster.py", "harness/runs/cluster.py"),
    # stats: numbers only
    ("harness/stats.py", "harness/stats/__init__.py"),
    # view: HTML, board geometry, templates
    ("harness/html_report.py", "harness/view/html.py"),
    ("harness/templates", "harness/view/templates"),
    # features
    ("harness/report.py", "harness/grading/report.py"),
    ("harness/check.py", "harness/grading/file_check.py"),   # not a third check.py
    ("harness/grade.py", "harness/grading/grade.py"),
    ("harness/submission.py", "harness/grading/submission.py"),
    ("harness/gradescope", "harness/grading/gradescope"),
    ("harness/tournament.py", "harness/tournament/__init__.py"),
    ("harness/replay.py", "harness/replay/__init__.py"),
])

# (from file, to file, top-level names): definitions carried between modules, after MOVES.
# Paths are the files' places after MOVES. A carried definition may use the module's imports (copied
# along) but nothing else that stays behind (that would be an import back up: the script stops).
DEFINITION_MOVES: List[Tuple[str, str, Tuple[str, ...], str]] = [  # (from, to, names, the new file's docstring)
    # the worker pool and the progress display: shared by the series, analysis and puzzles
    ("harness/runs/series.py", "harness/runs/pool.py",
     ("PARENT_POLL_SECONDS", "_watch_parent", "_pool_init", "_stop_pool", "_results", "_terminate_quietly",
      "_free_task_lock", "worker_pool", "_numbered", "in_task_order"),
     "The worker pool: tasks run in worker processes that die with the main one, Ctrl-C stops them at\n"
     "once (`worker_pool`, `in_task_order`). Used by the series, the game review and the puzzles."),
    ("harness/runs/series.py", "harness/runs/progress.py",
     ("_Tally", "PROGRESS_MODES", "PLAIN_EVERY_SECONDS", "Progress"),
     "The progress display of a long run (a bar, a plain line every few seconds, or nothing), with\n"
     "the wins, draws and losses so far. Used by the series, the game review and the puzzles."),
    # board geometry: shared by the HTML report and the web app
    ("harness/view/html.py", "harness/view/board.py",
     ("Grid", "positions", "legend", "encode_grid", "move_cells", "board_geometry"),
     "Board geometry: a recorded game's positions as grids, the piece key, a grid encoded for the\n"
     "board script, a move's cells, the board's size. Shared by the HTML pages and the web app."),
]

# A new package's __init__.py, written when the folder has none.
PACKAGES: Dict[str, str] = OrderedDict([
    ("harness/core", "The contracts every layer builds on: the variant interface, Move and Outcome, the Agent and\n"
                     "Analyser contracts, the game runner and referee, game records, Ctrl-C, argument types."),
    ("harness/isolation", "Running untrusted code: the box (bubblewrap and limits), the clean environment, the sandboxed\n"
                          "student agent and its worker, student programs and UCI engines as processes."),
    ("harness/runs", "Running many games: the series (plan, pool, progress), its results store, the cluster."),
    ("harness/view", "Views: the HTML report and its board viewer, the templates they share."),
    ("harness/grading", "Grading: report (the course's figures), file check, class grading, Gradescope, which\n"
                        "file of a submission is graded."),
])

# new file -> [(old text, new text)]: lines that name a place relative to their own file.
FIXES: Dict[str, List[Tuple[str, str]]] = {
    "harness/isolation/box.py": [
        ("HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))",
         "HARNESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))")],
    "harness/isolation/sandbox_worker.py": [
        ("# Run as a script, sys.path[0] is harness/, whose",
         "# Run as a script, sys.path[0] is harness/isolation/, whose"),
        ("sys.path.insert(0, os.path.dirname(_HERE))", "sys.path.insert(0, os.path.dirname(os.path.dirname(_HERE)))")],
    "harness/grading/grade.py": [
        ("REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
         "REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))")],
    "harness/grading/gradescope/bundle.py": [
        ("PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))",
         "PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))")],
    "harness/web/app.py": [
        ('os.path.join(os.path.dirname(HERE), "templates", "style.css")',
         'os.path.join(os.path.dirname(HERE), "view", "templates", "style.css")')],
}

SELF = "tools/relayout.py"
CARRIED: List[str] = []    # the definitions carried by this run
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".cfg", ".ini", ".json", ".js", ".html", ".css", ".yml",
                 ".yaml", ".sh", ".in", ""}
SKIP_PREFIXES = ("tests/fixtures/",)


def dotted(path: str) -> str:
    """harness/runs/series.py -> harness.runs.series; harness/stats/__init__.py -> harness.stats."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class Names:
    """Old module name -> new module name, for modules and whole folders."""

    def __init__(self, moves: Dict[str, str]):
        self.exact: Dict[str, str] = {}
        self.folders: Dict[str, str] = {}
        for old, new in moves.items():
            if old.endswith(".py"):
                self.exact[dotted(old)] = dotted(new)
            else:
                self.folders[dotted(old)] = dotted(new)

    def new(self, name: str) -> str:
        if name in self.exact:
            return self.exact[name]
        for old, new in self.folders.items():
            if name == old or name.startswith(old + "."):
                return new + name[len(old):]
        return name

    def pairs(self) -> List[Tuple[str, str]]:
        """(old, new) dotted names that differ, longest first."""
        found = {old: new for old, new in {**self.exact, **self.folders}.items() if old != new}
        return sorted(found.items(), key=lambda pair: -len(pair[0]))


def path_pairs(moves: Dict[str, str]) -> List[Tuple[str, str]]:
    return sorted(((old, new) for old, new in moves.items() if old != new), key=lambda pair: -len(pair[0]))


WIDTH = 120     # a rewritten import wraps past this, in the project's style: `from X import (a, b,` + aligned


def format_from(module: str, items: List[str], indent: str = "") -> str:
    """`from module import items`, wrapped in parentheses (continuation aligned) past WIDTH."""
    head = f"{indent}from {module} import "
    line = head + ", ".join(items)
    if len(line) <= WIDTH:
        return line
    lines, current = [], head + "("
    pad = " " * len(current)
    for number, item in enumerate(items):
        piece = item + (")" if number == len(items) - 1 else ",")
        if current.strip() and len(current) + len(piece) > WIDTH and current != head + "(":
            lines.append(current.rstrip())
            current = pad
        current += piece + ("" if number == len(items) - 1 else " ")
    lines.append(current)
    return "\n".join(lines)


def alias_text(alias: ast.alias) -> str:
    return alias.name + (f" as {alias.asname}" if alias.asname else "")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def tracked_files() -> List[str]:
    return sorted(path for path in git("ls-files", "-z").split("\0") if path and os.path.isfile(path))


# ---- step 1: moves ---------------------------------------------------------------------------

def move_files(dry_run: bool) -> Dict[str, str]:
    """Run the pending moves; {new file path: old file path} for every file moved."""
    moved: Dict[str, str] = {}
    for old, new in MOVES.items():
        if not os.path.exists(old):
            continue                    # done already (or gone on this tree): nothing to move
        if os.path.isdir(old):
            files = [path for path in tracked_files() if path.startswith(old + "/")]
            pairs = [(path, new + path[len(old):]) for path in files]
        else:
            pairs = [(old, new)]
        for source, target in pairs:
            if os.path.exists(target):
                sys.exit(f"relayout: {source} -> {target}: the target exists already")
            moved[target] = source
            print(f"  git mv {source} {target}")
            if not dry_run:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                git("mv", source, target)
        if not dry_run and os.path.isdir(old):
            remove_empty_tree(old)
    for folder, doc in PACKAGES.items():
        init = os.path.join(folder, "__init__.py")
        if os.path.isdir(folder) and not os.path.exists(init):
            print(f"  new {init}")
            if not dry_run:
                with open(init, "w", encoding="utf-8") as out:
                    out.write(f'"""{doc}"""\n')
                git("add", init)
    return moved


def remove_empty_tree(folder: str) -> None:
    """A moved folder's leftovers (__pycache__) removed, so no namespace package stays behind."""
    for root, dirs, files in os.walk(folder, topdown=False):
        for name in files:
            if root.endswith("__pycache__"):
                os.remove(os.path.join(root, name))
        if not os.listdir(root):
            os.rmdir(root)


# ---- step 2: definitions carried by name -----------------------------------------------------

def top_level_spans(tree: ast.Module, source_lines: List[str]) -> Dict[str, Tuple[int, int]]:
    """name -> (first line, last line), 0-based inclusive, decorators and comments right above it included."""
    spans = {}
    for node in tree.body:
        names = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [target.id for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        while first > 0 and source_lines[first - 1].lstrip().startswith("#"):
            first -= 1
        for name in names:
            spans[name] = (first, node.end_lineno - 1)
    return spans


def used_names(nodes: List[ast.AST]) -> set:
    found = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                found.add(sub.id)
    return found


def import_bindings(tree: ast.Module) -> Dict[str, ast.stmt]:
    """name bound by a module-level import -> the import statement."""
    bound = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound[(alias.asname or alias.name).split(".")[0]] = node
    return bound


def import_text(node: ast.stmt, names: set, source_module: str, target_module: str) -> str:
    """The import statement `node` of `source_module`, keeping only the aliases that bind one of
    `names`, as written in `target_module`."""
    keep = [alias for alias in node.names if (alias.asname or alias.name).split(".")[0] in names]
    if isinstance(node, ast.Import):
        return f"import {', '.join(alias_text(alias) for alias in keep)}"
    module = node.module or ""
    if node.level:
        module = relative_module(target_module, resolve(source_module.rsplit(".", 1)[0], node.level, node.module))
    return format_from(module, [alias_text(alias) for alias in keep])


def import_group(statement: str) -> int:
    """0: the standard library, 1: installed packages, 2: the project (harness, agents, relative)."""
    module = statement.split()[1].split(".")[0]
    if not module or module in ("harness", "agents"):
        return 2
    return 0 if module in sys.stdlib_module_names else 1


def move_definitions(dry_run: bool) -> Dict[Tuple[str, str], str]:
    """Carry DEFINITION_MOVES; {(old module, name): new module} for the import rewrite."""
    carried: Dict[Tuple[str, str], str] = {}
    for source, target, names, doc in DEFINITION_MOVES:
        old_module, new_module = dotted(source), dotted(target)
        for name in names:
            carried[(old_module, name)] = new_module
        if not os.path.exists(source):
            continue
        text = open(source, encoding="utf-8").read()
        lines = text.splitlines(keepends=True)
        tree = ast.parse(text)
        spans = top_level_spans(tree, lines)
        present = [name for name in names if name in spans]
        if not present:
            continue                    # carried already
        missing = [name for name in names if name not in spans]
        if missing and not os.path.exists(target):
            sys.exit(f"relayout: {source}: no top-level {', '.join(missing)} to carry to {target}")
        chosen = sorted({spans[name] for name in present})
        carried_nodes = [node for node in tree.body
                         if any(first <= node.lineno - 1 <= last for first, last in chosen)]
        needed = used_names(carried_nodes)
        bindings = import_bindings(tree)
        staying = set(spans) - set(present)
        upward = sorted(needed & staying)
        if upward:
            sys.exit(f"relayout: {source} -> {target}: the carried definitions use {', '.join(upward)}, "
                     "which stays behind (carry it too)")
        imports = OrderedDict()
        for name in sorted(needed & set(bindings)):
            node = bindings[name]
            imports.setdefault(id(node), [node, set()])[1].add(name)
        header = [import_text(node, used, old_module, new_module)
                  for node, used in sorted(imports.values(), key=lambda v: v[0].lineno)]
        body = "".join("".join(lines[first:last + 1]).rstrip("\n") + "\n\n\n" for first, last in chosen)
        print(f"  carry {', '.join(present)}: {source} -> {target}")
        CARRIED.extend(present)
        if dry_run:
            continue
        # the source keeps the rest and imports back what it still uses of the carried names
        kept = [line for number, line in enumerate(lines)
                if not any(first <= number <= last for first, last in chosen)]
        rest_text = re.sub(r"\n{4,}", "\n\n\n", "".join(kept))
        rest_tree = ast.parse(rest_text)
        still_used = sorted(used_names([node for node in rest_tree.body]) & set(present))
        # the target: new file (docstring naming where it came from) or appended to an existing one
        if os.path.exists(target):
            old_target = open(target, encoding="utf-8").read().rstrip("\n") + "\n\n\n"
            target_text = add_imports(old_target, header) + body
        else:
            groups = [[h for h in header if import_group(h) == group] for group in range(3)]
            imports_text = "\n\n".join("\n".join(group) for group in groups if group)
            target_text = f'"""{doc}"""\n' + imports_text + ("\n\n\n" if header else "\n\n") + body
        with open(target, "w", encoding="utf-8") as out:
            out.write(target_text.rstrip("\n") + "\n")
        git("add", target)
        if still_used:
            relative = relative_module(dotted(source), new_module)
            rest_text = add_imports(rest_text, [format_from(relative, still_used)])
        rest_text = drop_unused_imports(rest_text, needed & set(bindings))
        with open(source, "w", encoding="utf-8") as out:
            out.write(rest_text.rstrip("\n") + "\n")
    return carried


def add_imports(text: str, statements: List[str]) -> str:
    """`statements` after the last module-level import (or the docstring)."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    statements = [s for s in statements if s + "\n" not in text]
    if not statements:
        return text
    after = 0
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            after = node.end_lineno
        elif after == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            after = node.end_lineno
        elif after:
            break
    return "".join(lines[:after]) + "".join(s + "\n" for s in statements) + "".join(lines[after:])


def drop_unused_imports(text: str, candidates: set) -> str:
    """Module-level `from X import a, b` aliases among `candidates` (what the carried definitions
    used) no longer used anywhere in the module removed."""
    tree = ast.parse(text)
    used = used_names([node for node in tree.body if not isinstance(node, (ast.Import, ast.ImportFrom))])
    for node in tree.body:         # attribute roots and names in strings (__all__) count too
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                used.update(re.findall(r"\w+", sub.value))
    lines = text.splitlines(keepends=True)
    for node in reversed(tree.body):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or getattr(node, "module", None) == "__future__":
            continue
        bound = [(a, (a.asname or a.name).split(".")[0]) for a in node.names]
        keep = [a for a, name in bound if name in used or name not in candidates]
        if len(keep) == len(node.names):
            continue
        replacement = ""
        if keep and isinstance(node, ast.Import):
            replacement = f"import {', '.join(alias_text(a) for a in keep)}\n"
        elif keep:
            replacement = format_from("." * node.level + (node.module or ""), [alias_text(a) for a in keep]) + "\n"
        lines[node.lineno - 1:node.end_lineno] = [replacement]
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    if not imports:
        return "".join(lines)
    first, last = imports[0].lineno - 1, imports[-1].end_lineno
    head, block, rest = "".join(lines[:first]), "".join(lines[first:last]), "".join(lines[last:])
    if len(lines) < last:      # (the last import was dropped past the end: nothing to tidy)
        return "".join(lines)
    return head + re.sub(r"\n{3,}", "\n\n", block) + rest


# ---- step 3: rewriting names -----------------------------------------------------------------

def relative_module(from_module: str, target: str, is_package: bool = False) -> str:
    """`target` as seen from the module `from_module` (relative inside harness/, else absolute)."""
    package = from_module if is_package else from_module.rsplit(".", 1)[0]
    if not (target == "harness" or target.startswith("harness.")) or not (
            package == "harness" or package.startswith("harness.")):
        return target
    here, there = package.split("."), target.split(".")
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    level = len(here) - common + 1
    return "." * level + ".".join(there[common:])


def resolve(package: str, level: int, module: Optional[str]) -> str:
    parts = package.split(".")
    base = parts[:len(parts) - level + 1] if level else []
    return ".".join(base + ([module] if module else []))


def rewrite_imports(text: str, old_path: str, new_path: str, names: Names, modules: set,
                    carried: Dict[Tuple[str, str], str]) -> Tuple[str, int]:
    """Every `from ... import ...` whose module, or a name of it, moved; relative imports of a moved file."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text, 0
    old_module, new_module = dotted(old_path), dotted(new_path)
    old_package = old_module if old_path.endswith("__init__.py") else old_module.rsplit(".", 1)[0]
    is_package = new_path.endswith("__init__.py")
    file_moved = old_path != new_path
    lines = text.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
            continue
        if node.level and not old_path.startswith("harness/"):
            continue
        base = resolve(old_package, node.level, node.module) if node.level else node.module
        groups: Dict[str, List[str]] = OrderedDict()
        changed = False
        for alias in node.names:
            full = f"{base}.{alias.name}"
            if full in modules or names.new(full) != full:
                target = names.new(full)
                parent, leaf = target.rsplit(".", 1)
                bound = alias.asname or alias.name
                item = leaf if bound == leaf else f"{leaf} as {bound}"
                changed |= target != full
            else:
                parent = carried.get((names.new(base), alias.name), names.new(base))
                item = alias.name + (f" as {alias.asname}" if alias.asname else "")
                changed |= parent != base
            groups.setdefault(parent, []).append(item)
        if not changed and not (node.level and file_moved):
            continue
        indent = lines[node.lineno - 1][:node.col_offset]
        if node.level:
            written = {parent: relative_module(new_module, parent, is_package) for parent in groups}
        else:
            written = {parent: parent for parent in groups}
        if len(groups) == 1 and list(groups.values())[0] == [
                a.name + (f" as {a.asname}" if a.asname else "") for a in node.names]:
            # only the module changed: keep the statement's own layout (parentheses, wrapping)
            segment = "".join(lines[node.lineno - 1:node.end_lineno])
            tail = lines[node.end_lineno - 1][node.end_col_offset:]
            inner = segment[node.col_offset:len(segment) - len(tail)]
            if node.lineno != node.end_lineno and "#" not in inner:
                # wrapped: wrapped again, so the continuation lines align with the new module's parenthesis
                edits.append((node.lineno - 1, node.end_lineno,
                              indent + format_from(written[list(groups)[0]], list(groups.values())[0], indent).lstrip()
                              + tail))
                continue
            new_segment = segment[:node.col_offset] + re.sub(
                r"^from\s+[.\w]+(\s+import\b)", lambda m: "from " + written[list(groups)[0]] + m.group(1),
                segment[node.col_offset:], count=1)
            edits.append((node.lineno - 1, node.end_lineno, new_segment))
        else:
            statements = [format_from(written[parent], items, indent).lstrip() for parent, items in groups.items()]
            head = lines[node.lineno - 1][:node.col_offset]
            tail = lines[node.end_lineno - 1][node.end_col_offset:]
            comment = tail.rstrip("\n") if tail.strip().startswith("#") else ""   # a noqa applies to each
            if comment:
                statements = [statement + comment for statement in statements[:-1]] + statements[-1:]
            edits.append((node.lineno - 1, node.end_lineno,
                          head + ("\n" + indent).join(statements) + tail))
    for first, last, replacement in sorted(edits, reverse=True):
        lines[first:last] = [replacement]
    return "".join(lines), len(edits)


def rewrite_text(text: str, name_patterns, path_patterns) -> Tuple[str, int]:
    count = 0
    for pattern, new in name_patterns + path_patterns:
        text, found = pattern.subn(new, text)
        count += found
    return text, count


def compile_patterns(names: Names) -> Tuple[list, list]:
    name_patterns = [(re.compile(r"(?<![\w.])" + re.escape(old) + r"(?!\w)"), new) for old, new in names.pairs()]
    path_patterns = []
    for old, new in path_pairs(MOVES):
        tail = r"(?![\w])" if old.endswith(".py") else r"(?![\w.])"
        path_patterns.append((re.compile(r"(?<![\w.-])" + re.escape(old) + tail), new))
    return name_patterns, path_patterns


def apply_fixes(path: str, text: str) -> Tuple[str, int]:
    count = 0
    for old, new in FIXES.get(path, []):
        if new in text:
            continue
        if old not in text:
            print(f"  FIX NOT APPLIED: {path}: {old!r} not found; check the file by hand")
            continue
        text = text.replace(old, new)
        count += 1
    return text, count


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="print the moves, change nothing")
    args = parser.parse_args(argv)
    if not os.path.isdir("harness") or not os.path.isdir(".git") and not os.path.isfile(".git"):
        print("relayout: run me from the repository root", file=sys.stderr)
        return 2
    names = Names(MOVES)
    before = tracked_files()
    modules = {dotted(path) for path in before if path.endswith(".py")}
    modules |= {dotted(os.path.dirname(path)) for path in before if path.endswith("__init__.py")}
    moved = move_files(args.dry_run)
    if args.dry_run:
        print(f"relayout (dry run): {len(moved)} files to move")
        return 0
    rewritten, replacements = rewrite_all(moved, names, modules, {}, compile_patterns(names), fixes=True)
    carried = move_definitions(args.dry_run)
    modules |= {dotted(target) for _, target, _, _ in DEFINITION_MOVES}
    carried_patterns = ([(re.compile(r"(?<![\w.])" + re.escape(f"{old}.{name}") + r"(?!\w)"), f"{new}.{name}")
                         for (old, name), new in carried.items()], [])
    files, count = rewrite_all({}, Names({}), modules, carried, carried_patterns, fixes=False)
    for path, fixes in FIXES.items():
        if not os.path.exists(path):
            print(f"  FIX NOT APPLIED: {path} does not exist")
    print(f"relayout: {len(moved)} files moved, {len(CARRIED)} definitions carried, "
          f"{rewritten + files} files rewritten, {replacements + count} replacements")
    return 0


def rewrite_all(moved: Dict[str, str], names: Names, modules: set, carried: Dict[Tuple[str, str], str],
                patterns, fixes: bool) -> Tuple[int, int]:
    """Every tracked text file rewritten; (files changed, replacements)."""
    name_patterns, path_patterns = patterns
    rewritten, replacements = 0, 0
    for path in tracked_files():
        if path == SELF or path.startswith(SKIP_PREFIXES):
            continue
        suffix = os.path.splitext(path)[1]
        if suffix not in TEXT_SUFFIXES:
            continue
        try:
            with open(path, encoding="utf-8") as source:
                text = source.read()
        except UnicodeDecodeError:
            continue
        new_text, count = text, 0
        if suffix == ".py":
            new_text, found = rewrite_imports(new_text, moved.get(path, path), path, names, modules, carried)
            count += found
        new_text, found = rewrite_text(new_text, name_patterns, path_patterns)
        count += found
        if fixes:
            new_text, found = apply_fixes(path, new_text)
            count += found
        if new_text != text:
            with open(path, "w", encoding="utf-8") as out:
                out.write(new_text)
            rewritten += 1
            replacements += count
    return rewritten, replacements


if __name__ == "__main__":
    sys.exit(main())
