"""How well `similar` finds disguised copies, and how fast it compares a big class.

1. Detection. Files this repository wrote (AB.py, the agents, the exported NTHU player, the
   Congo programs, and the C++ students of tests/fixtures/nthu_class/ when that folder exists)
   are the "public solutions" (--reference); for each disguise level a class holds one disguised
   copy of each, plus independently written files (other modules of this repository). Printed
   per level: the copies whose most similar partner is their source and that are flagged, the
   copies' similarity to their source (min, median), and the pairs of independent files flagged
   (and the highest similarity among them). A pair is independent when the two files share no
   origin (the exported player's origins are its three modules). Then two students who each
   changed one template in their own way: their similarity with and without --template.
2. Speed. A class of --students (300) against --earlier (1,000) earlier files: synthetic
   students made of 20 to 40 functions drawn from this repository's code (renamed), a tenth of
   them disguised copies of the sources; the wall time of the whole comparison, the peak memory
   of this process and of the largest worker, at --jobs (2).

Disguise levels (cumulative up to 5; 6-8 add to level 5; C++ files get levels 1-5 only):
  0 exact        the file as it is
  1 renamed      every name the file defines renamed consistently
  2 reformatted  spacing around every token changed, blank lines added
  3 comments     comments removed, docstrings rewritten, new comments added
  4 reordered    top-level functions and classes, and methods within classes, shuffled
  5 dead code    a dead statement after about every fourth statement, and unused functions
  6 split/merge  long functions split in two (the second half called from the first), adjacent
                 short functions merged into one with a selector argument
  7 loops        `for ... in range(...)` loops turned into `while` loops, list comprehensions
                 assigned to a name turned into loops with append
  8 all          6 and 7

Run: python bench/similarity.py [--levels 0-8] [--students 300] [--earlier 1000] [--jobs 2]
                                [--k 12] [--window 8] [--cpp PATH ...] [--skip-speed] [--skip-detection]
                                [--seed 1]
"""
import argparse
import ast
import builtins
import io
import json
import keyword
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tokenize

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == HERE:     # run as a script (not imported by a test):
    sys.path[0] = ROOT                                                   # bench/html.py must not hide `html`

from harness import similarity  # noqa: E402
from harness.core.interrupts import exit_code  # noqa: E402
from harness.similarity.sources import language_of  # noqa: E402
from harness.similarity import compare  # noqa: E402
from harness.similarity.sources import Member, Source  # noqa: E402
from harness.similarity.tokens import normalised  # noqa: E402
from harness.variants.nthu.export import SOURCES as EXPORT_SOURCES, program_text  # noqa: E402

SOURCES = ("AB.py", "agents/minimax.py", "agents/smart.py", "agents/nthu/search.py", "agents/nthu/baselines.py",
           "agents/congo/ab.py", "agents/congo/course.py", "harness/variants/congo/rules.py",
           "harness/variants/congo/search.py", "harness/variants/congo/programs.py",
           "harness/variants/congo/__init__.py", "harness/variants/nthu/core.py")
INDEPENDENT = ("harness/stats/__init__.py", "harness/runs/results.py", "harness/core/referee.py",
               "harness/isolation/box.py", "harness/grading/file_check.py",
               "harness/isolation/uci_engine.py", "harness/tournament/__init__.py", "harness/variants/cs3243/rules.py",
               "harness/variants/cs3243/fen.py", "harness/variants/nthu/program.py", "harness/isolation/sandbox.py",
               "harness/replay/__init__.py")
CPP_CLASS = os.path.join(ROOT, "tests", "fixtures", "nthu_class")
TEMPLATE = ("harness/variants/cs3243/config.py",)
TEMPLATE_OWN = (("agents/greedy.py", "agents/random_agent.py", "harness/core/argtypes.py"),
                ("agents/dummy.py", "agents/smart.py", "harness/core/interrupts.py"))
