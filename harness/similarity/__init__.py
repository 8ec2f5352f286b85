"""`similar`: copied code across a class, earlier classes and other solutions (issue 48).

`run(class_dir, out_dir, ...)` is the whole feature (the `similar` command, and `grade --similar`
later, call it): it reads the members (sources.py), fingerprints them (tokens.py: Pygments,
normalised; winnow.py: k-grams and winnowing), leaves out the template and the class's common
passages, compares every pair with a class member (compare.py) and writes similarity.json,
similarity.csv and similarity.html (output.py). No file of a student is run: files are read and
lexed, nothing more. docs/similarity.md has the choices and the measured figures.
"""
import datetime
import os
import sys
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

from ..runs.pool import in_task_order, worker_pool
from .compare import COMMON_AT_LEAST, K, MIN_SHARED, WINDOW, candidates, common_hashes, fragments, leave_out, pair_figures
from .compare import prepare_packed, unique_kgrams
from .output import fragment_json, write_all
from .sources import (CLASS, SimilarityError, class_members, default_references, previous_members, reference_members,
                      template_sources, Member)

DEFAULT_THRESHOLD = 0.5
DEFAULT_SHARE = 0.2
DEFAULT_TOP = 100

__all__ = ["run", "Outcome", "SimilarityError", "class_members", "DEFAULT_THRESHOLD", "DEFAULT_SHARE", "DEFAULT_TOP",
           "K", "WINDOW", "MIN_SHARED"]


@dataclass
class Outcome:
    data: dict                   # what similarity.json holds
    paths: Dict[str, str]        # "json", "csv", "html" -> file written
    problems: List[str]          # one line per input left out or read with changes
    members: int                 # class members compared
    others: int                  # earlier classes' members and references
    seconds: float


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def prepare_all(members: Sequence[Member], jobs: Optional[int], k: int, w: int) -> list:
    """Every member read and fingerprinted, `jobs` processes at a time (the series' worker pool:
    its workers leave Ctrl-C to this process, which stops them at once)."""
    work = [(m, k, w) for m in members]
    jobs = min(max(1, jobs or os.cpu_count() or 1), max(1, len(work)))
    if len(work) < 8:
        jobs = 1
    with worker_pool(jobs, len(work)) as run_tasks:
        return in_task_order(run_tasks, prepare_packed, work)


def run(class_dir: str, out_dir: str, previous: Sequence[str] = (), references: Sequence[str] = (),
        templates: Sequence[str] = (), threshold: float = DEFAULT_THRESHOLD, share: float = DEFAULT_SHARE,
        top: int = DEFAULT_TOP, jobs: Optional[int] = None, default_refs: bool = True,
        say: Callable[[str], None] = _say, k: int = K, window: int = WINDOW,
        annotate: Optional[Callable[[List[dict]], None]] = None) -> Outcome:
    """Compare the class in `class_dir` and write the three files into `out_dir`. Each input that
    cannot be used is one line through `say` (and in Outcome.problems); SimilarityError (one line)
    when there is no class to compare. annotate: called on the pairs before they are written (the
    NTHU sheet adds each flagged pair's "chronology": who committed the shared code first)."""
    started = time.perf_counter()
    problems: List[str] = []

    def report(line: str) -> None:
        problems.append(line)
        say(line)

    members = class_members(class_dir, report)
    if not members:
        raise SimilarityError(f"no students in {class_dir}: expected sub-folders with source files "
                              f"or loose source files")
    others = previous_members(previous, report) + reference_members(references, report)
    if default_refs:
        others += default_references()
    template = template_sources(templates, report)
    prepared = prepare_all(members + others + ([Member("template", "template", template)] if template else []),
                           jobs, k, window)
    template_prep = prepared.pop() if template else None
    for p in prepared + ([template_prep] if template_prep else []):
        for line in p.problems:
            report(line)
    prepared = [p for p in prepared if p.files]
    class_prep = [p for p in prepared if p.kind == CLASS]
    if not class_prep:
        raise SimilarityError(f"no student of {class_dir} has a readable source file")
    ignored = common_hashes(class_prep, share)
    if template_prep is not None:
        ignored = np.union1d(ignored, unique_kgrams(template_prep))
    for p in prepared:
        leave_out(p, ignored, k)
    pairs = []
    for i, j in candidates(prepared, threshold, top):
        a, b = prepared[i], prepared[j]
        # a fragment all of whose tokens are left out on a side (template, common code) shares nothing
        found = [f for f in fragments(a, b, k)
                 if a.counted[f.a:f.a + f.tokens].any() and b.counted[f.b:f.b + f.tokens].any()]
        if not found:
            continue
        figures = pair_figures(a, b, found)
        similar = round(figures["similarity"], 4)        # flagged by the figure shown, not a hidden digit
        pairs.append({"a": a.name, "b": b.name, "similarity": similar,
                      "flagged": similar >= threshold and figures["shared_tokens"] >= MIN_SHARED,
                      "shared_tokens": figures["shared_tokens"], "longest_fragment": figures["longest_fragment"],
                      "fragments": [fragment_json(a, b, f) for f in sorted(found, key=lambda f: (-f.tokens, f.a))]})
    pairs.sort(key=lambda p: (-p["similarity"], -p["shared_tokens"], p["a"], p["b"]))
    if annotate is not None:
        annotate(pairs)
    data = {"threshold": threshold, "pairs": pairs}
    settings = {"members": len(class_prep), "previous": sum(p.kind == "previous" for p in prepared),
                "references": sum(p.kind == "reference" for p in prepared),
                "template_files": len(template_prep.files) if template_prep else 0,
                "share": share, "common_at_least": COMMON_AT_LEAST, "k": k, "window": window,
                "min_shared": MIN_SHARED, "class": os.path.abspath(class_dir),
                "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    paths = write_all(out_dir, data, {p.name: p for p in prepared}, settings, problems)
    return Outcome(data, paths, problems, len(class_prep), len(prepared) - len(class_prep),
                   time.perf_counter() - started)
