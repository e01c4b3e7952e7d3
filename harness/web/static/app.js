// The BangArena table page.  It renders what the server sends — the render context of this
// connection's own view — and sends option ids, signals and host requests.  It holds no game
// state of its own and computes no rules.
"use strict";

const S = {
  locale: localStorage.getItem("bangarena.locale") || (navigator.language || "en").slice(0, 2),
  meta: null, ws: null, code: null, seat: null, room: null, ctx: null, decision: 0, ask: false,
  timer: null, check: null, board: null, over: null, notify: false, closing: false, retry: 0,
  bubbles: {},
  lastPlay: null,  // the newest card played (who, which card, at whom), highlighted on the table
  picked: null,    // the hand card (its type) whose options the action bar shows, if any
  pickedSeat: null, // ... and the target seat chosen for it, when that still leaves a choice
  acted: 0,        // the decision this page has answered (its choices are then disabled)
  away: false,     // this seat was opened in another window: no reconnecting until asked to
};
if (!I18N[S.locale]) S.locale = "en";

const $ = (id) => document.getElementById(id);
const t = (key) => (I18N[S.locale] || I18N.en)[key] || key;
// A word with its blanks ("Round {n}") filled in: tf("round", {n: 3}).
const tf = (key, vars) => t(key).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "style") e.style.cssText = v;  // CSSOM: allowed by the page's CSP
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 3500);
}
const tokenKey = (code) => "bangarena.seat." + code;
// Signals refused by the table's limits (harness/web/signal_board.py): told in the page's words, not as errors.
const SIGNAL_LIMITS = ["signal_too_fast", "signal_limit"];

// ------------------------------------------------------------------ socket
function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}
function connect(then) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => { S.retry = 0; if (then) then(); };
  ws.onmessage = (ev) => onFrame(JSON.parse(ev.data));
  ws.onclose = () => {
    if (S.ws !== ws || S.closing || S.away) return;
    if (!S.code) return;
    toast(t("disconnected"));
    S.retry = Math.min(S.retry + 1, 5);
    setTimeout(() => connect(rejoin), 500 * S.retry);
  };
}
function rejoin() {
  const token = S.code && localStorage.getItem(tokenKey(S.code));
  if (token) send({type: "join", code: S.code, token, locale: S.locale});
  else if (S.code) send({type: "watch", code: S.code, locale: S.locale});
}
function ensureSocket(then) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) then();
  else connect(then);
}

// ------------------------------------------------------------------ frames
function onFrame(f) {
  switch (f.type) {
    case "joined":
      S.code = f.code; S.seat = f.seat;
      if (f.token) localStorage.setItem(tokenKey(f.code), f.token);
      history.replaceState(null, "", (f.seat === null ? "/?watch=" : "/?room=") + f.code);
      break;
    case "room":
      S.room = f; S.seat = f.you; S.board = f.board;
      render();
      break;
    case "view":
      if (f.reset) { $("feed").replaceChildren(); $("options").shownKey = ""; S.check = null; S.over = null; $("over").open && $("over").close(); }
      if (f.decision !== S.decision || f.ask !== S.ask) { S.picked = null; S.pickedSeat = null; }
      S.ctx = f.ctx; S.decision = f.decision; S.ask = f.ask;
      if (f.reset) { S.lastPlay = f.last_play || null; S.acted = 0; }
      else if (f.last_play) S.lastPlay = f.last_play;
      S.timer = f.timer ? {...f.timer, at: performance.now()} : null;
      if (f.check && !f.reset) showCheck(f.check);
      for (const line of f.ctx.feed) $("feed").append(el("li", {}, ...ART.withIcons(line)));
      $("feed").scrollTop = $("feed").scrollHeight;
      if (f.ask) notifyTurn();
      render();
      break;
    case "over":
      S.over = f;
      showOver();
      break;
    case "signal":
      S.board = f.board;
      onSignal(f.signal);
      render();
      break;
    case "error":
      if (f.code === "replaced") { goAway(); break; }
      // a signal refused for going too fast or too often is a rule of the table, not an error
      toast(SIGNAL_LIMITS.includes(f.code) ? t(f.code) : `${t("err")}: ${f.message}`);
      if (f.code === "bad_token" || f.code === "no_room") {
        if (S.code) localStorage.removeItem(tokenKey(S.code));
        leaveToStart();
      }
      break;
    case "left":
      if (S.code && f.reason !== "left") localStorage.removeItem(tokenKey(S.code));
      leaveToStart();
      if (f.reason === "removed") notice(t("you_removed"));
      else if (f.message) notice(f.message);  // e.g. a lobby closed after its time
      break;
    case "notice":  // this seat was handed to a bot for good: the token holds it no more
      if (f.code === "replaced" && S.code) localStorage.removeItem(tokenKey(S.code));
      notice(f.code === "replaced" ? t("you_replaced") : f.message);
      break;
    case "note": {  // a person left, came back, was handed over, replaced or removed
      if (!S.code) break;
      const line = tf("note_" + f.what, {name: f.name});
      $("feed").append(el("li", {class: "note", text: line}));
      $("feed").scrollTop = $("feed").scrollHeight;
      if ($("table").hidden) toast(line);
      break;
    }
  }
}