LEVELS = ("exact", "renamed", "reformatted", "comments", "reordered", "dead code", "split/merge", "loops", "all")
WORDS = ("alpha", "beta", "node", "item", "val", "tmp", "res", "cnt", "buf", "ptr", "acc", "idx", "obj", "data",
         "elem", "key", "cur", "nxt", "aux", "ret", "sum", "best", "work", "piece", "cell")
KEPT = set(dir(builtins)) | set(keyword.kwlist) | {"self", "cls", "__init__", "__name__", "__main__"}


def read(rel: str) -> str:
    with open(os.path.join(ROOT, rel), encoding="utf-8") as handle:
        return handle.read()


# ----------------------------------------------------------------------------- Python disguises

def _tokens(text: str):
    return list(tokenize.generate_tokens(io.StringIO(text).readline))


def _defined_names(text: str) -> set:
    """Names the file defines (functions, classes, arguments, assigned names and attributes),
    not the ones it imports."""
    tree = ast.parse(text)
    names, imported = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
    return {n for n in names - imported if n not in KEPT and not n.startswith("__")}


def rename(text: str, rng: random.Random) -> str:
    mapping, used = {}, set()
    for name in sorted(_defined_names(text)):
        while True:
            new = f"{rng.choice(WORDS)}_{rng.randrange(10000)}"
            if new not in used:
                break
        used.add(new)
        mapping[name] = new
    lines = text.splitlines(True)
    for tok in reversed(_tokens(text)):
        if tok.type == tokenize.NAME and tok.string in mapping:
            (row, col), (_, end) = tok.start, tok.end
            line = lines[row - 1]
            lines[row - 1] = line[:col] + mapping[tok.string] + line[end:]
    return "".join(lines)


def reformat(text: str, rng: random.Random) -> str:
    """Every token spaced anew (tokenize's own compatible layout), indentation two spaces per
    level, blank lines added between lines."""
    out, depth = [], 0
    for tok in _tokens(text):
        if tok.type == tokenize.INDENT:
            depth += 1
            out.append((tok.type, "  " * depth))
        elif tok.type == tokenize.DEDENT:
            depth -= 1
            out.append((tok.type, ""))
        else:
            out.append((tok.type, tok.string))
    lines = tokenize.untokenize(out).splitlines(True)
    result = []
    for line in lines:
        result.append(line.rstrip() + "\n")
        if rng.random() < 0.15:
            result.append("\n")
    return "".join(result)


def rewrite_comments(text: str, rng: random.Random) -> str:
    """Comments removed, docstrings replaced by other words, a new comment on some lines."""
    lines = text.splitlines(True)
    tree = ast.parse(text)
    docs = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docs.append(first.value)
    edits = []
    for doc in docs:
        edits.append((doc.lineno, doc.col_offset, doc.end_lineno, doc.end_col_offset,
                      repr(f"{rng.choice(WORDS)} {rng.choice(WORDS)} helper, written for the assignment")))
    for tok in _tokens(text):
        if tok.type == tokenize.COMMENT:
            edits.append((tok.start[0], tok.start[1], tok.end[0], tok.end[1], ""))
    for row, col, end_row, end_col, new in sorted(edits, reverse=True):
        head, tail = lines[row - 1][:col], lines[end_row - 1][end_col:]
        lines[row - 1:end_row] = [head + new + tail]
    out = []
    for line in lines:
        if line.strip() and rng.random() < 0.1 and not line.rstrip().endswith("\\"):
            line = line.rstrip("\n") + f"  # {rng.choice(WORDS)} {rng.choice(WORDS)}\n"
        out.append(line)
    return "".join(out)


