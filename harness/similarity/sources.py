"""Who is compared, and with which files: the class's members (read as `grade` reads a class), the
earlier classes (--previous), the other solutions (--reference), the template (--template) and
this toolkit's own players (the default references).

Nothing here runs a file: a file is only read, as bytes, and only if it is a regular file (a
symbolic link is not followed: a student's link could point anywhere on the TA's machine). Every
file or folder that cannot be used costs one line (`Problem`), and the rest goes on.
"""
import os
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..runs.results import ResultsError

LANGUAGES = {".py": "python", ".cpp": "cpp", ".cc": "cpp", ".h": "cpp", ".hpp": "cpp"}
MAX_FILE_BYTES = 2 * 1024 * 1024      # a submission's source file is far smaller; a bigger one is skipped
SKIPPED_FOLDERS = {"__pycache__", "node_modules", "venv", ".venv", "site-packages", "dist-packages"}   # not theirs
CLASS, PREVIOUS, REFERENCE = "class", "previous", "reference"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class SimilarityError(ResultsError):
    """The comparison cannot start as asked (no class, a path that does not exist); one line."""


@dataclass
class Source:
    """One source file: `shown` is its name in the output (relative to its member's folder)."""
    shown: str
    language: str
    path: Optional[str] = None       # read from here, or
    text: Optional[str] = None       # given as text (the exported player)


@dataclass
class Member:
    """A class member, an earlier class's member or a reference: a name and its source files."""
    name: str
    kind: str
    files: List[Source] = field(default_factory=list)


def language_of(path: str) -> Optional[str]:
    return LANGUAGES.get(os.path.splitext(path)[1].lower())


def read_source(path: str) -> Tuple[Optional[str], Optional[str]]:
    """(text, problem): the file's text, or None and why not. Undecodable bytes are replaced (the
    file is still compared) and said; a binary file (a NUL byte) or one over MAX_FILE_BYTES is
    skipped."""
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            return None, (f"{path}: {size / 1e6:.1f} MB, over the {MAX_FILE_BYTES // (1024 * 1024)} MB "
                          f"a source file may have: skipped")
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, f"{path}: cannot be read ({exc.strerror or exc}): skipped"
    if b"\0" in data:
        return None, f"{path}: a binary file (NUL bytes), not source: skipped"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return (data.decode("utf-8", errors="replace"),
                f"{path}: bytes that are not UTF-8 (first at byte {exc.start}): replaced, the file is still compared")


def _visible(name: str) -> bool:
    return not name.startswith((".", "_")) and name not in SKIPPED_FOLDERS


def source_files(folder: str, report: Callable[[str], None]) -> List[Tuple[str, str]]:
    """(absolute path, path shown) of every source file under `folder`, sorted; hidden and
    underscore folders (.git, __pycache__) left out, symbolic links not followed (and said)."""
    found = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if _visible(d) and not os.path.islink(os.path.join(top, d)))
        for name in sorted(files):
            full = os.path.join(top, name)
            if not language_of(name) or name.startswith("."):
                continue
            if os.path.islink(full):
                report(f"{full}: a symbolic link, not followed: skipped")
                continue
            if os.path.isfile(full):
                found.append((full, os.path.relpath(full, folder)))
    return found


def member_of(name: str, kind: str, path: str, report: Callable[[str], None]) -> Optional[Member]:
    """A member from a folder (every source file under it) or one file; None (and one line) when
    it holds no source file."""
    if os.path.isdir(path):
        said = []
        files = [Source(shown, language_of(full), path=full) for full, shown in source_files(path, said.append)]
        for line in said:
            report(line)
        if not files:
            if not said:                  # a folder whose only source was a link has had its line
                report(f"{path}: no source file ({' '.join(LANGUAGES)}) in this folder: {name} left out")
            return None
        return Member(name, kind, files)
    if not language_of(path):
        report(f"{path}: not a source file ({' '.join(LANGUAGES)}): {name} left out")
        return None
    return Member(name, kind, [Source(os.path.basename(path), language_of(path), path=path)])


