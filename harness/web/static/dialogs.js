// The table page's dialogs filled from the server: the game-over summary and the library; and
// the notification of one's turn.
"use strict";

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
