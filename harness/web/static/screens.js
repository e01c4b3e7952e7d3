// The table page's screens: which one shows, the page's own words, the start form's choices,
// who plays a seat (badges) and the lobby.
"use strict";

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
