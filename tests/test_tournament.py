"""tournament: the rating fit on crafted games with hand-checkable answers, and a small round
robin of built-in agents."""
import json
import math
import os
import re

import pytest

from harness import cli, stats
from harness.tournament import FitError, fit_ratings, run_tournament

ELO3 = 400 * math.log10(3)          # the Elo gap at which the stronger side scores 3 in 4


def by_player(fit):
    return {r["player"]: r for r in fit["ratings"]}


def test_two_players_three_points_of_four():
    # p = 3/4 -> a gap of 400 log10(3) = 190.85, split around the mean; the information of the
    # gap is n p (1 - p) = 4 * 3/16 = 3/4, so each rating (half the gap) has variance
    # (1/4) / (3/4) = 1/3 in natural units: sd = sqrt(1/3) * 400 / ln 10 = 100.3 Elo
    fit = fit_ratings(["A", "B"], {("A", "B"): (3, 4)})
    a, b = by_player(fit)["A"], by_player(fit)["B"]
    assert (a["elo"], b["elo"]) == (round(ELO3 / 2, 1), round(-ELO3 / 2, 1)) == (95.4, -95.4)
    assert a["sd"] == round(math.sqrt(1 / 3) * 400 / math.log(10), 1) == 100.3
    assert (a["low"], a["high"]) == (round(95.424 - 1.96 * 100.296, 1), round(95.424 + 1.96 * 100.296, 1))
    assert (a["score"], a["games"], b["score"], b["games"]) == (3, 4, 1, 4)
    assert fit["prior_draws"] == 0


def test_three_players_on_one_scale():
    # A 3/4 against B and B 3/4 against C put A, B, C at +190.85, 0, -190.85; then A against C
    # is expected to score 1 / (1 + 10^(-381.7/400)) = 9/10, which is exactly what A scored, so
    # the fit of all games at once is the same scale (draws count half: 2 wins 2 draws = 3/4)
    fit = fit_ratings(["A", "B", "C"], {("A", "B"): (3, 4), ("B", "C"): (3, 4), ("A", "C"): (9, 10)})
    elo = {name: r["elo"] for name, r in by_player(fit).items()}
    assert elo == {"A": round(ELO3, 1), "B": 0.0, "C": round(-ELO3, 1)} == {"A": 190.8, "B": 0.0, "C": -190.8}
    assert [r["player"] for r in fit["ratings"]] == ["A", "B", "C"]
    assert by_player(fit)["A"]["sd"] == by_player(fit)["C"]["sd"]


def test_a_clean_sweep_gets_the_prior_and_a_note():
    fit = fit_ratings(["A", "B"], {("A", "B"): (4, 4)})
    # one virtual draw: A 4.5 of 5 -> a gap of 400 log10(9) = 381.7
    assert fit["prior_draws"] == 1.0
    assert by_player(fit)["A"]["elo"] == round(400 * math.log10(9) / 2, 1)
    assert by_player(fit)["A"]["score"] == 4 and by_player(fit)["A"]["games"] == 4


def test_players_without_games_between_them_cannot_be_rated():
    with pytest.raises(FitError, match="not linked"):
        fit_ratings(["A", "B", "C", "D"], {("A", "B"): (1, 2), ("C", "D"): (1, 2)})