def _blocks(lines, indent: str):
    """Split lines into chunks at `indent`-level def/class/decorator lines: (is_def, lines)."""
    chunks, current, is_def = [], [], False
    starters = tuple(indent + s for s in ("def ", "class ", "@", "async def "))
    for line in lines:
        starts = line.startswith(starters) and not (current and current[-1].lstrip().startswith("@") and is_def)
        other = line.strip() and not line.startswith(indent + " ") and not line.startswith(starters) and \
            len(line) - len(line.lstrip()) <= len(indent)
        if starts or (other and is_def):
            if current:
                chunks.append((is_def, current))
            current, is_def = [], bool(starts)
        current.append(line)
    if current:
        chunks.append((is_def, current))
    return chunks


def reorder(text: str, rng: random.Random) -> str:
    """Runs of adjacent top-level functions/classes shuffled, and the methods within each class."""
    def shuffle(lines, indent):
        chunks, out, run = _blocks(lines, indent), [], []
        for is_def, chunk in chunks + [(False, [])]:
            if is_def:
                run.append(chunk)
                continue
            rng.shuffle(run)
            for item in run:
                out.extend(_within(item, indent))
            run = []
            out.extend(chunk)
        return out

    def _within(chunk, indent):
        if chunk[0].startswith(indent + "class ") and indent == "":
            head = [chunk[0]]
            return head + shuffle(chunk[1:], "    ")
        return chunk
    lines = [line if line.endswith("\n") else line + "\n" for line in text.splitlines(True)]
    result = "".join(shuffle(lines, ""))
    ast.parse(result)
    return result


DEAD = ("{v} = {n}", "{v} = len([]) + {n}", "if {v0} is None and {n} < 0:\n{i}    {v} = [{n}, {n}]",
        "for {v} in range(0):\n{i}    pass", "{v} = ({n}, {n})")


def _dead(rng: random.Random, indent: str) -> str:
    return indent + rng.choice(DEAD).format(v=f"{rng.choice(WORDS)}_{rng.randrange(999)}", v0=rng.choice(WORDS),
                                           n=rng.randrange(100), i=indent) + "\n"


def add_dead_code(text: str, rng: random.Random) -> str:
    """A dead statement before about every fourth statement (never before elif/else/except/
    finally), and two unused functions at the end."""
    starts = {}
    at_start, after_decorator = True, False
    for tok in _tokens(text):
        if tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL, tokenize.COMMENT):
            at_start = at_start or tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
            continue
        if at_start:
            if (tok.string not in ("elif", "else", "except", "finally", "@") and tok.type != tokenize.ENDMARKER
                    and not after_decorator):
                starts[tok.start[0]] = tok.start[1]
            after_decorator = tok.string == "@"
        at_start = False
    lines, out = text.splitlines(True), []
    for number, line in enumerate(lines, 1):
        if number in starts and rng.random() < 0.25:
            out.append(_dead(rng, line[:starts[number]]))
        out.append(line)
    for _ in range(2):
        out.append(f"\n\ndef {rng.choice(WORDS)}_{rng.randrange(999)}(a, b):\n    c = a * {rng.randrange(9)} + b\n"
                   f"    return [c, a] if c > b else [b]\n")
    result = "".join(out)
    ast.parse(result)
    return result


