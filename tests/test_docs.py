"""The pages a newcomer reads (README.md, docs/) against what a clone holds: every option of every
command is in docs/cli.md, every link leads to a file, no page cites a file a clone lacks, the
README's quick start runs as written, and `pip install .`'s leftovers are ignored by git."""
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import build_parser

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def _commands():
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices


def _sections_for(command: str, text: str):
    """docs/cli.md's sections for a command: its own (### `COMMAND ...`) and the shared ones whose
    heading ends with the commands they serve, e.g. "### Game options (play, series, report)"."""
    found = []
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        heading = section.split("\n", 1)[0]
        serves = re.search(r"\(([^)]*)\)\s*$", heading)
        if heading.strip("`").split()[0] == command or (serves and command in re.split(r",\s*", serves.group(1))):
            found.append(section)
    return "\n".join(found)


@pytest.mark.parametrize("command", sorted(_commands()))
def test_docs_cli_names_every_option_of_every_command(command):
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    sections = _sections_for(command, text)
    assert sections, f"docs/cli.md has no section for {command}"
    options = [o for a in _commands()[command]._actions for o in a.option_strings if o.startswith("--") and o != "--help"]
    missing = [o for o in options if not re.search(re.escape(o) + r"(?![\w-])", sections)]
    assert missing == [], f"docs/cli.md does not mention {command}'s {', '.join(missing)}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_leads_to_a_file_of_the_clone(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue                                  # https:, mailto:
        assert (page.parent / target).exists(), f"{page.name} links to {target}, which a clone lacks"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_cites_the_project_spec_outside_the_clone(page):
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"shared/spec|(?<!/autograder)/work/", text), f"{page.name} cites a file outside the repository"


def test_the_readme_quick_start_runs_as_written():
    """Its Congo line (the first two are make's: `make test` runs this very suite)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("## Quick start", 1)[1].split("```", 2)[1]
    (line,) = [line for line in block.splitlines() if "congo" in line]
    command = line.split("   #", 1)[0].replace(".venv/bin/python", shlex.quote(sys.executable))
    result = subprocess.run(["bash", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "-105\n" and "prints -105" in line


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="not a git clone")
def test_pip_install_leftovers_are_ignored():
    result = subprocess.run(["git", "check-ignore", "build/lib/harness/cli.py", "minichess_toolkit.egg-info/PKG-INFO"],
                            cwd=REPO, capture_output=True, text=True)
    assert result.stdout.split() == ["build/lib/harness/cli.py", "minichess_toolkit.egg-info/PKG-INFO"]
