"""`grade CLASS_DIR --out DIR`: a whole class's files, boxed, against the course's opponents."""
import json
import os

from ..runs import cluster, results
from ..grading import grade
from .. import grading, players, similarity
from ..grading import common as grading_common, lms, nthu_class, nthu_sheet, repos
from ..grading.common import names_option
from ..grading.handout import INDEX_HTML, write_class_page
from ..grading.report import COURSE_GAME_SECONDS, DEFAULT_OPPONENTS
from ..grading.roster import RosterError, read_roster
from ..isolation.box import BoxSettings
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
    roster, sheet = class_sheet(args)
    code = grade_class(args, sheet)
    if args.similar:
        if sheet is None:
            similar_in_gradebook(args.class_dir, args.out, args.jobs)
        else:
            repos_dir = os.path.join(args.out, nthu_sheet.REPOS)
            template = os.path.join(args.out, nthu_sheet.TEMPLATE) if sheet.settings.template else None
            outcome = similar_in_gradebook(repos_dir, args.out, args.jobs, templates=[template] if template else [],
                                           annotate=lambda pairs: sheet.chronology(pairs, repos_dir))
            nthu_sheet.add_chronology(args.out, outcome.data["pairs"])
    if roster is not None:
        book = lms.apply_roster(args.out, roster, grade.say)
        path = lms.write_lms(args.out, book, roster, lms.assignment_name(args.variant, args.lms_assignment),
                             args.similar)
        print(f"{roster.describe()}\nLMS export: {path}")
    return code


def class_sheet(args):
    """(the --roster, the NTHU sheet or None) from the command line; refuses what does not apply."""
    roster = None
    variant = variant_of(args)
    repositories = variant.class_grading == grading.REPOSITORIES
    sheet_options = [name for name, given in (("--deadline", args.deadline), ("--template", args.template),
                                              ("--advanced", args.advanced), ("--plagiarism", args.plagiarism),
                                              ("--late-policy", args.late_policy), ("--grace", args.grace))
                     if given is not None]
    if sheet_options and not repositories:
        raise UsageError(f"{', '.join(sheet_options)}: for classes of repositories "
                         f"({', '.join(grading.graded_variants((grading.REPOSITORIES,)))}), not {variant.name}")
    try:
        deadline = nthu_sheet.parse_deadline(args.deadline) if args.deadline else None
        if args.roster:
            roster = read_roster(args.roster, args.roster_columns, deadline.tzinfo if deadline else None)
    except (RosterError, grading_common.ClassError) as exc:
        raise UsageError(str(exc)) from None
    from_form = roster is not None and roster.columns["repo"] is not None and repositories
    if args.class_dir is None and not from_form:
        raise UsageError("grade needs CLASS_DIR" + (" (or --roster FORM.csv with a repository column)"
                                                  if repositories else ""))
    if args.class_dir is not None and from_form:
        raise UsageError(f"give CLASS_DIR or a roster with repositories ({roster.columns['repo']}), not both")
    if not repositories or not (from_form or sheet_options):
        return roster, None
    if args.late_policy not in (None, *nthu_sheet.POLICIES):
        raise UsageError(f"--late-policy {args.late_policy}: course or deadline")
    if (args.late_policy or args.grace) and deadline is None:
        raise UsageError("--late-policy and --grace need --deadline")
    try:
        settings = nthu_sheet.SheetSettings(
            deadline=deadline, late_policy=args.late_policy or "course",
            grace=nthu_sheet.parse_grace(args.grace) if args.grace else nthu_sheet.COURSE_GRACE,
            vcs_min_commits=args.vcs_min_commits, template=args.template, advanced=args.advanced,
            plagiarism=args.plagiarism, ranking_bonus=nthu_class.parse_bonus(args.ranking_bonus), roster=roster,
            class_dir=None if from_form else args.class_dir,
            fetch=repos.FetchSettings(args.clone_timeout, args.repo_mb,
                                      None if getattr(args, "no_box", False) else
                                      BoxSettings(memory_mb=1024, file_mb=args.repo_mb)),
            resume=args.resume)
    except grading_common.ClassError as exc:
        raise UsageError(str(exc)) from None
    if roster is not None and not args.quiet:
        grade.say(roster.describe())
    return roster, nthu_sheet.Sheet(settings, (lambda text: None) if args.quiet else grade.say)