// A message that stays on the page until the next one (a toast passes, this does not).
// The host hands a person's seat to the bot only after saying yes: the person loses their turns.
function confirmAutopilot(s) {
  const box = $("autopilot-confirm");
  box.dataset.seat = String(s.seat);
  $("autopilot-title").textContent = tf("autopilot_title", {name: s.name});
  $("autopilot-text").textContent = tf("autopilot_text", {name: s.name});
  if (!box.open) box.showModal();
}
// Join or Watch with no room code: say what is missing where it goes.
function askCode() {
  notice(t("code_needed"));
  $("in-code").focus();
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
  if (text) toast(text);
}

// The seat was opened in another window, which plays it now.  This window stays out (no
// reconnecting by itself, so two windows never take the seat from each other in turn) until the
// person takes the seat back here.
function goAway() {
  S.away = true;
  if (!$("away").open) $("away").showModal();
}
function comeBack() {
  S.away = false;
  $("away").close();
  connect(rejoin);
}

function watchRoom(code) {
  notice("");
  ensureSocket(() => send({type: "watch", code, locale: S.locale}));
}

function leaveToStart() {
  S.away = false;
  if ($("away").open) $("away").close();
  S.code = null; S.room = null; S.ctx = null; S.seat = null;
  history.replaceState(null, "", "/");
  render();
}

// ------------------------------------------------------------------ render
function show(screen) {
  for (const id of ["start", "lobby", "table"]) $(id).hidden = id !== screen;
}
function render() {
  translateStatic();
  if (!S.room) { show("start"); $("status").textContent = ""; $("speed").hidden = true; return; }
  const host = S.room.is_host;
  $("speed").hidden = !host;
  $("speed").value = S.room.speed;
  if (S.room.state === "lobby" || !S.ctx) { show("lobby"); renderLobby(); $("status").textContent = ""; return; }
  show("table");
  renderTable();
}

function translateStatic() {
  document.documentElement.lang = S.locale;
  document.documentElement.dir = t("dir");
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll("[data-title]")) e.title = t(e.dataset.title);
  const langs = $("in-locale");
  if (!langs.childElementCount) {
    for (const [loc, words] of Object.entries(I18N)) langs.append(el("option", {value: loc, lang: loc, text: words.language}));
  }
  langs.value = S.locale;
  $("in-code").placeholder = t("code");
  if (S.meta) fillStartSelects();
}

function fillSelect(sel, items) {
  const keep = sel.value;
  sel.replaceChildren(...items.map(([v, label]) => el("option", {value: v, text: label})));
  if (keep && items.some(([v]) => String(v) === keep)) sel.value = keep;
}
function fillStartSelects() {
  const m = S.meta;
  const seats = [];
  for (let n = m.seats[0]; n <= m.seats[1]; n++) seats.push([n, String(n)]);
  fillSelect($("in-seats"), seats);
  if (!$("in-seats").dataset.init) { $("in-seats").value = "5"; $("in-seats").dataset.init = "1"; }
  fillSelect($("in-mode"), m.modes.map((x) => [x.id, x.name[S.locale] || x.name.en]));
  fillSelect($("in-time"), m.decision_seconds.map((s) => [s, `${s} ${t("seconds")}`]));
  if (!$("in-time").dataset.init) { $("in-time").value = "30"; $("in-time").dataset.init = "1"; }
  const speeds = m.speeds.map((s) => [s, t("speed_" + s)]);
  fillSelect($("in-speed"), speeds);
  if (!$("in-speed").dataset.init) { $("in-speed").value = "normal"; $("in-speed").dataset.init = "1"; }
  fillSelect($("speed"), speeds);
  if (S.room) $("speed").value = S.room.speed;
  const box = $("reactions");
  if (!box.childElementCount) {
    for (const id of Object.keys(m.reactions)) {
      box.append(el("button", {class: "react", "data-reaction": id, title: id, "aria-label": id,
        onclick: () => send({type: "signal", kind: "react", reaction: id})}, ART.reaction(id)));
    }
  }
}

function badgeText(seat) {
  if (seat.kind === "person") return t("person") + (seat.autopilot ? ` · ${t("on_autopilot")}` : "") + (seat.connected === false ? ` · ${t("offline")}` : "");
  if (seat.kind === "bot") return t("bot");
  if (seat.kind === "model") return seat.model;
  return t("free");
}
// Who plays a seat: the kind's icon (drawn, no emoji font needed) and its words.
// (A fragment: the icon and the words go straight into the cell or badge that shows them.)
function badge(seat) {
  const kind = {person: "person", bot: "bot", model: "model"}[seat.kind];
  const out = document.createDocumentFragment();
  if (kind) out.append(ART.icon(kind));
  out.append(badgeText(seat));
  return out;
}

