"""Source text -> a normalised token stream, by Pygments' lexers.

What a copier changes without changing the program is left out or abstracted: whitespace and
layout (dropped), comments, docstrings (any statement that is only a string) and preprocessor lines
(dropped), names a student chose (every identifier is `N`), literals (every number is `0`, every string, f-strings included, one
`S`). What stays is the program's shape: keywords, operators, punctuation, and the names a
student cannot rename (builtins such as `len` and `range`, `self`, `True`, C++'s types).
Each token carries its language, so Python and C++ never match each other.
"""
import re
import zlib
from functools import lru_cache
from typing import List, Tuple

import numpy as np
from pygments.lexers import CppLexer, PythonLexer
from pygments.token import Comment, Keyword, Name, Number, String, Whitespace

LEXERS = {"python": PythonLexer, "cpp": CppLexer}
KEPT_NAMES = (Name.Builtin, Name.Exception, Name.Function.Magic)   # Name.Builtin.Pseudo is under Name.Builtin
NEWLINE = re.compile("\n")


@lru_cache(maxsize=None)
def _lexer(language: str):
    return LEXERS[language](stripnl=False, ensurenl=False)


SKIP, STRING, NUMBER, NAME, VALUE, NAMESPACE, OTHER, IMPORT = range(8)


@lru_cache(maxsize=None)
def _kind(token_type) -> int:
    """What a Pygments token type becomes (token types are singletons: looked up once each)."""
    if token_type in Comment or token_type in String.Doc or token_type in Whitespace:
        return SKIP
    if token_type in Keyword.Namespace:
        return IMPORT
    if token_type in String:
        return STRING
    if token_type in Number:
        return NUMBER
    if token_type in Name.Namespace:
        return NAMESPACE
    if token_type in Name and not any(token_type in kept for kept in KEPT_NAMES):
        return NAME
    if token_type in Keyword or token_type in Name:
        return VALUE
    return OTHER


def normalised(text: str, language: str) -> List[Tuple[str, int, int]]:
    """(normalised token, start offset, end offset) for each token kept, in order."""
    python = language == "python"
    out: List[Tuple[str, int, int]] = []
    string_open = dotted = importing = False
    nesting, line_start, doc = 0, True, None
    for index, token_type, value in _lexer(language).get_tokens_unprocessed(text):
        kind = _kind(token_type)
        if kind == SKIP or (kind == OTHER and (value.isspace() or value.strip() == "\\")):
            if "\n" in value and value.strip() != "\\":
                dotted = False
                if nesting <= 0:
                    line_start, importing = True, False
            continue
        if python and (importing or (kind == IMPORT and value in ("import", "from") and line_start)):
            importing = True                      # an import statement: boilerplate, left out whole
            nesting += value.count("(") - value.count(")")
            continue
        end = index + len(value)
        is_string = kind == STRING
        if doc is not None and not (is_string and string_open) and line_start:
            del out[doc]                          # a statement that is only a string: a docstring
        if not (is_string and string_open):
            doc = None
        if kind == NAMESPACE or (dotted and (value == "." or kind == NAME)):
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
            if kind == NUMBER:
                token = "0"
            elif kind == NAME:
                token = "N"
            elif kind == VALUE or kind == IMPORT:
                token = value
            else:
                token = value.strip()
                if python and token in BRACKETS:
                    nesting += BRACKETS[token]
        line_start = False
        out.append((token, index, end))
    if doc is not None and doc == len(out) - 1:
        del out[doc]
    return out


BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


@lru_cache(maxsize=65536)
def token_id(language: str, token: str) -> int:
    return zlib.crc32(f"{language}\0{token}".encode("utf-8")) + 1


def token_stream(text: str, language: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ids, first lines, last lines) of the normalised tokens: ids as uint64, lines from 1."""
    tokens = normalised(text, language)
    if not tokens:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32)
    newlines = np.array([m.start() for m in NEWLINE.finditer(text)], dtype=np.int64)
    ids = np.array([token_id(language, t) for t, _, _ in tokens], dtype=np.uint64)
    bounds = np.array([(s, max(s, e - 1)) for _, s, e in tokens], dtype=np.int64)
    first = (np.searchsorted(newlines, bounds[:, 0]) + 1).astype(np.int32)
    last = (np.searchsorted(newlines, bounds[:, 1]) + 1).astype(np.int32)
    return ids, first, last
