"""Source text -> a normalised token stream, by Pygments' lexers.

What a copier changes without changing the program is left out or abstracted: whitespace and
layout (dropped), comments, docstrings and preprocessor lines (dropped), names a student chose
(every identifier is `N`), literals (every number is `0`, every string, f-strings included, one
`S`). What stays is the program's shape: keywords, operators, punctuation, and the names a
student cannot rename (builtins such as `len` and `range`, `self`, `True`, C++'s types).
Each token carries its language, so Python and C++ never match each other.
"""
import bisect
import zlib
from functools import lru_cache
from typing import List, Tuple

import numpy as np
from pygments.lexers import CppLexer, PythonLexer
from pygments.token import Comment, Keyword, Literal, Name, Number, String, Text, Whitespace

LEXERS = {"python": PythonLexer, "cpp": CppLexer}
KEPT_NAMES = (Name.Builtin, Name.Exception, Name.Function.Magic)   # Name.Builtin.Pseudo is under Name.Builtin


@lru_cache(maxsize=None)
def _lexer(language: str):
    return LEXERS[language](stripnl=False, ensurenl=False)


def normalised(text: str, language: str) -> List[Tuple[str, int, int]]:
    """(normalised token, start offset, end offset) for each token kept, in order."""
    out: List[Tuple[str, int, int]] = []
    string_open = False
    for index, kind, value in _lexer(language).get_tokens_unprocessed(text):
        if kind in Comment or kind in String.Doc or kind in Whitespace or (kind in Text and value.isspace()):
            continue
        end = index + len(value)
        if kind in String or kind in Literal.String:
            if string_open:                       # one string, however many pieces the lexer made
                out[-1] = (out[-1][0], out[-1][1], end)
                continue
            token, string_open = "S", True
        else:
            string_open = False
            if kind in Number:
                token = "0"
            elif kind in Name and not any(kind in kept for kept in KEPT_NAMES):
                token = "N"
            elif kind in Keyword or kind in Name:
                token = value
            else:
                token = value.strip()
        out.append((token, index, end))
    return out


@lru_cache(maxsize=65536)
def token_id(language: str, token: str) -> int:
    return zlib.crc32(f"{language}\0{token}".encode("utf-8")) + 1


def token_stream(text: str, language: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ids, first lines, last lines) of the normalised tokens: ids as uint64, lines from 1."""
    tokens = normalised(text, language)
    newlines = [i for i, c in enumerate(text) if c == "\n"] if tokens else []
    ids = np.fromiter((token_id(language, t) for t, _, _ in tokens), dtype=np.uint64, count=len(tokens))
    first = np.fromiter((bisect.bisect_left(newlines, s) + 1 for _, s, _ in tokens), dtype=np.int32, count=len(tokens))
    last = np.fromiter((bisect.bisect_left(newlines, max(s, e - 1)) + 1 for _, s, e in tokens), dtype=np.int32,
                       count=len(tokens))
    return ids, first, last