class _SplitMerge(ast.NodeTransformer):
    def __init__(self, rng):
        self.rng = rng

    def split(self, body):
        out = []
        for node in body:
            if isinstance(node, ast.FunctionDef) and len(node.body) >= 6:
                mid = len(node.body) // 2
                tail = ast.FunctionDef(name=node.name + "_rest", args=node.args, body=node.body[mid:],
                                       decorator_list=[], returns=None, type_comment=None, type_params=[])
                call = ast.Call(func=ast.Name(tail.name, ast.Load()),
                                args=[ast.Name(a.arg, ast.Load()) for a in node.args.args], keywords=[])
                node.body = node.body[:mid] + [ast.Return(call)]
                out.extend([node, tail])
            else:
                out.append(node)
        return out

    def merge(self, body):
        out, i = [], 0
        while i < len(body):
            f = body[i]
            g = body[i + 1] if i + 1 < len(body) else None
            small = (isinstance(f, ast.FunctionDef) and isinstance(g, ast.FunctionDef) and len(f.body) <= 4
                     and len(g.body) <= 4 and not f.decorator_list and not g.decorator_list)
            if small:
                args = ast.arguments(posonlyargs=[], args=[ast.arg("which")] + f.args.args + g.args.args,
                                     kwonlyargs=[], kw_defaults=[], defaults=[])
                test = ast.Compare(ast.Name("which", ast.Load()), [ast.Eq()], [ast.Constant(0)])
                merged = ast.FunctionDef(name=f.name + "_" + g.name, args=args, body=[ast.If(test, f.body, g.body)],
                                         decorator_list=[], returns=None, type_comment=None, type_params=[])
                out.append(merged)
                i += 2
            else:
                out.append(f)
                i += 1
        return out

    def visit_Module(self, node):
        self.generic_visit(node)
        node.body = self.merge(self.split(node.body))
        return node

    def visit_ClassDef(self, node):
        self.generic_visit(node)
        node.body = self.split(node.body)
        return node


class _Loops(ast.NodeTransformer):
    def visit_For(self, node):
        self.generic_visit(node)
        call = node.iter
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "range"
                and 1 <= len(call.args) <= 2 and isinstance(node.target, ast.Name) and not node.orelse
                and not any(isinstance(n, ast.Continue) for n in ast.walk(node))):
            start = call.args[0] if len(call.args) == 2 else ast.Constant(0)
            stop = call.args[-1]
            var = node.target.id
            init = ast.Assign([ast.Name(var, ast.Store())], start, lineno=0)
            test = ast.Compare(ast.Name(var, ast.Load()), [ast.Lt()], [stop])
            step = ast.AugAssign(ast.Name(var, ast.Store()), ast.Add(), ast.Constant(1))
            return [init, ast.While(test, node.body + [step], [])]
        return node

    def visit_Assign(self, node):
        self.generic_visit(node)
        comp = node.value
        if (isinstance(comp, ast.ListComp) and len(comp.generators) == 1 and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and not comp.generators[0].is_async):
            name = node.targets[0].id
            gen = comp.generators[0]
            append = ast.Expr(ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "append", ast.Load()), [comp.elt], []))
            inner = append
            for cond in reversed(gen.ifs):
                inner = ast.If(cond, [inner], [])
            return [ast.Assign([ast.Name(name, ast.Store())], ast.List([], ast.Load()), lineno=0),
                    ast.For(gen.target, gen.iter, [inner], [], lineno=0)]
        return node


def harder(text: str, rng: random.Random, split_merge: bool, loops: bool) -> str:
    tree = ast.parse(text)
    if split_merge:
        tree = _SplitMerge(rng).visit(tree)
    if loops:
        tree = _Loops().visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def disguise_python(text: str, level: int, rng: random.Random) -> str:
    if level >= 1:
        text = rename(text, rng)
    if level >= 3:
        text = rewrite_comments(text, rng)
    if level >= 4:
        text = reorder(text, rng)
    if level >= 5:
        text = add_dead_code(text, rng)
    if level >= 6:
        text = harder(text, rng, split_merge=level in (6, 8), loops=level in (7, 8))
        text = rewrite_comments(text, rng)
    if level >= 2:
        text = reformat(text, rng)
    return text


# ----------------------------------------------------------------------------- C++ disguises (tokens)

