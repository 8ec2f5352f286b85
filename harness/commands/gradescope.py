"""`gradescope --out autograder.zip`: the course's grading as a Gradescope autograder (harness/grading/gradescope/)."""
from .. import grading, players
from ..isolation.box import BoxSettings
from ..grading.gradescope import COLOURS, VISIBILITIES, Settings, SettingsError
from ..grading.gradescope.bundle import BundleError, build_bundle
from ..grading.report import COURSE_GAME_SECONDS
from ..isolation.sandbox import DEFAULT_MOVE_TIMEOUT
from .common import (UsageError, add_points_options, add_variant_option, agent_spec, opponent_list, positive_int,
                     positive_seconds, variant_of, whole_number)


def run(args) -> int:
    variant = variant_of(args)
    if variant.class_grading != grading.FILES:
        raise UsageError(f"gradescope grades {', '.join(grading.graded_variants([grading.FILES]))} submissions "
                         f"(a .py file with studentAgent); {variant.name} is not supported")
    for opponent in args.opponents or ():
        agent_spec(opponent, variant.name)
        if players.is_file_spec(opponent, variant.name):
            raise UsageError(f"opponent '{opponent}': the autograder plays submissions against built-in opponents")
    try:
        settings = Settings.for_variant(variant, games=args.games, opponents=args.opponents, colour=args.colour,
                                        game_time=args.game_time, move_timeout=args.move_timeout,
                                        points=args.points, partial=args.partial, visibility=args.visibility,
                                        seed=args.seed, memory_mb=args.memory_mb, jobs=args.jobs,
                                        review=not args.no_review)
        entries, size, written = build_bundle(args.out, settings)
    except (SettingsError, BundleError) as exc:
        raise UsageError(str(exc)) from None
    points = settings.opponent_points()
    colour = "both colours" if settings.colour == "both" else f"as {settings.colour.capitalize()}"
    clock = f", {settings.game_time:g} s of thinking per game" if settings.game_time else ""
    scoring = ("partial points (points x not-lost rate)" if settings.partial
               else "an opponent's points when its pass mark is met")
    print(f"written: {written} ({entries} files, {size / 1024:.0f} KiB)")
    print(f"each submission: the course's check, then {settings.games} game{'s' if settings.games > 1 else ''} "
          f"against each of {', '.join(f'{name} ({value:g} points)' for name, value in points.items())}, "
          f"{colour}{clock}; {scoring}")
    print("upload it as the assignment's autograder (Configure Autograder, base image Ubuntu 24.04); in its Autograder "
          f"Settings give it 1 CPU or more, memory above {settings.memory_mb} MiB and a timeout that covers "
          f"{len(settings.opponents) * settings.games * len(settings.colours)} games; see docs/grading.md")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("gradescope", help="a Gradescope autograder zip that grades a submission as the course does")
    p.add_argument("--out", required=True, metavar="FILE.zip", help="where to write the autograder zip")
    add_variant_option(p)
    p.add_argument("--games", type=positive_int, default=None, metavar="N",
                   help="games against each opponent (default: the course's, cs3243 50)")
    p.add_argument("--opponents", type=opponent_list, default=None, metavar="A,B,...",
                   help="built-in opponents, one test each (default: the course's, cs3243 dummy,random,greedy,smart,minimax)")
    p.add_argument("--colour", choices=COLOURS, default=None,
                   help="the submission's colour (default: the course's, cs3243 white); both: half the games each")
    add_points_options(p)
    p.add_argument("--visibility", choices=VISIBILITIES, default="visible",
                   help="when students see the tests (Gradescope's setting; default visible)")
    p.add_argument("--game-time", type=positive_seconds, default=None, metavar="SECONDS",
                   help=f"a submission whose thinking over one game passes this loses it (default: the course's, "
                        f"cs3243 {COURSE_GAME_SECONDS:g})")
    p.add_argument("--move-timeout", type=positive_seconds, default=None, metavar="SECONDS",
                   help=f"a move not answered in this time loses (default {DEFAULT_MOVE_TIMEOUT:g})")
    p.add_argument("--seed", type=whole_number, default=0, metavar="S",
                   help="game i against each opponent is played with seed S+i (default 0)")
    p.add_argument("--memory-mb", type=positive_int, default=BoxSettings.memory_mb, metavar="MB",
                   help=f"address space the submission may use (default {BoxSettings.memory_mb})")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                   help="games played at once on Gradescope (default 1: more than the container's cores would "
                        "count waiting as thinking)")
    p.add_argument("--no-review", action="store_true",
                   help="do not review the games not won (by default each one the output lists gets its "
                        "turning point from Fairy-Stockfish, which setup.sh installs)")
    p.set_defaults(run=run)
