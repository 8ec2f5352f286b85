"""What every command shares: the one-line usage error, the argument types, the option groups
that several commands take, and the small helpers that turn options into run settings.

A command module (`harness/commands/NAME.py`) holds its parser (`add_parser(sub)`) and its run;
`harness/cli.py` assembles them. Nothing below the commands imports this module.
"""
import argparse
import os
from typing import List, NoReturn, Optional

from ..runs import cluster
from ..grading import grade
from .. import players
from ..core.argtypes import positive_number, positive_seconds  # noqa: F401  (the commands' type for seconds, shared with congo test)
from ..core.argtypes import UsageError, check_writable  # noqa: F401  (check_writable: for the commands)
from ..core.argtypes import whole_number as whole_number_at_least
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT
from ..variants import DEFAULT_VARIANT, UnknownVariant, find_variant, variant_names
from ..core.variant import Variant

DEFAULT_OUT = "reports"


def registered() -> List[Variant]:
    """Every registered variant (loaded: only for help texts, which `Parser` writes on demand)."""
    return [find_variant(name) for name in variant_names()]


def names_of(variants: List[Variant]) -> str:
    return ", ".join(v.name for v in variants)


def agents_help() -> str:
    """The --white/--black help: every variant's built-ins and other agent forms (from the registry)."""
    builtins = "; ".join(f"{name}: {', '.join(players.builtin_names(name))}" for name in variant_names())
    games = registered()
    forms = []
    files = [v for v in games if "file" in v.agent_forms]
    if files:
        forms.append(f"a path to a .py file with studentAgent ({names_of(files)})")
    forms += [f"{v.program_prefix}PATH ({v.option_notes.get('program', f'a {v.name} program')})"
              for v in games if "program" in v.agent_forms]
    engines = [v for v in games if "uci" in v.agent_forms]
    if engines:
        forms.append(f"uci:PATH[,nodes=N][,movetime=MS] (a UCI engine such as Fairy-Stockfish, {names_of(engines)})")
    return f"a built-in ({builtins}), " + (", ".join(forms[:-1]) + ", or " if len(forms) > 1 else "") + forms[-1]


def defaults_help(key: str) -> str:
    """'cs3243 default 1000, congo 300': each variant's default of game option `key`."""
    given = [(v.name, v.option_defaults[key]) for v in registered() if v.option_defaults.get(key) is not None]
    return ", ".join(f"{name} default {value}" if i == 0 else f"{name} {value}" for i, (name, value) in enumerate(given))


def fifty_help() -> str:
    taking = [v for v in registered() if "fifty" in v.option_defaults]
    defaults = [v.option_defaults["fifty"] for v in taking if v.option_defaults["fifty"] is not None]
    default = (f"default {defaults[0]}" if len(taking) == 1 else defaults_help("fifty")) if defaults else "no default"
    return f"{names_of(taking)}: draw after this many plies without a capture ({default})"


def max_plies_help() -> str:
    return f"draw when a game reaches this many plies ({defaults_help('max_plies') or 'default: none'})"


def move_timeout_help() -> str:
    own = ", ".join(f"{v.name} {v.default_move_timeout:g}" for v in registered() if v.default_move_timeout)
    return ("a .py file or program agent loses a move it has not answered in this time "
            f"(default {DEFAULT_MOVE_TIMEOUT:g}" + (f"; {own}, as the course)" if own else ")"))


def config_help() -> str:
    taking = [v for v in registered() if "config" in v.option_defaults]
    return "start from the position in this file (" + "; ".join(
        f"{v.name}: {v.option_notes.get('config', 'its start file')}" for v in taking) + ")"


def fen_help() -> str:
    return f"start from this position ({names_of([v for v in registered() if 'fen' in v.option_defaults])})"


def analyser_help() -> str:
    games = registered()
    uci = [v for v in games if v.uci_variant is not None]
    ab = [v for v in games if v.default_analyser == "ab"]
    parts = []
    if uci:
        parts.append(f"{names_of(uci)}: uci:PATH[,nodes=N], a UCI engine that knows the game (default for "
                     f"{names_of([v for v in uci if v.default_analyser == 'uci'])}: Fairy-Stockfish from PATH or /usr/games)")
    if ab:
        parts.append(f"{names_of(ab)}: ab[,nodes=N], our own search (the default)")
    return "; ".join(parts)


