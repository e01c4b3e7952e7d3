/* BangArena report viewer: draws precomputed game steps; all text comes from the page's
   "ui-strings" block (the report's labels in its language) and the game files (games/<id>.js call BangReport.gameLoaded(data)).
   Game files are loaded on demand with a <script> tag, which also works from file://.
   The board and the player header are static/board.js (with the web table's art.js), the
   win-probability graph static/graph.js; this file steps through the game (buttons, keys,
   play), draws the event feed, the decision and what a model answered, and the game list. */
(function () {
  "use strict";
  var UI = JSON.parse(document.getElementById("ui-strings").textContent);
  var games = {};
  var wanted = null;
  var cur = { id: null, step: 0, seat: -1 };

  function $(id) { return document.getElementById(id); }

  /* A label with its {name} placeholders filled from `values`. */
  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? String(values[k]) : m; });
  }

  /* `n` with a counted noun in the page's language: the plural category comes from the page's
     table of 0 … 199 (prompts/plural.j2: every rule reads only n below 3 and n % 100). */
  function count(n, noun) {
    var forms = UI.counts[noun];
    var cat = UI.plural[n < 200 ? n : 100 + (n % 100)];
    var form = forms[cat] || forms.other || forms.many;
    return fill(form, { n: n });
  }

  function secs(x) { return fill(UI.seconds, { x: x.toFixed(3) }); }

  function sideWon(side) { return fill(UI.side_won, { side: UI.sides[side] || side }); }

  /* Build a DOM element; children are nodes or strings (always inserted as text). */
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false) return;
        if (k === "cls") e.className = attrs[k]; else e.setAttribute(k, attrs[k]);
      });
    }
    (kids || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return e;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  /* ------------------------------------------------------------------ loading */
  window.BangReport = {
    gameLoaded: function (data) {
      var state = {};
      data.states = data.steps.map(function (s) { state = Object.assign({}, state, s.x); return state; });
      games[data.id] = data;
      if (wanted && wanted.id === data.id) show(wanted.id, wanted.step, wanted.seat);
    }
  };

  function fileOf(id) {
    var row = LIST.byId[id];
    return row ? "games/" + (row[10] || row[0] + ".js") : null;
  }

  function openGame(id, step, seat) {
    $("main").hidden = true;
    $("viewer").hidden = false;
    if (games[id]) { show(id, step, seat); return; }
    wanted = { id: id, step: step, seat: seat };
    $("game-title").textContent = id;
    $("step-label").textContent = UI.loading;
    var file = fileOf(id);
    if (!file) { fail(id); return; }
    var s = document.createElement("script");
    s.src = file;
    s.onerror = function () { fail(id); };
    document.head.appendChild(s);
  }

  function fail(id) {
    var w = $("viewer-warn");
    w.hidden = false;
    w.textContent = UI.load_failed + ": " + id;
  }

  function closeViewer() {
    stopPlay();
    $("viewer").hidden = true;
    $("main").hidden = false;
    cur.id = null;
    history.replaceState(null, "", "#games");
  }

  function show(id, step, seat) {
    var g = games[id];
    cur.id = id;
    cur.step = Math.max(0, Math.min(step || 0, g.steps.length - 1));
    cur.seat = seat === undefined || seat === null || isNaN(seat) ? -1 : seat;
    $("game-title").textContent = g.id + " · " + g.mode + " · " + count(g.seats, "seats") + " · " + UI.seed + " " + g.seed;
    var r = g.result || {};
    $("game-result").textContent = r.side ? sideWon(r.side) + " · " + count(r.rounds, "rounds") : "";
    var sel = clear($("seat-select"));
    sel.appendChild(el("option", { value: "-1" }, [UI.full]));
    g.players.forEach(function (p, i) {
      sel.appendChild(el("option", { value: String(i) }, [UI.seat_view + " " + p.name + " (" + p.player + (p.model ? ", " + p.model : "") + ")"]));
    });
    sel.value = String(cur.seat);
    var range = $("step-range");
    range.max = String(Math.max(0, g.steps.length - 1));
    var w = $("viewer-warn");
    w.hidden = !g.warn;
    w.textContent = g.warn ? UI.warn + ": " + g.warn : "";
    render();
  }

  /* ------------------------------------------------------------------ drawing */
  function roleName(g, id) { return id ? (g.roles[id] || id) : UI.unknown; }

  function evText(ev, seat) {
    if (typeof ev === "string") return ev;
    if (seat < 0) return ev[2];
    var own = ev[1][String(seat)];
    return own !== undefined ? own : ev[0];
  }

  /* The events of this step (between the previous decision and this one), as the view sees
     them: the board's centre shows the last of them. */
  function newEvents(g, stepIndex, seat) {
    var end = stepIndex === g.steps.length - 1 ? g.events.length : g.steps[stepIndex].e;
    var from = stepIndex > 0 ? g.steps[stepIndex - 1].e : 0;
    var out = [];
    for (var i = from; i < end; i++) { var t = evText(g.events[i], seat); if (t) out.push(t); }
    return out;
  }

  /* Which hands and roles this view shows, said on the page. */
  function viewNote(g, seat) {
    var note = $("view-note");
    note.textContent = seat < 0 ? UI.view_full_note : fill(UI.view_seat_note, { name: g.players[seat].name });
    note.className = "view-note " + (seat < 0 ? "full" : "seat");
  }

  function drawFeed(g, stepIndex, seat) {
    var feed = clear($("feed"));
    var end = g.steps[stepIndex].e;
    var from = stepIndex > 0 ? g.steps[stepIndex - 1].e : 0;
    var last = null;
    for (var i = 0; i < end; i++) {
      var text = evText(g.events[i], seat);
      if (!text) continue;
      last = el("li", { cls: i >= from ? "new" : null, value: String(i) }, [text]);
      feed.appendChild(last);
    }
    if (stepIndex === g.steps.length - 1) {
      for (var j = end; j < g.events.length; j++) {
        var tail = evText(g.events[j], seat);
        if (tail) { last = el("li", { cls: "new", value: String(j) }, [tail]); feed.appendChild(last); }
      }
    }
    var pane = $("feed-pane");
    pane.scrollTop = pane.scrollHeight;
  }

  function drawDecision(g, step, seat) {
    var pane = clear($("decision-pane"));
    var d = step.d;
    if (!d) {
      var r = g.result || {};
      var names = (r.winners || []).map(function (i) { return g.players[i].name; }).join(", ");
      pane.appendChild(el("strong", null, [UI.game_over + ": " + sideWon(r.side) + " — " + names]));
      return;
    }
    var p = g.players[d.s];
    var showAll = seat < 0 || seat === d.s;
    var title = UI.decision + " " + d.i + " — " + p.name + " · " + d.k;
    if (seat < 0) title += " · " + p.player + " · " + roleName(g, p.role);
    var h = el("div", { cls: "decider" }, [ART.portrait(p.cid, p.char), el("strong", null, [title])]);
    if (d.fb) h.appendChild(el("span", { cls: "badge" }, [UI.fallback + ": " + d.fb]));
    pane.appendChild(h);
    pane.appendChild(el("div", null, [g.strs[d.h]]));
    if (!showAll) {
      pane.appendChild(el("p", null, [p.name + " " + UI.waiting + "…"]));
      return;
    }
    var ol = el("ol", { id: "options" });
    var a = d.a;
    d.o.forEach(function (o, k) {
      var value = a ? el("span", { cls: "wp-value" }, [(100 * a.v[k]).toFixed(1) + " %"]) : null;
      ol.appendChild(el("li", { cls: o[0] === d.c ? "chosen" : null }, [value, el("code", null, [g.strs[o[0]]]), " — " + g.strs[o[1]]]));
    });
    if (a) {
      var verdict = a.l ? UI["label_" + a.l] : UI.good_move;
      pane.appendChild(el("div", { id: "analysis-verdict", cls: a.l ? "wp-" + a.l : null },
        [UI.analysis + ": " + verdict + " · " + UI.lost + " " + (100 * a.loss).toFixed(1) +
         (a.se != null ? " ± " + (100 * a.se).toFixed(1) : "") + " pp"]));
    }
    pane.appendChild(el("div", null, [UI.options + ":"]));
    pane.appendChild(ol);
    var meta = UI.latency + " " + secs(d.lat);
    if (d.err) meta += " · " + UI.error + ": " + d.err;
    pane.appendChild(el("div", { cls: "note" }, [meta]));
  }

  /* Beside the board: what a model seat answered at this decision — its stated reason and the
     reasoning it returned (the full record, prompt and raw answers, is below the board).  Only
     in the full view and the deciding seat's own view. */
  function drawThinking(g, step, seat) {
    var pane = clear($("thinking-pane"));
    var m = step.d && (seat < 0 || seat === step.d.s) ? step.d.m : null;
    pane.hidden = !m;
    if (!m) return;
    pane.appendChild(el("h3", null, [UI.thinking + " · " + m.label]));
    if (!m.att.length) { pane.appendChild(el("p", { cls: "note" }, [UI.no_call])); return; }
    var chose = m.parsed === null ? (m.fb ? UI.fallback + ": " + m.fb : "—") : m.parsed;
    pane.appendChild(el("div", { id: "thinking-choice" }, [UI.parsed + ": ", el("code", null, [chose])]));
    if (m.reason) pane.appendChild(el("blockquote", { id: "thinking-reason" }, [m.reason]));
    var said = m.att.filter(function (a) { return a.rsn; });
    if (said.length) {
      pane.appendChild(el("div", { cls: "msg-role" }, [UI.reasoning + (said.length > 1 ? " (" + said.length + ")" : "")]));
      said.forEach(function (a) { pane.appendChild(pre(a.rsn)); });
    } else {
      pane.appendChild(el("p", { cls: "note" }, [UI.no_reasoning]));
    }
  }

  /* win probability of the analysed seats (bangarena analyze): static/graph.js */
  function drawGraph(g, seat) {
    $("wp-pane").hidden = false;  // drawn at its box's width: the box must be laid out
    var shown = GRAPH.draw($("wp-graph"), $("wp-legend"), UI, g, seat, cur.step, go);
    $("wp-pane").hidden = !shown;
  }

  function pre(text) { return el("pre", null, [text === null || text === undefined ? "" : String(text)]); }

  function drawModel(g, step, seat) {
    var pane = clear($("model-pane"));
    // Another seat's prompt would show its hand: only the full view and the decider's own view.
    var m = step.d && (seat < 0 || seat === step.d.s) ? step.d.m : null;
    pane.hidden = !m;
    if (!m) return;
    pane.appendChild(el("h3", null, [UI.model + ": " + m.label]));
    var facts = [UI.answer_mode + " " + m.mode, UI.parsed + ": " + (m.parsed === null ? "—" : m.parsed),
      UI.latency + " " + secs(m.lat), UI.tokens + " " + m.tok.join(" / "),
      UI.cost + " " + (m.cost === null ? "?" : "$" + m.cost.toFixed(6))];
    if (m.fb) facts.push(UI.fallback + ": " + m.fb + (m.pol ? " (" + m.pol + ")" : ""));
    if (m.cached) facts.push(UI.cached);
    pane.appendChild(el("div", { cls: "note" }, [facts.join(" · ")]));
    if (m.reason) pane.appendChild(el("div", null, [UI.reason + ": " + m.reason]));
    if (!m.att.length) { pane.appendChild(el("p", null, [UI.no_call])); }
    var prompt = el("details", { id: "prompt-details" }, [el("summary", null, [UI.prompt])]);
    var sys = g.prompts[m.sys];
    prompt.appendChild(el("div", { cls: "msg-role" }, [UI.system + " (sha256 " + (m.sys || "").slice(0, 12) + "…)"]));
    prompt.appendChild(pre(sys === undefined ? UI.not_found : sys));
    m.msgs.forEach(function (msg, i) {
      prompt.appendChild(el("div", { cls: "msg-role" }, [(i + 1) + ". " + msg.role]));
      prompt.appendChild(pre(msg.content));
    });
    pane.appendChild(prompt);
    var raw = el("details", { id: "raw-details", open: "" }, [el("summary", null, [UI.raw + " (" + m.att.length + ")"])]);
    var rsn = el("details", { id: "reasoning-details" }, [el("summary", null, [UI.reasoning])]);
    var anyReasoning = false;
    m.att.forEach(function (a, i) {
      var head = UI.attempt + " " + (i + 1) + ": " + (a.ek || UI.valid) + (a.em ? " — " + a.em : "") +
        " · " + secs(a.lat) + (a.fr ? " · " + UI.finish + " " + a.fr : "") + " · " + UI.tokens + " " +
        a.tok.join(" / ") + (a.c ? " · " + UI.cached : "");
      raw.appendChild(el("div", { cls: "msg-role" }, [head]));
      if (a.raw !== null) raw.appendChild(pre(a.raw));
      if (a.tool !== null) { raw.appendChild(el("div", null, [UI.tool_args + ":"])); raw.appendChild(pre(a.tool)); }
      if (a.rsn) {
        anyReasoning = true;
        rsn.appendChild(el("div", { cls: "msg-role" }, [UI.attempt + " " + (i + 1)]));
        rsn.appendChild(pre(a.rsn));
      }
    });
    if (!anyReasoning) rsn.appendChild(el("p", null, [UI.no_reasoning]));
    pane.appendChild(raw);
    pane.appendChild(rsn);
  }

  function render() {
    var g = games[cur.id];
    if (!g) return;
    var step = g.steps[cur.step];
    $("step-label").textContent = fill(UI.step_of, { i: cur.step + 1, n: g.steps.length });
    $("step-range").value = String(cur.step);
    $("btn-prev").disabled = cur.step === 0;
    $("btn-first").disabled = cur.step === 0;
    $("btn-next").disabled = cur.step === g.steps.length - 1;
    $("btn-last").disabled = cur.step === g.steps.length - 1;
    var nm = $("btn-next-model");
    nm.hidden = !g.models;
    nm.disabled = nextModelStep(g) < 0;
    nm.title = nm.disabled ? UI.no_more_model : UI.next_model;
    var st = g.states[cur.step];
    var over = !step.d && !!(g.result && g.result.side);
    viewNote(g, cur.seat);
    BOARD.header($("player-header"), UI, g, st, cur.seat, over);
    BOARD.draw($("table-pane"), UI, g, st, step, cur.step, cur.seat, newEvents(g, cur.step, cur.seat));
    drawFeed(g, cur.step, cur.seat);
    drawDecision(g, step, cur.seat);
    drawThinking(g, step, cur.seat);
    drawGraph(g, cur.seat);
    drawModel(g, step, cur.seat);
    if (playing && cur.step === g.steps.length - 1) stopPlay();
    history.replaceState(null, "", "#game=" + encodeURIComponent(g.id) + "&step=" + cur.step + "&seat=" + cur.seat);
  }

  /* Play: one step a second, until the end or a key, a click or the slider stops it. */
  var playing = null;
  function stopPlay() {
    if (playing) clearInterval(playing);
    playing = null;
    $("btn-play").textContent = UI.play;
    $("btn-play").setAttribute("aria-pressed", "false");
  }
  function togglePlay() {
    var g = games[cur.id];
    if (!g) return;
    if (playing) { stopPlay(); return; }
    if (cur.step === g.steps.length - 1) go(0);
    $("btn-play").textContent = UI.pause;
    $("btn-play").setAttribute("aria-pressed", "true");
    playing = setInterval(function () { go(cur.step + 1); }, 1000);
  }

  function go(step) {
    var g = games[cur.id];
    if (!g) return;
    cur.step = Math.max(0, Math.min(step, g.steps.length - 1));
    render();
  }

  function nextModelStep(g) {
    for (var i = cur.step + 1; i < g.steps.length; i++) {
      if (g.steps[i].d && g.steps[i].d.m && g.steps[i].d.m.att.length) return i;
    }
    return -1;
  }

  function nextModel() {
    var g = games[cur.id];
    if (!g || !g.models) return;
    var i = nextModelStep(g);
    if (i >= 0) go(i);
  }

  /* ------------------------------------------------------------------ game list */
  /* Rows: [id, seats, mode, side, rounds, decisions, fallbacks, cost, models, lineup, file];
     lineup = flat (player, role, won) triples; mode/side/player/role are indices into the
     data's name lists.  Sorted, filtered and drawn a page at a time. */
  var LIST = (function () {
    var data = JSON.parse($("game-data").textContent);
    var rows = data.rows;
    var byId = {};
    rows.forEach(function (r) { byId[r[0]] = r; });
    var PAGE = 200;
    var natural = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
    var COLS = { id: 0, seats: 1, mode: 2, side: 3, rounds: 4, decisions: 5, fallbacks: 6, cost: 7 };
    var sort = { key: "id", dir: 1 };
    var shown = [];
    var limit = PAGE;

    function modeName(r) { var m = data.modes[r[2]]; return UI.modes[m] || m; }
    function sideName(r) { var s = data.sides[r[3]]; return UI.sides[s] !== undefined ? UI.sides[s] : s; }
    function roleLabel(i) { var id = data.roles[i]; return UI.roles[id] || id; }

    function compare(a, b) {
      var k = sort.key;
      var c;
      if (k === "id") c = natural.compare(a[0], b[0]);
      else if (k === "mode") c = natural.compare(modeName(a), modeName(b));
      else if (k === "side") c = natural.compare(sideName(a), sideName(b));
      else c = a[COLS[k]] - b[COLS[k]];
      return c * sort.dir || natural.compare(a[0], b[0]);
    }

    function option(value, text) { return el("option", { value: value }, [text]); }

    function fillSelect(sel, anyText, items) {
      sel.appendChild(option("", anyText));
      items.forEach(function (it) { sel.appendChild(option(it[0], it[1])); });
    }

    function matches(r, f) {
      var lineup = r[9];
      if (f.table && (r[1] + "/" + r[2]) !== f.table) return false;
      if (f.winner !== "" && String(r[3]) !== f.winner) return false;
      if (f.fallbacks && !r[6]) return false;
      if (f.player !== "" || f.role !== "") {
        var ok = false;
        for (var i = 0; i < lineup.length && !ok; i += 3) {
          ok = (f.player === "" || String(lineup[i]) === f.player) && (f.role === "" || String(lineup[i + 1]) === f.role);
        }
        if (!ok) return false;
      }
      if (f.q) {
        var text = r[0] + " " + modeName(r) + " " + sideName(r);
        for (var j = 0; j < lineup.length; j += 3) text += " " + data.players[lineup[j]];
        if (text.toLowerCase().indexOf(f.q) < 0) return false;
      }
      return true;
    }

    function filters() {
      return {
        q: $("game-filter").value.trim().toLowerCase(), player: $("f-player").value, role: $("f-role").value,
        table: $("f-table").value, winner: $("f-winner").value, fallbacks: $("f-fallbacks").checked
      };
    }

    function row(r) {
      var id = r[0];
      var link = el("a", { cls: "open-game", href: "#game=" + encodeURIComponent(id), "data-game": id,
        "data-file": "games/" + (r[10] || id + ".js") }, [id]);
      var first = el("td", null, [link]);
      if (r[8]) { first.appendChild(document.createTextNode(" ")); first.appendChild(el("span", { cls: "tag" }, [UI.model_tag])); }
      var parts = [];
      for (var i = 0; i < r[9].length; i += 3) {
        parts.push(data.players[r[9][i]] + ": " + roleLabel(r[9][i + 1]) + (r[9][i + 2] ? " ✔" : ""));
      }
      return el("tr", { "data-game": id }, [first,
        el("td", { cls: "n" }, [String(r[1])]), el("td", null, [modeName(r)]), el("td", null, [sideName(r)]),
        el("td", { cls: "n" }, [String(r[4])]), el("td", { cls: "n" }, [String(r[5])]),
        el("td", { cls: "n" }, [String(r[6])]), el("td", { cls: "n cost" }, ["$" + r[7].toFixed(4)]),
        el("td", { cls: "lineup" }, [parts.join(" · ")])]);
    }

    function draw() {
      var tbody = clear(document.querySelector("#game-list tbody"));
      var frag = document.createDocumentFragment();
      shown.slice(0, limit).forEach(function (r) { frag.appendChild(row(r)); });
      if (!shown.length) frag.appendChild(el("tr", null, [el("td", { colspan: "9", cls: "note" }, [UI.no_games])]));
      tbody.appendChild(frag);
      $("game-count").textContent = String(shown.length);
      var more = $("games-more");
      var left = shown.length - limit;
      more.hidden = left <= 0;
      more.textContent = UI.more + " (" + Math.min(PAGE, left) + " / " + left + ")";
      document.querySelectorAll("#game-list th[data-sort]").forEach(function (th) {
        var k = th.getAttribute("data-sort");
        th.setAttribute("aria-sort", k === sort.key ? (sort.dir > 0 ? "ascending" : "descending") : "none");
      });
    }

    function update() {
      var f = filters();
      shown = rows.filter(function (r) { return matches(r, f); });
      shown.sort(compare);
      limit = PAGE;
      draw();
    }

    function init() {
      var players = data.players.map(function (p, i) { return [String(i), p]; });
      players.sort(function (a, b) { return natural.compare(a[1], b[1]); });
      fillSelect($("f-player"), UI.any_player, players);
      var used = {};
      rows.forEach(function (r) { for (var i = 1; i < r[9].length; i += 3) used[r[9][i]] = true; });
      fillSelect($("f-role"), UI.any_role, data.roles.map(function (_, i) { return [String(i), roleLabel(i)]; })
        .filter(function (x) { return used[x[0]]; }));
      var tables = {};
      rows.forEach(function (r) { tables[r[1] + "/" + r[2]] = [r[1], r[2]]; });
      fillSelect($("f-table"), UI.any_table, Object.keys(tables).map(function (k) { return tables[k]; })
        .sort(function (a, b) { return a[0] - b[0] || natural.compare(data.modes[a[1]], data.modes[b[1]]); })
        .map(function (t) { return [t[0] + "/" + t[1], count(t[0], "seats") + " · " + (UI.modes[data.modes[t[1]]] || data.modes[t[1]])]; }));
      fillSelect($("f-winner"), UI.any_winner, data.sides.map(function (s, i) { return [String(i), sideName([0, 0, 0, i])]; }));
      ["game-filter", "f-player", "f-role", "f-table", "f-winner", "f-fallbacks"].forEach(function (id) {
        $(id).addEventListener(id === "game-filter" ? "input" : "change", update);
      });
      document.querySelectorAll("#game-list th[data-sort] button").forEach(function (b) {
        b.addEventListener("click", function () {
          var k = b.parentNode.getAttribute("data-sort");
          sort = { key: k, dir: sort.key === k ? -sort.dir : 1 };
          shown.sort(compare);
          draw();
        });
      });
      $("games-more").addEventListener("click", function () { limit += PAGE; draw(); });
      // a league without costs has no cost column
      if (!rows.some(function (r) { return r[7] > 0; })) $("game-list").classList.add("no-cost");
      update();
    }

    return { init: init, byId: byId };
  })();

  /* ------------------------------------------------------------------ routing and input */
  function route() {
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf("game=") !== 0) { if (cur.id) closeViewer(); return; }
    var params = {};
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) params[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    });
    if (params.game === cur.id) return;
    openGame(params.game, parseInt(params.step || "0", 10), parseInt(params.seat || "-1", 10));
  }

  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a.open-game") : null;
    if (!a) return;
    e.preventDefault();
    var id = a.getAttribute("data-game");
    history.pushState(null, "", "#game=" + encodeURIComponent(id));
    openGame(id, 0, cur.seat);
  });
  $("btn-close").addEventListener("click", closeViewer);
  $("btn-first").addEventListener("click", function () { stopPlay(); go(0); });
  $("btn-prev").addEventListener("click", function () { stopPlay(); go(cur.step - 1); });
  $("btn-next").addEventListener("click", function () { stopPlay(); go(cur.step + 1); });
  $("btn-last").addEventListener("click", function () { stopPlay(); go(Infinity); });
  $("btn-next-model").addEventListener("click", nextModel);
  $("btn-play").addEventListener("click", togglePlay);
  var resizeTimer = null;
  window.addEventListener("resize", function () {  // the graph is drawn at its box's width
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () { var g = games[cur.id]; if (g && !$("viewer").hidden) drawGraph(g, cur.seat); }, 150);
  });
  $("step-range").addEventListener("input", function () { stopPlay(); go(parseInt($("step-range").value, 10)); });
  $("seat-select").addEventListener("change", function () { cur.seat = parseInt($("seat-select").value, 10); render(); });
  LIST.init();
  document.addEventListener("keydown", function (e) {
    if ($("viewer").hidden || !cur.id) return;
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" && e.target.type !== "range") return;
    if (tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
    var k = e.key;
    if (k !== " ") stopPlay();
    if (k === "ArrowRight") go(cur.step + 1);
    else if (k === "ArrowLeft") go(cur.step - 1);
    else if (k === "Home") go(0);
    else if (k === "End") go(Infinity);
    else if (k === "m") nextModel();
    else if (k === " " && tag !== "BUTTON") togglePlay();
    else if (k === "Escape") closeViewer();
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", route);
  route();
})();
