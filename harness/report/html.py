"""``bangarena report RUN``: a self-contained offline HTML report with a replay viewer.

Layout of the output folder (default ``RUN/report``)::

    index.html          summary (win-rate chart with Wilson intervals as inline SVG, fallback and
                        cost rates, sides per table), the game list, the viewer shell; CSS and JS
                        inlined from ``harness/report/static``; no external scripts, fonts or CDNs
    games/<id>.js       one file per game, loaded only when the game is opened, by injecting a
                        ``<script>`` tag (``fetch()`` of ``file://`` is blocked in Chrome); it calls
                        ``BangReport.gameLoaded({...})``

All text comes from the jinja2 templates in ``prompts/report`` (the page) and the engine's own
narration and label templates (events, options, cards).  Every step of a game is precomputed
here, so the JavaScript only draws: the per-game payload (:func:`game_payload`) holds

* ``players`` — per seat: table name, league player, kind, model, character, ability, role;
* ``events`` — the narrated event log; an event everyone saw alike is one string, a private one is
  ``[public text, {seat: text of that recipient}, omniscient text]``;
* ``steps`` — one per decision, then the end: ``e`` (events before the step), ``x`` (the state
  keys that changed since the previous step: ``t`` table, ``s<i>`` public seat, ``h<i>`` hand,
  ``v<i>`` what seat i alone knows — distances, known roles, deck top, cards looked at — each
  taken from ``build_view(game, i)``), and ``d`` (the decision: seat, kind, header, labelled
  options, choice, fallback, and for model seats the record: messages, attempts with raw answers
  and reasoning, tokens, cost); header, option ids and labels and the choice are indices into
  ``strs``, the game's string table;
* ``prompts`` — the system prompts (by sha256) that the game's model decisions used.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from harness.engine import EngineError, SeatView, build_view, filter_event, parse_action
from harness.engine.roles import ROLE_NAMES
from harness.paths import PROMPTS_DIR
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, RunStore
from harness.replay.verify import omniscient_event, replay_records, replay_steps, seat_names
from harness.views.names import (
    card_label,
    character_ability,
    character_name,
    mode_name,
    role_name,
    upgrade_name,
)
from harness.views.narrate import Narrator
from harness.views.options import decision_header, option_label

from .summary import Summary, load_config, summarize

__all__ = ["ReportResult", "build_report", "game_file_name", "game_payload", "render_index"]

TEMPLATES = PROMPTS_DIR / "report"
STATIC = Path(__file__).resolve().parent / "static"
PALETTE = ("#3b6ea8", "#c8553d", "#3f8f5a", "#8a5fb0", "#c49a1a", "#2f8f8f", "#b0476e", "#6b6b6b")
PARALLEL_MIN_GAMES = 40
_SAFE_ID = re.compile(r"[A-Za-z0-9_.-]{1,120}")


@dataclass(frozen=True)
class ReportResult:
    """Where the report went and what it cost to build."""

    out_dir: Path
    index: Path
    games: int
    bytes: int
    seconds: float
    warnings: list[str]


# ----------------------------------------------------------------------------- templates


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        autoescape=select_autoescape(("html", "html.j2", "svg.j2")),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = lambda x: f"{100 * x:.1f} %"
    env.filters["usd"] = lambda x: f"${x:,.4f}" if x < 100 else f"${x:,.2f}"
    env.filters["num"] = lambda x: f"{x:,}"
    return env


def _static(name: str) -> str:
    text = (STATIC / name).read_text(encoding="utf-8")
    if "</script" in text.lower() or "</style" in text.lower():
        raise ValueError(f"static/{name} must not contain a closing script or style tag")
    return text


def game_file_name(game_id: str) -> str:
    """``<id>.js`` for plain ids, else a hash (ids become file names)."""
    if _SAFE_ID.fullmatch(game_id) and not game_id.startswith("."):
        return f"{game_id}.js"
    return "g" + hashlib.sha1(game_id.encode("utf-8")).hexdigest()[:16] + ".js"


# ----------------------------------------------------------------------------- per game


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Labels:
    """Localized labels, memoised (cards repeat a lot)."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self._cards: dict[str, str] = {}
        self._upgrades: dict[str, str] = {}

    def card(self, face: str | None) -> str | None:
        if face is None:
            return None
        label = self._cards.get(face)
        if label is None:
            label = self._cards[face] = card_label(face, self.locale)
        return label

    def cards(self, faces: Sequence[str]) -> list[str]:
        return [self.card(f) or "" for f in faces]

    def upgrades(self, ids: Sequence[str]) -> list[str]:
        out = []
        for u in ids:
            label = self._upgrades.get(u)
            if label is None:
                label = self._upgrades[u] = upgrade_name(u, self.locale)
            out.append(label)
        return out