def test_a_round_robin_of_built_ins(tmp_path):
    report = run_tournament(["dummy", "random", "greedy"], 1, str(tmp_path), jobs=1, progress="none", seed=0)
    cross = report["crosstable"]
    for a in ("dummy", "random", "greedy"):
        for b in ("dummy", "random", "greedy"):
            if a != b:
                assert cross[a][b]["games"] == 2
                assert cross[a][b]["score"] + cross[b][a]["score"] == 2
    assert sum(r["games"] for r in report["ratings"]) == 12
    assert sum(r["score"] for r in report["ratings"]) == 6
    with open(os.path.join(tmp_path, "report.json")) as handle:
        assert json.load(handle)["crosstable"] == cross
    with open(os.path.join(tmp_path, "report.md")) as handle:
        text = handle.read()
    assert "## Ratings" in text and "## Crosstable" in text
    records = [json.loads(line) for line in open(os.path.join(tmp_path, "pairs", "dummy-vs-random", "results.jsonl"))]
    assert sorted((r["white"], r["black"]) for r in records) == [("dummy", "random"), ("random", "dummy")]
    # report.html: the ratings in the fit's order, the crosstable, and the 6 games in the viewer
    page = open(os.path.join(tmp_path, "report.html"), encoding="utf-8").read()
    assert "<h2>Ratings</h2>" in page and "<h2>Crosstable</h2>" in page and "<p>6 games.</p>" in page
    order = [r["player"] for r in report["ratings"]]
    assert [page.index(f"<td>{name}</td>") for name in order] == sorted(page.index(f"<td>{name}</td>") for name in order)
    games = json.loads(page.split('<script type="application/json" id="games-data">')[1].split("</script>")[0])
    assert len(games) == 6 and {g["label"] for g in games} == {"dummy vs random", "dummy vs greedy", "random vs greedy"}
    assert all(len(g["positions"]) == g["plies"] + 1 for g in games)


def test_one_agent_is_not_a_tournament(capsys):
    assert cli.main(["tournament", "dummy"]) == 2
    assert capsys.readouterr().err == ("error: a tournament needs at least two agents (or a class folder holding two "
                                       "submissions)\n")


def test_the_progress_says_whose_wins_it_counts(tmp_path, capsys):
    """Each pair's W/D/L are its first-named agent's (dummy loses every game to greedy)."""
    assert cli.main(["tournament", "dummy", "greedy", "--games", "1", "--jobs", "1", "--out", str(tmp_path),
                     "--progress", "plain"]) == 0
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.fullmatch(r"games \(W/D/L: each pair's first-named agent\): 2/2 games, W0 D0 L2, \d+ s", last)


def test_paired_games_give_pentanomial_figures(tmp_path, capsys):
    out = str(tmp_path / "t")
    assert cli.main(["tournament", "smart", "greedy", "--games", "3", "--openings", "2", "--jobs", "2",
                     "--out", out, "--quiet"]) == 0
    text = capsys.readouterr().out
    report = json.load(open(os.path.join(out, "report.json")))
    # recount the pairs from the games: game 2k has smart White, 2k+1 the same opening with smart Black
    records = [json.loads(line) for line in open(os.path.join(out, "pairs", "smart-vs-greedy", "results.jsonl"))]
    by_game = {r["game"]: r for r in records}
    def smart_points(r):
        return 0.5 if r["result"] == "draw" else float(r[r["result"]] == "smart")   # r["white"]: White's name
    counts = [0] * 5
    for k in range(3):
        first, second = by_game[2 * k], by_game[2 * k + 1]
        assert first["opening"] == second["opening"] and (first["white"], second["white"]) == ("smart", "greedy")
        counts[int(2 * (smart_points(first) + smart_points(second)))] += 1
    assert report["crosstable"]["smart"]["greedy"]["pentanomial"] == counts
    assert report["crosstable"]["greedy"]["smart"]["pentanomial"] == counts[::-1]
    elo, margin = stats.pentanomial_elo(counts)
    nelo, nelo_margin = stats.pentanomial_nelo(counts)
    assert report["pairs"] == [{"players": ["smart", "greedy"], "pairs": 3, "pentanomial": counts,
                                "elo": stats._rounded(elo, 2), "elo_margin": stats._rounded(margin, 2),
                                "nelo": stats._rounded(nelo, 2), "nelo_margin": stats._rounded(nelo_margin, 2),
                                "los": round(stats.pentanomial_los(counts), 4)}]
    line = (f"smart vs greedy: Ptnml(0-2): [{', '.join(map(str, counts))}], Elo: {elo:.2f} +/- {margin:.2f}, "
            f"nElo: {nelo:.2f} +/- {nelo_margin:.2f}")
    assert line in text.splitlines()
    assert f"| smart vs greedy | [{', '.join(map(str, counts))}] |" in open(os.path.join(out, "report.md")).read()
    assert f"<td>[{', '.join(map(str, counts))}]</td>" in open(os.path.join(out, "report.html"), encoding="utf-8").read()