def disguise_cpp(text: str, level: int, rng: random.Random) -> str:
    """Levels 1-5 on the token stream: names renamed, layout redone, comments replaced,
    top-level definitions shuffled, dead statements added."""
    from pygments.lexers import CppLexer
    from pygments.token import Comment, Name
    level = min(level, 5)
    if level == 0:
        return text
    tokens = list(CppLexer(stripnl=False).get_tokens(text))
    declared = _cpp_declared(tokens) - {"main"}
    mapping = {}
    out = []
    for kind, value in tokens:
        if level >= 1 and kind in Name and value in declared:
            value = mapping.setdefault(value, f"{rng.choice(WORDS)}_{rng.randrange(10000)}")
        if level >= 3 and kind in Comment and kind not in Comment.Preproc and kind not in Comment.PreprocFile:
            value = f"/* {rng.choice(WORDS)} {rng.choice(WORDS)} */" + ("\n" if value.endswith("\n") else "")
        out.append((kind, value))
    text = "".join(v for _, v in out)
    if level >= 2:
        text = "\n".join(line.replace("(", " ( ").replace(")", " ) ").replace(",", " , ").rstrip()
                         + ("\n" if rng.random() < 0.2 else "") for line in text.split("\n"))
    if level >= 4:
        text = _shuffle_cpp_top_level(text, rng)
    if level >= 5:
        lines, result, depth = text.split("\n"), [], 0
        for line in lines:
            result.append(line)
            depth += line.count("{") - line.count("}")
            if depth >= 1 and line.rstrip().endswith(";") and "for" not in line and rng.random() < 0.25:
                result.append(f"int {rng.choice(WORDS)}_{rng.randrange(999)} = {rng.randrange(100)};")
        text = "\n".join(result)
    return text


def _cpp_declared(tokens) -> set:
    """The names a C++ file declares: a name right after a type (`int x`, `vector<int> v`,
    `const T& t`, `struct S`), so that the library's names (std::vector, printf) stay."""
    from pygments.token import Comment, Keyword, Name, Text, Whitespace
    significant = [(kind, value) for kind, value in tokens
                   if kind not in Comment and kind not in Whitespace and not (kind in Text and value.isspace())]
    declared = set()
    for n, (kind, value) in enumerate(significant):
        if kind not in Name or n == 0:
            continue
        back = [significant[n - i] for i in (1, 2) if n - i >= 0]
        def typed(item):
            return item[0] in Keyword.Type or item[1] in ("struct", "class", "auto", ">")
        if typed(back[0]) or (back[0][1] in ("&", "*") and len(back) > 1 and typed(back[1])):
            declared.add(value)
    return declared


def _shuffle_cpp_top_level(text: str, rng: random.Random) -> str:
    """Top-level function definitions (chunks ending at a depth-0 closing brace) shuffled, with a
    prototype of each (but main) before them, as a C++ copier must write; includes, types and
    declarations stay first, in their order."""
    chunks, head, current, depth = [], [], [], 0
    for line in text.split("\n"):
        current.append(line)
        depth += line.count("{") - line.count("}")
        if depth == 0 and "}" in line:
            chunks.append(current)
            current = []
        elif depth == 0 and not chunks and (line.strip().startswith("#") or not line.strip()):
            head.extend(current)
            current = []
    functions, types = [], []
    for chunk in chunks:
        body = "\n".join(chunk)
        signature = body.split("{", 1)[0]
        code = [ln for ln in signature.split("\n") if ln.strip() and not ln.strip().startswith(("//", "/*"))]
        is_type = not code or code[0].lstrip().startswith(("struct", "class", "enum", "union", "typedef", "using",
                                                           "namespace", "template"))
        (types if is_type or "(" not in signature else functions).append((chunk, " ".join(code).strip()))
    rng.shuffle(functions)
    prototypes = [signature + ";" for _, signature in functions if not signature.replace(" ", "").startswith("intmain(")]
    lines = head + [ln for chunk, _ in types for ln in chunk] + prototypes + [""]
    return "\n".join(lines + [ln for chunk, _ in functions for ln in chunk] + current)


def disguise(text: str, language: str, level: int, rng: random.Random) -> str:
    return disguise_python(text, level, rng) if language == "python" else disguise_cpp(text, level, rng)


# ----------------------------------------------------------------------------- the runs