function renderLobby() {
  const r = S.room;
  $("room-code").textContent = r.code;
  const link = location.origin + r.link;
  $("room-link").textContent = link;
  $("room-link").href = link;
  const body = $("lobby-seats").tBodies[0];
  body.replaceChildren();
  for (const s of r.seats) {
    const tools = el("td", {class: "tools"});
    if (r.is_host && s.seat !== r.you) {
      if (s.kind === "empty") {
        const pick = el("select", {class: "pick"}, el("option", {value: "bot", text: t("bot")}),
          ...r.models.map((m) => el("option", {value: m.player, text: `${t("model")}: ${m.player} (${m.model})`})));
        tools.append(pick, el("button", {class: "seat-bot", text: t("seat_bot"),
          onclick: () => send({type: "seat_bot", seat: s.seat, player: pick.value})}));
      } else {
        if (s.kind === "person") tools.append(el("button", {class: "replace", text: t("replace"),
          onclick: () => send({type: "replace", seat: s.seat, player: "bot"})}));
        tools.append(el("button", {class: "remove", text: t("remove"),
          onclick: () => send({type: "remove", seat: s.seat})}));
      }
    }
    const who = s.kind === "empty" ? "—" : s.name;
    const notes = [s.seat === r.host ? t("host") : null, s.seat === r.you ? t("you") : null].filter(Boolean).join(t("list_sep"));
    body.append(el("tr", {"data-seat": s.seat},
      el("td", {text: tf("seat", {n: s.seat + 1})}), el("td", {class: "name", text: who}),
      el("td", {class: "kind"}, badge(s)), el("td", {class: "muted", text: notes}), tools));
  }
  $("btn-fill").hidden = $("btn-start").hidden = !r.is_host;
  $("lobby-note").textContent = r.is_host ? "" : t("waiting_host");
}

function statusLine(ctx) {
  const tb = ctx.table;
  const parts = [el("span", {text: tf("round", {n: tb.round})})];
  if (tb.high_noon) parts.push(el("span", {class: "noon"}, " · ", ART.icon("sun"), t("high_noon")));
  parts.push(el("span", {text: ` · ${t("turn")}: ${tb.turn_name}`}));
  const d = ctx.decision;
  if (d && d.seat !== tb.turn) parts.push(el("span", {class: "resp", text: ` · ${t("response")} · ${d.name}`}));
  return parts;
}

function renderTable() {
  const ctx = S.ctx, r = S.room;
  $("status").replaceChildren(...statusLine(ctx));
  const comp = ctx.table.composition.map((c) => `${c.role_name} ${c.count}`).join(t("list_sep"));
  $("you-line").replaceChildren(
    el("span", {text: ctx.you ? `${t("you_are")} ${ctx.you.name}${t("list_sep")}${ctx.you.role_name}` : t("spectating")}),
    el("span", {class: "comp", text: `${t("roles_at_table")}: ${comp} · ${ctx.table.mode_name}`}));
  for (const k of ctx.knowledge) $("you-line").append(el("div", {class: "muted", text: k.kind === "role" ? `${k.name}: ${k.role_name}` : k.names.join(" / ")}));
  renderRing(ctx, r);
  const tb = ctx.table;
  $("pile").textContent = `${t("deck")}: ${tb.deck} · ${t("discard")}: ${tb.discard}${tb.discard_top ? " · " + tb.discard_top : ""}`;
  renderCheck(ctx);
  renderLastPlay(ctx);
  renderDecision(ctx);
  $("hand-box").hidden = !ctx.you;
  renderHand(ctx);
  const seated = ctx.you !== null && r.seats[r.you] && r.seats[r.you].kind === "person";
  $("signals").hidden = !seated;
  $("btn-watch-back").hidden = seated;
  // claims and marks are about hidden roles: the Marshal claims nothing and is never marked
  for (const b of document.querySelectorAll("#signals .claim")) b.disabled = !(ctx.you && ctx.you.alive) || ctx.you.role === "marshal";
}

