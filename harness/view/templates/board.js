// The board, the eval graph, the eval bar and the move list: the one script report.html's viewer
// (viewer.js) and the web app (play.js) both draw with. Positions arrive as text ("3p3/7/...":
// rows top to bottom, upper case White, runs of empty squares as counts); the board's squares come
// from the variant's geometry (html_report.board_geometry: size, margin, columns, rows, squares,
// and a region such as Congo's "river" as [row, column] cells).
var MinichessBoard = (function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var GRAPH = { width: 340, height: 96, pad: 6 };
  var GLYPHS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

  function expand(position) {   // "3p3/7/..." -> one string of cells per row, "." for empty
    return position.split("/").map(function (row) {
      return row.replace(/[0-9]+/g, function (run) { return ".".repeat(Number(run)); });
    });
  }

  function svg(name, attributes) {
    var element = document.createElementNS(NS, name);
    Object.keys(attributes || {}).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    return element;
  }

  function squareName(g, r, c) { return g.columns[c] + g.rows[r]; }

  function cellOf(g, name) {      // "b1" -> [row, column], or null
    for (var r = 0; r < g.rows.length; r++) {
      for (var c = 0; c < g.columns.length; c++) {
        if (squareName(g, r, c) === name) { return [r, c]; }
      }
    }
    return null;
  }

  function splitMove(g, move) {   // "b1b2" -> [[r, c], [r, c]] from the board's own square names;
    for (var cut = 1; cut < move.length; cut++) {   // a promotion's piece letter (g.promotions) is left off ("a4a5q")
      var from = cellOf(g, move.slice(0, cut)), rest = move.slice(cut), to = cellOf(g, rest);
      if (from && to) { return [from, to]; }
      if (from && (g.promotions || []).indexOf(rest.slice(-1)) >= 0 && (to = cellOf(g, rest.slice(0, -1)))) {
        return [from, to];
      }
    }
    return null;
  }

  // Draw everything on `board` (an svg). view: {position, before (the position before, for the
  // last move's marks), flipped, check ([r, c] of the royal piece attacked), selected (square
  // name), targets (square names a selected piece can go to), classes ({square: [class, ...]}),
  // arrows ([{from: [r, c], to: [r, c], kind: "best-move"|"probe-move"}])}.
  function draw(board, g, view) {
    var R = g.rows.length, C = g.columns.length, size = g.size, flipped = !!view.flipped;
    var x = function (c) { return g.margin + (flipped ? C - 1 - c : c) * size; };
    var y = function (r) { return (flipped ? R - 1 - r : r) * size; };
    var river = {};
    (g.river || []).forEach(function (cell) { river[cell[0] + "," + cell[1]] = true; });
    board.replaceChildren();
    board.setAttribute("viewBox", "0 0 " + g.width + " " + g.height);
    board.setAttribute("width", g.width);
    board.setAttribute("height", g.height);
    var cells = view.position ? expand(view.position) : null;
    var before = view.before ? expand(view.before) : null;
    var classes = view.classes || {}, targets = view.targets || [];
    var squares = svg("g", { "class": "squares" }), marks = svg("g", { "class": "marks" });
    var checks = svg("g", { "class": "checks" }), labels = svg("g", { "class": "labels" });
    var pieces = svg("g", { "class": "pieces" }), dots = svg("g", { "class": "targets" });
    var arrows = svg("g", { "class": "arrows" });
    g.squares.forEach(function (s) {
      var r = s.row, c = s.col, name = squareName(g, r, c), wet = river[r + "," + c];
      var group = svg("g", { "class": "square" + (wet ? " river" : ""), "data-square": name });
      group.appendChild(svg("rect", { x: x(c), y: y(r), width: size, height: size,
                                      "class": (s.dark ? "dark" : "light") + (wet ? " river" : "") }));
      (classes[name] || []).forEach(function (k) { group.classList.add(k); });
      if (view.selected === name) { group.classList.add("selected"); }
      squares.appendChild(group);
      var cell = cells ? cells[r][c] : ".";
      if (before && cells && before[r][c] !== cell) {
        marks.appendChild(svg("rect", { x: x(c), y: y(r), width: size, height: size, "class": "last" }));
      }
      if (cell !== ".") {
        var letter = cell.toUpperCase(), white = cell !== cell.toLowerCase();
        var kind = letter === "K" || letter === "L" ? " royal" : letter === "P" ? " pawn" : "";
        var piece = svg("g", { "class": "piece " + (white ? "white" : "black") + kind, "data-square": name,
                               "data-piece": letter, "data-colour": white ? "white" : "black",
                               transform: "translate(" + (x(c) + size / 2) + " " + (y(r) + size / 2) + ")" });
        piece.appendChild(svg("circle", { r: letter === "P" ? size * 0.32 : size * 0.4 }));
        var text = svg("text", { x: 0, y: 1 });
        text.textContent = letter;
        piece.appendChild(text);
        pieces.appendChild(piece);
      }
      if (targets.indexOf(name) >= 0) {   // an empty square: a dot; a capture: a ring around the piece
        var capture = cell !== ".";
        dots.appendChild(svg("circle", { "class": "target" + (capture ? " capture" : ""), "data-square": name,
                                         cx: x(c) + size / 2, cy: y(r) + size / 2,
                                         r: capture ? size * 0.46 : size * 0.14 }));
      }
    });
    if (view.check) {           // a red glow under the king in check: a radial gradient, its square outlined
      var name = squareName(g, view.check[0], view.check[1]), cx = x(view.check[1]), cy = y(view.check[0]);
      var defs = svg("defs"), glow = svg("radialGradient", { id: "check-glow" });
      [["0%", 1], ["55%", 0.85], ["100%", 0]].forEach(function (stop) {
        glow.appendChild(svg("stop", { offset: stop[0], "stop-color": "#ff1a0a", "stop-opacity": stop[1] }));
      });
      defs.appendChild(glow);
      checks.appendChild(defs);
      checks.appendChild(svg("rect", { "class": "check-square", x: cx, y: cy, width: size, height: size }));
      checks.appendChild(svg("circle", { "class": "check", "data-square": name, cx: cx + size / 2, cy: cy + size / 2,
                                         r: size * 0.62, fill: "url(#check-glow)" }));
    }
    g.rows.forEach(function (label, r) {
      var t = svg("text", { x: g.margin / 2, y: y(r) + size / 2 });
      t.textContent = label;
      labels.appendChild(t);
    });
    g.columns.forEach(function (label, c) {
      var t = svg("text", { x: x(c) + size / 2, y: g.height - g.margin / 2 });
      t.textContent = label;
      labels.appendChild(t);
    });
    (view.arrows || []).forEach(function (a) {
      var x1 = x(a.from[1]) + size / 2, y1 = y(a.from[0]) + size / 2;
      var x2 = x(a.to[1]) + size / 2, y2 = y(a.to[0]) + size / 2;
      var length = Math.max(1, Math.hypot(x2 - x1, y2 - y1)), ux = (x2 - x1) / length, uy = (y2 - y1) / length;
      var head = 16, tipX = x2 - ux * 8, tipY = y2 - uy * 8, baseX = tipX - ux * head, baseY = tipY - uy * head;
      var arrow = svg("g", { "class": a.kind, "data-from": squareName(g, a.from[0], a.from[1]),
                             "data-to": squareName(g, a.to[0], a.to[1]) });
      arrow.appendChild(svg("line", { x1: x1, y1: y1, x2: baseX, y2: baseY }));
      arrow.appendChild(svg("polygon", { points: [tipX, tipY, baseX - uy * 9, baseY + ux * 9,
                                                  baseX + uy * 9, baseY - ux * 9].join(" ") }));
      arrows.appendChild(arrow);
    });
    [squares, marks, checks, labels, pieces, dots, arrows].forEach(function (layer) { board.appendChild(layer); });
  }

  // -- the eval graph: White's win % over the plies, judged moves as dots, turning points as lines

  function graphX(p, positions) {
    return GRAPH.pad + p * (GRAPH.width - 2 * GRAPH.pad) / Math.max(1, positions - 1);
  }

  function graphY(win) {
    return GRAPH.height - GRAPH.pad - win / 100 * (GRAPH.height - 2 * GRAPH.pad);
  }

  function drawGraph(graph, review, positions) {
    graph.replaceChildren();
    graph.appendChild(svg("rect", { "class": "area", x: 0, y: 0, width: GRAPH.width, height: graphY(50) }));
    graph.appendChild(svg("line", { "class": "half", x1: 0, x2: GRAPH.width, y1: graphY(50), y2: graphY(50) }));
    (review.turning || []).forEach(function (p) {
      graph.appendChild(svg("line", { "class": "turning-point", "data-ply": String(p), x1: graphX(p, positions),
                                      x2: graphX(p, positions), y1: 0, y2: GRAPH.height }));
    });
    var points = [];
    review.wins.forEach(function (win, p) {
      if (win === null) { return; }
      points.push(graphX(p, positions).toFixed(1) + "," + graphY(win).toFixed(1));
    });
    graph.appendChild(svg("polyline", { "class": "win-line", points: points.join(" ") }));
    review.judgements.forEach(function (judgement, i) {
      if (!judgement || review.wins[i + 1] === null) { return; }
      graph.appendChild(svg("circle", { "class": judgement, cx: graphX(i + 1, positions), cy: graphY(review.wins[i + 1]),
                                        r: 3.2, "data-ply": String(i + 1) }));
    });
    graph.appendChild(svg("line", { "class": "current", x1: 0, x2: 0, y1: 0, y2: GRAPH.height }));
  }

  function graphAt(graph, ply, positions) {     // move the graph's marker to `ply`
    var marker = graph.querySelector("line.current");
    if (!marker) { return; }
    var x = graphX(ply, positions);
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
    graph.dataset.ply = String(ply);
  }

  function graphPly(graph, event, positions) {  // the ply under a click on the graph
    var box = graph.getBoundingClientRect();
    if (!box.width) { return null; }
    var x = (event.clientX - box.left) * GRAPH.width / box.width;
    var step = (GRAPH.width - 2 * GRAPH.pad) / Math.max(1, positions - 1);
    return Math.max(0, Math.min(positions - 1, Math.round((x - GRAPH.pad) / step)));
  }

  // -- the eval bar: White's share of the win % at the position shown (an svg 16 wide)

  function drawBar(bar, win) {
    var height = 200;
    bar.replaceChildren();
    bar.setAttribute("viewBox", "0 0 16 " + height);
    bar.appendChild(svg("rect", { "class": "black-share", x: 0, y: 0, width: 16, height: height }));
    var known = win !== null && win !== undefined;
    var white = known ? win / 100 * height : height / 2;
    bar.appendChild(svg("rect", { "class": "white-share", x: 0, y: height - white, width: 16, height: white }));
    bar.dataset.win = known ? win.toFixed(1) : "";
    bar.classList.toggle("unknown", !known);
  }

  // -- captures and material -------------------------------------------------------------------

  function pieceCount(cells, white) {   // how many pieces of a colour stand in expanded rows
    var count = 0;
    cells.forEach(function (row) {
      for (var i = 0; i < row.length; i++) {
        var ch = row[i];
        if (ch !== "." && (ch !== ch.toLowerCase()) === white) { count++; }
      }
    });
    return count;
  }

  // Whether each move captured: the other side has fewer pieces after it (whatever the variant's
  // way of capturing). positions: one per ply and the start; first: the colour that moved first.
  function captures(positions, first) {
    var out = [];
    for (var i = 0; i + 1 < positions.length; i++) {
      var moverWhite = (i % 2 === 0) === (first !== "black");
      out.push(pieceCount(expand(positions[i + 1]), !moverWhite) < pieceCount(expand(positions[i]), !moverWhite));
    }
    return out;
  }

  function captureName(g, move) {   // "d4d5" -> "d4xd5" (the board's own square names)
    for (var cut = 1; cut < move.length; cut++) {
      if (cellOf(g, move.slice(0, cut)) && splitMove(g, move)) { return move.slice(0, cut) + "x" + move.slice(cut); }
    }
    return move;
  }

  // The material of a position by the variant's piece values (g.values: letter -> value, the
  // royal piece left out): {white, black, lead (White's minus Black's, in units of the smallest
  // value), extra: {white: [letters White has more of], black: [...]}}.
  function material(g, position) {
    var values = g.values || {}, counts = {}, total = { white: 0, black: 0 };
    expand(position).forEach(function (row) {
      for (var i = 0; i < row.length; i++) {
        var ch = row[i], letter = ch.toUpperCase();
        if (ch === "." || !(letter in values)) { continue; }
        var side = ch !== ch.toLowerCase() ? "white" : "black";
        total[side] += values[letter];
        counts[letter] = counts[letter] || { white: 0, black: 0 };
        counts[letter][side]++;
      }
    });
    var unit = Math.min.apply(null, Object.keys(values).map(function (k) { return values[k]; }).concat([Infinity]));
    var extra = { white: [], black: [] };
    Object.keys(values).sort(function (a, b) { return values[b] - values[a]; }).forEach(function (letter) {
      var c = counts[letter] || { white: 0, black: 0 };
      for (var n = c.white; n > c.black; n--) { extra.white.push(letter); }
      for (var m = c.black; m > c.white; m--) { extra.black.push(letter); }
    });
    var lead = isFinite(unit) && unit > 0 ? (total.white - total.black) / unit : 0;
    return { white: total.white, black: total.black, lead: Math.round(lead * 10) / 10, extra: extra };
  }

  function materialText(g, position) {   // "Material: White +3 (White up N, P)", "Material even"
    if (!g.values || !position) { return ""; }
    var m = material(g, position), ups = [];
    ["white", "black"].forEach(function (side) {
      if (m.extra[side].length) { ups.push(side.charAt(0).toUpperCase() + side.slice(1) + " up " + m.extra[side].join(", ")); }
    });
    var lead = m.lead === 0 ? "Material even" : "Material: " + (m.lead > 0 ? "White +" : "Black +") + Math.abs(m.lead);
    return lead + (ups.length ? " (" + ups.join("; ") + ")" : "");
  }

  // -- the move list ---------------------------------------------------------------------------

  // Fill `box` with the moves (numbered rows; Black moving first leaves White's cell empty), each
  // a button[data-ply][data-move] (the move's name); a capture reads with an "x" ("d4xd5") when
  // `g` and `positions` are given; with a review, each judged move has its glyph and
  // data-judgement, each move its evaluation after it as data-eval (shown by the style sheet),
  // the turning points the class turning-point. onClick(ply) is called on a click. Returns the buttons.
  function fillMoves(box, moves, first, review, onClick, g, positions) {
    box.replaceChildren();
    var buttons = [], offset = first === "black" ? 1 : 0;
    var took = g && positions ? captures(positions, first) : [];
    moves.forEach(function (name, i) {
      var slot = i + offset;
      if (slot % 2 === 0 || i === 0) {
        var number = document.createElement("span");
        number.className = "number";
        number.textContent = (Math.floor(slot / 2) + 1) + ".";
        box.appendChild(number);
        if (i === 0 && offset) { box.appendChild(document.createElement("span")); }
      }
      var button = document.createElement("button");
      button.type = "button";
      var judgement = review ? review.judgements[i] : null;
      button.textContent = (took[i] ? captureName(g, name) : name) + (judgement ? GLYPHS[judgement] : "");
      button.dataset.ply = String(i + 1);
      button.dataset.move = name;
      if (took[i]) { button.dataset.capture = "true"; }
      if (judgement) {
        button.dataset.judgement = judgement;
        button.title = judgement;
      }
      if (review && review.evals && review.evals[i + 1]) {     // "1-0 (White won)" -> "1-0"
        button.dataset.eval = review.evals[i + 1].replace(/ \(.*\)$/, "");
      }
      if (review && (review.turning || []).indexOf(i + 1) >= 0) {
        button.classList.add("turning-point");
        button.title = (button.title ? button.title + ", " : "") + "turning point";
      }
      button.addEventListener("click", function () { onClick(i + 1); });
      box.appendChild(button);
      buttons.push(button);
    });
    return buttons;
  }

  // Mark the current move and keep it in view: its place is measured against the list itself
  // (not the page), and only the list scrolls.
  function follow(box, buttons, ply) {
    buttons.forEach(function (button, i) { button.classList.toggle("current", i + 1 === ply); });
    var button = buttons[ply - 1];
    if (!button) {
      if (ply === 0) { box.scrollTop = 0; }
      return;
    }
    var top = button.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    var bottom = top + button.offsetHeight;
    if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  // The keys: left/right a ply, up/Home the first, down/End the last, f flips (when `flip` given).
  function keys(go, flip) {
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) {
        return;
      }
      var where = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last", ArrowUp: "first",
                    ArrowDown: "last" }[event.key];
      if (where) {
        event.preventDefault();
        go(where);
      } else if ((event.key === "f" || event.key === "F") && flip) {
        event.preventDefault();
        flip();
      }
    });
  }

  return { expand: expand, draw: draw, splitMove: splitMove, cellOf: cellOf, drawGraph: drawGraph,
           graphAt: graphAt, graphPly: graphPly, drawBar: drawBar, fillMoves: fillMoves, follow: follow,
           keys: keys, GLYPHS: GLYPHS, captures: captures, captureName: captureName, material: material,
           materialText: materialText };
}());
