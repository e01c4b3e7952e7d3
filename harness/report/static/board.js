/* The replay viewer's board: every seat drawn with the web table's own art (ART, from
   harness/web/static/art.js, bundled into the page unchanged): a portrait, hearts, the cards in
   play and in hand as card faces, and the table's centre (round, turn, deck, discard pile, what
   just happened).  Also the player header above it.

   What a reader sees depends on the view (documented on the page and in docs/report.md):
   the full view is the recorded game as its owner may see it — every hand face up, every role
   named (a role no one at the table knew yet is marked "hidden"); a seat's view is what that
   seat knew at that step — its own hand, the public cards, the roles revealed to everyone or
   told to it, the deck top it put back — and every other hand face down.
   All text is set as text (never parsed as HTML). */
var BOARD = (function () {
  "use strict";
  var SEAT_COLORS = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];

  function h(tag, cls, kids, attrs) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); });
    (kids || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return e;
  }

  function cardLabel(g, face) { return (g.cards[face] || [face])[0]; }

  /* A card face (the web table's), small; its effect in the tooltip. */
  function card(g, face) {
    var c = g.cards[face] || [face, ""];
    var f = ART.cardFace(face, c[0], null, "div");
    f.classList.add("mini");
    f.title = c[1] ? c[0] + " — " + c[1] : c[0];
    return f;
  }

  function backs(n) {
    var box = h("span", "backs", [], { "aria-hidden": "true" });
    for (var i = 0; i < Math.min(n, 8); i++) box.appendChild(h("span", "card-back"));
    return box;
  }

  /* The role a reader of this view may see at seat i, and how it is known. */
  function role(UI, g, st, i, seat, over) {
    var p = g.players[i], s = st["s" + i];
    var name = function (id) { return id ? (g.roles[id] || id) : UI.unknown; };
    if (seat < 0) return s[8] ? { text: name(p.role), cls: "" } : { text: name(p.role) + " (" + UI.hidden + ")", cls: "secret" };
    if (s[8]) return { text: name(s[8]), cls: "" };
    if (i === seat) return { text: name(p.role), cls: "" };
    if (over) return { text: name(p.role), cls: "revealed" };
    var mine = st["v" + seat];
    if (mine && mine.kr[String(i)]) return { text: name(mine.kr[String(i)]), cls: "secret" };
    return { text: UI.unknown, cls: "unknown" };
  }

  function kindIcon(kind) { return ART.icon({ person: "person", human: "person", bot: "bot", model: "model" }[kind] || "bot"); }

  function hearts(s) {
    var box = h("span", "hearts", [], { title: s[0] + "/" + s[1] });
    for (var k = 0; k < s[1]; k++) {
      var ic = ART.icon("heart");
      ic.classList.add(k < s[0] ? "full" : "empty");
      box.appendChild(ic);
    }
    box.appendChild(h("span", "n", [s[0] + "/" + s[1]]));
    return box;
  }

  function stat(iconName, title, text) {
    return h("span", "stat", [ART.icon(iconName), text], { title: title });
  }

  function seatBox(UI, g, st, i, seat, d, over) {
    var p = g.players[i], s = st["s" + i], t = st.t;
    var mine = seat >= 0 ? st["v" + seat] : null;
    var cls = ["seat-box"];
    if (!s[7]) cls.push("dead");
    if (t[1] === i) cls.push("turn");
    if (d && d.s === i) cls.push("deciding");
    if (i === seat) cls.push("me");
    var r = role(UI, g, st, i, seat, over);
    var who = h("div", "who", [kindIcon(p.kind), p.player + (p.model ? " · " + p.model : "")]);
    var head = h("div", "seat-head", [ART.portrait(p.cid, p.char),
      h("div", "idn", [h("b", "nm", [p.name + (i === seat ? " (" + UI.you + ")" : "")]), who,
        h("div", "char", [p.char], { title: p.ability })])]);
    var stats = h("div", "seat-stats", [s[7] ? hearts(s) : h("span", "out", [UI.dead]),
      stat("cards", UI.hand, String(s[2]))]);
    if (mine && mine.dist[i] !== null && i !== seat) stats.appendChild(stat("distance", UI.dist, String(mine.dist[i])));
    stats.appendChild(stat("range", UI.range, String(s[5])));
    if (s[6].length) stats.appendChild(h("span", "stars", s[6].map(function () { return ART.icon("star"); }), { title: s[6].join(", ") }));
    var play = h("div", "seat-play", [], { "aria-label": UI.in_play });
    play.appendChild(s[4] ? card(g, s[4]) : h("span", "revolver", [UI.revolver + " (1)"]));
    s[3].forEach(function (f) { play.appendChild(card(g, f)); });
    var handFaces = st["h" + i];
    var shown = seat < 0 || i === seat;
    var hand = h("div", "seat-hand" + (shown ? "" : " hidden-hand"), [], { "aria-label": UI.hand });
    if (shown && handFaces) handFaces.forEach(function (f) { hand.appendChild(card(g, f)); });
    else if (s[2]) hand.appendChild(backs(s[2]));
    if (!s[2]) hand.appendChild(h("span", "empty", ["—"]));
    var box = h("div", cls.join(" "), [head, h("div", "seat-role " + r.cls, [r.text]), stats,
      h("div", "zone-label", [UI.in_play]), play, h("div", "zone-label", [UI.hand + " (" + s[2] + ")"]), hand],
      { "data-seat": String(i) });
    box.style.borderTopColor = SEAT_COLORS[i % SEAT_COLORS.length];
    return box;
  }

  /* The table's centre: the round and turn, the deck and the discard pile, the events of this
     step, and what the viewed seat alone knows. */
  function centre(UI, g, st, stepIndex, seat, newEvents) {
    var t = st.t;
    var info = h("div", "centre-info", [
      h("b", null, [UI.round + " " + t[0]]), " · " + UI.turn + ": " + g.players[t[1]].name + " (" + (UI["phase_" + t[2]] || t[2]) + ")",
      " · " + UI.shots + " " + t[3]]);
    if (t[7]) info.appendChild(h("span", "noon", [" · ", ART.icon("sun"), UI.high_noon]));
    var deck = h("div", "pile", [h("span", "card-back big"), h("span", null, [UI.deck + " " + t[4]])]);
    var discard = h("div", "pile", [t[6] ? card(g, t[6]) : h("span", "card-slot"), h("span", null, [UI.discard + " " + t[5]])]);
    var box = h("div", "board-centre", [info, h("div", "piles", [deck, discard])]);
    if (newEvents.length) {
      box.appendChild(h("ul", "just", newEvents.slice(-4).map(function (e) { return h("li", null, ART.withIcons(e)); }),
        { "aria-label": UI.just_now }));
    }
    var mine = seat >= 0 ? st["v" + seat] : null;
    if (mine) {
      if (mine.mp) box.appendChild(h("p", "know", [UI.marshal_pair + ": " + g.players[mine.mp[0]].name + ", " + g.players[mine.mp[1]].name]));
      if (mine.top.length) box.appendChild(h("p", "know", [UI.known_top + ": " + mine.top.map(function (f) { return cardLabel(g, f); }).join(", ")]));
      if (mine.look.length) box.appendChild(h("p", "know", [UI.looking + ": " + mine.look.map(function (f) { return cardLabel(g, f); }).join(", ")]));
    }
    return box;
  }

  function draw(pane, UI, g, st, step, stepIndex, seat, newEvents) {
    while (pane.firstChild) pane.removeChild(pane.firstChild);
    var d = step.d;
    var over = !d && !!(g.result && g.result.side);  // the last step: every role is shown
    pane.appendChild(centre(UI, g, st, stepIndex, seat, newEvents));
    var ring = h("div", "seats", [], { id: "seats", "data-seats": String(g.players.length) });
    g.players.forEach(function (_, i) { ring.appendChild(seatBox(UI, g, st, i, seat, d, over)); });
    pane.appendChild(ring);
  }

  /* One chip per player: who plays it, its role as this view may see it, and its move
     analysis in this game (accuracy and inaccuracies / mistakes / blunders), shown for every
     seat in the full view and for the viewed seat alone in a seat's view. */
  function header(box, UI, g, st, seat, over) {
    while (box.firstChild) box.removeChild(box.firstChild);
    var acc = g.acc || {};
    g.players.forEach(function (p, i) {
      var r = role(UI, g, st, i, seat, over);
      var a = acc[String(i)];
      var stats;
      if (a && (seat < 0 || seat === i)) {
        stats = h("div", "acc", [
          h("span", "acc-value", [UI.accuracy + " " + a[1].toFixed(1)]),
          h("span", "lv lv-inaccuracy", [UI.n_inaccuracies + " " + a[2]]),
          h("span", "lv lv-mistake", [UI.n_mistakes + " " + a[3]]),
          h("span", "lv lv-blunder", [UI.n_blunders + " " + a[4]])], { title: fill(UI.acc_title, { n: a[0] }) });
      } else {
        stats = h("div", "acc none", [g.acc ? UI.not_analysed : ""]);
      }
      var won = over && (g.result.winners || []).indexOf(i) >= 0;
      var chip = h("div", "player-chip" + (won ? " won" : "") + (p.model ? " model" : ""), [
        ART.portrait(p.cid, p.char),
        h("div", "pc-body", [h("div", "pc-name", [h("b", null, [p.name]), " ", kindIcon(p.kind), " " + p.player]),
          h("div", "pc-role " + r.cls, [r.text + (won ? " · " + UI.winner : "")]), stats])],
        { "data-seat": String(i) });
      chip.style.borderInlineStartColor = SEAT_COLORS[i % SEAT_COLORS.length];
      box.appendChild(chip);
    });
  }

  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? String(values[k]) : m; });
  }

  return { draw: draw, header: header, card: card, colors: SEAT_COLORS };
})();