// The ring of seats is built once per table and then updated in place: a seat's box stays the
// same element (its click handler with it), and its contents are rebuilt only when what it shows
// changes, so a click on a portrait is never lost to a redraw.
function renderRing(ctx, r) {
  const ring = $("ring");
  const n = ctx.seats.length, me = ctx.you ? ctx.you.seat : 0;
  ring.dataset.seats = String(n);
  const d = ctx.decision;
  const marks = (S.board && S.board.marks) || [], claims = (S.board && S.board.claims) || [];
  const keep = new Set(ctx.seats.map((s) => String(s.seat)));
  for (const old of ring.querySelectorAll(".seat")) if (!keep.has(old.dataset.seat)) old.remove();
  for (const s of ctx.seats) {
    const k = (s.seat - me + n) % n;
    const a = Math.PI / 2 + (2 * Math.PI * k) / n;
    const x = 50 + 40 * Math.cos(a), y = 50 + 39 * Math.sin(a);
    let box = ring.querySelector(`.seat[data-seat="${s.seat}"]`);
    if (!box) {
      // A seat is a button: the target of the card picked in the action bar, else the mark menu.
      box = el("div", {"data-seat": s.seat, role: "button", tabindex: "0"});
      box.addEventListener("click", () => onSeat(s.seat));
      box.addEventListener("keydown", (ev) => {
        if (ev.target === box && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); onSeat(s.seat); }
      });
      ring.append(box);
    }
    const aim = aimAt(s.seat);
    const lp = S.lastPlay;
    box.className = ["seat", s.you ? "me" : "", s.seat === ctx.table.turn ? "turn" : "", d && d.seat === s.seat ? "deciding" : "", s.alive ? "" : "dead",
      aim.length ? "target" : "", lp && lp.seat === s.seat ? "last-by" : "", lp && lp.target === s.seat ? "last-at" : ""].join(" ").replace(/ +/g, " ").trim();
    // A seat one can aim at is named by what a click does; the others by all they show.
    if (aim.length) box.setAttribute("aria-label", aim.length === 1 ? aim[0].label : `${tf("target_of", {card: pickedName()})}: ${s.name}`);
    else box.removeAttribute("aria-label");
    box.style.left = `${x}%`;
    box.style.top = `${y}%`;
    box.style.order = String(k === 0 ? n : k);
    const meta = r.seats[s.seat] || {};
    const onMe = marks.filter((m) => m.target === s.seat).map((m) => [m.seat, m.role]);
    const claim = claims.find((c) => c.seat === s.seat);
    const host = r.is_host && meta.kind === "person" && s.seat !== r.you && r.state === "playing" && s.alive;
    const shown = JSON.stringify([s, meta.kind, meta.model, meta.autopilot, meta.connected, onMe, claim ? claim.role : null,
      S.bubbles[s.seat] || null, S.timer && S.timer.seat === s.seat, host, S.locale]);
    if (box.shownKey === shown) continue;
    box.shownKey = shown;
    box.replaceChildren(...seatContents(ctx, s, meta, onMe, claim, host));
  }
  tickTimer();
}

function seatContents(ctx, s, meta, onMe, claim, host) {
  const out = [];
  if (onMe.length) out.push(el("div", {class: "marks"}, ...onMe.map(([by, role]) => el("span", {text: `${ctx.seats[by].name}: ${t("claim_" + role)}`}))));
  out.push(el("div", {class: "head"}, ART.portrait(s.character, s.character_name),
    el("div", {class: "idn"},
      el("div", {class: "who"}, el("span", {class: "nm", text: s.name}), el("span", {class: "badge"}, badge(meta))),
      el("div", {class: "char", text: s.character_name}))));
  out.push(el("div", {class: "ability", text: s.ability}));
  const stat = (cls, title, iconName, text) => el("span", {class: cls, title}, ART.icon(iconName), text);
  const stats = el("div", {class: "stats"},
    stat("hp", "♥", "heart", `${s.hp}/${s.max_hp}`), stat("cards", t("hand_cards"), "cards", String(s.hand)));
  if (s.distance !== null) stats.append(stat("dist", t("distance"), "distance", String(s.distance)));
  stats.append(stat("range", t("range"), "range", String(s.range)));
  if (s.stars) stats.append(el("span", {class: "stars", title: s.upgrade_names.join(", ")}, ...Array.from({length: s.stars}, () => ART.icon("star"))));
  out.push(stats);
  const inPlay = [s.weapon, ...s.in_play].filter(Boolean);
  if (inPlay.length) out.push(el("div", {class: "play", text: inPlay.join(" · ")}));
  if (s.role_name) out.push(el("div", {class: "role", text: s.role_name + (s.alive ? "" : ` · ${t("eliminated")}`)}));
  if (claim) out.push(el("div", {class: "claimed muted", text: `${t("claims")}: ${t("claim_" + claim.role)}`}));
  if (S.bubbles[s.seat]) out.push(el("div", {class: "bubble"}, ART.reaction(S.bubbles[s.seat])));
  if (S.timer && S.timer.seat === s.seat) out.push(el("div", {class: "timer", text: "…"}));
  if (host) {
    const on = S.room.seats[s.seat].autopilot;
    out.push(el("button", {class: "autopilot", text: on ? t("autopilot_off") : t("autopilot_on"),
      onclick: (ev) => { ev.stopPropagation(); if (on) send({type: "autopilot", seat: s.seat, on: false}); else confirmAutopilot(s); }}));
  }
  return out;
}