def _state(views: Sequence[SeatView], labels: _Labels) -> dict[str, Any]:
    """The state keys of one step, each from the seats' own views."""
    n = len(views)
    v0 = views[0]
    out: dict[str, Any] = {
        "t": [
            v0.round,
            v0.turn,
            v0.phase,
            v0.shots_used,
            v0.deck_size,
            v0.discard_size,
            labels.card(v0.discard_top),
            v0.high_noon,
        ],
    }
    for i in range(n):
        # A seat's public face, as another seat sees it (its own view would show its role).
        ps = views[(i + 1) % n].seats[i]
        out[f"s{i}"] = [
            ps.hp,
            ps.max_hp,
            ps.hand_size,
            labels.cards(ps.in_play),
            labels.card(ps.weapon),
            ps.weapon_range,
            labels.upgrades(ps.upgrades),
            ps.alive,
            ps.role,
        ]
        v = views[i]
        out[f"h{i}"] = labels.cards(v.hand)
        out[f"v{i}"] = {
            "dist": [s.distance for s in v.seats],
            "kr": {str(k): r for k, r in sorted(v.known_roles.items())},
            "mp": list(v.marshal_pair) if v.marshal_pair else None,
            "top": labels.cards(v.known_deck_top),
            "look": labels.cards(v.looking),
        }
    return out


def _model_info(m: dict[str, Any]) -> dict[str, Any]:
    return {
        "label": f"{m.get('provider')}/{m.get('model')}",
        "mode": m.get("answer_mode"),
        "sys": m.get("system_prompt_sha256"),
        "msgs": m.get("messages", []),
        "att": [
            {
                "raw": a.get("raw_text"),
                "tool": a.get("tool_arguments"),
                "rsn": a.get("reasoning"),
                "ek": a.get("error_kind"),
                "em": a.get("error_message"),
                "lat": a.get("latency_s", 0.0),
                "tok": [
                    (a.get("tokens") or {}).get(k, 0)
                    for k in ("input", "cached_input", "output", "reasoning")
                ],
                "c": bool(a.get("cached")),
            }
            for a in m.get("attempts", [])
        ],
        "parsed": m.get("parsed_choice"),
        "reason": m.get("reason"),
        "fb": m.get("fallback"),
        "pol": m.get("fallback_policy"),
        "lat": m.get("latency_s", 0.0),
        "tok": [
            m.get("input_tokens", 0),
            m.get("cached_input_tokens", 0),
            m.get("output_tokens", 0),
            m.get("reasoning_tokens", 0),
        ],
        "cost": m.get("cost_usd"),
        "cached": bool(m.get("cached")),
    }


