"""How useful a card is to the viewer right now (for discards, put-backs and draw choices).

Contract: :func:`card_value` ``(ctx, type, copies)`` is the value of holding the ``copies``-th
copy of ``type`` (so a second Shot is worth less than the first unless Shots are unlimited);
higher is better; only the :class:`~.decision_facts.Ctx` is read.
"""

from __future__ import annotations

from .decision_facts import Ctx, has_equipment, weapon_value

_BASE = {
    "shot": 3.0,
    "ricochet": 4.0,
    "flask": 2.5,
    "snatch": 2.4,
    "knock_off": 2.5,
    "duel": 2.3,
    "raid": 2.0,
    "wagon": 3.6,
    "bazaar": 2.6,
    "saloon": 1.4,
    "caravan": 4.2,
    "buckshot": 2.0,
    "jail": 2.6,
    "cover": 3.5,
    "horse": 3.0,
    "scope": 2.2,
    "dynamite": 0.4,
}


def card_value(ctx: Ctx, t: str, copies: int = 1) -> float:
    """Value of the ``copies``-th card of type ``t`` in hand (see the module docstring)."""
    me = ctx.me
    hn = ctx.high_noon
    if t == "shot" or t == "ricochet":
        two_face = me.character == "two_face"
        if t == "ricochet" or two_face:
            # defence first: every Ricochet can save a ♥
            return 4.0 - 0.5 * min(copies - 1, 3) + (0.8 if me.hp <= 2 else 0.0)
        if ctx.unlimited:
            return 3.2 - 0.2 * min(copies - 1, 3)
        return 3.0 if copies == 1 else 2.0 - 0.2 * min(copies - 2, 3)
    if t == "flask":
        if hn:
            return 0.0
        missing = me.max_hp - me.hp
        return 1.5 + 0.6 * missing + (2.0 if me.hp <= 1 else 0.0) - 0.4 * (copies - 1)
    if t == "saloon":
        return 0.0 if hn else 1.4
    if t in ("cover", "horse", "scope"):
        if has_equipment(me, t) or copies > 1:
            return 0.3
        if t == "cover" and hn:
            return 0.3
        return _BASE[t]
    if t == "dynamite":
        return 1.0 if me.hp > 3 else 0.2
    if t in ("volcanic", "sawed_off", "rifle", "carbine", "long_rifle"):
        gain = weapon_value(t, ctx.shots) - weapon_value(ctx.weapon, ctx.shots)
        if gain <= 0 or copies > 1:
            return 0.2
        return 1.5 + gain
    return _BASE.get(t, 1.0) - 0.3 * (copies - 1)
