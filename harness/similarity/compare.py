"""Fingerprints per member, the passages left out, the candidate pairs and their shared fragments.

1. Each member's files become normalised token streams (tokens.py), every k-gram is hashed and
   winnowed (winnow.py). A member's k-grams are kept in one array over its tokens (0 where no
   k-gram starts: a file's last k-1 tokens), so a run of matches never crosses two files.
2. Left out of every member, before comparing: the template's k-grams, the k-grams found in more
   than `share` of the class (and in more than COMMON_AT_LEAST members), and the k-grams a member
   repeats more than REPEATED times (the rows of a number table look alike in every program once
   numbers are abstracted). Tokens covered only by such k-grams count neither as shared nor in
   the member's size.
3. Candidates: an inverted index of the winnowed fingerprints counts, for every pair with a class
   member, the fingerprints they share; their Dice coefficient estimates the similarity.
4. The pairs worth it (estimate at least half the threshold, plus the `top` best estimates) are
   compared exactly on all their k-grams: matches on the same diagonal make runs, and the runs
   are tiled one-to-one, longest first (a token belongs to at most one fragment on each side).
   similarity = (shared tokens of a + shared tokens of b) / (size of a + size of b).
"""
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .sources import CLASS, Member, Source, read_source
from .tokens import token_stream
from .winnow import kgram_hashes, winnow

K = 12                    # tokens per k-gram: about two lines of code
WINDOW = 8                # winnowing window: every match of K + WINDOW - 1 = 19 tokens is seen
REPEATED = 8              # a k-gram a member has more than this many times is left out of it
COMMON_AT_LEAST = 4       # a passage is common only if more than this many class members have it
MIN_SHARED = 30           # a pair sharing fewer tokens is never flagged: tiny files are alike by nature


@dataclass
class Prepared:
    """A member's token stream: per token its file, first and last line; per k-gram start its
    hash (0: none); the winnowed fingerprints (unique hashes)."""
    name: str
    kind: str
    files: List[Source]
    kgrams: np.ndarray
    file_of: np.ndarray
    first: np.ndarray
    last: np.ndarray
    fingerprints: np.ndarray
    problems: List[str]
    kept: Optional[np.ndarray] = None       # kgrams with the left-out ones at 0
    size: int = 0                           # tokens not left out
    counted: Optional[np.ndarray] = None    # per token: not left out


def text_of(source: Source) -> Tuple[Optional[str], Optional[str]]:
    return (source.text, None) if source.path is None else read_source(source.path)


def prepare(member: Member, k: int = K, w: int = WINDOW) -> Prepared:
    """Read and fingerprint one member (no file of it runs: it is only read and lexed)."""
    problems, files, kgrams, file_of, first, last, prints = [], [], [], [], [], [], []
    for source in member.files:
        text, problem = text_of(source)
        if problem:
            problems.append(problem)
        if text is None:
            continue
        try:
            ids, lines_a, lines_b = token_stream(text, source.language)
        except Exception as exc:                 # a lexer that fails on odd text: the file is left out
            problems.append(f"{source.path or source.shown}: cannot be tokenised ({type(exc).__name__}): skipped")
            continue
        hashes = kgram_hashes(ids, k)
        full = np.zeros(len(ids), dtype=np.uint64)
        full[:len(hashes)] = hashes
        kgrams.append(full)
        file_of.append(np.full(len(ids), len(files), dtype=np.int32))
        first.append(lines_a)
        last.append(lines_b)
        prints.append(hashes[winnow(hashes, w)])
        files.append(source)
    if files and not sum(len(x) for x in kgrams):
        where = ", ".join(source.path or source.shown for source in files)
        problems.append(f"{where}: no code (comments, imports and strings only, or empty): {member.name} has nothing to compare")

    def joined(parts, dtype):
        return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)
    return Prepared(member.name, member.kind, files, joined(kgrams, np.uint64), joined(file_of, np.int32),
                    joined(first, np.int32), joined(last, np.int32), np.unique(joined(prints, np.uint64)), problems)


