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
      button.textContent = name;
      button.dataset.ply = String(i + 1);
      button.addEventListener("click", function () { go(i + 1); });
      movesBox.appendChild(button);
      moveButtons.push(button);
    });
    document.querySelectorAll("table.games tr[data-index]").forEach(function (row) {
      row.classList.toggle("current", Number(row.dataset.index) === index);
    });
    ply = 0;
    draw();
  }

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
