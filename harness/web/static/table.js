// Drawing the table: the status line, the ring of seats, your hand, the last card played, the
// check card, the time left to decide, and the signals (marks, reactions) shown on seats.
"use strict";

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