class _Strings:
    """A per-game string table: option ids, labels and headers repeat from step to step."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        i = self._index.get(text)
        if i is None:
            i = self._index[text] = len(self.items)
            self.items.append(text)
        return i


def _decision(
    d: DecisionLine, view: SeatView, names: Sequence[str], locale: str, strs: _Strings
) -> dict[str, Any]:
    pv = view.pending
    header = decision_header(pv.kind, pv.context, view, names, locale) if pv else d.decision_kind
    opts = []
    for oid in d.options:
        try:
            label = option_label(parse_action(oid), d.decision_kind, view, names, locale)
        except Exception:  # an option the labeller does not know: show its id
            label = oid
        opts.append([strs(oid), strs(label)])
    out: dict[str, Any] = {
        "i": d.index,
        "s": d.seat,
        "k": d.decision_kind,
        "h": strs(header),
        "o": opts,
        "c": strs(d.chosen),
        "lat": round(d.latency_s, 4),
    }
    if d.fallback:
        out["fb"] = d.fallback
    if d.error:
        out["err"] = d.error
    if d.model:
        out["m"] = _model_info(d.model)
    return out


def _narrate(events: Sequence[dict[str, Any]], narrator: Narrator) -> list[Any]:
    out: list[Any] = []
    for e in events:
        to = e.get("to")
        if to is None:
            out.append(narrator.line(e))
            continue
        private = {str(r): narrator.line(filter_event(e, r)) for r in to}
        out.append(
            [narrator.line(filter_event(e, -1)), private, narrator.line(omniscient_event(e))]
        )
    return out


def game_payload(
    start: GameStart,
    decisions: list[DecisionLine],
    end: GameEnd,
    prompts: dict[str, str],
    locale: str = "en",
) -> dict[str, Any]:
    """Everything the viewer shows of one game (see the module docstring)."""
    names = seat_names(start)
    labels = _Labels(locale)
    strs = _Strings()
    steps: list[dict[str, Any]] = []
    prev: dict[str, Any] = {}
    game = None
    matches = True  # every decision's seat and options as recorded
    try:
        for st in replay_steps(start, decisions):
            game = st.game
            views = [build_view(game, s, since=len(game.events)) for s in range(game.n)]
            state = _state(views, labels)
            delta = {k: v for k, v in state.items() if prev.get(k) != v}
            prev = state
            step: dict[str, Any] = {"e": len(game.events), "x": delta}
            d = st.decision
            if d is not None:
                p = game.pending
                matches = (
                    matches and p is not None and (p.seat, p.option_ids) == (d.seat, d.options)
                )
                step["d"] = _decision(d, views[d.seat], names, locale, strs)
            steps.append(step)
    except EngineError:
        game = None
    warn = None
    complete = matches and len(steps) == len(decisions) + 1
    if game is None or not complete or _dumps(game.events) != _dumps(end.events):
        warn = replay_records(start, decisions, end).summary()  # names the first difference
    if game is None:  # cannot even deal the game
        return {
            "id": start.game_id,
            "warn": warn,
            "steps": [],
            "events": [],
            "players": [],
            "prompts": {},
            "roles": {},
            "strs": [],
        }
    by_seat = {s.seat: s for s in start.seating}
    players = []
    for s in game.seats:
        sp = by_seat.get(s.index)
        players.append(
            {
                "name": names[s.index],
                "player": sp.player if sp else "?",
                "kind": sp.kind if sp else "?",
                "model": sp.model if sp else None,
                "char": character_name(s.character, locale),
                "ability": character_ability(s.character, locale),
                "role": s.role,
            }
        )
    used = {
        str(d.model["system_prompt_sha256"])
        for d in decisions
        if d.model and d.model.get("system_prompt_sha256")
    }
    return {
        "id": start.game_id,
        "mode": mode_name(start.mode, locale),
        "seats": start.seats,
        "seed": start.seed,
        "result": {"side": end.winning_side, "winners": end.winners, "rounds": end.rounds},
        "warn": warn,
        "players": players,
        "roles": {r: role_name(r, locale) for r in ROLE_NAMES},
        "events": _narrate(game.events, Narrator(names, locale)),
        "steps": steps,
        "strs": strs.items,
        "prompts": {sha: prompts[sha] for sha in sorted(used) if sha in prompts},
    }


def game_script(payload: dict[str, Any]) -> str:
    """The ``games/<id>.js`` text: one call handing the payload to the page."""
    data = _dumps(payload).replace("</", "<\\/")
    return f"BangReport.gameLoaded({data});\n"


def _write_game(job: tuple[str, str, str, str]) -> tuple[str, int, str | None]:
    """Worker: write one game's script; returns (game id, bytes, warning)."""
    run_dir, game_id, out_path, locale = job
    store = RunStore(Path(run_dir))
    start, decisions, end = store.read_game(game_id)
    prompts = _prompts_of(run_dir)
    payload = game_payload(start, decisions, end, prompts, locale)
    text = game_script(payload)
    Path(out_path).write_text(text, encoding="utf-8")
    return game_id, len(text.encode("utf-8")), payload.get("warn")


@lru_cache(maxsize=2)
def _prompts_of(run_dir: str) -> dict[str, str]:
    return {p["sha256"]: p["text"] for p in RunStore(Path(run_dir)).system_prompts()}


# ----------------------------------------------------------------------------- summary page


def win_rate_chart(summary: Summary) -> dict[str, Any]:
    """Geometry of the player × role win-rate chart (bars, 95 % Wilson whiskers, ticks)."""
    label_w, plot_w, right_w, row_h, top = 190, 420, 150, 22, 28
    colors = {p.player: PALETTE[i % len(PALETTE)] for i, p in enumerate(summary.players)}
    rows = []
    y = top
    last_role = None
    groups = []
    for r in summary.role_rates:
        if r.role != last_role:
            if last_role is not None:
                y += 8
            groups.append({"y": y + 14, "role": r.role})
            y += row_h
            last_role = r.role
        lo, hi = r.interval
        rows.append(
            {
                "y": y,
                "cy": y + row_h / 2,
                "player": r.player,
                "role": r.role,
                "games": r.games,
                "wins": r.wins,
                "rate": r.rate,
                "lo": lo,
                "hi": hi,
                "w": round(plot_w * r.rate, 1),
                "xlo": round(label_w + plot_w * lo, 1),
                "xhi": round(label_w + plot_w * hi, 1),
                "color": colors.get(r.player, PALETTE[-1]),
            }
        )
        y += row_h
    ticks = [{"x": round(label_w + plot_w * t / 100, 1), "pct": t} for t in range(0, 101, 25)]
    return {
        "width": label_w + plot_w + right_w,
        "height": y + 10,
        "label_w": label_w,
        "plot_w": plot_w,
        "top": top,
        "rows": rows,
        "groups": groups,
        "ticks": ticks,
        "colors": colors,
    }