// Your hand: one card face per card (name, rank and suit, a pictogram, the effect in full).  Each
// is a button: a card with options now picks it for the action bar (or plays it at once, when it
// has one option and no target).
function renderHand(ctx) {
  const box = $("hand");
  const hand = ctx.hand;
  const live = S.ask && S.acted !== S.decision;
  const usable = hand.map((c) => live && optionsOfCard(cardType(c.card)).length > 0);
  const shown = JSON.stringify([hand, usable, S.picked]);
  if (box.shownKey === shown) return;
  box.shownKey = shown;
  box.replaceChildren(...hand.map((c, i) => {
    const type = cardType(c.card);
    const face = ART.cardFace(c.card, c.label, c.effect, "button");
    face.classList.add("card");
    if (usable[i]) face.classList.add("playable");
    if (S.picked === type) face.classList.add("picked");
    face.title = c.effect;
    face.setAttribute("aria-pressed", String(S.picked === type));
    face.disabled = !usable[i];
    face.addEventListener("click", () => onCard(type));
    return face;
  }));
}

// The last card played, in the centre (who, the card, at whom), until the next play; its player
// and target are marked on their seats (renderRing).
function renderLastPlay(ctx) {
  const box = $("last-play"), lp = S.lastPlay;
  const by = lp && ctx.seats[lp.seat];
  box.hidden = !by;
  const shown = JSON.stringify([lp, S.locale]);
  if (!by || box.shownKey === shown) return;
  box.shownKey = shown;
  const at = lp.target !== null && lp.target !== undefined ? ctx.seats[lp.target] : null;
  const arrow = t("dir") === "rtl" ? " ← " : " → ";
  box.replaceChildren(el("small", {text: t("last_play")}),
    el("div", {class: "what"}, ART.pictogram(ART.parseFace(lp.card).type),
      el("span", {text: `${by.name}: ${lp.label}${at ? arrow + at.name : ""}`})));
}

// ------------------------------------------------------------------ the action bar
// The bar at the bottom of the screen holds the decision: its header (and your time left) for
// everyone, and for the person asked a few numbered choices — the options that need no card, one
// entry per card in hand (its option, or "Card…" when it has several), and after a card is
// picked, that card's options; the seats it can aim at are highlighted and clickable.  Every
// option is also in the full list under the choices.  Option ids are read by their grammar only
// ("verb:card@seat/extra", harness/engine/actions.py): the page computes no rules.
const CARD_VERBS = new Set(["play", "dodge", "match", "discard"]);
const cardType = (face) => String(face).split(".")[0];
function optionCard(id) {
  const m = /^([a-z]+):([a-z_]+)/.exec(id);
  return m && CARD_VERBS.has(m[1]) && S.ctx.hand.some((c) => cardType(c.card) === m[2]) ? m[2] : null;
}
function optionTarget(id) {
  const m = /@(\d+)/.exec(id);
  return m ? Number(m[1]) : null;
}
function liveOptions() {
  const d = S.ctx && S.ctx.decision;
  return d && S.ask && S.acted !== S.decision ? d.options : [];
}
const optionsOfCard = (type) => liveOptions().filter((o) => optionCard(o.id) === type);
// The options a click on ``seat`` chooses from: the picked card's aimed at it, or (no card
// picked) those that need no card and name it, as drawing from a player's hand.
const aimAt = (seat) => (S.picked ? optionsOfCard(S.picked) : liveOptions().filter((o) => optionCard(o.id) === null))
  .filter((o) => optionTarget(o.id) === seat);
function pickedName() {
  const c = S.ctx.hand.find((h) => cardType(h.card) === S.picked);
  return c ? cardName(c) : "";
}
const cardName = (c) => ART.faceName(c.card, c.label);

function act(id) {
  if (!liveOptions().some((o) => o.id === id)) return;
  S.acted = S.decision;
  S.picked = null; S.pickedSeat = null;
  send({type: "act", decision: S.decision, option: id});
  renderTable();
}
function pick(type) {
  S.picked = type; S.pickedSeat = null;
  renderTable();
}
function onCard(type) {
  const opts = optionsOfCard(type);
  if (!opts.length) return;
  if (S.picked === type) pick(null);
  else if (opts.length === 1 && optionTarget(opts[0].id) === null) act(opts[0].id);
  else pick(type);
}
function onSeat(seat) {
  const aim = aimAt(seat);
  if (aim.length === 1) act(aim[0].id);
  else if (aim.length) { S.pickedSeat = seat; renderTable(); }
  else if (!S.picked) {  // with a card picked, a seat it cannot aim at does nothing
    const now = S.ctx && S.ctx.seats.find((x) => x.seat === seat);
    if (now) openMark(now);
  }
}

