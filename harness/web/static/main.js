// The table page's start: the buttons and keys wired to what they do, then the page opened on
// the room (or the watch) of its address.
"use strict";

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
