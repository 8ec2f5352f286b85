"""What the tester says: the summary and the first differences as text, every difference and
failure as JSON, and a JUnit XML file (one test case per case) for a student's CI."""
import re
import xml.etree.ElementTree as ET
from typing import List, NamedTuple, Sequence

from ..runs import results
from .cases import Case
from .check import Difference, Failure, fen_squares


NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml(text: str) -> str:
    """`text` with the characters XML 1.0 cannot hold (a garbage answer's control bytes) shown
    as escapes."""
    return NOT_XML.sub(lambda m: repr(m.group())[1:-1], text)


class Verdict(NamedTuple):
    program: str
    options: str                     # PART's options as given to the reference, e.g. "--depth 4 --edition 2022"
    seed: int
    edition: str
    cases: List[Case]
    differences: List[Difference]
    failures: List[Failure]

    @property
    def agree(self) -> int:
        return len(self.cases) - len(self.differences) - len(self.failures)


def _title(case: Case) -> str:
    move = f", move {case.move}" if case.move else ""
    return f"case {case.number} ({case.kind}): {case.fen}{move}"


def _block(label: str, lines: Sequence[str]) -> List[str]:
    shown = [line if line else "(an empty line)" for line in lines]
    return [f"  {label + ':':<9} {shown[0]}"] + ["  " + " " * 10 + line for line in shown[1:]]


def text(verdict: Verdict, show: int) -> str:
    """`PART: A/N cases agree`, the first `show` differences, then every failed case."""
    out = [f"{verdict.program}: {verdict.agree}/{len(verdict.cases)} cases agree"]
    for diff in verdict.differences[:show]:
        out.append(_title(diff.case))
        out += _block("expected", diff.expected)
        out += _block("got", diff.got)
        if diff.missing is not None:
            out += _block("missing", [" ".join(diff.missing) or "(none)"])
            out += _block("extra", [" ".join(diff.extra) or "(none)"])
            if not diff.missing and not diff.extra:
                out.append("  (the same moves, not as the course prints them: sorted, single spaces, each once)")
        if verdict.program == "apply" and diff.expected[0] != diff.got[0]:
            squares = fen_squares(diff.expected[0], diff.got[0])
            if squares:
                out += _block("differs", [squares])
    hidden = len(verdict.differences) - show
    if hidden > 0:
        out.append(f"... and {hidden} more difference{'s' if hidden != 1 else ''} "
                   f"(--show K shows K, --json FILE writes them all)")
    if verdict.failures:
        out.append(f"{len(verdict.failures)} case{'s' if len(verdict.failures) != 1 else ''} failed "
                   "(each run alone):")
        out += [f"{_title(f.case)}: {f.what}" for f in verdict.failures]
    return "\n".join(out) + "\n"


def to_json(verdict: Verdict) -> dict:
    differences = []
    for diff in verdict.differences:
        entry = {"case": diff.case.number, "kind": diff.case.kind, "fen": diff.case.fen}
        if diff.case.move is not None:
            entry["move"] = diff.case.move
        entry.update(expected="\n".join(diff.expected), got="\n".join(diff.got))
        if diff.missing is not None:
            entry.update(missing=diff.missing, extra=diff.extra)
        differences.append(entry)
    failures = [{"case": f.case.number, "kind": f.case.kind, "fen": f.case.fen,
                 **({"move": f.case.move} if f.case.move is not None else {}), "what": f.what}
                for f in verdict.failures]
    return {"part": verdict.program, "options": verdict.options, "seed": verdict.seed,
            "edition": verdict.edition, "cases": len(verdict.cases), "agree": verdict.agree,
            "differences": differences, "failures": failures}


def write_json(verdict: Verdict, path: str) -> None:
    results.write_json(path, to_json(verdict))


def junit(verdict: Verdict) -> ET.ElementTree:
    """One <testcase> per case: a <failure> for a different answer, an <error> for a failed run."""
    suite = ET.Element("testsuite", name=f"congo test {verdict.program}", tests=str(len(verdict.cases)),
                       failures=str(len(verdict.differences)), errors=str(len(verdict.failures)), skipped="0")
    properties = ET.SubElement(suite, "properties")
    for name, value in (("part", verdict.program), ("options", verdict.options), ("seed", verdict.seed),
                        ("edition", verdict.edition)):
        ET.SubElement(properties, "property", name=name, value=str(value))
    differences = {d.case.number: d for d in verdict.differences}
    failures = {f.case.number: f for f in verdict.failures}
    for case in verdict.cases:
        element = ET.SubElement(suite, "testcase", classname=f"congo.{verdict.program}",
                                name=f"case {case.number} ({case.kind})")
        where = case.fen + (f"\nmove {case.move}" if case.move else "")
        if case.number in differences:
            diff = differences[case.number]
            failure = ET.SubElement(element, "failure", message=_xml(f"expected {' / '.join(diff.expected)!r}, "
                                                                     f"got {' / '.join(diff.got)!r}"))
            body = [where, "expected:", *diff.expected, "got:", *diff.got]
            if diff.missing is not None:
                body += [f"missing: {' '.join(diff.missing)}", f"extra: {' '.join(diff.extra)}"]
            failure.text = _xml("\n".join(body))
        elif case.number in failures:
            error = ET.SubElement(element, "error", message=_xml(failures[case.number].what))
            error.text = where
    root = ET.Element("testsuites")
    root.append(suite)
    return ET.ElementTree(root)


def write_junit(verdict: Verdict, path: str) -> None:
    tree = junit(verdict)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
