"""similarity.json, similarity.csv and similarity.html (one self-contained page: Jinja2, inline CSS,
no script and nothing fetched)."""
import os
from typing import Dict, List, Optional, Sequence

import jinja2

from ..runs.results import write_json
from ..view import csv_out
from .compare import Prepared, text_of

JSON_NAME, CSV_NAME, HTML_NAME = "similarity.json", "similarity.csv", "similarity.html"
CSV_FIELDS = ("rank", "a", "b", "similarity", "flagged", "shared_tokens", "longest_fragment", "fragments")
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")


def fragment_json(a: Prepared, b: Prepared, fragment) -> dict:
    def side(p: Prepared, start: int) -> dict:
        end = start + fragment.tokens - 1
        return {"file": p.files[int(p.file_of[start])].shown, "lines": [int(p.first[start]), int(p.last[end])]}
    return {"tokens": fragment.tokens, "a": side(a, fragment.a), "b": side(b, fragment.b)}


def groups(pairs: Sequence[dict]) -> List[List[str]]:
    """Members connected by flagged pairs (connected components), largest first."""
    parent: Dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for pair in pairs:
        if pair["flagged"]:
            parent[find(pair["a"])] = find(pair["b"])
    found: Dict[str, List[str]] = {}
    for member in parent:
        found.setdefault(find(member), []).append(member)
    return sorted((sorted(g) for g in found.values()), key=lambda g: (-len(g), g))


def write_csv(path: str, pairs: Sequence[dict]) -> None:
    rows = ({"rank": rank, "a": pair["a"], "b": pair["b"], "similarity": f"{pair['similarity']:.4f}",
             "flagged": "yes" if pair["flagged"] else "no", "shared_tokens": pair["shared_tokens"],
             "longest_fragment": pair["longest_fragment"], "fragments": len(pair["fragments"])}
            for rank, pair in enumerate(pairs, 1))
    csv_out.write_csv(path, CSV_FIELDS, rows)


def colour(index: int) -> str:
    return f"hsl({(index * 137.508) % 360:.0f}, 80%, 80%)"


def _file_view(source, fragments: List[dict], side: str, other: str, pair_id: str) -> dict:
    """One file's lines in blocks: a block is a run of lines of one fragment (or of none)."""
    text, _ = text_of(source)
    lines = (text or "").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    owner: List[Optional[int]] = [None] * len(lines)
    for n, fragment in fragments:
        first, last = fragment[side]["lines"]
        for line in range(first - 1, min(last, len(lines))):
            if owner[line] is None:
                owner[line] = n
    blocks, anchored = [], set()
    for number, line in enumerate(lines, 1):
        n = owner[number - 1]
        if not blocks or blocks[-1]["fragment"] != n:
            anchor = n is not None and n not in anchored
            anchored.add(n)
            blocks.append({"fragment": n, "lines": [], "colour": None if n is None else colour(n),
                           "id": f"{pair_id}-{side}-f{n}" if anchor else None,
                           "href": None if n is None else f"#{pair_id}-{other}-f{n}", "markers": []})
        blocks[-1]["lines"].append((number, line))
    for n, fragment in fragments:          # a fragment whose lines all went to others: an anchor still
        if n not in anchored and blocks:
            start = fragment[side]["lines"][0]
            block = next((b for b in blocks if b["lines"][-1][0] >= start), blocks[-1])
            block["markers"].append(f"{pair_id}-{side}-f{n}")
    return {"name": source.shown, "blocks": blocks}


def pair_view(number: int, pair: dict, a: Prepared, b: Prepared) -> dict:
    pair_id = f"pair{number}"
    numbered = list(enumerate(pair["fragments"], 1))
    sides = {}
    for side, other, member in (("a", "b", a), ("b", "a", b)):
        shown = {f[side]["file"] for f in pair["fragments"]}
        sides[side] = {"name": pair[side],
                       "files": [_file_view(s, [(n, f) for n, f in numbered if f[side]["file"] == s.shown],
                                            side, other, pair_id) for s in member.files if s.shown in shown],
                       "others": [s.shown for s in member.files if s.shown not in shown]}
    return {"id": pair_id, "pair": pair, "sides": sides,
            "fragments": [{"n": n, "colour": colour(n), **f} for n, f in numbered]}


def render_html(data: dict, members: Dict[str, Prepared], settings: dict, problems: Sequence[str]) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    ranked = [dict(p, rank=n, id=f"pair{n}") for n, p in enumerate(data["pairs"], 1)]
    views = [pair_view(n, p, members[p["a"]], members[p["b"]]) for n, p in enumerate(data["pairs"], 1) if p["flagged"]]
    return env.get_template("similarity.html.j2").render(
        threshold=data["threshold"], pairs=ranked, groups=groups(data["pairs"]), views=views,
        settings=settings, problems=list(problems))


def write_all(out: str, data: dict, members: Dict[str, Prepared], settings: dict, problems: Sequence[str]) -> Dict[str, str]:
    os.makedirs(out, exist_ok=True)
    paths = {"json": os.path.join(out, JSON_NAME), "csv": os.path.join(out, CSV_NAME), "html": os.path.join(out, HTML_NAME)}
    write_json(paths["json"], data)
    write_csv(paths["csv"], data["pairs"])
    with open(paths["html"], "w", encoding="utf-8") as handle:
        handle.write(render_html(data, members, settings, problems))
    return paths
