/* BangArena report viewer: draws precomputed game steps; all text comes from the page's
   "ui-strings" block and the game files (games/<id>.js call BangReport.gameLoaded(data)).
   Game files are loaded on demand with a <script> tag, which also works from file://. */
(function () {
  "use strict";
  var UI = JSON.parse(document.getElementById("ui-strings").textContent);
  var games = {};
  var wanted = null;
  var cur = { id: null, step: 0, seat: -1 };

  function $(id) { return document.getElementById(id); }

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
    var links = document.querySelectorAll("a.open-game");
    for (var i = 0; i < links.length; i++) if (links[i].getAttribute("data-game") === id) return links[i].getAttribute("data-file");
    return null;
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
    $("game-title").textContent = g.id + " · " + g.mode + " · " + g.seats + " " + UI.seats + " · " + UI.seed + " " + g.seed;
    var r = g.result || {};
    $("game-result").textContent = r.side ? (UI.sides[r.side] || r.side) + " " + UI.win + " · " + r.rounds + " " + UI.rounds : "";
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

  function cardsList(cards) {
    return el("ul", { cls: "cards" }, cards.map(function (c) { return el("li", null, [c]); }));
  }

  function drawTable(g, st, step, seat) {
    var pane = clear($("table-pane"));
    var t = st.t;
    var d = step.d;
    var info = [UI.round + " " + t[0], g.mode, UI.turn + ": " + g.players[t[1]].name + " (" + t[2] + ")",
      UI.shots + " " + t[3], UI.deck + " " + t[4], UI.discard + " " + t[5] + (t[6] ? " (" + UI.top + " " + t[6] + ")" : "")];
    if (t[7]) info.push(UI.high_noon);
    pane.appendChild(el("div", { cls: "info" }, [info.join(" · ")]));
    var mine = seat >= 0 ? st["v" + seat] : null;
    var head = [UI.player, UI.character, UI.hp, UI.hand];
    if (mine) head.push(UI.dist);
    head.push(UI.in_play, UI.weapon, UI.stars, UI.role);
    var tbody = el("tbody");
    g.players.forEach(function (p, i) {
      var s = st["s" + i];
      var role;
      var roleCls = null;
      if (seat < 0) {
        role = roleName(g, p.role);
        if (!s[8]) { role += " (" + UI.hidden + ")"; roleCls = "secret"; }
      } else if (s[8]) role = roleName(g, s[8]);
      else if (i === seat) role = roleName(g, p.role);
      else if (mine.kr[String(i)]) { role = roleName(g, mine.kr[String(i)]); roleCls = "secret"; }
      else role = UI.unknown;
      var hand = String(s[2]);
      if (seat < 0 && st["h" + i].length) hand += ": " + st["h" + i].join(", ");
      var cls = [];
      if (!s[7]) cls.push("dead");
      if (t[1] === i) cls.push("turn");
      if (d && d.s === i) cls.push("deciding");
      var name = p.name + (i === seat ? " (" + UI.you + ")" : "");
      var cells = [el("td", { title: p.player + (p.model ? " · " + p.model : "") }, [name]),
        el("td", { title: p.ability }, [p.char]),
        el("td", { cls: "n" }, [s[7] ? s[0] + "/" + s[1] : UI.dead]),
        el("td", null, [hand])];
      if (mine) cells.push(el("td", { cls: "n" }, [mine.dist[i] === null ? "—" : String(mine.dist[i])]));
      cells.push(el("td", null, [s[3].join(", ") || "—"]),
        el("td", null, [(s[4] || UI.revolver) + " (" + s[5] + ")"]),
        el("td", null, [s[6].join(", ") || "—"]),
        el("td", { cls: roleCls }, [role]));
      tbody.appendChild(el("tr", { cls: cls.join(" ") || null }, cells));
    });
    pane.appendChild(el("table", { cls: "data", id: "seat-table" }, [
      el("thead", null, [el("tr", null, head.map(function (h) { return el("th", null, [h]); }))]), tbody]));
    if (mine) {
      var hand = st["h" + seat];
      pane.appendChild(el("h3", null, [UI.your_hand + " (" + hand.length + ")"]));
      pane.appendChild(cardsList(hand));
      if (mine.mp) pane.appendChild(el("p", null, [UI.marshal_pair + ": " + g.players[mine.mp[0]].name + ", " + g.players[mine.mp[1]].name]));
      if (mine.top.length) pane.appendChild(el("p", null, [UI.known_top + ": " + mine.top.join(", ")]));
      if (mine.look.length) pane.appendChild(el("p", null, [UI.looking + ": " + mine.look.join(", ")]));
    }
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
      pane.appendChild(el("strong", null, [UI.game_over + ": " + (UI.sides[r.side] || r.side) + " " + UI.win + " — " + names]));
      return;
    }
    var p = g.players[d.s];
    var showAll = seat < 0 || seat === d.s;
    var title = UI.decision + " " + d.i + " — " + p.name + " · " + d.k;
    if (seat < 0) title += " · " + p.player + " · " + roleName(g, p.role);
    var h = el("div", null, [el("strong", null, [title])]);
    if (d.fb) h.appendChild(el("span", { cls: "badge" }, [UI.fallback + ": " + d.fb]));
    pane.appendChild(h);
    pane.appendChild(el("div", null, [g.strs[d.h]]));
    if (!showAll) {
      pane.appendChild(el("p", null, [p.name + " " + UI.waiting + "…"]));
      return;
    }
    var ol = el("ol", { id: "options" });
    d.o.forEach(function (o) {
      ol.appendChild(el("li", { cls: o[0] === d.c ? "chosen" : null }, [el("code", null, [g.strs[o[0]]]), " — " + g.strs[o[1]]]));
    });
    pane.appendChild(el("div", null, [UI.options + ":"]));
    pane.appendChild(ol);
    var meta = UI.latency + " " + d.lat.toFixed(3) + " s";
    if (d.err) meta += " · " + UI.error + ": " + d.err;
    pane.appendChild(el("div", { cls: "note" }, [meta]));
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
      UI.latency + " " + m.lat.toFixed(3) + " s", UI.tokens + " " + m.tok.join(" / "),
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
        " · " + a.lat.toFixed(3) + " s · " + UI.tokens + " " + a.tok.join(" / ") + (a.c ? " · " + UI.cached : "");
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
    $("step-label").textContent = UI.step + " " + (cur.step + 1) + " " + UI.of + " " + g.steps.length;
    $("step-range").value = String(cur.step);
    $("btn-prev").disabled = cur.step === 0;
    $("btn-first").disabled = cur.step === 0;
    $("btn-next").disabled = cur.step === g.steps.length - 1;
    $("btn-last").disabled = cur.step === g.steps.length - 1;
    drawTable(g, g.states[cur.step], step, cur.seat);
    drawFeed(g, cur.step, cur.seat);
    drawDecision(g, step, cur.seat);
    drawModel(g, step, cur.seat);
    history.replaceState(null, "", "#game=" + encodeURIComponent(g.id) + "&step=" + cur.step + "&seat=" + cur.seat);
  }

  function go(step) {
    var g = games[cur.id];
    if (!g) return;
    cur.step = Math.max(0, Math.min(step, g.steps.length - 1));
    render();
  }

  function nextModel() {
    var g = games[cur.id];
    if (!g) return;
    for (var i = cur.step + 1; i < g.steps.length; i++) {
      if (g.steps[i].d && g.steps[i].d.m && g.steps[i].d.m.att.length) { go(i); return; }
    }
  }

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

  function filterGames() {
    var q = $("game-filter").value.trim().toLowerCase();
    var rows = document.querySelectorAll("#game-list tbody tr");
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var ok = !q || rows[i].textContent.toLowerCase().indexOf(q) >= 0;
      rows[i].hidden = !ok;
      if (ok) shown++;
    }
    $("game-count").textContent = String(shown);
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
  $("btn-first").addEventListener("click", function () { go(0); });
  $("btn-prev").addEventListener("click", function () { go(cur.step - 1); });
  $("btn-next").addEventListener("click", function () { go(cur.step + 1); });
  $("btn-last").addEventListener("click", function () { go(Infinity); });
  $("btn-next-model").addEventListener("click", nextModel);
  $("step-range").addEventListener("input", function () { go(parseInt($("step-range").value, 10)); });
  $("seat-select").addEventListener("change", function () { cur.seat = parseInt($("seat-select").value, 10); render(); });
  $("game-filter").addEventListener("input", filterGames);
  document.addEventListener("keydown", function (e) {
    if ($("viewer").hidden || !cur.id) return;
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" && e.target.type !== "range") return;
    if (tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
    var k = e.key;
    if (k === "ArrowRight") go(cur.step + 1);
    else if (k === "ArrowLeft") go(cur.step - 1);
    else if (k === "Home") go(0);
    else if (k === "End") go(Infinity);
    else if (k === "m") nextModel();
    else if (k === "Escape") closeViewer();
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", route);
  route();
})();
