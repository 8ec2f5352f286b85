"""k-gram hashes and winnowing (Schleimer, Wilkerson and Aiken, "Winnowing: Local Algorithms for
Document Fingerprinting", SIGMOD 2003), written here for token streams.

A document's k-grams (every run of k consecutive tokens) are hashed; winnowing keeps, in every
window of w consecutive hashes, the smallest (the rightmost one on ties: the paper's "robust
winnowing", which keeps fewer fingerprints in runs of equal hashes). The paper's two guarantees:
a match of at least t = w + k - 1 tokens shares at least one fingerprint, and no match shorter
than k is seen. The density is about 2 / (w + 1) fingerprints per k-gram.
"""
import numpy as np

BASE = np.uint64(1000003)        # the polynomial hash's base (odd; arithmetic modulo 2**64)


def kgram_hashes(ids: np.ndarray, k: int) -> np.ndarray:
    """The hash of every k-gram of the token ids (uint64), len(ids) - k + 1 of them (none when
    the stream is shorter than k). 0 is never a hash (it marks "no k-gram" elsewhere)."""
    n = len(ids) - k + 1
    if n <= 0:
        return np.zeros(0, dtype=np.uint64)
    ids = ids.astype(np.uint64)
    hashes = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            hashes = hashes * BASE + ids[j:j + n]
    hashes[hashes == 0] = 1
    return hashes


def winnow(hashes: np.ndarray, w: int) -> np.ndarray:
    """The positions winnowing selects in `hashes`: in each window of w consecutive hashes the
    rightmost minimum; each position once, ascending. A stream shorter than one window keeps its
    (rightmost) minimum."""
    n = len(hashes)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if n <= w:
        return np.array([n - 1 - int(np.argmin(hashes[::-1]))], dtype=np.int64)
    windows = np.lib.stride_tricks.sliding_window_view(hashes, w)
    rightmost = w - 1 - np.argmin(windows[:, ::-1], axis=1)      # argmin takes the first: reversed, the last
    return np.unique(rightmost + np.arange(len(windows)))
