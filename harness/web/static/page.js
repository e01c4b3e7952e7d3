// The BangArena table page.  It renders what the server sends — the render context of this
// connection's own view — and sends option ids, signals and host requests.  It holds no game
// state of its own and computes no rules.
//
// Its scripts, plain scripts sharing one global scope, in the order index.html loads them:
// i18n.js (the page's words), art.js (its pictures), page.js (this: the page's state and small
// helpers), socket.js (the socket and its frames), screens.js (the start and lobby screens),
// table.js (drawing the table), actionbar.js (the action bar and its keys), dialogs.js (game
// over, the library, notifications) and main.js (the buttons wired, then the start).
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
