"""Table signals (RULES.md §10) as one rule set for people and model seats.

A signal is a canned public message: a role **claim** ("I am a Deputy / Raider / Loner", bluffing
allowed), a **mark** on another living player with the role the sender suspects, or a
**reaction**.  Claims and marks only while the sender is alive, and only about hidden roles: a
seat whose role is public (the Marshal; RULES.md §9) claims nothing and is never marked
(:func:`public_seats`); at most :data:`MAX_PER_MATCH` signals per seat and match.  People are also held to one signal per 1.2 s (the web table's
board); a model seat may add at most one signal to an answer, so at most one per decision.

:func:`check_signal` is the rule check both share.  :func:`read_signal` reads the optional
``signal`` object of a model's answer (the answer format is in ``prompts/system.<locale>.j2``);
:class:`TableSignals` is the public log of one game played by the table runner when a league
turns signals on: it takes each model decision's signal (or records why it was refused, never
touching the decision's choice) and hands every seat the signals it has not heard yet.  Signals
are public: every seat hears every accepted signal, its own included; nothing of the engine's
hidden state enters one — a signal holds only the fields its sender chose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from harness.engine import SPECTATOR, Game
from harness.engine.view import public_role

from .seat_protocol import Agent

__all__ = [
    "CLAIM_ROLES",
    "MAX_PER_MATCH",
    "REACTIONS",
    "SIGNAL_KINDS",
    "SignalRefused",
    "TableSignal",
    "TableSignals",
    "check_signal",
    "public_seats",
    "read_signal",
]

MAX_PER_MATCH = 60
SIGNAL_KINDS = ("claim", "mark", "react")
CLAIM_ROLES = ("deputy", "raider", "loner")
REACTIONS = ("like", "funny", "angry", "scared", "deal", "suspect", "gg")
MAX_NAME_CHARS = 64  # a target longer than any seat name is refused without being kept


def public_seats(game: Game) -> list[bool]:
    """By seat: whether everyone at the table sees its role (the Marshal, eliminated players;
    RULES.md §9) — a role nobody can claim or mark."""
    return [public_role(s, SPECTATOR) is not None for s in game.seats]


def _public(public: Sequence[bool], seat: int | None) -> bool:
    return seat is not None and 0 <= seat < len(public) and public[seat]


class SignalRefused(ValueError):
    """A signal that breaks a rule; ``code`` is a stable word, the message one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_signal(
    seat: int,
    kind: str,
    *,
    n_seats: int,
    alive: bool,
    sent: int,
    role: str | None = None,
    target: int | None = None,
    reaction: str | None = None,
    target_alive: bool = True,
    public: Sequence[bool] = (),
) -> None:
    """Raise :class:`SignalRefused` when ``seat`` (``alive``, ``sent`` signals so far) may not
    send this signal; return quietly when it may.  ``public``: by seat, whether its role is
    public (:func:`public_seats`)."""
    if sent >= MAX_PER_MATCH:
        raise SignalRefused("signal_limit", f"at most {MAX_PER_MATCH} signals per match")
    if kind not in SIGNAL_KINDS:
        raise SignalRefused("bad_signal", "a signal is a claim, a mark or a reaction")
    if kind in ("claim", "mark") and not alive:
        raise SignalRefused("eliminated", "claims and marks only while you are in the game")
    if kind == "claim":
        if role is None or target is not None or reaction is not None:
            raise SignalRefused("bad_signal", "a claim names a role and nothing else")
    elif kind == "mark":
        if role is None or target is None or reaction is not None:
            raise SignalRefused("bad_signal", "a mark names a player and a role")
        if not 0 <= target < n_seats or target == seat:
            raise SignalRefused("bad_signal", "a mark names another player at the table")
        if not target_alive:
            raise SignalRefused("bad_signal", "that player is out of the game")
    elif reaction is None or role is not None or target is not None:
        raise SignalRefused("bad_signal", "a reaction names a reaction and nothing else")
    _check_words(role, reaction)
    if kind == "claim" and _public(public, seat):
        raise SignalRefused("public_role", "your role is public: a claim is about a hidden role")
    if kind == "mark" and _public(public, target):
        raise SignalRefused("public_role", "that player's role is public: a mark is about a "
                            "hidden role")  # fmt: skip


def _check_words(role: str | None, reaction: str | None) -> None:
    """A role and a reaction come from the signals' fixed words."""
    if role is not None and role not in CLAIM_ROLES:
        raise SignalRefused("bad_signal", f"a role is one of {', '.join(CLAIM_ROLES)}")
    if reaction is not None and reaction not in REACTIONS:
        raise SignalRefused("bad_signal", f"a reaction is one of {', '.join(REACTIONS)}")


