// The game viewer: every position is in the page's JSON; this only draws the one asked for.
document.documentElement.classList.add("js");
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var data = document.getElementById("games-data");
  var viewer = document.getElementById("viewer");
  if (!data || !viewer) { return; }
  var games = JSON.parse(data.textContent);
  if (!games.length) { return; }
  var NS = "http://www.w3.org/2000/svg";
  var board = viewer.querySelector("svg.board");
  var size = Number(board.dataset.size), margin = Number(board.dataset.margin);
  var columns = board.dataset.columns.split(","), rows = board.dataset.rows.split(",");
  var piecesLayer = board.querySelector(".pieces"), marksLayer = board.querySelector(".marks");
  var arrowsLayer = board.querySelector(".arrows");
  var reviewBox = viewer.querySelector(".review"), graph = viewer.querySelector("svg.eval-graph");
  var GLYPHS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  var GRAPH = { width: 340, height: 96, pad: 6 };
  var movesBox = viewer.querySelector(".moves"), plyText = viewer.querySelector(".ply");
  var gameIndex = 0, ply = 0, moveButtons = [];

  function expand(position) {   // "3p3/7/..." -> one string of cells per row, "." for empty
    return position.split("/").map(function (row) {
      return row.replace(/[0-9]+/g, function (run) { return ".".repeat(Number(run)); });
    });
  }

  function svg(name, attributes) {
    var element = document.createElementNS(NS, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    return element;
  }

  function draw() {
    var game = games[gameIndex];
    var cells = expand(game.positions[ply]);
    var before = ply > 0 ? expand(game.positions[ply - 1]) : null;
    piecesLayer.replaceChildren();
    marksLayer.replaceChildren();
    cells.forEach(function (row, r) {
      Array.from(row).forEach(function (cell, c) {
        var x = margin + c * size, y = r * size;
        if (before && before[r][c] !== cell) {
          marksLayer.appendChild(svg("rect", { x: x, y: y, width: size, height: size }));
        }
        if (cell === ".") { return; }
        var letter = cell.toUpperCase(), white = cell !== cell.toLowerCase();
        var kind = letter === "K" ? " royal" : letter === "P" ? " pawn" : "";
        var piece = svg("g", { "class": "piece " + (white ? "white" : "black") + kind,
                               "data-square": columns[c] + rows[r], "data-piece": letter,
                               "data-colour": white ? "white" : "black",
                               transform: "translate(" + (x + size / 2) + " " + (y + size / 2) + ")" });
        piece.appendChild(svg("circle", { r: letter === "P" ? size * 0.32 : size * 0.4 }));
        var text = svg("text", { x: 0, y: 1 });
        text.textContent = letter;
        piece.appendChild(text);
        piecesLayer.appendChild(piece);
      });
    });
    drawReview(game);
    var last = game.positions.length - 1;
    plyText.textContent = "ply " + ply + " / " + last;
    board.dataset.ply = String(ply);
    moveButtons.forEach(function (button, i) { button.classList.toggle("current", i + 1 === ply); });
    if (ply > 0 && moveButtons[ply - 1]) {
      var button = moveButtons[ply - 1], box = movesBox;
      if (button.offsetTop < box.scrollTop || button.offsetTop > box.scrollTop + box.clientHeight - 20) {
        box.scrollTop = button.offsetTop - box.clientHeight / 2;
      }
    }
  }

  function graphX(p, positions) {
    return GRAPH.pad + p * (GRAPH.width - 2 * GRAPH.pad) / Math.max(1, positions - 1);
  }

  function graphY(win) {
    return GRAPH.height - GRAPH.pad - win / 100 * (GRAPH.height - 2 * GRAPH.pad);
  }

  function drawGraph(game) {   // White's win % over the plies, the judged moves as dots
    var review = game.review, positions = game.positions.length;
    graph.replaceChildren();
    graph.appendChild(svg("rect", { "class": "area", x: 0, y: 0, width: GRAPH.width, height: graphY(50) }));
    graph.appendChild(svg("line", { "class": "half", x1: 0, x2: GRAPH.width, y1: graphY(50), y2: graphY(50) }));
    var points = [];
    review.wins.forEach(function (win, p) {
      if (win === null) { return; }
      points.push(graphX(p, positions).toFixed(1) + "," + graphY(win).toFixed(1));
    });
    graph.appendChild(svg("polyline", { "class": "win-line", points: points.join(" ") }));
    review.judgements.forEach(function (judgement, i) {
      if (!judgement || review.wins[i + 1] === null) { return; }
      var dot = svg("circle", { "class": judgement, cx: graphX(i + 1, positions), cy: graphY(review.wins[i + 1]), r: 3.2,
                                "data-ply": String(i + 1) });
      graph.appendChild(dot);
    });
    graph.appendChild(svg("line", { "class": "current", x1: 0, x2: 0, y1: 0, y2: GRAPH.height }));
  }

  function drawReview(game) {
    arrowsLayer.replaceChildren();
    var review = game.review;
    if (!review) { return; }
    var marker = graph.querySelector("line.current"), x = graphX(ply, game.positions.length);
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
    graph.dataset.ply = String(ply);
    var win = review.wins[ply];
    viewer.querySelector(".review-line").textContent = review.texts[ply] ||
      (win === null || win === undefined ? "" : "start: White's win " + win.toFixed(1) + " %");
    var best = review.best[ply];
    if (best) {   // the analyser's move in this position, as an arrow
      var x1 = margin + best[1] * size + size / 2, y1 = best[0] * size + size / 2;
      var x2 = margin + best[3] * size + size / 2, y2 = best[2] * size + size / 2;
      var length = Math.max(1, Math.hypot(x2 - x1, y2 - y1)), ux = (x2 - x1) / length, uy = (y2 - y1) / length;
      var head = 16, tipX = x2 - ux * 8, tipY = y2 - uy * 8, baseX = tipX - ux * head, baseY = tipY - uy * head;
      var arrow = svg("g", { "class": "best-move", "data-from": columns[best[1]] + rows[best[0]],
                             "data-to": columns[best[3]] + rows[best[2]] });
      arrow.appendChild(svg("line", { x1: x1, y1: y1, x2: baseX, y2: baseY }));
      arrow.appendChild(svg("polygon", { points: [tipX, tipY, baseX - uy * 9, baseY + ux * 9, baseX + uy * 9, baseY - ux * 9].join(" ") }));
      arrowsLayer.appendChild(arrow);
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
    movesBox.replaceChildren();
    moveButtons = [];
    var offset = game.first === "black" ? 1 : 0;   // Black moving first leaves White's cell empty
    game.moves.forEach(function (name, i) {
      var slot = i + offset;
      if (slot % 2 === 0) {
        var number = document.createElement("span");
        number.className = "number";
        number.textContent = (slot / 2 + 1) + ".";
        movesBox.appendChild(number);
      }
      if (i === 0 && offset) {
        var number1 = document.createElement("span");
        number1.className = "number";
        number1.textContent = "1.";
        movesBox.appendChild(number1);
        movesBox.appendChild(document.createElement("span"));
      }
      var button = document.createElement("button");
      button.type = "button";
      var judgement = game.review ? game.review.judgements[i] : null;
      button.textContent = name + (judgement ? GLYPHS[judgement] : "");
      button.dataset.ply = String(i + 1);
      if (judgement) {
        button.dataset.judgement = judgement;
        button.title = judgement;
      }
      button.addEventListener("click", function () { go(i + 1); });
      movesBox.appendChild(button);
      moveButtons.push(button);
    });
    document.querySelectorAll("table.games tr[data-index]").forEach(function (row) {
      row.classList.toggle("current", Number(row.dataset.index) === index);
    });
    reviewBox.hidden = !game.review;
    if (game.review) {
      drawGraph(game);
      viewer.querySelector(".review-summary").textContent = game.review.summary + " (" + game.review.analyser + ")";
    }
    ply = 0;
    draw();
  }

  graph.addEventListener("click", function (event) {   // a click on the graph goes to that ply
    var game = games[gameIndex], box = graph.getBoundingClientRect();
    if (!game.review || !box.width) { return; }
    var x = (event.clientX - box.left) * GRAPH.width / box.width;
    var step = (GRAPH.width - 2 * GRAPH.pad) / Math.max(1, game.positions.length - 1);
    go(String(Math.round((x - GRAPH.pad) / step)));
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
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) { return; }
    var where = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (where) { event.preventDefault(); go(where); }
  });
  viewer.hidden = false;
  load(0);
});