def nodes_help() -> str:
    given = ", ".join(f"{v.name} {v.analyser_nodes}" for v in registered() if v.analyser_nodes)
    return f"nodes the analyser searches per position (default: {given}; see docs/analysis.md)"


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (no usage dump), still with exit code 2 (argparse's
    exit: the commands' tests and scripts expect it; a problem found later is a UsageError).
    An option's help may be a function (the texts built from every registered variant): it is
    called when the help is written, so a command never loads a variant it does not play."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")

    def format_help(self) -> str:
        for action in self._actions:
            if callable(action.help):
                action.help = action.help()
        return super().format_help()


# ----------------------------------------------------------------------------- value types

positive_int = whole_number_at_least(1)
whole_number = whole_number_at_least(None)


def cluster_address(text: str) -> str:
    """--cluster's value, checked when the command line is read (the scheduler is asked later)."""
    try:
        cluster.check_address(text)
    except cluster.ClusterError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace(f"--cluster '{text}'", f"'{text}'")) from None
    return text


def opponent_list(text: str) -> List[str]:
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        raise argparse.ArgumentTypeError("no opponent named")
    if not all(names):
        raise argparse.ArgumentTypeError(f"an empty opponent name in '{text}'")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"an opponent is named twice in '{text}'")
    return names


# ----------------------------------------------------------------------------- options -> settings


def variant_of(args) -> Variant:
    try:
        return find_variant(getattr(args, "variant", None) or DEFAULT_VARIANT)
    except UnknownVariant as exc:
        raise UsageError(str(exc)) from None


def start_options(args, variant: Variant) -> dict:
    """The variant's start options from --fifty, --max-plies, --config and --fen."""
    try:
        return variant.game_options(fifty=getattr(args, "fifty", None),
                                    max_plies=getattr(args, "max_plies", None),
                                    config=getattr(args, "config", None), fen=getattr(args, "fen", None))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def move_timeout_of(args, variant: Variant) -> float:
    """--move-timeout, or the variant's own default (nthu: the course's 10 s), or the sandbox's."""
    return players.move_timeout_for(variant, getattr(args, "move_timeout", None))


def agent_spec(spec: str, variant: str = DEFAULT_VARIANT) -> str:
    """Check an agent spec early, so a typo is one line before any game starts."""
    players.check_spec(spec, variant)
    return spec


def series_limits(args) -> dict:
    """The settings every series of a run shares, from the game and run options."""
    variant = variant_of(args)
    start_options(args, variant)          # a bad option or config file is one line, now
    return {"seed": args.seed, "fifty": args.fifty, "max_plies": args.max_plies,
            "move_timeout": move_timeout_of(args, variant), "config": args.config, "variant": variant.name,
            "fen": getattr(args, "fen", None), "game_time": args.game_time, "openings": args.openings or 0,
            **box_option(args)}


def box_option(args) -> dict:
    """{"box": settings} for .py files (harness.isolation.box), or {} with --no-box."""
    settings = grade.box_from_args(args)
    return {"box": settings.to_dict()} if settings is not None and hasattr(args, "no_box") else {}


def progress_mode(args) -> Optional[str]:
    return "none" if args.quiet else (args.progress or "auto")


RESUME_HINT: List[str] = []     # set while a run is going: what to tell the user on Ctrl-C


def runs_in(out: str, args=None) -> None:
    """From now on Ctrl-C says where the games are and how to play the rest (with --resume, in
    place of --force or --keep-previous when the command was given one)."""
    instead = next((option for option, name in (("--force", "force"), ("--keep-previous", "keep_previous"))
                    if getattr(args, name, False)), "")
    how = f"with --resume in place of {instead}" if instead else "with --resume"
    made = os.environ.get(RESUME_HINT_ENV)       # set by the Makefile: the make command that resumes
    RESUME_HINT[:] = [f"the games finished so far are kept in {out}; "
                      + (f"run {made} to play the rest" if made else f"run the same command {how} to play the rest")]


RESUME_HINT_ENV = "MINICHESS_RESUME_HINT"


