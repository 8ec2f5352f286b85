"""Fixtures several test modules share, and the markers that select the fast subset."""
import fnmatch
import signal

import pytest

from tests.chromium import launch, need_chromium


@pytest.fixture(scope="module")
def browser():
    """Chromium through Playwright, one per module (the module is skipped when it is missing)."""
    yield from launch(need_chromium())


# A shell that starts a job in the background (`make test &`, a CI step run that way) makes it
# ignore SIGINT, and a process that starts with SIGINT ignored keeps it ignored, as do the
# processes it starts: the Ctrl-C tests would then press a key nobody hears. Take Python's own
# handler back for the test run and, through exec, for everything it starts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# The markers (registered in pytest.ini, strict): `make test-fast` leaves these out.
#   browser   starts Chromium (Playwright)
#   compiler  builds C++ (g++, make) for a class of programs
#   engine    starts Fairy-Stockfish or another UCI engine process
#   slow      takes long: a class graded, a Ctrl-C waited for, a wheel built and installed
# They are given here: by the test module's file name (patterns, so a new file named like these is
# marked too), single slow tests by name, then by what a test itself shows: the `browser` fixture,
# a skip reason naming fairy-stockfish or g++, a name saying it presses Ctrl-C.
MODULE_MARKS = {
    "test_*browser*.py": ("browser",),
    "test_grade_nthu*.py": ("compiler", "slow"),      # builds the NTHU class's C++ programs
    "test_grade_congo*.py": ("compiler", "slow"),     # builds the Congo class's PART.cpp files
    "test_grade_cluster*.py": ("compiler", "slow"),
    "test_containment*.py": ("compiler", "slow"),
    "test_cluster*.py": ("slow",),
    "test_install*.py": ("slow",),
    "test_uci*.py": ("engine",),
    "test_bench_fsf*.py": ("engine",),
    "test_pyffish_crosscheck*.py": ("slow",),
    "test_congo_tester*.py": ("slow",),
    "test_trust*.py": ("slow",),
    "test_grade_ta*.py": ("slow",),
    "test_grade.py": ("slow",),                       # a classroom graded for most tests
    "test_compare.py": ("slow",),                     # SPRT runs of games
    "test_gradescope.py": ("slow",),                  # the autograder's games
}
# single tests that take long (`pytest --durations`, 2026-11-28: 2 s or more on an idle 2-core machine)
SLOW_TESTS = {
    "test_ab.py": ("test_random_positions_cover_both_colours",),
    "test_analysis.py": ("test_analyse_leaves_out_the_earlier_reports", "test_no_best_move_is_judged_in_recorded_games"),
    "test_box.py": ("test_a_well_behaved_file_plays_the_same_games_boxed_or_not",
                    "test_a_boxed_worker_killed_while_it_starts_leaves_nothing"),
    "test_congo_cli.py": ("test_report_plays_congos_opponents",),
    "test_gardner.py": ("test_series_replay_tournament_and_the_records", "test_random_games_agree_with_pyffish"),
    "test_minimax.py": ("test_minimax_root_equals_plain_minimax_at_depth_four",),
    "test_nthu_agents.py": ("test_baselines_2_and_3_choose_as_the_literal_minimax", "test_baseline4_chooses",
                            "test_ab_wins_the_course_game"),
    "test_nthu_cli.py": ("test_report_defaults_to_the_course_grading", "test_series_records_the_program_depths"),
    "test_nthu_program.py": ("test_the_exported_player_plays_a_whole_game",),
    "test_puzzles.py": ("test_shipped_engine_puzzles_hold", "test_shipped_mates_in_two_are_proved_again"),
    "test_report.py": ("test_report_end_to_end", "test_keep_previous_moves_the_last_report_aside",
                       "test_report_counts_a_crashing_agent_and_resumes"),
    "test_serve.py": ("test_a_flood_of_games",),
    "test_series.py": ("test_resume_after_a_real_kill", "test_a_second_run_into_a_busy_folder",
                       "test_a_damaged_settings_file", "test_a_resume_with_an_edited_agent_file"),
    "test_similarity.py": ("test_grade_similar_links_the_report",),
    "test_sprt.py": ("test_wide_normalized_bounds",),
    "test_untrusted_env.py": ("test_proc_environ_shows_the_token_only_outside_the_box",),
}
SKIP_REASON_MARKS = {"fairy-stockfish": "engine", "g++": "compiler", "make is not": "compiler"}
NAME_MARKS = {"ctrl_c": "slow", "ctrl-c": "slow"}


def markers_of(item) -> set:
    """The markers `item` gets from this file's rules (besides its own)."""
    found = set()
    for pattern, names in MODULE_MARKS.items():
        if fnmatch.fnmatch(item.path.name, pattern):
            found.update(names)
    if "browser" in getattr(item, "fixturenames", ()):
        found.add("browser")
    for skip in item.iter_markers("skipif"):
        reason = str(skip.kwargs.get("reason", ""))
        found.update(name for text, name in SKIP_REASON_MARKS.items() if text in reason)
    found.update(name for text, name in NAME_MARKS.items() if text in item.name.lower())
    if item.name.startswith(SLOW_TESTS.get(item.path.name, ())):
        found.add("slow")
    return found


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in sorted(markers_of(item)):
            item.add_marker(name)
