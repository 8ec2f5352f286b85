// The web app's page: everything goes through the JSON API (docs/serve.md); board.js (shared
// with report.html's viewer) draws. A live game has its own address (/game/ID) and its moves
// arrive as Server-Sent Events (/api/games/ID/events); a results.jsonl opened here is stepped
// through as the report's viewer does, with its review (eval graph and bar, each move's
// evaluation and judgement, the best move as an arrow, the turning points).
(function () {
  "use strict";
  var B = MinichessBoard, HUMAN = "human";
  var $ = function (id) { return document.getElementById(id); };
  var variants = {};            // name -> {title, board, legend, start_fen, start_position}
  var agentsOf = {};            // variant -> [names]
  var view = null;              // what the board shows (a live game or a recorded one)
  var flipped = false, selected = null, probeMove = null, records = null;
  var promoting = null;         // the moves a promotion chooser offers (one per piece), or null
  var source = null, sourceId = null, moveButtons = [], probeAsking = null, liveTimer = null, shownPly = null;

  // -- the API ---------------------------------------------------------------------------------

  function api(method, path, body, signal) {
    var options = { method: method, headers: {}, signal: signal };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().catch(function () { return { error: "the server answered " + response.status }; })
        .then(function (data) {
          if (!response.ok) {
            var error = new Error(data.error || ("the server answered " + response.status));
            error.status = response.status;
            throw error;
          }
          return data;
        });
    });
  }

  function showError(id, error) {
    var box = $(id);
    box.textContent = error ? (error.message || String(error)) : "";
    box.hidden = !error;
  }

  // -- what is shown ---------------------------------------------------------------------------

  function variantName() { return view ? view.variant : $("variant").value; }
  function geometry() { return variants[variantName()].board; }
  function last() { return view ? view.positions.length - 1 : 0; }
  function live() { return view && view.kind === "live"; }
  function hasHuman(state) { return state.white === "human" || state.black === "human"; }

  function canMove() {
    return live() && view.state.human_to_move && view.ply === last();
  }

  function legalFrom(square) {
    if (!canMove()) { return []; }
    var g = geometry();
    return view.state.legal.filter(function (m) {
      var cells = B.splitMove(g, m);
      return cells && g.columns[cells[0][1]] + g.rows[cells[0][0]] === square;
    });
  }

  function nameOf(cell) { var g = geometry(); return g.columns[cell[1]] + g.rows[cell[0]]; }

  function positionOver() {     // the position shown ends the game (nothing to ask or play there)
    if (!view) { return false; }
    var ended = live() ? !!view.state.result : !!view.result;
    return ended && view.ply === last();
  }

  function moverAt(ply) {
    var other = view.first === "white" ? "black" : "white";
    return ply % 2 === 0 ? view.first : other;
  }

  function drawBoard() {
    var g = geometry(), board = $("board");
    var review = view ? view.review : null, classes = {}, arrows = [];
    var targets = selected ? legalFrom(selected).map(function (m) { return nameOf(B.splitMove(g, m)[1]); }) : [];
    var best = review ? review.best[view.ply] : null;
    if (best) {
      arrows.push({ from: [best[0], best[1]], to: [best[2], best[3]], kind: "best-move" });
      [nameOf([best[0], best[1]]), nameOf([best[2], best[3]])].forEach(function (s) { classes[s] = ["best"]; });
    }
    var probeCells = probeMove ? B.splitMove(g, probeMove) : null;
    if (probeCells) {
      arrows.push({ from: probeCells[0], to: probeCells[1], kind: "probe-move" });
      probeCells.forEach(function (cell) { var s = nameOf(cell); classes[s] = (classes[s] || []).concat(["probe"]); });
    }
    B.draw(board, g, {
      position: view ? view.positions[view.ply] : variants[variantName()].start_position,
      before: view && view.ply > 0 ? view.positions[view.ply - 1] : null,
      flipped: flipped, check: view && view.checks ? view.checks[view.ply] : null,
      selected: selected, targets: targets, classes: classes, arrows: arrows
    });
    board.dataset.ply = view ? String(view.ply) : "0";
    $("material").textContent = B.materialText(g, view ? view.positions[view.ply] : variants[variantName()].start_position);
    drawPromotion();
    var legend = $("legend");
    legend.replaceChildren();
    variants[variantName()].legend.forEach(function (pair) {
      var span = document.createElement("span"), b = document.createElement("b");
      b.textContent = pair[0];
      span.appendChild(b);
      span.appendChild(document.createTextNode(" " + pair[1]));
      legend.appendChild(span);
    });
  }

  function pieceName(letter) {  // "r" -> "Rook" (the variant's key), else the letter
    var found = variants[variantName()].legend.filter(function (pair) { return pair[0].toLowerCase() === letter.toLowerCase(); });
    return found.length ? found[0][1] : letter.toUpperCase();
  }

  // The promotion chooser: one button per piece the rules allow on that move (the legal moves
  // from the selected square to the square clicked differ only in their last letter).
  function drawPromotion() {
    var box = $("promotion");
    if (!promoting || !canMove()) { promoting = null; }
    box.hidden = !promoting;
    box.replaceChildren();
    if (!promoting) { return; }
    var label = document.createElement("span");
    label.textContent = "Promote to:";
    box.appendChild(label);
    promoting.forEach(function (move) {
      var button = document.createElement("button"), letter = move.slice(-1);
      button.type = "button";
      button.className = "promote";
      button.dataset.move = move;
      button.dataset.piece = letter;
      button.textContent = pieceName(letter);
      button.addEventListener("click", function () { promoting = null; sendMove(move); });
      box.appendChild(button);
    });
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "cancel";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", function () { promoting = null; selected = null; render(); });
    box.appendChild(cancel);
  }

  function inCheck() {          // the side to move at the game's last position is in check
    return !!(view && view.checks && view.checks[last()]);
  }

  function sideName(state, colour) { return colour.charAt(0).toUpperCase() + colour.slice(1) + " (" + state[colour] + ")"; }

  function liveStatus(state) {
    if (state.ending) { return state.ending; }
    if (inCheck()) { return "Check! " + moverStatus(state); }
    return moverStatus(state);
  }

  function moverStatus(state) {
    if (state.starting && state.starting.toLowerCase() === state.to_move) {   // its first move waits for it
      return sideName(state, state.to_move) + " is starting...";
    }
    if (state.thinking) { return sideName(state, state.to_move) + " is thinking..."; }
    if (state.human_to_move) { return sideName(state, state.to_move) + " to move: click a piece, then a marked square."; }
    return sideName(state, state.to_move) + " to move.";
  }

  function evaluationText() {   // the line of the move shown, from the review
    if (!view || !view.review) { return ""; }
    var r = view.review, win = r.wins[view.ply];
    return r.texts[view.ply] || (win === null || win === undefined ? "" : "start: White's win " + win.toFixed(1) + " %");
  }

  function setButtons() {
    var state = live() ? view.state : null, going = state && !state.result && !state.stopped;
    $("undo").disabled = !state || !state.can_undo;
    $("resign").disabled = !going || !hasHuman(state);
    $("stop").disabled = !going || hasHuman(state);
    $("save").disabled = !state || !(state.result || state.stopped);
    $("review-game").disabled = !state || !(state.result || state.stopped) || !!reviewing;
    $("rematch").disabled = !state || (!state.result && !state.stopped);
    document.querySelector('[data-go="first"]').disabled = !view || view.ply === 0;
    document.querySelector('[data-go="previous"]').disabled = !view || view.ply === 0;
    document.querySelector('[data-go="next"]').disabled = !view || view.ply === last();
    document.querySelector('[data-go="last"]').disabled = !view || view.ply === last();
    var over = positionOver();
    $("probe").disabled = over || !$("probe-agent").value;
    $("play-here").disabled = over || !$("play-agent").value;
    $("copy-fen").disabled = !$("fen-shown").value;
  }

  function render() {
    drawBoard();
    B.follow($("moves"), moveButtons, view ? view.ply : 0);
    $("ply").textContent = view ? "ply " + view.ply + " / " + last() : "";
    $("fen-shown").value = view ? (view.fens[view.ply] || "") : (variants[variantName()].start_fen || "");
    var review = view ? view.review : null;
    $("review").hidden = !review;
    $("eval-bar").toggleAttribute("hidden", !review);   // an svg has no .hidden
    if (review) {
      B.graphAt($("eval-graph"), view.ply, view.positions.length);
      B.drawBar($("eval-bar"), review.wins[view.ply]);
    }
    var text = evaluationText();
    $("evaluation").textContent = text;
    $("evaluation").hidden = !text;
    if (view) {
      var state = view.state;
      $("title").textContent = live()
        ? "White: " + state.white + " vs Black: " + state.black + ", seed " + state.seed
        : (view.id ? "review of game " + view.id + ": " : "game " + view.game + ": ") + view.white + " (White) vs " + view.black + " (Black)" +
          (view.seed !== null && view.seed !== undefined ? ", seed " + view.seed : "");
      $("status").textContent = live() ? liveStatus(state) : view.ending;
      $("status").classList.toggle("thinking", live() && !!state.thinking);
      var problems = live() ? [state.error, state.notice] : [view.error, view.problem];
      showError("error", problems.filter(Boolean).join(" ") || null);
    }
    setButtons();
    if (view && shownPly !== view.ply + ":" + (view.id || view.game)) {
      shownPly = view.ply + ":" + (view.id || view.game);
      if ($("probe-live").checked) { scheduleLiveProbe(); }
    }
  }

  function fillMoves() {
    moveButtons = view ? B.fillMoves($("moves"), view.moves, view.first, view.review, function (p) { go(String(p)); },
                                     geometry(), view.positions) : [];
    if (!view) { $("moves").replaceChildren(); }
    if (view && view.review) { B.drawGraph($("eval-graph"), view.review, view.positions.length); }
    $("review-summary").textContent = view && view.review ? view.review.summary + " (" + view.review.analyser + ")" : "";
  }

  function go(where) {
    if (!view) { return; }
    var target = { first: 0, previous: view.ply - 1, next: view.ply + 1, last: last() }[where];
    view.ply = Math.max(0, Math.min(last(), typeof target === "number" ? target : Number(where)));
    selected = null;
    promoting = null;
    probeMove = null;
    $("probe-answer").textContent = "";
    $("probe-answer").dataset.move = "";
    render();
  }

  // -- a live game -----------------------------------------------------------------------------

  function show(state) {
    var same = live() && view.id === state.id;
    if (same && state.version < view.state.version) { return; }   // an answer overtaken by an event
    var following = !same || view.ply === last();
    var ply = following ? state.positions.length - 1 : Math.min(view.ply, state.positions.length - 1);
    if (!same || ply !== view.ply) { probeMove = null; }
    if (!same) {                // a new game faces the human: Black at the bottom when the human plays Black only
      flipped = state.black === HUMAN && state.white !== HUMAN;
      promoting = null;
    }
    var grew = !same || view.moves.length !== state.moves.length;
    view = { kind: "live", id: state.id, variant: state.variant, positions: state.positions, moves: state.moves,
             fens: state.fens, checks: state.checks, first: state.first, ply: ply, state: state, review: null };
    if (!canMove()) { selected = null; }
    if (grew || !same) { fillMoves(); }
    render();
    if (!state.result && !state.stopped) { watch(state.id); } else { unwatch(); }
  }

  function watch(id) {          // the game's moves as they happen (Server-Sent Events)
    if (source && sourceId === id) { return; }
    unwatch();
    sourceId = id;
    source = new EventSource("/api/games/" + encodeURIComponent(id) + "/events");
    source.onmessage = function (event) {
      var state = JSON.parse(event.data);
      if (live() && view.id === state.id) { show(state); }
      if (state.result || state.stopped) { unwatch(); }
    };
    source.onerror = function () {
      if (source && source.readyState === EventSource.CLOSED) {   // refused (expired, a full server)
        unwatch();
        api("GET", "/api/games/" + encodeURIComponent(id)).then(show).catch(function (error) { gone(id, error); });
      }
    };
  }

  function gone(id, error) {    // the server no longer has the game shown: nothing works on it
    if (!live() || view.id !== id) { return; }
    view.state = Object.assign({}, view.state, { human_to_move: false, legal: [], can_undo: false, thinking: null,
                                                 stopped: true, ending: "This game is gone: " + error.message });
    selected = null;
    render();
  }

  function unwatch() {
    if (source) { source.close(); }
    source = null;
    sourceId = null;
  }

  function address(id, replace) {
    var path = id ? "/game/" + encodeURIComponent(id) : "/";
    if (window.location.pathname + window.location.search === path) { return; }
    if (replace) { window.history.replaceState({ game: id }, "", path); } else { window.history.pushState({ game: id }, "", path); }
  }

  function loadGame(id) {
    showError("error", null);
    return api("GET", "/api/games/" + encodeURIComponent(id)).then(function (state) {
      view = null;
      selected = null;
      probeMove = null;
      return chooseVariant(state.variant, state.white, state.black).then(function () {
        if (state.analysed && (state.result || state.stopped)) { return showAnalysis(state.id); }
        show(state);
      });
    }).catch(function (error) {
      unwatch();
      view = null;
      fillMoves();
      if (!($("white").value && $("black").value)) { chooseVariant($("variant").value); }   // a form that works
      render();
      $("title").textContent = "This game's address is gone";
      $("status").textContent = "Start a new game.";
      showError("error", error);
    });
  }

  function startGame(settings, replace) {
    showError("setup-error", null);
    probeMove = null;
    selected = null;
    var stopping = live() && !hasHuman(view.state) && !view.state.result && !view.state.stopped
      ? api("POST", "/api/games/" + encodeURIComponent(view.id) + "/stop", {}).catch(function () { return null; })
      : Promise.resolve(null);
    return stopping.then(function () { return api("POST", "/api/games", settings); }).then(function (state) {
      view = null;
      address(state.id, replace);
      show(state);
    }).catch(function (error) { showError("setup-error", error); });
  }

  function rematch() {          // the same game again, the colours swapped, from the same start
    if (!live()) { return; }
    var state = view.state, settings = { variant: state.variant, white: state.black, black: state.white,
                                         seed: state.seed, pace: Number($("pace").value) };
    if (view.fens[0] && view.fens[0] !== variants[state.variant].start_fen) { settings.fen = view.fens[0]; }
    startGame(settings);
  }

  function sendMove(name) {
    var id = view.id;
    selected = null;
    api("POST", "/api/games/" + encodeURIComponent(id) + "/moves", { move: name }).then(function (state) {
      probeMove = null;
      show(state);
    }).catch(function (error) {
      showError("error", error);
      api("GET", "/api/games/" + encodeURIComponent(id)).then(show).catch(function (lost) { gone(id, lost); });
    });
  }

  function onBoardClick(event) {
    var square = event.target.closest("[data-square]");
    if (!square || !canMove()) { return; }
    var name = square.dataset.square, g = geometry();
    if (selected) {
      var chosen = legalFrom(selected).filter(function (m) { return nameOf(B.splitMove(g, m)[1]) === name; });
      if (chosen.length > 1) { promoting = chosen; render(); return; }   // a promotion: the player chooses the piece
      if (chosen.length) { sendMove(chosen[0]); return; }
    }
    promoting = null;
    selected = selected !== name && legalFrom(name).length ? name : null;
    render();
  }

  function liveAction(path) {
    if (!live()) { return; }
    var id = view.id;
    api("POST", "/api/games/" + encodeURIComponent(id) + path, {}).then(function (state) {
      showError("error", null);
      probeMove = null;
      view.ply = last();        // follow the game to its new last position
      show(state);
    }).catch(function (error) {
      if (error.status === 404) { gone(id, error); } else { showError("error", error); }
    });
  }

  function save() {
    if (!live()) { return; }
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

  // -- review in one click, the games kept ----------------------------------------------------

  var reviewing = null;         // the game id whose review runs

  function reviewGame() {       // the server reviews the game shown; its progress, then the analysis board
    if (!live()) { return; }
    var id = view.id;
    reviewing = id;
    setButtons();
    var note = $("review-progress"), path = "/api/games/" + encodeURIComponent(id) + "/review";
    var step = function (progress) {
      if (progress.status === "done") { reviewing = null; note.hidden = true; return showAnalysis(id); }
      if (progress.status === "failed" || progress.status === "none") {
        throw new Error("the review stopped: " + (progress.error || "nothing was kept"));
      }
      note.hidden = false;
      note.dataset.done = String(progress.done || 0);
      note.textContent = progress.status === "queued" ? "Review: waiting for " + progress.ahead + " review(s) ahead..."
        : "Review: " + Math.min(progress.done || 0, progress.total || 0) + " / " + (progress.total === null ? "?" : progress.total) +
          " positions" + (progress.total !== null && progress.done > progress.total ? " (a second look at the judged moves)" : "") + "...";
      return new Promise(function (resolve) { setTimeout(resolve, 300); })
        .then(function () { return api("GET", path); }).then(step);
    };
    api("POST", path, {}).then(step).catch(function (error) {
      reviewing = null;
      note.hidden = true;
      showError("error", error);
      setButtons();
    });
  }

  function showAnalysis(id) {   // the analysis board on a game of this server (reviewed, or not yet)
    return api("GET", "/api/games/" + encodeURIComponent(id) + "/analysis").then(function (game) {
      unwatch();
      selected = null;
      probeMove = null;
      return loadAgents(game.variant).then(function () {
        view = Object.assign({ kind: "record", ply: 0 }, game);
        fillAgents(game.variant);
        fillMoves();
        render();
      });
    });
  }

  function listGames() {        // the games kept, on the start page
    api("GET", "/api/games").then(function (found) {
      var list = $("games-list");
      list.replaceChildren();
      found.games.forEach(function (game) {
        var item = document.createElement("li"), link = document.createElement("a");
        link.href = "/game/" + encodeURIComponent(game.id);
        link.dataset.game = game.id;
        link.textContent = game.variant + ": " + game.white + " vs " + game.black + ", " +
          (game.result ? game.result + " by " + game.reason : game.stopped ? "stopped" : "going on") +
          ", " + game.plies + " plies" + (game.analysed ? ", reviewed" : "");
        item.appendChild(link);
        list.appendChild(item);
      });
      $("games").hidden = !found.games.length;
    }).catch(function () { $("games").hidden = true; });
  }

  // -- the probe, playing from here, the FEN ---------------------------------------------------

  // The probe's score (the mover's, as the agent gives it) from White's view, as the review's:
  // ", score +0.35 (White's view)", ", White mates in 3".
  function scoreText(score, mover) {
    if (!score) { return ""; }
    var sign = mover === "black" ? -1 : 1;
    if (score.mate !== undefined) {
      var mate = sign * score.mate;
      return ", " + (mate > 0 ? "White" : "Black") + " mates in " + Math.abs(mate);
    }
    var cp = sign * score.cp;
    return ", score " + (cp > 0 ? "+" : "") + (cp / 100).toFixed(2) + " (White's view)";
  }

  function askProbe() {
    if (!view || positionOver()) { return; }
    if (probeAsking) { probeAsking.abort(); }   // the server stops the agent it no longer needs
    var asking = new AbortController();
    probeAsking = asking;
    var agent = $("probe-agent").value, answer = $("probe-answer"), ply = view.ply, shown = view;
    var body = live() ? { game: view.id, ply: view.ply, agent: agent }
      : { variant: view.variant, fen: view.fens[view.ply], agent: agent };
    answer.textContent = agent + " is thinking...";
    answer.dataset.move = "";
    api("POST", "/api/best", body, asking.signal).then(function (found) {
      if (view !== shown || view.ply !== ply) { return; }
      if (!found.move) {
        answer.textContent = agent + " has no move here: " + found.error;
        probeMove = null;
      } else {
        answer.textContent = agent + " would play " + found.move + " (" + found.seconds.toFixed(3) + " s" +
          scoreText(found.score, moverAt(ply)) + ")";
        probeMove = found.move;
      }
      answer.dataset.move = found.move || "";
      render();
    }).catch(function (error) {
      if (error.name !== "AbortError") { answer.textContent = error.message; }
    }).then(function () { if (probeAsking === asking) { probeAsking = null; } });
  }

  function scheduleLiveProbe() {  // the live probe line: ask at every position, the last one only
    clearTimeout(liveTimer);
    liveTimer = setTimeout(askProbe, 250);
  }

  function playFromHere() {
    if (!view || positionOver()) { return; }
    var mover = moverAt(view.ply), agent = $("play-agent").value;
    var settings = { variant: view.variant, fen: view.fens[view.ply], seed: Number($("seed").value) || 0,
                     white: mover === "white" ? "human" : agent, black: mover === "black" ? "human" : agent };
    startGame(settings);
  }

  function copyFen() {
    var input = $("fen-shown"), done = function () {
      $("copied").hidden = false;
      setTimeout(function () { $("copied").hidden = true; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {
      input.select();
      if (document.execCommand("copy")) { done(); }
    }
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
    unwatch();
    return api("POST", "/api/records/game", { results: records.results, analysis: records.analysis, game: number })
      .then(function (game) {
        selected = null;
        probeMove = null;
        return loadAgents(game.variant).then(function () {
          view = Object.assign({ kind: "record", ply: 0 }, game);
          address(null);
          $("record-game").value = String(number);
          fillAgents(game.variant);
          fillMoves();
          render();
        });
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

  function fillAgents(variant) {
    var names = agentsOf[variant] || [], strongest = names[names.length - 1];
    options($("probe-agent"), names, names.indexOf($("probe-agent").value) >= 0 ? $("probe-agent").value : strongest);
    options($("play-agent"), names, names.indexOf($("play-agent").value) >= 0 ? $("play-agent").value : strongest);
  }

  function loadAgents(variant) {
    if (agentsOf[variant]) { return Promise.resolve(agentsOf[variant]); }
    return api("GET", "/api/agents?variant=" + encodeURIComponent(variant)).then(function (found) {
      agentsOf[variant] = found.agents.map(function (a) { return a.name; });
      return agentsOf[variant];
    });
  }

  function chooseVariant(variant, white, black) {
    $("variant").value = variant;
    return loadAgents(variant).then(function (names) {
      options($("white"), ["human"].concat(names), white || "human");
      options($("black"), ["human"].concat(names), black || names[names.length - 1]);
      fillAgents(variant);
      if (!view) { render(); }
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

  function fromAddress() {      // /game/ID shows that game; /?white=...&black=... starts one
    var match = window.location.pathname.match(/^\/game\/([^/]+)$/);
    if (match) { return loadGame(decodeURIComponent(match[1])); }
    listGames();
    var query = new URLSearchParams(window.location.search);
    var names = Object.keys(variants), variant = query.get("variant") || names[0];
    if (!variants[variant]) { showError("setup-error", "unknown variant '" + variant + "'"); variant = names[0]; }
    if (query.get("seed")) { $("seed").value = query.get("seed"); }
    if (query.get("fen")) { $("fen").value = query.get("fen"); }
    unwatch();
    view = null;
    fillMoves();
    return chooseVariant(variant, query.get("white"), query.get("black")).then(function () {
      render();
      if (query.get("white") && query.get("black")) {
        var settings = { variant: variant, white: query.get("white"), black: query.get("black"),
                         seed: Number(query.get("seed")) || 0, pace: Number(query.get("pace") || $("pace").value) };
        if (query.get("fen")) { settings.fen = query.get("fen"); }
        return startGame(settings, true);      // the address that started it becomes the game's own
      }
    });
  }

  function init() {
    api("GET", "/api/variants").then(function (found) {
      found.variants.forEach(function (v) { variants[v.name] = v; });
      options($("variant"), found.variants.map(function (v) { return v.name; }));
      return fromAddress();
    }).catch(function (error) { showError("setup-error", error); });

    window.addEventListener("popstate", function () { fromAddress(); });
    $("variant").addEventListener("change", function () { chooseVariant($("variant").value); });
    $("setup").addEventListener("submit", function (event) {
      event.preventDefault();
      settingsFromForm().then(startGame);
    });
    $("new-game").addEventListener("click", function () { settingsFromForm().then(startGame); });
    $("rematch").addEventListener("click", rematch);
    $("board").addEventListener("click", onBoardClick);
    document.querySelectorAll("[data-go]").forEach(function (button) {
      button.addEventListener("click", function () { go(button.dataset.go); });
    });
    $("undo").addEventListener("click", function () { liveAction("/undo"); });
    $("resign").addEventListener("click", function () { liveAction("/resign"); });
    $("stop").addEventListener("click", function () { liveAction("/stop"); });
    $("flip").addEventListener("click", function () { flipped = !flipped; render(); });
    $("save").addEventListener("click", save);
    $("review-game").addEventListener("click", reviewGame);
    $("probe").addEventListener("click", askProbe);
    $("probe-live").addEventListener("change", function () { if ($("probe-live").checked) { askProbe(); } });
    $("probe-agent").addEventListener("change", function () { if ($("probe-live").checked) { askProbe(); } });
    $("play-here").addEventListener("click", playFromHere);
    $("copy-fen").addEventListener("click", copyFen);
    $("eval-graph").addEventListener("click", function (event) {
      if (!view || !view.review) { return; }
      var at = B.graphPly($("eval-graph"), event, view.positions.length);
      if (at !== null) { go(String(at)); }
    });
    $("results-file").addEventListener("change", openRecords);
    $("analysis-file").addEventListener("change", function () { if (records || $("results-file").files.length) { openRecords(); } });
    $("record-game").addEventListener("change", function () { showRecord(Number($("record-game").value)); });
    B.keys(go, function () { flipped = !flipped; render(); });
  }

  document.addEventListener("DOMContentLoaded", init);
}());