class TableSignal(BaseModel):
    """A signal as a model sent it, its target resolved to a seat (kept in the decision record)."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    role: str | None = None
    target: int | None = None
    reaction: str | None = None


def read_signal(raw: Any, names: Sequence[str]) -> TableSignal:
    """The ``signal`` object of a model's answer as a :class:`TableSignal`; ``target`` names a
    player exactly as listed in ``names``.  Raises :class:`SignalRefused` (code ``bad_signal``)
    with the reason when the object is not a signal or names a role or reaction that is not one;
    the game's state (alive, limits) is checked later by :class:`TableSignals`."""
    if not isinstance(raw, Mapping):
        raise SignalRefused("bad_signal", "the signal is not a JSON object")
    extra = [str(k)[:20] for k in raw if k not in ("kind", "role", "target", "reaction")]
    if extra:
        shown = ", ".join(sorted(extra)[:5]) + (", …" if len(extra) > 5 else "")
        raise SignalRefused("bad_signal", f"the signal has unknown fields: {shown}")
    values = {k: raw.get(k) for k in ("kind", "role", "target", "reaction")}
    for key, value in values.items():
        if value is not None and not isinstance(value, str):
            raise SignalRefused("bad_signal", f'the signal\'s "{key}" is not a string')
    kind = values["kind"]
    if kind not in SIGNAL_KINDS:
        raise SignalRefused("bad_signal", f"the signal's kind is one of {', '.join(SIGNAL_KINDS)}")
    _check_words(values["role"], values["reaction"])  # so a kept signal holds only those words
    target: int | None = None
    name = values["target"]
    if name is not None:
        if len(name) > MAX_NAME_CHARS or name not in names:
            raise SignalRefused("bad_signal", "the signal's target is not a player's name")
        target = list(names).index(name)
    return TableSignal(kind=kind, role=values["role"], target=target, reaction=values["reaction"])


@dataclass
class TableSignals:
    """The public signals of one game at the table runner (see the module docstring).

    ``log`` holds every accepted signal as a public event ``{"t": "signal", "seat", "kind",
    ["role"], ["target"], ["reaction"], "at"}``, ``at`` being the number of engine events before
    it; the feed narrates it (``prompts/events.<locale>.j2``)."""

    n_seats: int
    log: list[dict[str, Any]] = field(default_factory=list)
    _sent: dict[int, int] = field(default_factory=dict)
    _heard: dict[int, int] = field(default_factory=dict)

    def offer(
        self,
        seat: int,
        alive: list[bool],
        at: int,
        record: Any,
        public: Sequence[bool] | None = None,
    ) -> None:
        """Take the signal of ``seat``'s model decision ``record`` (a decision record or its
        dict), if any: accepted into the log, or refused with the reason written to the record's
        ``signal_refused``.  ``alive`` and ``public`` (:func:`public_seats`) are by seat, ``at``
        the engine events so far."""
        if record is None:
            return
        get = record.get if isinstance(record, Mapping) else lambda k: getattr(record, k, None)
        raw = get("signal")
        if raw is None or get("signal_refused") is not None:
            return
        sig = raw if isinstance(raw, TableSignal) else TableSignal.model_validate(raw)
        try:
            check_signal(
                seat,
                sig.kind,
                n_seats=self.n_seats,
                alive=alive[seat],
                sent=self._sent.get(seat, 0),
                role=sig.role,
                target=sig.target,
                reaction=sig.reaction,
                target_alive=sig.target is None or alive[sig.target],
                public=public or (),
            )
        except SignalRefused as refused:
            if isinstance(record, Mapping):
                return  # a recorded decision: its refusal is in the record already
            record.signal_refused = f"{refused.code}: {refused}"
            return
        self._sent[seat] = self._sent.get(seat, 0) + 1
        event: dict[str, Any] = {"t": "signal", "seat": seat, "kind": sig.kind}
        for key in ("role", "target", "reaction"):
            value = getattr(sig, key)
            if value is not None:
                event[key] = value
        event["at"] = at
        self.log.append(event)

    def unheard(self, seat: int) -> list[dict[str, Any]]:
        """The signals ``seat`` has not been handed yet (and marks them heard)."""
        start = self._heard.get(seat, 0)
        self._heard[seat] = len(self.log)
        return [dict(e) for e in self.log[start:]]

    def tell(self, seat: int, agent: Agent) -> None:
        """Hand ``agent`` (at ``seat``) the signals it has not heard yet."""
        new = self.unheard(seat)
        if new:
            agent.hear(new)
