"""The command line run in-process for tests: (exit code, stdout, stderr), argparse's own exits
included; optional text for standard input."""
import io

from harness.cli import main


def run_cli(argv, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exc:        # argparse's own usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err
