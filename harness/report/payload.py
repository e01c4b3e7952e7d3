"""The per-game data of the HTML report's replay viewer (``games/<id>.js``).

:func:`game_payload` replays a recorded game through the engine and precomputes every step, so
the page's JavaScript only draws.  The payload holds

* ``players`` — per seat: table name, league player, kind, model, character (its id ``cid``
  for the portrait, and its name), ability, role;
* ``cards`` — every card face the states name (``shot.QH``): its label and effect, localized;
  the states hold faces, so the viewer draws each card with the web table's art
  (``harness/web/static/art.js``);
* ``events`` — the narrated event log; an event everyone saw alike is one string, a private one is
  ``[public text, {seat: text of that recipient}, omniscient text]``;
* ``steps`` — one per decision, then the end: ``e`` (events before the step), ``x`` (the state
  keys that changed since the previous step: ``t`` table, ``s<i>`` public seat, ``h<i>`` hand,
  ``v<i>`` what seat i alone knows — distances, known roles, deck top, cards looked at — each
  taken from ``build_view(game, i)``), and ``d`` (the decision: seat, kind, header, labelled
  options, choice, fallback, and for model seats the record: messages, attempts with raw answers
  and reasoning, tokens, cost); header, option ids and labels and the choice are indices into
  ``strs``, the game's string table;
* ``prompts`` — the system prompts (by sha256) that the game's model decisions used;
* with a move analysis (``bangarena analyze``): ``wp`` — ``[step, seat, value of the chosen
  option, label]`` per analysed decision — and ``acc`` — per analysed seat, its decisions, mean
  accuracy and counts of inaccuracies, mistakes and blunders.

**Speed.**  Everything a seat sees comes from :func:`~harness.engine.build_view`, but a seat's
own view is rebuilt only when something it reads may have changed: its private signature
(:func:`_private_signature`: its hand, what it knows, the deck top it put back, the cards it looks
at, and everything distances depend on) differs from the previous step.  The deciding seat's view
is always rebuilt (its options are labelled from it), and the public table is read from any one
view (a seat's own view shows its own role, which its public face leaves out unless revealed).
Option labels and decision headers are memoised on the values their templates read, option ids
parsed once, and an event's line narrated once per distinct event.  ``exact=True`` rebuilds every view at
every step and renders every label; the tests check that both give the same payload.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from harness.engine import EngineError, Game, SeatView, build_view, filter_event, parse_action
from harness.engine.roles import ROLES
from harness.engine.view import PublicSeat
from harness.records import DecisionLine, GameEnd, GameStart
from harness.replay.verify import omniscient_event, replay_records, replay_steps, seat_names
from harness.views.names import (
    card_effect,
    card_label,
    character_ability,
    character_name,
    mode_name,
    role_name,
    upgrade_name,
)
from harness.views.narrate import Narrator
from harness.views.option_labels import decision_header, option_label

__all__ = ["dumps", "game_payload", "game_script"]


def dumps(value: Any) -> str:
    """Compact JSON, UTF-8 kept as is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Labels:
    """Cards by face (``shot.QH``), each named once in the game's card table (label and
    effect, localized); upgrades by name; both memoised (cards repeat a lot)."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self._cards: dict[str, list[str]] = {}
        self._upgrades: dict[str, str] = {}
        self._faces: dict[PublicSeat, list[Any]] = {}

    def table(self) -> dict[str, list[str]]:
        """Every card face the game's states name: ``[label, effect]``."""
        return dict(sorted(self._cards.items()))

    def face(self, ps: PublicSeat) -> list[Any]:
        """A seat's public face as the page reads it (the distance is not part of it)."""
        out = self._faces.get(ps)
        if out is None:
            out = self._faces[ps] = [
                ps.hp,
                ps.max_hp,
                ps.hand_size,
                self.cards(ps.in_play),
                self.card(ps.weapon),
                ps.weapon_range,
                self.upgrades(ps.upgrades),
                ps.alive,
                ps.role,
            ]
        return out

    def card(self, face: str | None) -> str | None:
        if face is None:
            return None
        if face not in self._cards:
            self._cards[face] = [card_label(face, self.locale), card_effect(face, self.locale)]
        return face

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