// The bar's choices now: [{label, id}] acts, [{label, pick}] picks a card.
function choices() {
  const opts = liveOptions();
  if (S.picked) {
    return optionsOfCard(S.picked).filter((o) => S.pickedSeat === null || optionTarget(o.id) === S.pickedSeat)
      .map((o) => ({label: o.label, id: o.id}));
  }
  const out = [], cards = new Set();
  for (const o of opts) {
    const type = optionCard(o.id);
    if (type === null) out.push({label: o.label, id: o.id});
    else if (!cards.has(type)) {
      cards.add(type);
      const mine = optionsOfCard(type);
      const c = S.ctx.hand.find((h) => cardType(h.card) === type);
      out.push(mine.length === 1 && optionTarget(o.id) === null ? {label: o.label, id: o.id} : {label: `${cardName(c)} …`, pick: type});
    }
  }
  return out;
}

function renderDecision(ctx) {
  const d = ctx.decision;
  const bar = $("decision");
  bar.hidden = !d;
  if (!d) { $("choices").shownKey = $("options").shownKey = ""; return; }
  bar.classList.toggle("theirs", !S.ask);
  // Headers of one's own decisions speak to the decider ("Your turn: …"); others see who decides.
  const own = d.yours || d.kind.startsWith("respond");
  const header = S.picked && S.ask ? tf("choose_target", {card: pickedName()}) : own ? d.header : tf("deciding", {name: d.name});
  $("decision-text").textContent = header;
  // Rebuilt only when what they show changes, so a click is not lost to a redraw.
  const live = S.ask && S.acted !== S.decision;
  const list = choices();
  const shown = JSON.stringify([S.decision, S.ask, live, list, S.locale]);
  if ($("choices").shownKey !== shown) {
    $("choices").shownKey = shown;
    const buttons = list.map((c, i) => el("button", {class: c.pick ? "choice pick" : "choice", "data-id": c.id, "data-card": c.pick,
      "aria-keyshortcuts": i < 9 ? String(i + 1) : null, disabled: !live,
      onclick: () => (c.pick ? pick(c.pick) : act(c.id))}, i < 9 ? el("kbd", {text: String(i + 1)}) : null, c.label));
    if (S.picked && live) buttons.push(el("button", {class: "cancel", "aria-keyshortcuts": "Escape", onclick: () => pick(null)}, el("kbd", {text: "Esc"}), t("cancel")));
    $("choices").replaceChildren(...buttons);
  }
  // Every option, in the server's order: the same choices as one plain list.
  const all = S.ask ? d.options : [];
  const full = JSON.stringify([S.decision, live, all]);
  $("all-options").hidden = !all.length;
  $("all-options-summary").textContent = tf("all_options", {n: all.length});
  if ($("options").shownKey !== full) {
    $("options").shownKey = full;
    $("options").replaceChildren(...all.map((o) => el("li", {}, el("button", {class: "option", "data-id": o.id, text: o.label,
      disabled: !live, onclick: () => act(o.id)}))));
  }
}

// Number keys choose the bar's choices; Escape puts a picked card back.
function onKey(ev) {
  if (ev.ctrlKey || ev.altKey || ev.metaKey || !S.ctx || $("table").hidden) return;
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  if (document.querySelector("dialog[open]")) return;
  if (ev.key === "Escape" && S.picked) { ev.preventDefault(); pick(null); return; }
  if (!/^[1-9]$/.test(ev.key)) return;
  const b = $("choices").querySelectorAll("button.choice")[Number(ev.key) - 1];
  if (b && !b.disabled) { ev.preventDefault(); b.click(); }
}

// The check card (or Cover coin) in the centre: shown when its check happens, cleared a moment
// later so it never stands for a later check.
const CHECK_SHOWN_MS = 3500;
function showCheck(check) {
  S.check = check;
  clearTimeout(showCheck.timer);
  showCheck.timer = setTimeout(() => { if (S.check === check) { S.check = null; if (S.ctx) renderCheck(S.ctx); } }, CHECK_SHOWN_MS);
}
function renderCheck(ctx) {
  const cc = $("check-card");
  if (!S.check) { cc.hidden = true; cc.replaceChildren(); return; }
  cc.hidden = false;
  const who = ctx.seats[S.check.seat] ? ctx.seats[S.check.seat].name : "";
  const what = S.check.label ? ART.cardFace(S.check.card, S.check.label)
    : el("div", {class: "coin", text: S.check.coin ? t("coin_ok") : t("coin_bad")});
  cc.replaceChildren(el("small", {text: `${t("check")} · ${who}`}), what);
}

// The time left to decide: at the deciding seat, and in the action bar of the person asked.
function tickTimer() {
  const box = document.querySelector(".seat .timer"), mine = $("decision-timer");
  const left = S.timer ? `${Math.ceil(Math.max(0, S.timer.left - (performance.now() - S.timer.at) / 1000))} ${t("seconds")}` : "";
  if (box && S.timer) box.textContent = left;
  const me = S.ctx && S.ctx.you;
  mine.textContent = S.ask && me && S.timer && S.timer.seat === me.seat ? left : "";
}
setInterval(tickTimer, 250);

