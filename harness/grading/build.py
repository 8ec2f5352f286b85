"""A student's repository built as the NTHU course builds it (`make submission`), boxed, and the
course's rules checked on what the build compiles.

The build, in the student's own copy of its repository (OUT/students/NAME/repo: the grader never
writes in the class folder):
- the copy leaves out `.git` and the committed `build/` folder (stale binaries, perhaps for
  another system, are never run: every binary graded is built here), then creates an empty
  `build/`, which the course's Makefile expects and most repositories do not commit;
- `make submission` runs in the box (`harness.isolation.untrusted_run` with the copy as its working folder,
  the only folder it may write in): no network, a clean environment, the box's memory, CPU, file
  size and (as root) process limits, a wall-clock limit (`timeout`), and a cap on what it prints
  (a Makefile that prints megabytes fails the build with that reason);
- the build is ok when `build/player_submission` exists afterwards and make exited with 0; the
  log is kept (`build.log`), and the compiler's first error lines go to the gradebook.

The rules check reads the files the course's compiler line compiles (`src/state/state.cpp`,
`src/policy/submission.cpp`, `src/player/submission.cpp`, plus any other `.cpp` the Makefile's
`submission` recipe names) and every header they include with quotes (followed through the
repository), never other files lying around (a template's `main.cpp` calling `system()`). Each
problem is ``FILE:LINE: problem``.
"""
import os
import re
import shutil
import stat
import time
from typing import Dict, List, Optional, Set, Tuple

from ..isolation.box import BoxSettings
from ..isolation.untrusted_run import run as run_program

COURSE_SOURCES = ("src/state/state.cpp", "src/policy/submission.cpp", "src/player/submission.cpp")
STUDENT_FILES = ("src/player/submission.cpp", "src/policy/submission.cpp")
BINARY = "build/player_submission"
MAKE = ("make", "submission")
BUILD_TIMEOUT = 120.0
BUILD_MEMORY_MB = 4096
OUTPUT_CAP = 4 << 20            # bytes of build output kept; more fails the build
ERROR_LINES = 8
SHELL = "/bin/sh"


def missing_files(repo: str) -> List[str]:
    """The student's files of the course's layout that the repository lacks."""
    return [name for name in STUDENT_FILES if not os.path.isfile(os.path.join(repo, name))]


def _ignore(folder: str, names: List[str]) -> Set[str]:
    return {n for n in names if n == ".git"} | ({"build"} if os.path.isfile(os.path.join(folder, "Makefile"))
                                                or os.path.isfile(os.path.join(folder, "makefile")) else set())


def copy_repository(source: str, copy: str) -> None:
    """The student's repository copied to `copy` (afresh), without .git and build/, with an empty
    build/ and every file writable by the box's own user."""
    if os.path.lexists(copy):
        shutil.rmtree(copy)
    shutil.copytree(source, copy, symlinks=True, ignore=_ignore)
    os.makedirs(os.path.join(copy, "build"), exist_ok=True)
    for where, dirs, names in os.walk(copy):
        for name in dirs + names:
            path = os.path.join(where, name)
            if not os.path.islink(path):
                mode = os.stat(path).st_mode
                os.chmod(path, mode | stat.S_IRWXU | stat.S_IRWXG | stat.S_IRWXO if stat.S_ISDIR(mode)
                         else mode | 0o666)
    os.chmod(copy, 0o777)


def first_errors(log: str, count: int = ERROR_LINES) -> List[str]:
    """The compiler's first error lines (those saying `error`), else the log's last lines."""
    lines = [line.rstrip() for line in log.splitlines() if line.strip()]
    errors = [line for line in lines if re.search(r"\berror\b", line, re.IGNORECASE)]
    return [line[:300] for line in (errors[:count] if errors else lines[-count:])]


def build(source: str, copy: str, box: Optional[BoxSettings], timeout: float = BUILD_TIMEOUT) -> dict:
    """Build the student's repository `source` in `copy`: {"build": "ok"|"failed"|"missing",
    "errors": [...], "log": text, "seconds": s, "binary": path or None}."""
    missing = missing_files(source)
    if missing:
        return {"build": "missing", "errors": [f"no {', '.join(missing)} in the repository"], "log": "",
                "seconds": 0.0, "binary": None}
    copy_repository(source, copy)
    started = time.monotonic()
    argv = [SHELL, "-c", "exec " + " ".join(MAKE) + " 2>&1"]
    finished = run_program(argv, b"", timeout, OUTPUT_CAP, box, workdir=copy)
    seconds = round(time.monotonic() - started, 2)
    log = finished.output.decode("utf-8", "replace")
    binary = os.path.join(copy, BINARY)
    failure = finished.failure(timeout, OUTPUT_CAP)
    if failure is None and not os.path.isfile(binary):
        failure = f"make submission made no {BINARY}"
    if failure is not None:
        errors = first_errors(log)
        if finished.overflowed or finished.timed_out:
            errors = [f"make submission {failure}"] + errors[:3]
        elif not errors or failure.startswith("make submission made"):
            errors = [failure] + errors
        return {"build": "failed", "errors": errors, "log": log, "seconds": seconds, "binary": None,
                "failure": failure}
    return {"build": "ok", "errors": [], "log": log, "seconds": seconds, "binary": binary}


# ----------------------------------------------------------------------------- the rules