class _Decisions:
    """Decision headers and option labels of one game, memoised (``memo``) on what their
    templates read (:func:`harness.views.option_labels.option_label`: the action, the decision kind,
    the target's distance and hand size, and for a draw the discard top; the names are the
    game's; :func:`decision_header`: kind, context and the viewer)."""

    def __init__(self, names: Sequence[str], locale: str, strs: _Strings, memo: bool) -> None:
        self.names = names
        self.locale = locale
        self.strs = strs
        self.memo = memo
        self._labels: dict[tuple[Any, ...], int] = {}
        self._headers: dict[tuple[Any, ...], int] = {}
        self._actions: dict[str, Any] = {}  # option id -> its Action (None: not an action)

    def label(self, oid: str, kind: str, view: SeatView) -> int:
        a = self._actions.get(oid, False)
        if a is False:
            try:
                a = parse_action(oid)
            except Exception:  # an option the engine does not know: show its id
                a = None
            self._actions[oid] = a
        if a is None:
            return self.strs(oid)
        t = view.seats[a.target] if 0 <= a.target < len(view.seats) else None
        # only a draw from the discard pile names the discard top
        top = view.discard_top if a.verb == "draw" else None
        key = (oid, kind, t.distance if t else None, t.hand_size if t else 0, top)
        i = self._labels.get(key) if self.memo else None
        if i is None:
            try:
                text = option_label(a, kind, view, self.names, self.locale)
            except Exception:  # an option the labeller does not know: show its id
                text = oid
            i = self._labels[key] = self.strs(text)
        return i

    def header(self, d: DecisionLine, view: SeatView) -> int:
        pv = view.pending
        if pv is None:
            return self.strs(d.decision_kind)
        key = (pv.kind, tuple(sorted(pv.context.items())), view.viewer)
        i = self._headers.get(key) if self.memo else None
        if i is None:
            text = decision_header(pv.kind, pv.context, view, self.names, self.locale)
            i = self._headers[key] = self.strs(text)
        return i


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
                    _reported((a.get("tokens") or {}).get(k, 0))
                    for k in ("input", "cached_input", "output", "reasoning")
                ],
                "fr": a.get("finish_reason"),
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
            _reported(m.get("cached_input_tokens", 0)),
            m.get("output_tokens", 0),
            m.get("reasoning_tokens", 0),
        ],
        "cost": m.get("cost_usd"),
        "cached": bool(m.get("cached")),
    }


def _decision(d: DecisionLine, view: SeatView, labels: _Decisions) -> dict[str, Any]:
    strs = labels.strs
    out: dict[str, Any] = {
        "i": d.index,
        "s": d.seat,
        "k": d.decision_kind,
        "h": labels.header(d, view),
        "o": [[strs(oid), labels.label(oid, d.decision_kind, view)] for oid in d.options],
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


def _narrate(events: Sequence[dict[str, Any]], narrator: Narrator, exact: bool) -> list[Any]:
    """The event log as text; a private event is narrated as its recipients and an omniscient
    reader see it — the same text (every recipient is shown the whole secret part), so it is
    narrated once unless ``exact``."""
    out: list[Any] = []
    memo: dict[str, str] = {}  # a line is a function of its event: events repeat (turns, draws)

    def line(e: dict[str, Any]) -> str:
        if exact:
            return narrator.line(e)
        key = repr(e)
        text = memo.get(key)
        if text is None:
            text = memo[key] = narrator.line(e)
        return text

    for e in events:
        to = e.get("to")
        if to is None:
            out.append(line(e))
            continue
        full = line(omniscient_event(e))
        private = {str(r): line(filter_event(e, r)) if exact else full for r in to}
        out.append([line(filter_event(e, -1)), private, full])
    return out


def _private_signature(game: Game, seat: int, table: tuple[Any, ...]) -> tuple[Any, ...]:
    """Everything ``build_view(game, seat)`` reads for that seat's own part of the view (hand,
    distances, known roles, the pair told to the Marshal, the deck top it put back, the cards it
    is looking at); ``table`` is what every seat's distances depend on."""
    me = game.seats[seat]
    k = len(me.known_top)
    d = game.pending
    # the cards it looks at are in its view only while it decides what to put back
    looking = (
        tuple(game.looking) if d is not None and d.seat == seat and d.kind == "putback" else ()
    )
    return (
        table,
        me.alive,
        tuple(me.hand),
        tuple(sorted(me.known_roles.items())),
        me.marshal_pair,
        tuple(me.known_top),
        tuple(game.deck[-k:]) if k else (),
        looking,
    )


def _views(
    game: Game, since: int, decider: int | None, prev: list[Any], every_view: bool
) -> dict[int, SeatView]:
    """The views to (re)build at this step, by seat (see the module docstring)."""
    n = game.n
    if every_view:
        return {i: build_view(game, i, since=since) for i in range(n)}
    table = tuple((s.alive, s.horse_bonus, s.has_scope) for s in game.seats)
    wanted: list[int] = []
    for i in range(n):
        sig = _private_signature(game, i, table)
        if sig != prev[i]:
            prev[i] = sig
            wanted.append(i)
    if decider is not None and decider not in wanted:
        wanted.append(decider)
    if not wanted:  # the public table needs one seat's view
        wanted.append(0)
    return {i: build_view(game, i, since=since) for i in wanted}


def _public_face(ps: PublicSeat) -> PublicSeat:
    """A seat's public face as every other seat sees it: its own view shows its role, the
    others only a revealed one (the Marshal's, an eliminated player's; RULES.md §9)."""
    if ps.role is None or ps.role == "marshal" or not ps.alive:
        return ps
    return replace(ps, role=None)


def _state(views: dict[int, SeatView], n: int, labels: _Labels) -> dict[str, Any]:
    """The state keys this step's views give: the table, every seat's public face, and the
    private keys of the seats whose views were rebuilt."""
    a = next(iter(views.values()))
    out: dict[str, Any] = {
        "t": [
            a.round,
            a.turn,
            a.phase,
            a.shots_used,
            a.deck_size,
            a.discard_size,
            labels.card(a.discard_top),
            a.high_noon,
        ],
    }
    for i in range(n):
        ps = a.seats[i]
        out[f"s{i}"] = labels.face(_public_face(ps) if i == a.viewer else ps)
    for i, v in views.items():
        out[f"h{i}"] = labels.cards(v.hand)
        out[f"v{i}"] = {
            "dist": [s.distance for s in v.seats],
            "kr": {str(k): r for k, r in sorted(v.known_roles.items())},
            "mp": list(v.marshal_pair) if v.marshal_pair else None,
            "top": labels.cards(v.known_deck_top),
            "look": labels.cards(v.looking),
        }
    return out


def game_payload(
    start: GameStart,
    decisions: list[DecisionLine],
    end: GameEnd,
    prompts: dict[str, str],
    locale: str = "en",
    *,
    exact: bool = False,
    analysis: Any = None,
) -> dict[str, Any]:
    """Everything the viewer shows of one game (see the module docstring); ``exact`` rebuilds
    every view at every step and renders every label (the tests compare both ways)."""
    names = seat_names(start)
    labels = _Labels(locale)
    strs = _Strings()
    decision_labels = _Decisions(names, locale, strs, memo=not exact)
    steps: list[dict[str, Any]] = []
    prev: dict[str, Any] = {}
    signatures: list[Any] = [None] * start.seats
    game = None
    matches = True  # every decision's seat and options as recorded
    # move analysis (harness.analysis.run_moves.MovesLine): option values per analysed decision
    analysed = {m.index: m for m in analysis.decisions} if analysis is not None else {}
    graph: list[list[Any]] = []  # [step, seat, chosen option's value, label] per analysed one
    try:
        for st in replay_steps(start, decisions):
            game = st.game
            d = st.decision
            since = len(game.events)
            views = _views(game, since, d.seat if d else None, signatures, exact)
            state = _state(views, game.n, labels)
            delta = {k: v for k, v in state.items() if prev.get(k) != v}
            prev.update(state)
            step: dict[str, Any] = {"e": since, "x": delta}
            if d is not None:
                p = game.pending
                matches = (
                    matches and p is not None and (p.seat, p.option_ids) == (d.seat, d.options)
                )
                step["d"] = _decision(d, views[d.seat], decision_labels)
                if (move := analysed.get(d.index)) is not None:
                    step["d"]["a"] = _analysis(move)
                    graph.append(
                        [
                            len(steps),
                            d.seat,
                            round(move.values[move.options.index(move.chosen)], 4),
                            move.label,
                        ]
                    )
            steps.append(step)
    except EngineError:
        game = None
    warn = None
    complete = matches and len(steps) == len(decisions) + 1
    if game is None or not complete or dumps(game.events) != dumps(end.events):
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
            "cards": {},
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
                "cid": s.character,
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
        "roles": {r: role_name(r, locale) for r in ROLES},
        "events": _narrate(game.events, Narrator(names, locale), exact),
        "steps": steps,
        "models": any(
            "d" in s and "m" in s["d"] and s["d"]["m"]["att"] for s in steps
        ),  # a model was called at some step: the viewer offers "next model decision"
        "strs": strs.items,
        "cards": labels.table(),
        "prompts": {sha: prompts[sha] for sha in sorted(used) if sha in prompts},
        **({"wp": graph, "acc": _accuracy(analysed.values())} if graph else {}),
    }