def cpp_sources(where=(CPP_CLASS,)):
    """(label, text, language, origins) of each C++ student of tests/fixtures/nthu_class (its
    students/ folder when it has one; all of a student's C++ files, any depth, as one text), or
    of the folders and files given (--cpp). Students under 100 tokens are left out (too small to
    tell a copy by), and students that are copies of each other (similarity at the threshold or
    more: a fixture's variations of one program) are one source whose origins are all of them."""
    found = []
    for place in where:
        if os.path.isfile(place):
            found.append((f"cpp_{os.path.splitext(os.path.basename(place))[0]}", read(place)))
            continue
        if os.path.isdir(os.path.join(place, "students")):
            place = os.path.join(place, "students")
        if not os.path.isdir(place):
            continue
        for name in sorted(os.listdir(place)):
            folder = os.path.join(place, name)
            paths = sorted(os.path.join(top, f) for top, _, files in os.walk(folder) for f in files) \
                if os.path.isdir(folder) else [folder]
            texts = [read(p) for p in paths if language_of(p) == "cpp" and os.path.isfile(p)]
            if texts:
                found.append((f"cpp_{name}", "\n".join(texts)))
    found = [(label, text) for label, text in found if len(normalised(text, "cpp")) >= 100]
    prepared = []
    for label, text in found:
        p = compare.prepare(Member(label, "class", [Source(label + ".cpp", "cpp", text=text)]))
        compare.leave_out(p, np.zeros(0, dtype=np.uint64), compare.K)
        prepared.append(p)
    kept = []                  # one source per group of students that are copies of each other
    for (label, text), p in zip(found, prepared):
        twin = next((k for k in kept if compare.pair_figures(k[4], p, compare.fragments(k[4], p, compare.K))
                     ["similarity"] >= similarity.DEFAULT_THRESHOLD), None)
        if twin is None:
            kept.append((label, text, "cpp", {label}, p))
        else:
            twin[3].add(label)
    return [k[:4] for k in kept]


def sources(cpp=(CPP_CLASS,)):
    """(label, text, language, origins)."""
    found = [(rel.replace("/", "_").replace(".py", ""), read(rel), "python", {rel}) for rel in SOURCES]
    found.append(("export_nthu_ab", program_text(), "python", set(EXPORT_SOURCES["ab"])))
    return found + cpp_sources(cpp)


def write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def detection(levels, seed: int, jobs: int, k: int, window: int, cpp) -> None:
    srcs = sources(cpp)
    print(f"detection: {len(srcs)} sources ({sum(s[2] == 'cpp' for s in srcs)} C++), "
          f"{len(INDEPENDENT)} independent files; threshold {similarity.DEFAULT_THRESHOLD:g}, k {k}, window {window}")
    print(f"{'level':<14}{'found':>9}{'min sim':>9}{'median':>9}{'indep. flagged':>16}{'max indep.':>12}  missed")
    origins = {}
    with tempfile.TemporaryDirectory() as tmp:
        refs = []
        for label, text, language, origin in srcs:
            path = os.path.join(tmp, "refs", label + (".py" if language == "python" else ".cpp"))
            write(path, text)
            refs.append(path)
            origins[f"reference:{os.path.basename(path)}"] = origin
            origins[label] = origin
        for rel in INDEPENDENT:
            origins["indep_" + rel.replace("/", "_").replace(".py", "")] = {rel}
        for level in levels:
            rng = random.Random(seed * 100 + level)
            cls = os.path.join(tmp, f"class{level}")
            for label, text, language, _ in srcs:
                write(os.path.join(cls, label, "main" + (".py" if language == "python" else ".cpp")),
                      disguise(text, language, level, rng))
            for rel in INDEPENDENT:
                write(os.path.join(cls, "indep_" + rel.replace("/", "_").replace(".py", ""), "main.py"), read(rel))
            outcome = similarity.run(cls, os.path.join(tmp, f"out{level}"), references=refs, jobs=jobs, k=k,
                                     window=window, default_refs=False, say=lambda line: print("  input:", line))
            pairs = outcome.data["pairs"]
            found, sims, missed = 0, [], []
            for label, _, language, _ in srcs:
                mine = [p for p in pairs if label in (p["a"], p["b"])]
                source = f"reference:{label}" + (".py" if language == "python" else ".cpp")
                top = mine[0] if mine else None
                to_source = next((p["similarity"] for p in mine if source in (p["a"], p["b"])), 0.0)
                sims.append(to_source)
                if top and source in (top["a"], top["b"]) and top["flagged"]:
                    found += 1
                else:
                    missed.append(f"{label} ({to_source:.2f})")
            independent = [p for p in pairs if not (origins[p["a"]] & origins[p["b"]])]
            flagged = [p for p in independent if p["flagged"]]
            print(f"{level} {LEVELS[level]:<12}{found:>4}/{len(srcs):<4}{min(sims):>9.3f}{statistics.median(sims):>9.3f}"
                  f"{len(flagged):>16}{max((p['similarity'] for p in independent), default=0):>12.3f}  "
                  f"{', '.join(missed) or '-'}")
            for p in flagged:
                print(f"    independent but flagged: {p['a']} {p['b']} {p['similarity']:.3f}")
        template_students(tmp, seed, jobs, k, window)


