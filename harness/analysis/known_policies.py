"""Which seats and decisions of a recorded game were played by a known policy.

A luck-adjusted score (:mod:`.luck`) corrects the choices of known policies as well as chance.
From a game's records:

* a seat of kind ``bot`` is a rule bot (policy ``"rulebot"``).  League tables and web tables
  start it as ``RuleBot(name)`` with ``new_game(game_id, seat, game seed)`` and show it every view
  of its seat, which :func:`.luck.luck_adjust` reproduces from the game's seed; its exact ties
  depend on its views only, not on its name or tie-break generator;
* a seat of kind ``random`` chooses uniformly (policy ``"uniform"``);
* every other seat (a model, a person, an agent) is of unknown policy, but some of its
  decisions were made by an **autopilot**: a rule bot of its own, shown every view of the seat
  from the start of the game.  Those decisions are :attr:`KnownPolicies.autopilot`:

  - a model or external-agent seat's own fallback with policy ``autopilot`` (its decision record
    has ``fallback`` set and ``fallback_policy: autopilot``; the seat's bot observes every view
    it is given);
  - a table fallback (the seat did not hand in its own: late, raised or not an option) in a run
    whose ``config.json`` says ``fallback: autopilot`` (the table's bot observes every view of
    the seat);
  - at a web table, a decision recorded as fallback ``autopilot`` (the host's autopilot, or the
    rest of a turn after a timeout) or ``spending_cap`` (the seat's bot after the spending cap).

  Not counted, so kept as unknown policy: R-5 fallbacks (one deterministic move: the same
  correction as an unknown choice); a model seat's own autopilot decisions at a web seat started
  by a person (the model took the seat over mid-game, so its bot did not see every view) or after
  the seat's first ``spending_cap`` decision (the model, and so its bot, was not shown the views
  decided by the cap); a seat handed to the bot at a web table (its moves are not marked as
  fallbacks in the record).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from harness.agents.seat import FallbackReason
from harness.records.record_models import DecisionLine, GameStart

from .luck import Policy

# kinds whose seat object is asked (or shown) every decision of its seat from the game's start
_SEAT_PROGRAMS = ("model", "agent", "remote", "mcp", "inspect")
_TABLE_FALLBACKS = get_args(FallbackReason)  # the table stepped in: late, raised, not an option
_WEB_BOT_FALLBACKS = ("autopilot", "spending_cap")


class _RunFallback(BaseModel):
    """The one field of a run's ``config.json`` read here."""

    model_config = ConfigDict(extra="ignore")
    fallback: Literal["simplest", "autopilot"] = "simplest"


def table_fallback(run_dir: str | Path) -> str | None:
    """The run's table fallback policy from its ``config.json`` (``None`` when there is none
    or it cannot be read: table fallbacks are then left as unknown policy)."""
    try:
        text = (Path(run_dir) / "config.json").read_text(encoding="utf-8")
        return _RunFallback.model_validate(json.loads(text)).fallback
    except (OSError, ValueError, ValidationError):
        return None


@dataclass(frozen=True)
class KnownPolicies:
    policies: list[Policy]  # per seat
    autopilot: list[int]  # decisions (0-based) an autopilot rule bot made


def known_policies(
    start: GameStart, decisions: Sequence[DecisionLine], fallback: str | None
) -> KnownPolicies:
    """The policies of ``start``'s seats and the autopilot decisions among ``decisions``;
    ``fallback`` is the run's table fallback policy (:func:`table_fallback`)."""
    kinds = {p.seat: p.kind for p in start.seating}
    policies: list[Policy] = []
    for s in range(start.seats):
        kind = kinds.get(s)
        policies.append(
            "rulebot" if kind == "bot" else "uniform" if kind == "random" else "unknown"
        )
    autopilot: list[int] = []
    capped: set[int] = set()
    for i, d in enumerate(decisions):
        if d.fallback is None or len(d.options) < 2 or policies[d.seat] != "unknown":
            continue
        kind = kinds.get(d.seat)
        own = d.model.get("fallback") if d.model else None
        if d.fallback in _WEB_BOT_FALLBACKS and not d.model:
            autopilot.append(i)
            if d.fallback == "spending_cap":
                capped.add(d.seat)
        elif kind not in _SEAT_PROGRAMS:
            continue
        elif own is not None:
            assert d.model is not None
            if d.model.get("fallback_policy") == "autopilot" and d.seat not in capped:
                autopilot.append(i)
        elif fallback == "autopilot" and d.fallback in _TABLE_FALLBACKS:
            autopilot.append(i)
    return KnownPolicies(policies, autopilot)
