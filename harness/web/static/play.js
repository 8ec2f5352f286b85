// The web app's page: everything goes through the JSON API (docs/serve.md). Positions arrive as
// text ("3p3/7/...": rows top to bottom, upper case White, runs of empty squares as counts), the
// same encoding as the report's viewer; squares are drawn from the variant's board geometry.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var POLL_MS = 250;
  var $ = function (id) { return document.getElementById(id); };
  var variants = {};            // name -> {title, board, legend, start_fen}
  var agentsOf = {};            // variant -> [names]
  var view = null;              // what the board shows (a live game or a recorded one)
  var flipped = false, selected = null, probeSquares = [], pollTimer = null, records = null;

  // -- the API ---------------------------------------------------------------------------------

  function api(method, path, body) {
    var options = { method: method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().catch(function () { return { error: "the server answered " + response.status }; })
        .then(function (data) {
          if (!response.ok) { throw new Error(data.error || ("the server answered " + response.status)); }
          return data;
        });
    });
  }

  function showError(id, error) {
    var box = $(id);
    box.textContent = error ? (error.message || String(error)) : "";
    box.hidden = !error;
  }

  // -- the board -------------------------------------------------------------------------------

  function expand(position) {   // "3p3/7/..." -> one string of cells per row, "." for empty
    return position.split("/").map(function (row) {
      return row.replace(/[0-9]+/g, function (run) { return ".".repeat(Number(run)); });
    });
  }

  function el(name, attributes) {
    var element = document.createElementNS(NS, name);
    Object.keys(attributes || {}).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    return element;
  }

  function geometry() { return variants[view ? view.variant : $("variant").value].board; }

  function squareNames() {
    var g = geometry(), names = {};
    g.columns.forEach(function (c) { g.rows.forEach(function (r) { names[c + r] = true; }); });
    return names;
  }

  function split(move) {        // "b1b2" -> ["b1", "b2"], from the board's own square names; a
    var names = squareNames();    // promotion's piece letter is left off ("a4a5q" -> ["a4", "a5"])
    for (var cut = 1; cut < move.length; cut++) {
      var from = move.slice(0, cut), to = move.slice(cut);
      if (names[from] && names[to]) { return [from, to]; }
      if (names[from] && names[to.slice(0, -1)] && /^[a-z]$/.test(to.slice(-1))) { return [from, to.slice(0, -1)]; }
    }
    return null;
  }

  function canMove() {
    return view && view.kind === "live" && view.state.human_to_move && view.ply === view.positions.length - 1;
  }

  function legalFrom(square) {
    if (!canMove()) { return []; }
    return view.state.legal.map(split).filter(function (pair) { return pair && pair[0] === square; });
  }

  function drawBoard() {
    var g = geometry(), board = $("board");
    var R = g.rows.length, C = g.columns.length;
    board.replaceChildren();
    board.setAttribute("viewBox", "0 0 " + g.width + " " + g.height);
    board.setAttribute("width", g.width);
    board.setAttribute("height", g.height);
    var cells = view ? expand(view.positions[view.ply]) : null;
    var before = view && view.ply > 0 ? expand(view.positions[view.ply - 1]) : null;
    var targets = selected ? legalFrom(selected).map(function (pair) { return pair[1]; }) : [];
    var best = bestSquares();
    var squares = el("g", { "class": "squares" });
    g.squares.forEach(function (s) {
      var r = s.row, c = s.col, name = g.columns[c] + g.rows[r];
      var x = g.margin + (flipped ? C - 1 - c : c) * g.size, y = (flipped ? R - 1 - r : r) * g.size;
      var group = el("g", { "class": "square", "data-square": name });
      group.appendChild(el("rect", { x: x, y: y, width: g.size, height: g.size, "class": s.dark ? "dark" : "light" }));
      var marked = [];
      if (before && cells && before[r][c] !== cells[r][c]) { marked.push("last"); }
      if (probeSquares.indexOf(name) >= 0) { marked.push("probe"); }
      if (best.indexOf(name) >= 0) { marked.push("best"); }
      if (selected === name) { marked.push("selected"); }
      marked.forEach(function (m) { group.classList.add(m); });
      if (marked.length) {
        group.appendChild(el("rect", { x: x, y: y, width: g.size, height: g.size, "class": "mark" }));
      }
      var cell = cells ? cells[r][c] : ".";
      if (cell !== ".") {
        var letter = cell.toUpperCase(), white = cell !== cell.toLowerCase();
        var kind = letter === "K" || letter === "L" ? " royal" : letter === "P" ? " pawn" : "";
        var piece = el("g", { "class": "piece " + (white ? "white" : "black") + kind, "data-piece": letter,
                              "data-colour": white ? "white" : "black",
                              transform: "translate(" + (x + g.size / 2) + " " + (y + g.size / 2) + ")" });
        piece.appendChild(el("circle", { r: letter === "P" ? g.size * 0.32 : g.size * 0.4 }));
        var text = el("text", { x: 0, y: 1 });
        text.textContent = letter;
        piece.appendChild(text);
        group.appendChild(piece);
      }
      if (targets.indexOf(name) >= 0) {
        group.appendChild(el("circle", { "class": "target", cx: x + g.size / 2, cy: y + g.size / 2, r: g.size * 0.14 }));
      }
      squares.appendChild(group);
    });
    board.appendChild(squares);
    var labels = el("g", { "class": "labels" });
    g.rows.forEach(function (name, r) {
      var t = el("text", { x: g.margin / 2, y: (flipped ? R - 1 - r : r) * g.size + g.size / 2 });
      t.textContent = name;
      labels.appendChild(t);
    });
    g.columns.forEach(function (name, c) {
      var t = el("text", { x: g.margin + (flipped ? C - 1 - c : c) * g.size + g.size / 2, y: g.height - g.margin / 2 });
      t.textContent = name;
      labels.appendChild(t);
    });
    board.appendChild(labels);
    board.dataset.ply = view ? String(view.ply) : "0";
    var legend = $("legend");
    legend.replaceChildren();
    variants[view ? view.variant : $("variant").value].legend.forEach(function (pair) {
      var span = document.createElement("span"), b = document.createElement("b");
      b.textContent = pair[0];
      span.appendChild(b);
      span.appendChild(document.createTextNode(" " + pair[1]));
      legend.appendChild(span);
    });
  }

  // -- the move list, the status ---------------------------------------------------------------

  var MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

  function drawMoves() {
    var box = $("moves");
    box.replaceChildren();
    if (!view) { return; }
    var judgements = view.review ? view.review.judgements : [];
    var offset = view.first === "black" ? 1 : 0;
    view.moves.forEach(function (name, i) {
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
      button.textContent = name;
      button.dataset.ply = String(i + 1);
      var judged = judgements[i];
      if (judged) {
        button.dataset.judgement = judged;
        button.classList.add(judged);
        var mark = document.createElement("span");
        mark.className = "mark";
        mark.textContent = MARKS[judged] || "";
        button.appendChild(mark);
      }
      if (i + 1 === view.ply) { button.classList.add("current"); }
      button.addEventListener("click", function () { go(i + 1); });
      box.appendChild(button);
    });
    var current = box.querySelector("button.current");
    if (current && (current.offsetTop < box.scrollTop || current.offsetTop > box.scrollTop + box.clientHeight - 20)) {
      box.scrollTop = current.offsetTop - box.clientHeight / 2;
    }
  }

  function sideName(state, colour) { return colour.charAt(0).toUpperCase() + colour.slice(1) + " (" + state[colour] + ")"; }

  function liveStatus(state) {
    if (state.result) {
      var plies = state.moves.length;
      if (state.result === "draw") { return "Draw by " + state.reason + " after " + plies + " plies."; }
      return sideName(state, state.result) + " wins by " + state.reason + " after " + plies + " plies.";
    }
    if (state.thinking) { return sideName(state, state.to_move) + " is thinking..."; }
    if (state.human_to_move) { return sideName(state, state.to_move) + " to move: click a piece, then a marked square."; }
    return sideName(state, state.to_move) + " to move.";
  }

  function evaluationText() {   // the game review's summary and the line of the move shown
    if (!view || !view.review) { return ""; }
    var r = view.review, text = (r.analyser ? r.analyser + ": " : "") + r.summary;
    return r.texts[view.ply] ? text + ". " + r.texts[view.ply] : text;
  }

  function bestSquares() {      // the analyser's best move in the position shown, as square names
    var cells = view && view.review ? view.review.best[view.ply] : null;
    if (!cells) { return []; }
    var g = geometry();
    return [g.columns[cells[1]] + g.rows[cells[0]], g.columns[cells[3]] + g.rows[cells[2]]];
  }

  function render() {
    drawBoard();
    drawMoves();
    var last = view ? view.positions.length - 1 : 0;
    $("ply").textContent = view ? "ply " + view.ply + " / " + last : "";
    if (!view) { return; }
    var live = view.kind === "live", state = view.state;
    $("title").textContent = live
      ? "White: " + state.white + "  vs  Black: " + state.black + ", seed " + state.seed
      : "game " + view.game + ": " + view.white + " (White) vs " + view.black + " (Black)" +
        (view.seed !== null && view.seed !== undefined ? ", seed " + view.seed : "");
    var status = $("status");
    status.textContent = live ? liveStatus(state) : view.ending;
    status.classList.toggle("thinking", live && !!state.thinking);
    var problems = live ? [state.error] : [view.error, view.problem];
    showError("error", problems.filter(Boolean).join(" ") || null);
    var humans = live && (state.white === "human" || state.black === "human");
    $("undo").disabled = !humans;
    $("resign").disabled = !humans || !!state.result;
    $("save").disabled = !live || !state.result;
    var text = evaluationText();
    $("evaluation").textContent = text;
    $("evaluation").hidden = !text;
  }

  function go(where) {
    if (!view) { return; }
    var last = view.positions.length - 1;
    var target = { first: 0, previous: view.ply - 1, next: view.ply + 1, last: last }[where];
    view.ply = Math.max(0, Math.min(last, typeof target === "number" ? target : Number(where)));
    selected = null;
    probeSquares = [];
    render();
  }

  // -- a live game -----------------------------------------------------------------------------

  function show(state) {
    var following = !view || view.kind !== "live" || view.id !== state.id || view.ply === view.positions.length - 1;
    var ply = following ? state.positions.length - 1 : Math.min(view.ply, state.positions.length - 1);
    if (following && view && view.id === state.id && view.ply !== ply) { probeSquares = []; }
    view = { kind: "live", id: state.id, variant: state.variant, positions: state.positions, moves: state.moves,
             first: state.first, ply: ply, state: state, review: null };
    if (!canMove()) { selected = null; }
    render();
    clearTimeout(pollTimer);
    if (!state.result && !state.human_to_move) {
      pollTimer = setTimeout(function () { poll(state.id); }, POLL_MS);
    }
  }

  function poll(id) {
    api("GET", "/api/games/" + encodeURIComponent(id)).then(function (state) {
      if (view && view.kind === "live" && view.id === id) { show(state); }
    }).catch(function (error) { showError("error", error); });
  }

  function startGame(settings) {
    showError("setup-error", null);
    probeSquares = [];
    selected = null;
    return api("POST", "/api/games", settings).then(show).catch(function (error) { showError("setup-error", error); });
  }

  function sendMove(name) {
    var id = view.id;
    selected = null;
    api("POST", "/api/games/" + encodeURIComponent(id) + "/moves", { move: name }).then(function (state) {
      probeSquares = [];
      show(state);
    }).catch(function (error) {
      showError("error", error);
      poll(id);
    });
  }

  function onBoardClick(event) {
    var square = event.target.closest("[data-square]");
    if (!square || !canMove()) { return; }
    var name = square.dataset.square;
    if (selected) {
      var chosen = view.state.legal.filter(function (m) {
        var pair = split(m);
        return pair && pair[0] === selected && pair[1] === name;
      });
      // several moves between the same squares are promotions: the first in the variant's order (a queen)
      if (chosen.length) { sendMove(chosen[0]); return; }
    }
    selected = selected !== name && legalFrom(name).length ? name : null;
    render();
  }

  function liveAction(path) {
    if (!view || view.kind !== "live") { return; }
    api("POST", "/api/games/" + encodeURIComponent(view.id) + path, {}).then(function (state) {
      showError("error", null);
      probeSquares = [];
      view = null;        // follow the game to its new last position
      show(state);
    }).catch(function (error) { showError("error", error); });
  }

  function save() {
    if (!view || view.kind !== "live") { return; }
    api("GET", "/api/games/" + encodeURIComponent(view.id) + "/record").then(function (record) {
      var blob = new Blob([JSON.stringify(record) + "\n"], { type: "application/json" });
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "game-" + view.id + ".jsonl";
      document.body.appendChild(link);
      link.click();
      link.remove();
    }).catch(function (error) { showError("error", error); });
  }

  // -- the probe -------------------------------------------------------------------------------

  function scoreText(score) {
    if (!score) { return ""; }
    if (score.mate !== undefined) { return score.mate > 0 ? ", wins in " + score.mate : ", loses in " + (-score.mate); }
    return ", score " + (score.cp > 0 ? "+" : "") + (score.cp / 100).toFixed(2);
  }

  function askProbe() {
    if (!view) { return; }
    var agent = $("probe-agent").value, answer = $("probe-answer");
    var body = view.kind === "live" ? { game: view.id, ply: view.ply, agent: agent }
      : { variant: view.variant, fen: view.fens[view.ply], agent: agent };
    answer.textContent = agent + " is thinking...";
    api("POST", "/api/best", body).then(function (found) {
      if (!found.move) {
        answer.textContent = agent + " failed: " + found.error;
        probeSquares = [];
      } else {
        answer.textContent = agent + " would play " + found.move + " (" + found.seconds.toFixed(3) + " s" +
          scoreText(found.score) + ")";
        probeSquares = split(found.move) || [];
      }
      answer.dataset.move = found.move || "";
      render();
    }).catch(function (error) { answer.textContent = error.message; });
  }

  // -- recorded games --------------------------------------------------------------------------

  function readFile(input) {
    var file = input.files && input.files[0];
    return file ? file.text() : Promise.resolve(null);
  }

  function openRecords() {
    var note = $("records-note"), select = $("record-game");
    Promise.all([readFile($("results-file")), readFile($("analysis-file"))]).then(function (texts) {
      if (texts[0] === null) { return; }
      records = { results: texts[0], analysis: texts[1] };
      return api("POST", "/api/records", records).then(function (found) {
        select.replaceChildren();
        found.games.forEach(function (game) {
          var option = document.createElement("option");
          option.value = String(game.game);
          option.textContent = "game " + game.game + ": " + game.white + " vs " + game.black + ", " +
            (game.result || "?") + " by " + (game.reason || "?") + (game.analysed ? " (analysed)" : "");
          select.appendChild(option);
        });
        select.hidden = false;
        note.textContent = found.games.length + " games" + (found.notes.length ? "; " + found.notes.join("; ") : "");
        return showRecord(found.games[0].game);
      });
    }).catch(function (error) { note.textContent = error.message; });
  }

  function showRecord(number) {
    clearTimeout(pollTimer);
    return api("POST", "/api/records/game", { results: records.results, analysis: records.analysis, game: number })
      .then(function (game) {
        selected = null;
        probeSquares = [];
        view = Object.assign({ kind: "record", ply: 0 }, game);
        $("record-game").value = String(number);
        fillProbeAgents(game.variant);
        render();
      }).catch(function (error) { $("records-note").textContent = error.message; });
  }

  // -- the setup form --------------------------------------------------------------------------

  function options(select, names, chosen) {
    select.replaceChildren();
    names.forEach(function (name) {
      var option = document.createElement("option");
      option.value = name;
      option.textContent = name;
      select.appendChild(option);
    });
    if (chosen && names.indexOf(chosen) >= 0) { select.value = chosen; }
  }

  function fillProbeAgents(variant) {
    var chosen = $("probe-agent").value;
    options($("probe-agent"), agentsOf[variant] || [], chosen);
  }

  function loadAgents(variant) {
    if (agentsOf[variant]) { return Promise.resolve(agentsOf[variant]); }
    return api("GET", "/api/agents?variant=" + encodeURIComponent(variant)).then(function (found) {
      agentsOf[variant] = found.agents.map(function (a) { return a.name; });
      return agentsOf[variant];
    });
  }

  function chooseVariant(variant, white, black) {
    return loadAgents(variant).then(function (names) {
      options($("white"), ["human"].concat(names), white || "human");
      options($("black"), ["human"].concat(names), black || names[names.length - 1]);
      fillProbeAgents(variant);
      $("probe-agent").value = names[names.length - 1];
      if (!view) { drawBoard(); }
    });
  }

  function settingsFromForm() {
    var settings = { variant: $("variant").value, white: $("white").value, black: $("black").value,
                     seed: Number($("seed").value) || 0, pace: Number($("pace").value) };
    var fen = $("fen").value.trim();
    if (fen) { settings.fen = fen; }
    return readFile($("config")).then(function (text) {
      if (text !== null) {
        settings.config = text;
        settings.config_name = $("config").files[0].name;
      }
      return settings;
    });
  }

  function init() {
    api("GET", "/api/variants").then(function (found) {
      found.variants.forEach(function (v) { variants[v.name] = v; });
      options($("variant"), found.variants.map(function (v) { return v.name; }));
      var query = new URLSearchParams(window.location.search);
      var variant = query.get("variant") || found.variants[0].name;
      if (!variants[variant]) { showError("setup-error", "unknown variant '" + variant + "'"); variant = found.variants[0].name; }
      $("variant").value = variant;
      if (query.get("seed")) { $("seed").value = query.get("seed"); }
      if (query.get("fen")) { $("fen").value = query.get("fen"); }
      return chooseVariant(variant, query.get("white"), query.get("black")).then(function () {
        if (query.get("white") && query.get("black")) {
          var settings = { variant: variant, white: query.get("white"), black: query.get("black"),
                           seed: Number(query.get("seed")) || 0, pace: Number(query.get("pace") || $("pace").value) };
          if (query.get("fen")) { settings.fen = query.get("fen"); }
          return startGame(settings);
        }
      });
    }).catch(function (error) { showError("setup-error", error); });

    $("variant").addEventListener("change", function () { chooseVariant($("variant").value); });
    $("setup").addEventListener("submit", function (event) {
      event.preventDefault();
      settingsFromForm().then(startGame);
    });
    $("board").addEventListener("click", onBoardClick);
    document.querySelectorAll("[data-go]").forEach(function (button) {
      button.addEventListener("click", function () { go(button.dataset.go); });
    });
    $("undo").addEventListener("click", function () { liveAction("/undo"); });
    $("resign").addEventListener("click", function () { liveAction("/resign"); });
    $("flip").addEventListener("click", function () { flipped = !flipped; render(); });
    $("save").addEventListener("click", save);
    $("probe").addEventListener("click", askProbe);
    $("results-file").addEventListener("change", openRecords);
    $("analysis-file").addEventListener("change", function () { if (records || $("results-file").files.length) { openRecords(); } });
    $("record-game").addEventListener("change", function () { showRecord(Number($("record-game").value)); });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) { return; }
      var where = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" }[event.key];
      if (where) { event.preventDefault(); go(where); }
    });
  }

  document.addEventListener("DOMContentLoaded", init);
}());
