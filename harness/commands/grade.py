"""`grade CLASS_DIR --out DIR`: a whole class's files, boxed, against the course's opponents."""
import json
import os

from ..runs import cluster, results
from ..grading import grade
from .. import grading, players, similarity
from ..grading.common import names_option
from ..grading.handout import INDEX_HTML, write_class_page
from ..grading.report import COURSE_GAME_SECONDS, DEFAULT_OPPONENTS
from .common import (UsageError, add_game_options, add_game_time_option, add_points_options, add_run_options,
                     agent_spec, opponent_list, positive_int, progress_mode, runs_in, series_limits, variant_of)


SIMILARITY = "similarity"          # OUT/similarity/: `similar` on the class graded (--similar)


# Options that only one kind of class grading reads (grading.FILES: CS3243's; the keys of grading.GRADERS),
# with the value that means "not given": one given to another kind is refused in one line.
COURSE_OPTIONS = {
    "games": ("--games", 50, (grading.FILES,)),
    "opponents": ("--opponents", list(DEFAULT_OPPONENTS), (grading.FILES,)),
    "game_time": ("--game-time", COURSE_GAME_SECONDS, (grading.FILES,)),
    "points": ("--points", 100.0, (grading.FILES,)),
    "partial": ("--partial", False, (grading.FILES,)),
    "fifty": ("--fifty", None, (grading.FILES,)),
    "max_plies": ("--max-plies", None, (grading.FILES,)),
    "config": ("--config", None, (grading.FILES,)),
    "fen": ("--fen", None, (grading.FILES,)),
    "seed": ("--seed", 0, (grading.FILES, "programs")),
    "ranking_bonus": ("--ranking-bonus", None, ("repositories",)),
    "rules_penalty": ("--rules-penalty", 0.0, ("repositories",)),
    "build_timeout": ("--build-timeout", 120.0, ("repositories",)),
    "cases": ("--cases", 100, ("programs",)),
    "run_timeout": ("--run-timeout", 300.0, ("programs",)),
}


def refuse_other_courses_options(args, variant) -> None:
    """UsageError naming the first option given that `variant`'s class grading does not read."""
    kind = variant.class_grading
    for dest, (option, unset, kinds) in COURSE_OPTIONS.items():
        if kind not in kinds and getattr(args, dest, unset) != unset:
            raise UsageError(f"{option} does not apply to a {variant.name} class (it is for "
                             f"{', '.join(grading.graded_variants(kinds))}); leave it out")


def run(args) -> int:
    args.only, args.exclude = names_option(args.only), names_option(args.exclude)
    code = grade_class(args)
    if args.similar:
        similar_in_gradebook(args.class_dir, args.out, args.jobs)
    return code


def similar_in_gradebook(class_dir: str, out: str, jobs) -> None:
    """`similar CLASS_DIR --out OUT/similarity` with its defaults, and its page linked from
    gradebook.json ("similarity": the page's path relative to OUT, "similarity_flagged": the
    flagged pairs as [a, b, similarity])."""
    try:
        outcome = similarity.run(class_dir, os.path.join(out, SIMILARITY), jobs=jobs)
    except similarity.SimilarityError as exc:
        raise UsageError(f"--similar: {exc}") from None
    flagged = [[p["a"], p["b"], p["similarity"]] for p in outcome.data["pairs"] if p["flagged"]]
    path = os.path.join(out, grade.GRADEBOOK_JSON)
    with open(path, encoding="utf-8") as handle:
        book = json.load(handle)
    book["similarity"] = os.path.relpath(outcome.paths["html"], out)
    book["similarity_flagged"] = flagged
    results.write_json(path, book)
    write_class_page(out, book)          # the class page gains the similarity column and link
    print(f"similarity: {len(flagged)} pairs flagged, {outcome.paths['html']}")


