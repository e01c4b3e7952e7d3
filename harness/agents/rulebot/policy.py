"""Card play in the play phase: every option gets a score; the best positive one is played,
otherwise the turn ends.

Contract of a scorer (:func:`play_scorer`): ``(ctx, action) -> float`` where ``<= 0`` means "not now"; the
scores encode the order of play (draw cards first, then equipment and healing, then Jail, Snatch /
Knock Off, Duel, area attacks and Shots) plus how good the particular target is.  ``end`` scores
0.  Role goals enter only through ``ctx.want`` (see :mod:`.goals`).

Rules of thumb (the issue's list): play a weapon with better range, Cover, Horse and Scope early;
Wagon/Caravan/Bazaar first; keep Ricochets for defence (Two-Face fires whichever of Shot/Ricochet
it holds more of); Flask and Bonesetter heal when low; Dynamite only above 3 ♥; Jail and Duel on
likely enemies (Duel only with more Shots than the target likely holds); Buckshot, Raid and Saloon
only when they help the viewer's side more than the others; Snatch and Knock Off prefer enemies'
weapons, Cover and Horse (and free a friend from Jail).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from harness.engine.actions import Action

from .decision_facts import BUILT_IN, Ctx, has_equipment, parsed, weapon_value
from .goals import kill_bonus
from .values import card_value

# Share of the deck that can answer: Ricochets (12/80); Two-Face also uses Shots (37/80).
_RIC = 12 / 80
_RIC_TWO_FACE = 37 / 80
_SHOT = 25 / 80


def p_dodge(ctx: Ctx, j: int) -> float:
    """Chance that seat ``j`` cancels a Shot: Cover (not in High Noon), then a Ricochet."""
    s = ctx.seats[j]
    q = _RIC_TWO_FACE if s.character == "two_face" else _RIC
    p_card = 1.0 - (1.0 - q) ** s.hand_size
    p_cover = 0.0 if ctx.high_noon or not has_equipment(s, "cover") else 0.5
    return 1.0 - (1.0 - p_cover) * (1.0 - p_card)


def p_no_shot(ctx: Ctx, j: int) -> float:
    """Chance that seat ``j`` holds no Shot (it loses a ♥ to a Raid / in a Duel)."""
    s = ctx.seats[j]
    q = _RIC_TWO_FACE if s.character == "two_face" else _SHOT
    return (1.0 - q) ** s.hand_size


def hurt(ctx: Ctx, j: int, dmg: int = 1) -> float:
    """Value of ``dmg`` damage to seat ``j`` (eliminating it adds its kill bonus)."""
    w = ctx.want[j]
    hp = ctx.seats[j].hp
    v = w * (1.5 if hp <= 2 else 1.0)
    if hp <= dmg:
        v += kill_bonus(ctx.view, w, ctx.beliefs[j]) * 1.5
    return v


def _self_gain(ctx: Ctx) -> float:
    """Value of +1 ♥ for the viewer (more when low)."""
    hp = ctx.hp
    return 1.6 if hp <= 1 else 1.0 if hp <= 2 else 0.6


def _shot(ctx: Ctx, a: Action) -> float:
    j = a.target
    v = hurt(ctx, j)
    if v <= 0.02:  # a chance to hit (at most 1.0) cannot raise it
        return 0.0
    v *= 1.0 - p_dodge(ctx, j)
    if v <= 0.02:
        return 0.0
    if ctx.me.character == "two_face":  # fire the card held more often, keep the other
        ric, shot = ctx.hand["ricochet"], ctx.hand["shot"]
        prefer = "ricochet" if ric > shot else "shot"
        v += 0.01 if a.arg == prefer else 0.0
    return 40.0 + v


def _area(ctx: Ctx, card: str) -> float:
    v = 0.0
    for j in ctx.alive:
        if card == "buckshot":
            v += hurt(ctx, j) * (1.0 - p_dodge(ctx, j))
        else:  # raid: a ♥ or a Shot
            p = p_no_shot(ctx, j)
            v += hurt(ctx, j) * p + 0.25 * ctx.want[j] * (1.0 - p)
    return 45.0 + v if v > 0.4 else 0.0


def _saloon(ctx: Ctx) -> float:
    v = _self_gain(ctx) if ctx.hp < ctx.me.max_hp else 0.0
    for j in ctx.alive:
        s = ctx.seats[j]
        if s.hp < s.max_hp:
            v -= ctx.want[j] * (1.5 if s.hp <= 1 else 1.0)
    return 35.0 + v if v > 0.2 else 0.0


def _duel(ctx: Ctx, a: Action) -> float:
    j = a.target
    s = ctx.seats[j]
    expected = s.hand_size * (_RIC_TWO_FACE if s.character == "two_face" else _SHOT)
    if ctx.shots < 1 or ctx.shots <= expected + 0.3:
        return 0.0
    v = hurt(ctx, j)
    if v <= 0.3:
        return 0.0
    in_range = s.distance is not None and s.distance <= ctx.reach
    if in_range and ctx.shots <= 1 and not ctx.unlimited:
        v *= 0.5  # the Shot would do the same job
    return 50.0 + v


def _jail(ctx: Ctx, a: Action) -> float:
    j = a.target
    w = ctx.want[j]
    if w <= 0.3:
        return 0.0
    s = ctx.seats[j]
    threat = 0.1 * s.hand_size + 0.1 * s.weapon_range
    return 60.0 + w + threat


def _item_worth(ctx: Ctx, j: int, what: str) -> float:
    """How much seat ``j`` gains from keeping ``what`` in play (its weapon, blue cards)."""
    s = ctx.seats[j]
    if what in ("cover", "horse", "scope"):
        if has_equipment_builtin(s.character, what):
            return 0.3  # the built-in stays (Ruling R-6)
        return {"cover": 1.4, "horse": 1.1, "scope": 0.7}[what]
    if what in ("volcanic", "sawed_off", "rifle", "carbine", "long_rifle"):
        return 0.3 + 0.3 * (weapon_value(what, 2) - 1.0)
    return 0.0


def has_equipment_builtin(character: str, what: str) -> bool:
    return character in BUILT_IN.get(what, ())


def _take(ctx: Ctx, a: Action) -> float:
    j, what = a.target, a.extra
    w = ctx.want[j]
    steal = a.arg == "snatch"
    if what == "jail":
        v = -w * 1.5
    elif what == "dynamite":
        v = -w * 0.8 - (0.5 if steal else 0.0)
    elif what == "hand":
        size = ctx.seats[j].hand_size
        v = w * (0.9 if size <= 2 else 0.6) + (0.5 if steal else 0.0)
    else:
        v = w * _item_worth(ctx, j, what)
        if steal and not has_equipment(ctx.me, what) and what in ("cover", "horse", "scope"):
            v += 0.6
        elif steal and what in ("volcanic", "sawed_off", "rifle", "carbine", "long_rifle"):
            v += max(0.0, weapon_value(what, ctx.shots) - weapon_value(ctx.weapon, ctx.shots)) * 0.3
    return 55.0 + v if v > 0.3 else 0.0


def _flask(ctx: Ctx) -> float:
    me = ctx.me
    if me.hp <= 2 or me.max_hp - me.hp >= 2:
        return 85.0
    if len(ctx.faces) > me.hp:  # would be discarded at the end of the turn anyway
        return 15.0
    return 0.0


def _heal(ctx: Ctx, a: Action) -> float:
    """Bonesetter: discard two cards for +1 ♥ — when low, or when the cards would go anyway."""
    me = ctx.me
    surplus = len(ctx.faces) - me.hp
    if me.hp <= 2:
        return 84.0 - _pair_cost(ctx, a)
    if surplus >= 2:
        return 12.0 - _pair_cost(ctx, a)
    return 0.0


def _pair_cost(ctx: Ctx, a: Action) -> float:
    x, _, y = a.arg.partition("+")
    if x == y:
        return card_value(ctx, x, ctx.hand[x]) + card_value(ctx, y, ctx.hand[y] - 1)
    return card_value(ctx, x, ctx.hand[x]) + card_value(ctx, y, ctx.hand[y])


def _weapon(ctx: Ctx, a: Action) -> float:
    gain = weapon_value(a.arg, ctx.shots) - weapon_value(ctx.weapon, ctx.shots)
    return 80.0 + gain if gain > 0 else 0.0


def _equipment(ctx: Ctx, a: Action) -> float:
    card = a.arg
    if has_equipment(ctx.me, card):
        return 0.0
    return 0.0 if card == "cover" and ctx.high_noon else 75.0


def _draw(ctx: Ctx, a: Action) -> float:
    return 100.0


def _bazaar(ctx: Ctx, a: Action) -> float:
    return 90.0


def _dynamite(ctx: Ctx, a: Action) -> float:
    return 30.0 if ctx.hp > 3 else 0.0


# card played -> its scorer (one dict lookup instead of a chain of comparisons per option)
_SCORERS: dict[str, Callable[[Ctx, Action], float]] = {
    "wagon": _draw,
    "caravan": _draw,
    "bazaar": _bazaar,
    "shot": _shot,
    "ricochet": _shot,
    "flask": lambda ctx, a: _flask(ctx),
    **dict.fromkeys(("volcanic", "sawed_off", "rifle", "carbine", "long_rifle"), _weapon),
    **dict.fromkeys(("cover", "horse", "scope"), _equipment),
    "dynamite": _dynamite,
    "jail": _jail,
    "snatch": _take,
    "knock_off": _take,
    "duel": _duel,
    "buckshot": lambda ctx, a: _area(ctx, a.arg),
    "raid": lambda ctx, a: _area(ctx, a.arg),
    "saloon": lambda ctx, a: _saloon(ctx),
}


def _nothing(ctx: Ctx, a: Action) -> float:
    return 0.0


def play_scorer(a: Action) -> Callable[[Ctx, Action], float]:
    """The function that scores ``a`` (``ctx, a -> score``; see the module docstring)."""
    if a.verb == "end":
        return _nothing
    if a.verb == "heal":
        return _heal
    return _SCORERS.get(a.arg, _nothing)


class _Plays(dict[str, tuple[Action, Callable[[Ctx, Action], float]]]):
    """Option id -> its :class:`Action` and :func:`play_scorer`, each id's filled on first use."""

    __slots__ = ()

    def __missing__(self, option: str) -> tuple[Action, Callable[[Ctx, Action], float]]:
        a = parsed(option)
        entry = self[option] = (a, play_scorer(a))
        return entry


# ``play_option(option)``: an option id of the play phase as its action and scorer (cached)
play_option: Final = _Plays().__getitem__
