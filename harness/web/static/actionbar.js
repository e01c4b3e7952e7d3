// The table page's action bar: the decision, its numbered choices and full option list, picking
// a card and its target, and the keys that choose.
"use strict";

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