def template_students(tmp: str, seed: int, jobs: int, k: int, window: int) -> None:
    """Two students who each changed the template their own way (renamed a few names, deleted a
    different function, added their own code)."""
    rng = random.Random(seed)
    template = "".join(read(rel) for rel in TEMPLATE)
    cls = os.path.join(tmp, "template_class")
    tree_funcs = [n.name for n in ast.parse(template).body if isinstance(n, ast.FunctionDef)]
    for n, own in enumerate(TEMPLATE_OWN):
        dropped = tree_funcs[n * 2 % len(tree_funcs)]
        lines, skip = [], False
        for line in template.splitlines(True):
            if line.startswith(f"def {dropped}("):
                skip = True
            elif skip and line.strip() and not line.startswith((" ", "\t")):
                skip = False
            if not skip:
                lines.append(line)
        text = "".join(lines) + "\n" + "\n".join(rename(read(rel), rng) for rel in own)
        write(os.path.join(cls, f"student{n + 1}", "main.py"), text)
    write(os.path.join(tmp, "template", "given.py"), template)
    for flag in (False, True):
        outcome = similarity.run(cls, os.path.join(tmp, "template_out"), templates=[os.path.join(tmp, "template")]
                                 if flag else [], default_refs=False, jobs=jobs, k=k, window=window,
                                 say=lambda line: None)
        pair = next((p for p in outcome.data["pairs"] if {p["a"], p["b"]} == {"student1", "student2"}), None)
        sim = pair["similarity"] if pair else 0.0
        print(f"template: two students who changed {', '.join(TEMPLATE)} their own way, "
              f"{'with' if flag else 'without'} --template: similarity {sim:.3f}, "
              f"{'flagged' if pair and pair['flagged'] else 'not flagged'}")


# `python -m harness similar ...` in this process, then its own CPU seconds and its workers' on stderr
MEASURED = ("import resource, sys; from harness.cli import main; code = main(sys.argv[1:]); "
            "own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN); "
            "print('CPU', own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime, file=sys.stderr); sys.exit(code)")


def function_pool():
    """Every top-level function and method of this repository's Python code, as source text."""
    pool = []
    for folder in ("harness", "agents", "tests", "bench"):
        for top, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if not name.endswith(".py"):
                    continue
                text = read(os.path.join(top, name))
                try:
                    tree = ast.parse(text)
                except SyntaxError:
                    continue
                for node in ast.walk(tree):
                    if isinstance(node, ast.FunctionDef) and node.col_offset == 0 or (
                            isinstance(node, ast.ClassDef) and node.col_offset == 0):
                        piece = ast.get_source_segment(text, node)
                        if piece and piece.count("\n") >= 3:
                            pool.append(piece)
    return pool


