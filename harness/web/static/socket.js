// The table page's socket and its frames: what each frame from the server does to the page,
// and the notices, leaving and "opened in another window" that frames lead to.
"use strict";

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
