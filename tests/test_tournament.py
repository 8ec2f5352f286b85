"""tournament: a small round robin of built-in agents (the rating fit itself: test_ratings.py)."""
import json
import os
import re

from harness import cli, stats
from harness.runs.round_robin import plan_round_robin, rate
from harness.stats.ratings import fit_ratings
from harness.tournament import run_tournament


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


def test_the_round_robin_plans_every_pair_once_with_both_colours_and_rates_its_crosstable(tmp_path):
    laid_out = plan_round_robin(["a.py", "b", "c"], 2, str(tmp_path), {"a.py": "ann"}, seed=7)
    assert [(a, b, p.white, p.black, p.games, p.swap, p.label) for a, b, p in laid_out] == [
        ("ann", "b", "a.py", "b", 4, True, "ann vs b"), ("ann", "c", "a.py", "c", 4, True, "ann vs c"),
        ("b", "c", "b", "c", 4, True, "b vs c")]
    assert laid_out[0][2].out == os.path.join(str(tmp_path), "pairs", "ann-vs-b")
    assert [laid_out[0][2].first_colour(g) for g in range(4)] == ["white", "black", "white", "black"]
    cross = {"ann": {"b": {"score": 3, "games": 4}}, "b": {"ann": {"score": 1, "games": 4}, "c": {"score": 3, "games": 4}},
             "c": {"b": {"score": 1, "games": 4}}}
    assert rate(["ann", "b", "c"], cross) == fit_ratings(["ann", "b", "c"], {("ann", "b"): (3, 4), ("b", "c"): (3, 4)})
