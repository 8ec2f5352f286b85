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
- the build is ok when make exited with 0 and `build/player_submission` is then a regular file of
  the copy's `build/` folder (lstat: not a link, not a hard link, its real path inside; `played_binary`):
  a binary linked to a file elsewhere (a classmate's, the TA's) is a failed build with that reason,
  never copied or played; the log is kept (`build.log`), and the compiler's first error lines go
  to the gradebook;
- memory: one budget for all the builds running at once (`build_memory`): each build's box gets
  the budget divided by the builds at once (at most BUILD_MEMORY_MB, at least MIN_BUILD_MB; fewer
  builds at once when the budget cannot give each that much).

The rules check reads the files the course's compiler line compiles (`src/state/state.cpp`,
`src/policy/submission.cpp`, `src/player/submission.cpp`, plus any other `.cpp` the Makefile's
`submission` recipe names) and every header they include with quotes (followed through the
repository), never other files lying around (a template's `main.cpp` calling `system()`). Each
problem is ``FILE:LINE: problem`` (``FILE: problem`` for the whole file). The files are the
student's: each is read through `harness.isolation.exchange.read_inside` (inside the copy, not a
link leading out, a regular file, at most SOURCE_LIMIT bytes); a recipe path that is absolute or
leaves the repository (`..`), or a file linked out of it, is a rules problem and is never read.
"""
import os
import re
import shutil
import stat
import time
from typing import Dict, List, Optional, Set, Tuple

from ..isolation.box import BoxSettings
from ..isolation.exchange import ExchangeError, kind_of, read_inside
from ..isolation.untrusted_run import run as run_program

COURSE_SOURCES = ("src/state/state.cpp", "src/policy/submission.cpp", "src/player/submission.cpp")
STUDENT_FILES = ("src/player/submission.cpp", "src/policy/submission.cpp")
BINARY = "build/player_submission"
MAKE = ("make", "submission")
BUILD_TIMEOUT = 120.0
BUILD_MEMORY_MB = 4096          # address space of one build's processes, at most
MIN_BUILD_MB = 1024             # ... and at least (fewer builds at once rather than less)
SOURCE_LIMIT = 4 << 20          # bytes of one file the rules check reads
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
    failure = finished.failure(timeout, OUTPUT_CAP)
    binary, problem = played_binary(copy)
    if failure is None and problem is not None:
        failure = problem
    if failure is not None:
        errors = first_errors(log)
        if finished.overflowed or finished.timed_out:
            errors = [f"make submission {failure}"] + errors[:3]
        elif not errors or failure == problem:
            errors = [failure] + errors
        return {"build": "failed", "errors": errors, "log": log, "seconds": seconds, "binary": None,
                "failure": failure}
    return {"build": "ok", "errors": [], "log": log, "seconds": seconds, "binary": binary}


def played_binary(copy: str) -> Tuple[Optional[str], Optional[str]]:
    """(the path of the binary to play, None) when BINARY is a regular file of `copy`'s build
    folder (lstat: not a link; one link; its real path inside `copy`/build), else (None, why)."""
    path = os.path.join(copy, BINARY)
    try:
        info = os.lstat(path)
    except OSError:
        return None, f"make submission made no {BINARY}"
    if not stat.S_ISREG(info.st_mode):
        return None, f"{BINARY} is {kind_of(info.st_mode)}, not a file the build made: not played"
    if info.st_nlink > 1:
        return None, f"{BINARY} is a hard link to another file, not a file the build made: not played"
    build_folder = os.path.realpath(os.path.join(copy, os.path.dirname(BINARY)))
    if not (build_folder.startswith(os.path.realpath(copy) + os.sep)
            and os.path.realpath(path) == os.path.join(build_folder, os.path.basename(BINARY))):
        return None, f"{BINARY} lies outside the repository (its build folder is a link): not played"
    return path, None


def physical_memory_mb() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20
    except (ValueError, OSError):
        return 2 * BUILD_MEMORY_MB


def build_memory(jobs: int, budget_mb: Optional[int] = None) -> Tuple[int, int]:
    """(memory of one build's box in MB, builds at once) for `jobs` workers sharing `budget_mb`
    (default: half the machine's memory): the budget split evenly, at most BUILD_MEMORY_MB each;
    when that leaves a build less than MIN_BUILD_MB, MIN_BUILD_MB each and fewer builds at once."""
    budget = budget_mb if budget_mb is not None else physical_memory_mb() // 2
    jobs = max(1, jobs)
    each = min(BUILD_MEMORY_MB, budget // jobs)
    if each >= MIN_BUILD_MB:
        return each, jobs
    return MIN_BUILD_MB, max(1, min(jobs, budget // MIN_BUILD_MB))


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


def read_student_file(repo: str, rel: str) -> str:
    """The text of the student's file `rel` (`read_inside`: inside the repository, not a link
    out, a regular file of at most SOURCE_LIMIT bytes); ExchangeError or OSError otherwise."""
    return read_inside(repo, rel, SOURCE_LIMIT).decode("utf-8", errors="replace")


def recipe_sources(repo: str) -> Tuple[List[Tuple[str, str, int]], List[str]]:
    """(.cpp files the Makefile's `submission` recipe names (besides the course's own three) as
    (path, makefile, line), problems): a path that is absolute or leaves the repository is a
    problem (``Makefile:LINE: ...``), never read; so is a Makefile that cannot be read."""
    for name in ("Makefile", "makefile", "GNUmakefile"):
        if os.path.lexists(os.path.join(repo, name)):
            break
    else:
        return [], []
    try:
        lines = read_student_file(repo, name).splitlines()
    except ExchangeError as exc:
        return [], [f"{name}: {exc}"]
    except OSError:
        return [], []
    found, problems, inside = [], [], False
    for number, line in enumerate(lines, 1):
        if re.match(r"^submission\s*:", line):
            inside = True
        elif not inside:
            continue
        elif not line.startswith("\t"):
            break
        for path in re.findall(r"[\w./-]+\.(?:cpp|cc|cxx)\b", line):
            if os.path.isabs(path) or os.path.normpath(path).split(os.sep)[0] == "..":
                problems.append(f"{name}:{number}: the submission recipe compiles {path}, outside the repository")
            else:
                found.append((path, name, number))
    return [f for f in found if os.path.lexists(os.path.join(repo, f[0]))], problems


def check_rules(repo: str) -> List[str]:
    """The course's rules on the compiled files and the headers they include: ``FILE:LINE: problem``."""
    todo = [f for f in COURSE_SOURCES if os.path.lexists(os.path.join(repo, f))]
    named, problems = recipe_sources(repo)
    todo += [f for f, _, _ in named if os.path.normpath(f) not in todo]
    seen: Dict[str, bool] = {}
    real_repo = os.path.realpath(repo)
    while todo:
        rel = os.path.normpath(todo.pop(0))
        if rel in seen:
            continue
        seen[rel] = True
        try:
            text = read_student_file(repo, rel)
        except ExchangeError as exc:
            problems.append(f"{rel}: {exc}")
            continue
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
