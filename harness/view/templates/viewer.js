// The game viewer of report.html: every position is in the page's JSON; board.js (shared with
// the web app) draws the one asked for.
document.documentElement.classList.add("js");
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var data = document.getElementById("games-data"), geometry = document.getElementById("board-data");
  var viewer = document.getElementById("viewer");
  if (!data || !viewer || !geometry) { return; }
  var games = JSON.parse(data.textContent), g = JSON.parse(geometry.textContent);
  if (!games.length) { return; }
  var B = MinichessBoard;
  var board = viewer.querySelector("svg.board");
  var reviewBox = viewer.querySelector(".review"), graph = viewer.querySelector("svg.eval-graph");
  var movesBox = viewer.querySelector(".moves"), plyText = viewer.querySelector(".ply");
  var gameIndex = 0, ply = 0, moveButtons = [], flipped = false;

  function draw() {
    var game = games[gameIndex], review = game.review;
    var best = review ? review.best[ply] : null;
    B.draw(board, g, {
      position: game.positions[ply], before: ply > 0 ? game.positions[ply - 1] : null, flipped: flipped,
      check: game.checks ? game.checks[ply] : null,
      arrows: best ? [{ from: [best[0], best[1]], to: [best[2], best[3]], kind: "best-move" }] : []
    });
    board.dataset.ply = String(ply);
    viewer.querySelector(".material").textContent = B.materialText(g, game.positions[ply]);
    plyText.textContent = "ply " + ply + " / " + (game.positions.length - 1);
    B.follow(movesBox, moveButtons, ply);
    if (review) {
      B.graphAt(graph, ply, game.positions.length);
      var win = review.wins[ply];
      viewer.querySelector(".review-line").textContent = review.texts[ply] ||
        (win === null || win === undefined ? "" : "start: White's win " + win.toFixed(1) + " %");
    }
  }

  function go(where) {
    var last = games[gameIndex].positions.length - 1;
    var target = { first: 0, previous: ply - 1, next: ply + 1, last: last }[where];
    ply = Math.max(0, Math.min(last, typeof target === "number" ? target : Number(where)));
    draw();
  }

  function load(index) {
    gameIndex = index;
    var game = games[index];
    viewer.querySelector(".game-title").textContent =
      (game.label ? game.label + ", " : "") + "game " + game.game + ": " + game.white + " (White) vs " +
      game.black + " (Black)" + (game.seed !== null && game.seed !== undefined ? ", seed " + game.seed : "");
    viewer.querySelector(".ending").textContent = game.ending;
    var error = viewer.querySelector(".error");
    var problems = [game.error, game.problem].filter(Boolean);
    error.textContent = problems.join(" ");
    error.hidden = problems.length === 0;
    viewer.querySelector(".command").textContent = game.command;
    moveButtons = B.fillMoves(movesBox, game.moves, game.first, game.review, function (p) { go(String(p)); },
                              g, game.positions);
    document.querySelectorAll("table.games tr[data-index]").forEach(function (row) {
      row.classList.toggle("current", Number(row.dataset.index) === index);
    });
    reviewBox.hidden = !game.review;
    if (game.review) {
      B.drawGraph(graph, game.review, game.positions.length);
      viewer.querySelector(".review-summary").textContent = game.review.summary + " (" + game.review.analyser + ")";
    }
    ply = 0;
    draw();
  }

  graph.addEventListener("click", function (event) {   // a click on the graph goes to that ply
    var game = games[gameIndex];
    if (!game.review) { return; }
    var at = B.graphPly(graph, event, game.positions.length);
    if (at !== null) { go(String(at)); }
  });
  viewer.querySelectorAll(".controls button").forEach(function (button) {
    button.addEventListener("click", function () { go(button.dataset.go); });
  });
  document.querySelectorAll("button.view").forEach(function (button) {
    button.addEventListener("click", function () {
      load(Number(button.dataset.index));
      viewer.scrollIntoView({ block: "start" });
    });
  });
  B.keys(go, function () { flipped = !flipped; draw(); });
  viewer.hidden = false;
  load(0);
});