THREADS = ("thread", "future", "mutex", "atomic", "execution", "condition_variable", "shared_mutex",
           "semaphore", "latch", "barrier", "stop_token")
STANDARD = set("""algorithm any array bit bitset cassert ccomplex cctype cerrno cfenv cfloat charconv chrono
cinttypes ciso646 climits clocale cmath codecvt compare complex concepts coroutine csetjmp csignal cstdarg
cstdbool cstddef cstdint cstdio cstdlib cstring ctgmath ctime cuchar cwchar cwctype deque exception
expected filesystem format forward_list fstream functional initializer_list iomanip ios iosfwd iostream
istream iterator limits list locale map memory memory_resource new numbers numeric optional ostream
print queue random ranges ratio regex scoped_allocator set source_location span spanstream sstream stack
stacktrace stdexcept streambuf string string_view strstream syncstream system_error tuple type_traits
typeindex typeinfo unordered_map unordered_set utility valarray variant vector version
assert.h ctype.h errno.h float.h inttypes.h limits.h locale.h math.h setjmp.h signal.h stdarg.h stddef.h
stdint.h stdio.h stdlib.h string.h time.h uchar.h wchar.h wctype.h""".split()) | set(THREADS)
INTRINSICS = re.compile(r"^(\w*intrin\.h|arm_neon\.h|arm_sve\.h|altivec\.h|mm_malloc\.h)$")
CODE_RULES: Tuple[Tuple[re.Pattern, str], ...] = (
    (re.compile(r"\b(asm|__asm__|__asm)\b"), "inline assembly (asm)"),
    (re.compile(r"\bpthread\w*"), "threads (pthread)"),
    (re.compile(r"\b(v?fork|execv\w*|execl\w*|posix_spawn\w*|popen|system)\s*\("), "a new process"),
    (re.compile(r"\bstd\s*::\s*(async|thread|jthread)\b"), "threads"),
    (re.compile(r"#\s*pragma\s+omp\b|\bomp_\w+\s*\("), "OpenMP"),
    (re.compile(r"#\s*pragma\s+GCC\s+target\b"), "vector instructions (#pragma GCC target)"),
    (re.compile(r"__attribute__\s*\(\(\s*(__)?target"), "vector instructions (__attribute__((target)))"),
)
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def strip_comments(text: str) -> str:
    """The text with // and /* */ comments and string contents blanked (line ends kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if two == "//":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif two == "/*":
            end = text.find("*/", i + 2)
            block = text[i:n if end < 0 else end + 2]
            out.append("\n" * block.count("\n"))
            i = n if end < 0 else end + 2
        elif (i == 0 or text[i - 1] == "\n") and INCLUDE.match(text[i:text.find("\n", i) if "\n" in text[i:] else n]):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[i:end])                 # an #include line as it is
            i = end
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(quote * 2)
            i = j + 1 if j < n and text[j] == quote else j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def recipe_sources(repo: str) -> List[str]:
    """.cpp files the Makefile's `submission` recipe names (besides the course's own three)."""
    for name in ("Makefile", "makefile", "GNUmakefile"):
        path = os.path.join(repo, name)
        if os.path.isfile(path):
            break
    else:
        return []
    with open(path, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    found, inside = [], False
    for line in lines:
        if re.match(r"^submission\s*:", line):
            inside = True
            found += re.findall(r"[\w./-]+\.(?:cpp|cc|cxx)\b", line)
            continue
        if inside:
            if not line.startswith("\t"):
                break
            found += re.findall(r"[\w./-]+\.(?:cpp|cc|cxx)\b", line)
    return [f for f in found if os.path.isfile(os.path.join(repo, f))]


def check_rules(repo: str) -> List[str]:
    """The course's rules on the compiled files and the headers they include: ``FILE:LINE: problem``."""
    todo = [f for f in COURSE_SOURCES if os.path.isfile(os.path.join(repo, f))]
    todo += [f for f in recipe_sources(repo) if os.path.normpath(f) not in todo]
    seen: Dict[str, bool] = {}
    problems: List[str] = []
    real_repo = os.path.realpath(repo)
    while todo:
        rel = os.path.normpath(todo.pop(0))
        if rel in seen:
            continue
        seen[rel] = True
        try:
            with open(os.path.join(repo, rel), encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        for number, line in enumerate(strip_comments(text).splitlines(), 1):
            include = INCLUDE.match(line)
            if include:
                kind, header = include.groups()
                if kind == '"':
                    local = os.path.normpath(os.path.join(os.path.dirname(rel), header))
                    target = os.path.realpath(os.path.join(repo, local))
                    if os.path.isfile(target) and target.startswith(real_repo + os.sep):
                        todo.append(os.path.relpath(target, real_repo))
                        continue
                problems += _header_problem(rel, number, header)
                continue
            for pattern, what in CODE_RULES:
                if pattern.search(line):
                    problems.append(f"{rel}:{number}: {what}")
                    break
    return problems


def _header_problem(rel: str, number: int, header: str) -> List[str]:
    name = header.strip()
    if name in THREADS:
        return [f"{rel}:{number}: <{name}>: multi-threading"]
    if INTRINSICS.match(os.path.basename(name)):
        return [f"{rel}:{number}: <{name}>: vector intrinsics"]
    if name in STANDARD:
        return []
    return [f"{rel}:{number}: <{name}>: not a header of the C++ standard library or the template"]