def _game_row(g: GameRecord, file: str) -> dict[str, Any]:
    outs = sorted(g.seat_outcomes, key=lambda o: o.seat)
    return {
        "id": g.game_id,
        "file": f"games/{file}",
        "seats": g.seats,
        "mode": g.mode,
        "side": g.winning_side,
        "rounds": g.rounds,
        "decisions": g.decisions,
        "fallbacks": g.fallbacks,
        "cost": g.cost_usd,
        "models": any(o.kind == "model" for o in outs),
        "lineup": [{"player": o.player, "role": o.role, "won": o.won} for o in outs],
    }


def standings(run_dir: Path) -> list[dict[str, Any]]:
    """Ratings (openskill, bootstrap 95 % intervals) and role-adjusted scores per player, from
    the league's own statistics (:mod:`harness.league.ratings`, :mod:`harness.league.stats`)."""
    from harness.league.ratings import compute_ratings
    from harness.league.stats import load_run, role_adjusted

    seats = load_run(run_dir).seats
    adjusted = {r["player"]: r for r in role_adjusted(seats).to_dict("records")}
    out = []
    for r in compute_ratings(seats).to_dict("records"):
        a = adjusted.get(r["player"], {})
        row = {**r, "score": a.get("score"), "score_lo": a.get("ci_lo"),
               "score_hi": a.get("ci_hi"), "expected": a.get("expected")}  # fmt: skip
        # an interval that cannot be computed (one game) is None, shown as "–", never "nan"
        for k in ("score", "score_lo", "score_hi", "expected"):
            if isinstance(row[k], float) and row[k] != row[k]:
                row[k] = None
        out.append(row)
    return out


def render_index(
    summary: Summary,
    rows: list[dict[str, Any]],
    locale: str,
    warnings: Sequence[str],
    ratings: Sequence[dict[str, Any]] = (),
) -> str:
    """The ``index.html`` text."""
    env = environment()
    return env.get_template("index.html.j2").render(
        s=summary,
        ratings=ratings,
        chart=win_rate_chart(summary),
        games=rows,
        locale=locale,
        roles={r: role_name(r, locale) for r in ROLE_NAMES},
        warnings=list(warnings),
        css=_static("report.css"),
        js=_static("report.js"),
        generated=time.strftime("%Y-%m-%d %H:%M"),
    )


# ----------------------------------------------------------------------------- build


def build_report(
    run_dir: str | Path,
    out_dir: str | Path | None = None,
    *,
    locale: str = "en",
    workers: int | None = None,
) -> ReportResult:
    """Write the report of ``run_dir`` to ``out_dir`` (default ``run_dir/report``).

    Games are written in worker processes when there are many (``workers`` defaults to the
    number of CPUs).  Raises :class:`harness.records.store.RecordError` for a broken run folder.
    """
    t0 = time.monotonic()
    _prompts_of.cache_clear()
    run = Path(run_dir)
    out = Path(out_dir) if out_dir is not None else run / "report"
    store = RunStore(run)
    games = store.games()
    config = load_config(run)
    name = str(config.get("name")) if config and config.get("name") else run.name
    summary = summarize(name, games, config, run)  # run: model decisions, calls and flags
    games_dir = out / "games"
    if games_dir.exists():
        shutil.rmtree(games_dir)
    games_dir.mkdir(parents=True)
    files = {g.game_id: game_file_name(g.game_id) for g in games}
    jobs = [(str(run), gid, str(games_dir / f), locale) for gid, f in files.items()]
    n_workers = workers or os.cpu_count() or 1
    total = 0
    warnings: list[str] = []
    if n_workers > 1 and len(jobs) >= PARALLEL_MIN_GAMES:
        with ProcessPoolExecutor(max_workers=n_workers) as pool:
            results = list(pool.map(_write_game, jobs, chunksize=8))
    else:
        results = [_write_game(j) for j in jobs]
    for _gid, size, warn in results:
        total += size
        if warn:
            warnings.append(warn)
    rows = [_game_row(g, files[g.game_id]) for g in games]
    index = out / "index.html"
    html = render_index(summary, rows, locale, warnings, standings(run) if games else [])
    index.write_text(html, encoding="utf-8")
    total += len(html.encode("utf-8"))
    return ReportResult(out, index, len(games), total, time.monotonic() - t0, warnings)
