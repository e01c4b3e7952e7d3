"""Human labels of options and the one-line header of a decision (jinja2 macros per locale in
``prompts/options.<locale>.j2``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.engine import Action, SeatView
from harness.paths import PROMPTS_DIR

from .names import card_label, card_name, reason_name, upgrade_name

# Decision-context fields that name a seat (the others are counts or words).
SEAT_FIELDS = frozenset({"attacker", "target", "challenger", "current", "seat", "victim"})


@lru_cache(maxsize=8)
def _module(locale: str) -> Any:
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR), undefined=StrictUndefined, autoescape=False
    )
    env.globals.update(
        card=lambda f: card_label(f, locale),
        cardname=lambda t: card_name(t, locale),
        upgrade=lambda u: upgrade_name(u, locale),
        why=lambda w: reason_name(w, locale),
    )
    return env.get_template(f"options.{locale}.j2").make_module()


def option_label(
    a: Action, kind: str, view: SeatView, names: Sequence[str], locale: str = "en"
) -> str:
    m = _module(locale)
    target = view.seats[a.target] if a.target >= 0 else None
    return str(
        m.label(
            a=a,
            kind=kind,
            name=names[a.target] if target else "",
            distance=target.distance if target else None,
            hand=target.hand_size if target else 0,
            discard_top=view.discard_top,
        )
    ).strip()


def decision_header(
    kind: str, context: dict[str, Any], view: SeatView, names: Sequence[str], locale: str = "en"
) -> str:
    m = _module(locale)
    ctx_names = {k: names[v] for k, v in context.items() if k in SEAT_FIELDS}
    seat = view.pending.seat if view.pending is not None else view.viewer
    who = None if seat == view.viewer else names[seat]  # someone else's decision
    return str(
        m.header(kind=kind, c=context, n=ctx_names, you=view.viewer, pending=view.pending, who=who)
    ).strip()