def prepare_packed(args) -> Prepared:
    """prepare(member, k, w) from one tuple (a pool's map)."""
    return prepare(*args)


def unique_kgrams(p: Prepared) -> np.ndarray:
    values = np.unique(p.kgrams)
    return values[values != 0]


def common_hashes(class_members: Sequence[Prepared], share: float) -> np.ndarray:
    """The k-grams found in more than `share` of the class and in more than COMMON_AT_LEAST members."""
    if not class_members:
        return np.zeros(0, dtype=np.uint64)
    values, counts = np.unique(np.concatenate([unique_kgrams(p) for p in class_members]), return_counts=True)
    return values[(counts > share * len(class_members)) & (counts > COMMON_AT_LEAST)]


def _covered(starts: np.ndarray, length: int, k: int) -> np.ndarray:
    """Per token: inside some k-gram starting at one of `starts`."""
    marks = np.zeros(length + k + 1, dtype=np.int32)
    np.add.at(marks, starts, 1)
    np.add.at(marks, starts + k, -1)
    return np.cumsum(marks)[:length] > 0


def leave_out(p: Prepared, ignored: np.ndarray, k: int) -> None:
    """Sets p.kept, p.counted, p.size and drops the left-out fingerprints."""
    out = np.isin(p.kgrams, ignored) if len(ignored) else np.zeros(len(p.kgrams), dtype=bool)
    nonzero = p.kgrams != 0
    values, inverse, counts = np.unique(p.kgrams, return_inverse=True, return_counts=True)
    out |= nonzero & (counts[inverse] > REPEATED)
    p.kept = np.where(out, np.uint64(0), p.kgrams)
    dropped = _covered(np.flatnonzero(out & nonzero), len(p.kgrams), k)
    p.counted = ~dropped
    p.size = int(p.counted.sum())
    repeated = values[(counts > REPEATED) & (values != 0)]
    p.fingerprints = np.setdiff1d(p.fingerprints, np.union1d(ignored, repeated), assume_unique=False)
    p.kgrams = None                         # `kept` is what the comparison reads from now on


def shared_fingerprints(members: Sequence[Prepared], in_class: np.ndarray) -> np.ndarray:
    """counts[i, j]: fingerprints class member i (its index among the class) shares with member j."""
    rows = np.full(len(members), -1, dtype=np.int64)
    rows[in_class] = np.arange(int(in_class.sum()))
    counts = np.zeros((int(in_class.sum()), len(members)), dtype=np.int32)
    if not len(members):
        return counts
    hashes = np.concatenate([p.fingerprints for p in members])
    owners = np.concatenate([np.full(len(p.fingerprints), i, dtype=np.int64) for i, p in enumerate(members)])
    order = np.argsort(hashes, kind="stable")
    hashes, owners = hashes[order], owners[order]
    _, starts, sizes = np.unique(hashes, return_index=True, return_counts=True)
    class_hits = np.add.reduceat(in_class[owners].astype(np.int64), starts) if len(starts) else starts
    for start, size in zip(starts[(sizes > 1) & (class_hits > 0)], sizes[(sizes > 1) & (class_hits > 0)]):
        group = owners[start:start + size]
        mine = rows[group[in_class[group]]]
        counts[mine[:, None], group[None, :]] += 1
    return counts


@dataclass
class Fragment:
    a: int            # first token in a
    b: int            # first token in b
    tokens: int


def _runs(pa: np.ndarray, pb: np.ndarray) -> List[Tuple[int, int, int]]:
    """Matching k-gram positions -> maximal diagonal runs (start in a, start in b, k-grams)."""
    order = np.lexsort((pa, pa - pb))
    pa, pb = pa[order], pb[order]
    diag = pa - pb
    new = np.ones(len(pa), dtype=bool)
    new[1:] = (diag[1:] != diag[:-1]) | (pa[1:] != pa[:-1] + 1)
    starts = np.flatnonzero(new)
    lengths = np.diff(np.append(starts, len(pa)))
    return list(zip(pa[starts].tolist(), pb[starts].tolist(), lengths.tolist()))