def grade_class(args) -> int:
    variant = variant_of(args)
    kind = variant.class_grading
    if kind is None:
        raise UsageError(f"grade grades classes of {', '.join(grading.graded_variants())}; "
                         f"{variant.name} has no class grading")
    refuse_other_courses_options(args, variant)
    if kind != grading.FILES:
        runs_in(args.out, args)
        return grading.grade_by_course(args)       # NTHU repositories, Congo programs: harness/grading
    limits = series_limits(args)
    if limits["openings"]:
        raise UsageError("grade plays from the course's start position; --openings is for series, "
                         "report and tournament")
    for opponent in args.opponents:
        agent_spec(opponent, limits["variant"])
        if players.is_file_spec(opponent, limits["variant"]):
            raise UsageError(f"opponent '{opponent}': grade plays the class against built-in opponents")
    runner = cluster.runner(args.cluster)
    runs_in(args.out, args)
    try:
        gradebook = grade.grade_class(args.class_dir, args.out, class_settings(args, limits, runner))
    finally:
        if runner is not None:
            runner.close()
    print("\n".join(grade.summary_lines(gradebook)))
    print(f"isolation: {gradebook['isolation']}")
    print(f"written: {os.path.join(args.out, grade.GRADEBOOK_CSV)}, {os.path.join(args.out, grade.GRADEBOOK_JSON)}, "
          f"{os.path.join(args.out, INDEX_HTML)}, reports in {os.path.join(args.out, grade.STUDENTS)}")
    return 0


def class_settings(args, limits: dict, runner) -> grade.ClassGradeSettings:
    """The command line's grading settings (`limits`: its `series_limits`; runner: a Dask runner or None)."""
    return grade.ClassGradeSettings(
        games=args.games, opponents=args.opponents, variant=limits["variant"], seed=args.seed,
        move_timeout=limits["move_timeout"], game_time=args.game_time, box=grade.box_from_args(args),
        start={key: limits[key] for key in ("fifty", "max_plies", "config", "fen")},
        points=args.points, partial=args.partial, jobs=args.jobs, executor=runner, resume=args.resume,
        force=args.force, progress=progress_mode(args), say=(lambda text: None) if args.quiet else grade.say,
        only=tuple(args.only), exclude=tuple(args.exclude))


def add_parser(sub) -> None:
    p = sub.add_parser("grade", help="a whole class, boxed, graded as its course does: a gradebook, a report per "
                                     "student, a class page",
                       description="Grade a class as its course does (--variant): CS3243 files played against "
                                   "the course's opponents (the default), NTHU repositories built and played up "
                                   "the baseline ladder (--variant nthu), Congo programs judged part by part "
                                   "(--variant congo). Writes OUT/gradebook.csv, gradebook.json, index.html (the "
                                   "class page) and students/NAME/report.html to hand out (docs/grading.md).")
    p.add_argument("class_dir", metavar="CLASS_DIR",
                   help="a folder per student: CS3243 NAME/ with AB.py (or one .py file) or NAME.py files; "
                        "NTHU a repository per student; Congo NAME/ with PART.cpp, PART.py or PART")
    p.add_argument("--out", required=True, metavar="DIR", help="where the gradebook and the reports go")
    p.add_argument("--games", type=positive_int, default=50, metavar="N",
                   help="games per opponent (default 50, as the course)")
    p.add_argument("--opponents", type=opponent_list, default=list(DEFAULT_OPPONENTS),
                   metavar="A,B,...", help=f"default {','.join(DEFAULT_OPPONENTS)}")
    add_game_options(p, "game i against each opponent is played with seed S+i (default 0)")
    add_game_time_option(p, COURSE_GAME_SECONDS)
    add_points_options(p)
    add_run_options(p, box=False)
    grading.add_class_options(p)
    for action in p._actions:
        if action.dest == "memory_mb":
            action.help = "address space a student's program may use (default: the course's, cs3243 2048, nthu 4096, congo 2048)"
    p.add_argument("--only", default=None, metavar="NAME,...",
                   help="grade these students again (their old results discarded; with --resume, kept); every "
                        "other row of the gradebook stays as it is")
    p.add_argument("--exclude", default=None, metavar="NAME,...",
                   help="leave these students out: their rows and their folders under OUT/students/ go")
    p.add_argument("--similar", action="store_true",
                   help="also look for copied code in the class (the similar command's defaults): "
                        "OUT/similarity/similarity.html, linked from gradebook.json")
    p.set_defaults(run=run)