def class_members(class_dir: str, report: Callable[[str], None], kind: str = CLASS) -> List[Member]:
    """The members of a class folder, as `grade` reads a class: each sub-folder is a student
    (named by the folder; all its source files count) and each loose source file directly in it
    (named by its stem; grade itself takes loose .py files only). Names starting with "." or "_"
    are not students. A folder and a loose file of the same name: the folder is kept, one line."""
    if not os.path.isdir(class_dir):
        what = "does not exist" if not os.path.exists(class_dir) else "is not a folder"
        raise SimilarityError(f"class folder '{class_dir}' {what}")
    members: Dict[str, Member] = {}
    entries = sorted(os.listdir(class_dir), key=lambda n: (not os.path.isdir(os.path.join(class_dir, n)), n))
    for entry in entries:
        full = os.path.join(class_dir, entry)
        if not _visible(entry) or os.path.islink(full):
            continue
        if os.path.isdir(full):
            name = entry
        elif language_of(entry) and os.path.isfile(full):
            name = os.path.splitext(entry)[0]
        else:
            continue
        if name in members:
            report(f"{full}: a second submission of student '{name}' (a folder and a loose file?): skipped")
            continue
        member = member_of(name, kind, full, report)
        if member is not None:
            members[name] = member
    return list(members.values())


def _unique(name: str, taken: set) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}#{n}", n + 1
    taken.add(candidate)
    return candidate


def previous_members(folders: Sequence[str], report: Callable[[str], None]) -> List[Member]:
    """Earlier classes' members, named "previous:FOLDER/STUDENT" (FOLDER: the class folder's last
    component)."""
    members, taken = [], set()
    for folder in folders:
        label = os.path.basename(os.path.normpath(folder))
        found = class_members(folder, report, PREVIOUS)
        if not found:
            report(f"{folder}: no member with source files in this earlier class")
        for member in found:
            member.name = _unique(f"previous:{label}/{member.name}", taken)
            members.append(member)
    return members


def reference_members(paths: Sequence[str], report: Callable[[str], None]) -> List[Member]:
    """Other solutions: each PATH (a file, or a folder of one solution) is one member, named
    "reference:LAST_COMPONENT"."""
    members, taken = [], set()
    for path in paths:
        if not os.path.exists(path):
            raise SimilarityError(f"--reference {path} does not exist")
        name = _unique("reference:" + os.path.basename(os.path.normpath(path)), taken)
        member = member_of(name, REFERENCE, path, report)
        if member is not None:
            members.append(member)
    return members


def default_references() -> List[Member]:
    """This toolkit's own players, which every student can get: AB.py and the NTHU players that
    export-nthu writes (ab, and the bonus's mcts and nnue, docs/advanced.md; their text, made as
    export-nthu makes it)."""
    from ..variants.nthu.export import EXPORTABLE, program_text
    return [Member("toolkit:AB.py", REFERENCE, [Source("AB.py", "python", path=os.path.join(ROOT, "AB.py"))])] + [
        Member(f"toolkit:export-nthu-{agent}.py", REFERENCE,
               [Source(f"export-nthu-{agent}.py", "python", text=program_text(agent=agent))])
        for agent in EXPORTABLE]


def template_sources(paths: Sequence[str], report: Callable[[str], None]) -> List[Source]:
    """Every source file of the --template paths (files or folders)."""
    found = []
    for path in paths:
        if not os.path.exists(path):
            raise SimilarityError(f"--template {path} does not exist")
        if os.path.isdir(path):
            files = source_files(path, report)
            if not files:
                report(f"{path}: no source file ({' '.join(LANGUAGES)}) in this template folder")
            found.extend(Source(shown, language_of(full), path=full) for full, shown in files)
        elif language_of(path):
            found.append(Source(os.path.basename(path), language_of(path), path=path))
        else:
            report(f"{path}: not a source file ({' '.join(LANGUAGES)}): not used as template")
    return found