def default_out(name: str) -> str:
    return os.path.join(DEFAULT_OUT, name)


# ----------------------------------------------------------------------------- option groups


def add_variant_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default=DEFAULT_VARIANT, metavar="NAME",
                   help=f"the game: {', '.join(variant_names())} (default {DEFAULT_VARIANT})")


def add_game_options(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("--seed", type=whole_number, default=0, metavar="S", help=seed_help)
    add_variant_option(p)
    p.add_argument("--fifty", type=positive_int, default=None, metavar="PLIES",
                   help=fifty_help)
    p.add_argument("--max-plies", type=positive_int, default=None, metavar="PLIES", help=max_plies_help)
    p.add_argument("--move-timeout", type=positive_seconds, default=None, metavar="SECONDS", help=move_timeout_help)
    p.add_argument("--config", metavar="FILE", help=config_help)
    p.add_argument("--fen", metavar="FEN", help=fen_help)


def add_points_options(p: argparse.ArgumentParser) -> None:
    """--points and --partial: the scoring of the Gradescope bundle, which grade's points column shares
    (harness.grading.report.opponent_score)."""
    p.add_argument("--points", type=positive_number("points"), default=100.0, metavar="N",
                   help="the points of all games, split evenly over the opponents (default 100)")
    p.add_argument("--partial", action="store_true",
                   help="an opponent scores points x not-lost rate instead of all or nothing on the pass mark")


def add_game_time_option(p: argparse.ArgumentParser, default: Optional[float]) -> None:
    p.add_argument("--game-time", type=positive_seconds, default=default, metavar="SECONDS",
                   help="an agent whose thinking over one game passes this loses by game_time "
                        + (f"(default {default:g}, the course's limit per game)" if default else "(default: no limit)"))


def add_box_options(p: argparse.ArgumentParser, can_turn_off: bool = True) -> None:
    """--cluster, --memory-mb (and --no-box) for the commands that play games."""
    p.add_argument("--cluster", type=cluster_address, metavar="ADDRESS",
                   help="play the games on a Dask scheduler (tcp://HOST:PORT) instead of the local pool")
    p.add_argument("--memory-mb", type=positive_int, default=grade.BOX_MEMORY_MB, metavar="MB",
                   help=f"address space a student file may use (default {grade.BOX_MEMORY_MB})")
    if can_turn_off:
        p.add_argument("--no-box", action="store_true",
                       help=".py files run in their own process only, without bubblewrap and its limits "
                            "(for speed comparisons)")


def add_progress_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", choices=("bar", "plain", "none"), default=None,
                   help="a progress bar, a plain line every few seconds, or nothing "
                        "(default: a bar on a terminal, plain lines otherwise)")
    p.add_argument("--quiet", action="store_true", help="no progress (same as --progress none)")


def add_analyser_options(p: argparse.ArgumentParser) -> None:
    """--analyser and --nodes: the game review's analyser (harness/analysis)."""
    p.add_argument("--analyser", default=None, metavar="SPEC", help=analyser_help)
    p.add_argument("--nodes", type=positive_int, default=None, metavar="N", help=nodes_help)


def add_resume_options(p: argparse.ArgumentParser, keep_previous: bool = False) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--resume", action="store_true",
                       help="continue an interrupted run in --out, playing only the missing games")
    group.add_argument("--force", action="store_true",
                       help="start over in an --out that already holds games (they are discarded)")
    if keep_previous:
        group.add_argument("--keep-previous", action="store_true",
                           help="start a fresh report in an --out that already holds one, which is moved to "
                                "OUT/previous/DATE_TIME/ first (make report does this)")


def add_run_options(p: argparse.ArgumentParser, box: bool = True, keep_previous: bool = False) -> None:
    p.add_argument("--jobs", type=positive_int, default=None, metavar="J",
                   help="games played at once (default: the number of cores)")
    add_resume_options(p, keep_previous)
    add_progress_options(p)
    p.add_argument("--openings", type=positive_int, default=None, metavar="PLIES",
                   help="strength testing: each pair of games starts from a position reached by PLIES "
                        "seeded random plies, the second game with the colours reversed")
    add_box_options(p, can_turn_off=box)