def _accuracy(moves: Any) -> dict[str, list[Any]]:
    """Per analysed seat: ``[decisions, mean accuracy (0–100), inaccuracies, mistakes,
    blunders]`` — the player header of the viewer (the league's move table takes the same mean
    over decisions: :mod:`harness.runs.move_tables`)."""
    by_seat: dict[int, list[Any]] = {}
    for m in moves:
        by_seat.setdefault(m.seat, []).append(m)
    out = {}
    for seat, ms in sorted(by_seat.items()):
        labels = [m.label for m in ms]
        out[str(seat)] = [
            len(ms),
            round(sum(m.accuracy for m in ms) / len(ms), 1),
            *(labels.count(x) for x in ("inaccuracy", "mistake", "blunder")),
        ]
    return out


def _analysis(move: Any) -> dict[str, Any]:
    """One analysed decision for the viewer: each option's value, the label, the loss and (schema
    3) the loss's standard error."""
    out = {"v": [round(v, 4) for v in move.values], "l": move.label, "loss": round(move.loss, 4)}
    if getattr(move, "loss_se", None) is not None:
        out["se"] = round(move.loss_se, 4)
    return out


def game_script(payload: dict[str, Any]) -> str:
    """The ``games/<id>.js`` text: one call handing the payload to the page."""
    data = dumps(payload).replace("</", "<\\/")
    return f"BangReport.gameLoaded({data});\n"


NOT_REPORTED = "n/a"


def _reported(count: Any) -> Any:
    """A token count as shown: ``n/a`` when the provider did not report it (``None``)."""
    return NOT_REPORTED if count is None else count