// ------------------------------------------------------------------ signals
let markTarget = null;
function openMark(s) {
  const ctx = S.ctx;
  if (!ctx || !ctx.you || !ctx.you.alive || s.you || !s.alive || s.role || $("signals").hidden) return;
  markTarget = s.seat;
  $("mark-title").textContent = tf("mark_title", {name: s.name});
  $("mark-menu").showModal();
}
function onSignal(sig) {
  if (sig.kind === "react") {
    const id = sig.reaction;
    S.bubbles[sig.seat] = id;
    setTimeout(() => { if (S.bubbles[sig.seat] === id) delete S.bubbles[sig.seat]; if (S.ctx) renderTable(); }, 4000);
  }
}

// ------------------------------------------------------------------ game over
// A player's decisions; the moves not their own: a person's made by the bot (timeouts, autopilot),
// a model's fallbacks.
function decisionsCell(p) {
  if (!p.fallbacks || p.kind === "bot") return String(p.decisions);
  return `${p.decisions} (${p.kind === "person" ? tf("summary_by_bot", {n: p.fallbacks}) : `${p.fallbacks} ${t("summary_fallbacks")}`})`;
}
const OVER_STATS = ["shots", "hits", "dealt", "taken", "heals", "played", "eliminations"];
function showOver() {
  const f = S.over;
  $("over-headline").textContent = f.headline;
  const heads = ["col_result", "col_player", "col_role", "col_character", "stars", "col_played_by", "col_decisions",
    ...OVER_STATS.map((k) => "st_" + k)];
  $("over-players").tHead.replaceChildren(el("tr", {}, ...heads.map((k) => el("th", {scope: "col", "data-col": k, text: t(k)}))));
  const body = $("over-players").tBodies[0];
  body.replaceChildren(...f.players.map((p) => el("tr", {class: p.won ? "won" : ""},
    el("td", {}, p.won ? ART.icon("star") : null, p.won ? t("won") : t("lost")), el("td", {text: p.name}),
    el("td", {class: "role", text: p.role_name}), el("td", {class: "character"}, ART.portrait(p.character, p.character_name), p.character_name),
    el("td", {title: (p.upgrade_names || []).join(", ")}, ...(p.stars ? Array.from({length: p.stars}, () => ART.icon("star")) : ["—"])),
    el("td", {}, badge({kind: p.kind, model: p.player})),
    el("td", {text: decisionsCell(p)}),
    ...OVER_STATS.map((k) => el("td", {class: "num", "data-stat": k, text: String(p.stats ? p.stats[k] : "—")})))));
  $("btn-again").hidden = !(S.room && S.room.is_host);
  if (!$("over").open) $("over").showModal();
}

// ------------------------------------------------------------------ library
async function openLibrary(tab) {
  const lib = await (await fetch(`/api/library/${S.locale}`)).json();
  const body = $("library-body");
  tab = tab || "cards";
  if (tab === "rules") body.replaceChildren(el("pre", {text: lib.rules}));
  else if (tab === "cards") body.replaceChildren(el("table", {}, el("tbody", {}, ...lib.cards.map((c) =>
    el("tr", {"data-card": c.id}, el("td", {}, ART.pictogram(c.id)), el("td", {}, el("b", {text: c.name})), el("td", {text: `×${c.copies}`}), el("td", {text: c.effect}))))));
  else body.replaceChildren(el("table", {}, el("tbody", {}, ...lib.characters.map((c) =>
    el("tr", {"data-character": c.id}, el("td", {}, ART.portrait(c.id, c.name)), el("td", {}, el("b", {text: c.name})),
      el("td", {class: "hp"}, ART.icon("heart"), String(c.hp)), el("td", {text: c.ability}))))));
  body.dataset.tab = tab;
  if (!$("library").open) $("library").showModal();
}

// ------------------------------------------------------------------ notifications
function notifyTurn() {
  if (!S.notify) return;
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification("BangArena", {body: t("your_move")});
  }
  document.title = `● ${t("your_move")} — BangArena`;
  setTimeout(() => { document.title = "BangArena"; }, 4000);
}