def similar_in_gradebook(class_dir: str, out: str, jobs, templates=(), annotate=None):
    """`similar CLASS_DIR --out OUT/similarity` with its defaults, and its page linked from
    gradebook.json ("similarity": the page's path relative to OUT, "similarity_flagged": the
    flagged pairs as [a, b, similarity]); gradebook.csv gains a `similarity` column (each
    student's flagged pairs)."""
    try:
        outcome = similarity.run(class_dir, os.path.join(out, SIMILARITY), jobs=jobs, templates=templates,
                                 annotate=annotate)
    except similarity.SimilarityError as exc:
        raise UsageError(f"--similar: {exc}") from None
    flagged = [[p["a"], p["b"], p["similarity"]] for p in outcome.data["pairs"] if p["flagged"]]
    path = os.path.join(out, grade.GRADEBOOK_JSON)
    with open(path, encoding="utf-8") as handle:
        book = json.load(handle)
    book["similarity"] = os.path.relpath(outcome.paths["html"], out)
    book["similarity_flagged"] = flagged
    results.write_json(path, book)
    grading_common.add_gradebook_column(out, "similarity", lms.similarity_cells(book))   # "NN.N % with B"
    write_class_page(out, book)          # the class page gains the similarity column and link
    print(f"similarity: {len(flagged)} pairs flagged, {outcome.paths['html']}")
    return outcome


def grade_class(args, sheet=None) -> int:
    variant = variant_of(args)
    kind = variant.class_grading
    if kind is None:
        raise UsageError(f"grade grades classes of {', '.join(grading.graded_variants())}; "
                         f"{variant.name} has no class grading")
    refuse_other_courses_options(args, variant)
    if kind != grading.FILES:
        runs_in(args.out, args)
        return grading.grade_by_course(args, sheet)  # NTHU repositories, Congo programs: harness/grading
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
    p.add_argument("class_dir", metavar="CLASS_DIR", nargs="?",
                   help="a folder per student: CS3243 NAME/ with AB.py (or one .py file) or NAME.py files; "
                        "NTHU a repository per student (or none, with --roster FORM.csv); Congo NAME/ with "
                        "PART.cpp, PART.py or PART")
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
    add_sheet_options(p)
    p.set_defaults(run=run)


def add_sheet_options(p) -> None:
    """--roster (every course: ids for the LMS export; nthu: the form's repositories) and the NTHU
    sheet's options (docs/nthu.md, "From the form's CSV to the sheet")."""
    p.add_argument("--roster", metavar="FILE", help="a CSV with a row per student (a Google Form's export): "
                   "adds `id` to the gradebook and writes OUT/gradebook-lms.csv (Canvas, Moodle); nthu: its "
                   "repository column is the class, fetched into OUT/repos")
    p.add_argument("--roster-columns", metavar="STUDENT,REPO[,ID]",
                   help="the roster's columns by header (default: found by their names)")
    p.add_argument("--lms-assignment", metavar="NAME", help="the grade's column in gradebook-lms.csv "
                   "(default 'Minichess VARIANT')")
    p.add_argument("--deadline", metavar="TIME", help='nthu: e.g. "2026-06-20 23:59 +08:00": the commit graded '
                   "is the last one before it (see --late-policy)")
    p.add_argument("--late-policy", metavar="course|deadline", default=None,
                   help="nthu: course (default): commits until deadline + grace are graded, x0.6 if late, a form "
                        "Timestamp after the grace 0; deadline: the last commit before the deadline, no deduction")
    p.add_argument("--grace", metavar="DURATION", default=None, help="nthu: the late period (default 2h)")
    p.add_argument("--vcs-min-commits", type=positive_int, default=3, metavar="N",
                   help="nthu: commits of the student's own for the version-control point (default 3)")
    p.add_argument("--template", metavar="REPO", help="nthu: the course's template repository: its commits do "
                   "not count for version control, its code is left out of --similar")
    p.add_argument("--advanced", metavar="BONUS.csv", help="nthu: columns student, algorithm (MCTS +1, NNUE +2; "
                   "given only with baselines 1-3 passed)")
    p.add_argument("--plagiarism", metavar="DECISIONS.csv", help="nthu: the TA's decisions, columns plagiarizer "
                   "(0 points), plagiarized (x0.5)")
    p.add_argument("--clone-timeout", type=float, default=repos.CLONE_TIMEOUT, metavar="SECONDS",
                   help=f"nthu: seconds a repository's fetch may take (default {repos.CLONE_TIMEOUT:g})")
    p.add_argument("--repo-mb", type=positive_int, default=repos.REPO_MB, metavar="MB",
                   help=f"nthu: the size cap of a fetched repository (default {repos.REPO_MB})")

