"""The render context of a seat view: every fact a renderer shows, with localized labels.

Markdown and JSON are both made from this one dict, so they always carry the same content.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.engine import SeatView, parse_action

from .names import (
    card_effect,
    card_label,
    character_ability,
    character_name,
    mode_name,
    role_name,
    upgrade_name,
)
from .narrate import Narrator
from .option_labels import decision_header, option_label

SCHEMA_VERSION = 1


def view_context(
    view: SeatView, names: Sequence[str], locale: str = "en", feed: bool = True
) -> dict[str, Any]:
    """All content of ``view`` for rendering; ``feed`` lines are the view's events narrated."""
    me = view.viewer
    seats = []
    for s in view.seats:
        role = s.role
        seats.append(
            {
                "seat": s.seat,
                "name": names[s.seat],
                "you": s.seat == me,
                "character": s.character,
                "character_name": character_name(s.character, locale),
                "ability": character_ability(s.character, locale),
                "hp": s.hp,
                "max_hp": s.max_hp,
                "hand": s.hand_size,
                "distance": s.distance,
                "in_play": [card_label(f, locale) for f in s.in_play],
                "weapon": card_label(s.weapon, locale) if s.weapon else None,
                "range": s.weapon_range,
                "stars": len(s.upgrades),
                "upgrades": list(s.upgrades),
                "upgrade_names": [upgrade_name(u, locale) for u in s.upgrades],
                "alive": s.alive,
                "role": role,
                "role_name": role_name(role, locale) if role else None,
            }
        )
    pending = None
    if view.pending is not None:
        pv = view.pending
        options = []
        if pv.options is not None:
            for i, oid in enumerate(pv.options, 1):
                options.append(
                    {"n": i, "id": oid, "label": option_label(parse_action(oid), pv.kind, view,
                                                              names, locale)}
                )  # fmt: skip
        pending = {
            "seat": pv.seat,
            "name": names[pv.seat],
            "kind": pv.kind,
            "yours": pv.seat == me,
            "header": decision_header(pv.kind, pv.context, view, names, locale),
            "options": options,
        }
    knowledge: list[dict[str, Any]] = []
    if view.marshal_pair:
        a, b = view.marshal_pair
        knowledge.append({"kind": "marshal_pair", "seats": [a, b], "names": [names[a], names[b]]})
    for seat, role in sorted(view.known_roles.items()):
        knowledge.append(
            {"kind": "role", "seat": seat, "name": names[seat], "role": role,
             "role_name": role_name(role, locale)}
        )  # fmt: skip
    narrator = Narrator(names, locale)
    return {
        "schema_version": SCHEMA_VERSION,
        "locale": locale,
        "you": (
            {
                "seat": me,
                "name": names[me],
                "role": view.role,
                "role_name": role_name(view.role, locale),
                "alive": view.seats[me].alive,
            }
            if me >= 0
            else None  # a spectator's public view (viewer -1) has no seat of its own
        ),
        "table": {
            "mode": view.mode,
            "mode_name": mode_name(view.mode, locale),
            "seats": view.n_seats,
            "round": view.round,
            "high_noon": view.high_noon,
            "turn": view.turn,
            "turn_name": names[view.turn],
            "phase": view.phase,
            "shots_used": view.shots_used,
            "deck": view.deck_size,
            "discard": view.discard_size,
            "discard_top": card_label(view.discard_top, locale) if view.discard_top else None,
            "composition": [
                {"role": r, "role_name": role_name(r, locale), "count": k}
                for r, k in view.composition.items()
            ],
        },
        "seats": seats,
        "hand": [
            {"card": f, "label": card_label(f, locale), "effect": card_effect(f, locale)}
            for f in view.hand
        ],
        "known_deck_top": [card_label(f, locale) for f in view.known_deck_top],
        "looking": [card_label(f, locale) for f in view.looking],
        "knowledge": knowledge,
        "feed": narrator.lines(view.events) if feed else [],
        "decision": pending,
        "result": (
            {"side": view.winning_side, "winners": [names[i] for i in view.winners]}
            if view.winning_side
            else None
        ),
    }


__all__ = ["SCHEMA_VERSION", "card_effect", "view_context"]