// ------------------------------------------------------------------ start screen
function settings() {
  return {seats: Number($("in-seats").value), mode: $("in-mode").value,
    decision_seconds: Number($("in-time").value), speed: $("in-speed").value};
}
function playerName() {
  const name = $("in-name").value.trim() || t("guest");
  localStorage.setItem("bangarena.name", name);
  return name;
}
function wire() {
  for (const e of document.querySelectorAll("[data-icon]")) e.replaceChildren(ART.icon(e.dataset.icon));
  $("start-form").addEventListener("submit", (ev) => ev.preventDefault());
  // any button of the start screen clears the last notice (removed, replaced, left)
  $("start").addEventListener("click", (ev) => { if (ev.target.tagName === "BUTTON") notice(""); }, true);
  $("btn-play").onclick = () => ensureSocket(() => send({type: "create", name: playerName(), settings: settings(), locale: S.locale, play: true}));
  $("btn-create").onclick = () => ensureSocket(() => send({type: "create", name: playerName(), settings: settings(), locale: S.locale}));
  $("btn-join").onclick = () => {
    const code = $("in-code").value.trim().toUpperCase();
    if (!code) { askCode(); return; }
    const token = localStorage.getItem(tokenKey(code));
    ensureSocket(() => send(token ? {type: "join", code, token, locale: S.locale}
                                   : {type: "join", code, name: playerName(), locale: S.locale}));
  };
  $("btn-watch").onclick = () => ensureSocket(() => send({type: "watch", settings: settings(), locale: S.locale}));
  $("btn-watch-code").onclick = () => {
    const code = $("in-code").value.trim().toUpperCase();
    if (code) watchRoom(code);
    else askCode();
  };
  $("autopilot-yes").onclick = () => {
    const seat = Number($("autopilot-confirm").dataset.seat);
    $("autopilot-confirm").close();
    send({type: "autopilot", seat, on: true});
  };
  $("autopilot-no").onclick = () => $("autopilot-confirm").close();
  $("btn-fill").onclick = () => send({type: "fill_bots"});
  $("btn-start").onclick = () => send({type: "start"});
  $("btn-again").onclick = () => { $("over").close(); send({type: "start"}); };
  $("over-close").onclick = () => $("over").close();
  const leave = (keepSeat) => {
    const code = S.code;
    send({type: "leave"});
    if (code && !keepSeat) localStorage.removeItem(tokenKey(code));
    leaveToStart();
    notice(keepSeat ? tf("left_seat", {code}) : "");
    if (keepSeat) $("in-code").value = code;
  };
  // Mid-game a person's ← Back asks first: the bot then plays the seat until they come back.
  const back = () => {
    const r = S.room, mine = r && S.seat !== null && r.seats[S.seat];
    if (r && r.state === "playing" && mine && mine.kind === "person") $("leave-confirm").showModal();
    else leave(false);
  };
  $("btn-back").onclick = back;
  $("btn-table-back").onclick = back;
  $("btn-watch-back").onclick = back;
  $("leave-yes").onclick = () => { $("leave-confirm").close(); leave(true); };
  $("leave-no").onclick = () => $("leave-confirm").close();
  $("btn-share").onclick = async () => {
    const link = $("room-link").href;
    try { await navigator.clipboard.writeText(link); toast(t("copied")); } catch (e) { toast(link); }
  };
  $("speed").onchange = () => send({type: "speed", speed: $("speed").value});
  $("in-locale").onchange = () => {
    S.locale = $("in-locale").value;
    localStorage.setItem("bangarena.locale", S.locale);
    send({type: "locale", locale: S.locale});
    render();
  };
  $("btn-notify").onclick = () => {
    S.notify = !S.notify;
    $("btn-notify").classList.toggle("on", S.notify);
    if (S.notify && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
  };
  $("btn-focus").onclick = () => { document.body.classList.toggle("focus"); $("btn-focus").classList.toggle("on"); };
  $("btn-library").onclick = () => openLibrary("cards");
  for (const b of document.querySelectorAll("#library .tabs button[data-tab]")) b.onclick = () => openLibrary(b.dataset.tab);
  $("library-close").onclick = () => $("library").close();
  for (const b of document.querySelectorAll("#signals .claim")) b.onclick = () => send({type: "signal", kind: "claim", role: b.dataset.role});
  for (const b of document.querySelectorAll("#mark-menu .mark")) b.onclick = () => {
    send({type: "signal", kind: "mark", target: markTarget, role: b.dataset.role});
    $("mark-menu").close();
  };
  $("mark-close").onclick = () => $("mark-menu").close();
  $("away-back").onclick = comeBack;
  $("away-start").onclick = () => { leaveToStart(); };
  $("away").addEventListener("cancel", (ev) => ev.preventDefault());  // Escape does not dismiss it
  document.addEventListener("keydown", onKey);
  // The pinned action bar's height, kept free at the bottom of the page (--bar-h).
  new ResizeObserver(() => {
    document.body.style.setProperty("--bar-h", `${$("decision").hidden ? 0 : $("decision").offsetHeight}px`);
  }).observe($("decision"));
}

async function main() {
  wire();
  $("in-name").value = localStorage.getItem("bangarena.name") || "";
  S.meta = await (await fetch("/api/meta")).json();
  render();
  const params = new URLSearchParams(location.search);
  const watching = params.get("watch");
  if (watching) { watchRoom(watching.toUpperCase()); return; }
  const code = params.get("room");
  if (code) {
    const up = code.toUpperCase();
    $("in-code").value = up;
    if (localStorage.getItem(tokenKey(up))) { S.code = up; connect(rejoin); }
  }
}
main();