def speed(students: int, earlier: int, jobs: int, seed: int) -> None:
    rng = random.Random(seed)
    pool = function_pool()
    srcs = [s for s in sources() if s[2] == "python"]
    with tempfile.TemporaryDirectory() as tmp:
        made = time.perf_counter()
        lines = 0
        for n in range(students + earlier):
            where = os.path.join(tmp, "class" if n < students else "earlier", f"s{n:04d}", "main.py")
            if rng.random() < 0.1:
                label, text, language, _ = rng.choice(srcs)
                text = disguise(text, language, rng.randrange(6), rng)
            else:
                text = "import os\nimport sys\n\n\n" + "\n\n".join(rng.sample(pool, rng.randint(20, 40))) + "\n"
                try:
                    text = rename(text, rng)
                except (SyntaxError, tokenize.TokenError, IndentationError):
                    pass
            lines += text.count("\n")
            write(where, text)
        print(f"speed: a class of {students} and {earlier} earlier files, {lines / (students + earlier):.0f} lines "
              f"per file on average ({len(pool)} functions drawn from; made in {time.perf_counter() - made:.0f} s)")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load = os.getloadavg()[0]
        started = time.perf_counter()
        command = [sys.executable, "-c", MEASURED, "similar", os.path.join(tmp, "class"), "--previous",
                   os.path.join(tmp, "earlier"), "--jobs", str(jobs), "--out", os.path.join(tmp, "out")]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            print(f"speed: similar failed ({done.returncode}): {done.stderr.strip()}")
            return
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        own, workers = (float(x) for x in done.stderr.strip().splitlines()[-1].split()[1:])
        with open(os.path.join(tmp, "out", "similarity.json"), encoding="utf-8") as handle:
            pairs = json.load(handle)["pairs"]
        compared = students * (students - 1) // 2 + students * (earlier + 2)
        html = os.path.getsize(os.path.join(tmp, "out", "similarity.html")) / 1e6
        print(f"speed: `similar` on {compared:,} pairs (class with class, earlier files and the 2 default "
              f"references): {seconds:.1f} s wall with --jobs {jobs}, {cpu:.1f} s of CPU in all its processes "
              f"(load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end)")
        print(f"speed: CPU of the command's own process {own:.1f} s, of its {jobs} workers {workers:.1f} s: on "
              f"{jobs} idle cores about {own + workers / jobs:.0f} s (own + workers / {jobs}; the own process "
              f"waits while the workers fingerprint)")
        print(f"speed: peak memory {after.ru_maxrss / 1024:.0f} MB (its largest process); {len(pairs)} pairs "
              f"listed, {sum(p['flagged'] for p in pairs)} flagged; similarity.html {html:.1f} MB")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="0-8", help="disguise levels, e.g. 0-8 or 1,5,8 (default 0-8)")
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--earlier", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--k", type=int, default=similarity.K, help=f"tokens per k-gram (default {similarity.K})")
    parser.add_argument("--window", type=int, default=similarity.WINDOW,
                        help=f"winnowing window (default {similarity.WINDOW})")
    parser.add_argument("--cpp", action="append", metavar="PATH",
                        help="C++ sources to disguise: files, or folders of students (default tests/fixtures/nthu_class)")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-detection", action="store_true")
    args = parser.parse_args(argv)
    if "-" in args.levels:
        low, high = args.levels.split("-")
        levels = list(range(int(low), int(high) + 1))
    else:
        levels = [int(x) for x in args.levels.split(",")]
    if not args.skip_detection:
        detection(levels, args.seed, args.jobs, args.k, args.window, args.cpp or [CPP_CLASS])
    if not args.skip_speed:
        speed(args.students, args.earlier, args.jobs, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
