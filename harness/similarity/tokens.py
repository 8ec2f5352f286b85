"""Source text -> a normalised token stream, by Pygments' lexers.

What a copier changes without changing the program is left out or abstracted: whitespace and
layout (dropped), comments, docstrings (any statement that is only a string) and preprocessor lines
(dropped), names a student chose
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
from pygments.token import Comment, Keyword, Name, Number, String, Text, Whitespace

LEXERS = {"python": PythonLexer, "cpp": CppLexer}
KEPT_NAMES = (Name.Builtin, Name.Exception, Name.Function.Magic)   # Name.Builtin.Pseudo is under Name.Builtin


@lru_cache(maxsize=None)
def _lexer(language: str):
    return LEXERS[language](stripnl=False, ensurenl=False)


def normalised(text: str, language: str) -> List[Tuple[str, int, int]]:
    """(normalised token, start offset, end offset) for each token kept, in order."""
    python = language == "python"
    out: List[Tuple[str, int, int]] = []
    string_open = dotted = importing = False
    nesting, line_start, doc = 0, True, None
    for index, kind, value in _lexer(language).get_tokens_unprocessed(text):
        if (kind in Comment or kind in String.Doc or kind in Whitespace or (kind in Text and value.isspace())
                or value.strip() == "\\"):
            if "\n" in value and value.strip() != "\\":
                dotted = False
                if nesting <= 0:
                    line_start, importing = True, False
            continue
        if python and (importing or (kind in Keyword.Namespace and value in ("import", "from") and line_start)):
            importing = True                      # an import statement: boilerplate, left out whole
            nesting += value.count("(") - value.count(")")
            continue
        end = index + len(value)
        is_string = kind in String
        if doc is not None and not (is_string and string_open) and line_start:
            del out[doc]                          # a statement that is only a string: a docstring
        if not (is_string and string_open):
            doc = None
        if kind in Name.Namespace or (dotted and (value == "." or kind in Name)):
            if dotted:                            # a module path is one name, however the lexer split it
                out[-1] = (out[-1][0], out[-1][1], end)
            else:
                out.append(("N", index, end))
            dotted, string_open, line_start = True, False, False
            continue
        dotted = False
        if is_string:
            if string_open:                       # one string, however many pieces the lexer made
                out[-1] = (out[-1][0], out[-1][1], end)
                continue
            if python and line_start and nesting <= 0:
                doc = len(out)
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
                if python:
                    nesting += sum(token.count(c) for c in "([{") - sum(token.count(c) for c in ")]}")
        line_start = False
        out.append((token, index, end))
    if doc is not None and doc == len(out) - 1:
        del out[doc]
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