def fragments(a: Prepared, b: Prepared, k: int) -> List[Fragment]:
    """The shared fragments of a and b, one-to-one, longest first."""
    ha, hb = a.kept, b.kept
    pos_a, pos_b = np.flatnonzero(ha), np.flatnonzero(hb)
    if not len(pos_a) or not len(pos_b):
        return []
    pos_a = pos_a[np.isin(ha[pos_a], hb[pos_b])]
    if not len(pos_a):
        return []
    order_b = pos_b[np.argsort(hb[pos_b], kind="stable")]
    sorted_b = hb[order_b]
    lo = np.searchsorted(sorted_b, ha[pos_a], side="left")
    hi = np.searchsorted(sorted_b, ha[pos_a], side="right")
    reps = hi - lo
    pa = np.repeat(pos_a, reps)
    offsets = np.arange(int(reps.sum())) - np.repeat(np.cumsum(reps) - reps, reps)
    pb = order_b[np.repeat(lo, reps) + offsets]
    runs = sorted(_runs(pa, pb), key=lambda r: (-r[2], r[0], r[1]))
    taken_a = np.zeros(len(ha), dtype=bool)
    taken_b = np.zeros(len(hb), dtype=bool)
    found = []
    for start_a, start_b, count in runs:
        length = count + k - 1
        free = ~taken_a[start_a:start_a + length] & ~taken_b[start_b:start_b + length]
        if not free.all():                       # keep the longest free stretch, if a k-gram long
            edges = np.flatnonzero(np.diff(np.concatenate(([0], free.astype(np.int8), [0]))))
            spans = edges.reshape(-1, 2)
            if not len(spans):
                continue
            best = spans[np.argmax(spans[:, 1] - spans[:, 0])]
            if best[1] - best[0] < k:
                continue
            start_a, start_b, length = start_a + int(best[0]), start_b + int(best[0]), int(best[1] - best[0])
        taken_a[start_a:start_a + length] = True
        taken_b[start_b:start_b + length] = True
        found.append(Fragment(start_a, start_b, length))
    return found


def pair_figures(a: Prepared, b: Prepared, found: List[Fragment]) -> Dict[str, float]:
    """similarity, shared tokens (the smaller side's count) and the longest fragment."""
    shared_a = sum(int(a.counted[f.a:f.a + f.tokens].sum()) for f in found)
    shared_b = sum(int(b.counted[f.b:f.b + f.tokens].sum()) for f in found)
    total = a.size + b.size
    return {"similarity": (shared_a + shared_b) / total if total else 0.0,
            "shared_tokens": min(shared_a, shared_b),
            "longest_fragment": max((f.tokens for f in found), default=0)}


def candidates(members: Sequence[Prepared], threshold: float, top: int) -> List[Tuple[int, int]]:
    """The pairs (i, j) of member indices to compare exactly: a class member with another class
    member, or with an earlier class's member or a reference; estimated similarity at least half
    the threshold, or among the `top` best estimates."""
    in_class = np.array([p.kind == CLASS for p in members], dtype=bool)
    counts = shared_fingerprints(members, in_class)
    sizes = np.array([len(p.fingerprints) for p in members], dtype=np.float64)
    class_index = np.flatnonzero(in_class)
    pairs, estimates = [], []
    for row, i in enumerate(class_index):
        js = np.flatnonzero(counts[row])
        js = js[(js != i) & ((~in_class[js]) | (js > i))]
        if not len(js):
            continue
        est = 2 * counts[row, js] / np.maximum(sizes[i] + sizes[js], 1)
        pairs.extend((int(i), int(j)) for j in js)
        estimates.extend(est.tolist())
    if not pairs:
        return []
    estimates = np.array(estimates)
    order = np.argsort(-estimates, kind="stable")
    keep = set(order[:top].tolist()) | set(np.flatnonzero(estimates >= threshold / 2).tolist())
    return [pairs[n] for n in sorted(keep)]
