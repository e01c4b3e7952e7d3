"""Every decision that is not the play phase: answers to attacks, discards, draw-phase choices,
put-backs and upgrades.

Contract: each ``choose_*`` function takes the :class:`~.decision_facts.Ctx` and the list of legal
option ids and returns one of them (``pick`` breaks exact ties with the bot's seeded generator).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from .decision_facts import Ctx, card_type, parsed
from .values import card_value

Pick = Callable[[Sequence[tuple[float, str]]], str]


def _cost(ctx: Ctx, cards: str) -> float:
    """Value lost by discarding the cards ``a+b`` (or one card) from hand."""
    used: Counter[str] = Counter()
    total = 0.0
    for t in cards.split("+"):
        total += card_value(ctx, t, ctx.hand[t] - used[t])
        used[t] += 1
    return total


def respond_shot(ctx: Ctx, options: Sequence[str], pick: Pick) -> str:
    """Ricochet when possible (two needed against Double Barrel: only when low), then a Flask at
    1 ♥, then Bonesetter's heal if the hit would eliminate; otherwise take the hit."""
    hp = ctx.hp
    dodges = [(-_cost(ctx, o[6:]), o) for o in options if o.startswith("dodge:")]
    if dodges:
        two = "+" in dodges[0][1]
        if not two or hp <= 2 or ctx.hand["ricochet"] >= 3:
            return pick(dodges)
    if "flask" in options:
        return "flask"
    heals = [(-_cost(ctx, o[5:]), o) for o in options if o.startswith("heal:")]
    if heals and (hp <= 1 or (hp == 2 and max(h[0] for h in heals) > -3.0)):
        return pick(heals)
    return "take"


def respond_match(ctx: Ctx, options: Sequence[str], pick: Pick, opponent: int) -> str:
    """Raid or Duel: discard the cheaper matching card; in a Duel against a friend (a Deputy
    against the Marshal; anyone against a weak friend while strong) lose the ♥ instead."""
    hp = ctx.hp
    if opponent >= 0 and ctx.want[opponent] <= -0.5:
        other = ctx.seats[opponent]
        spare_marshal = opponent == ctx.marshal and ctx.view.role == "deputy" and hp >= 2
        if spare_marshal or (other.hp <= 2 and hp >= 3):
            return "take"
    matches = [(-_cost(ctx, o[6:]), o) for o in options if o.startswith("match:")]
    if matches:
        return pick(matches)
    heals = [(-_cost(ctx, o[5:]), o) for o in options if o.startswith("heal:")]
    if heals and hp <= 1:
        return pick(heals)
    return "take"


def discard(ctx: Ctx, options: Sequence[str], pick: Pick) -> str:
    """End-of-turn discard: the least useful card, or Bonesetter's heal with the two least
    useful when low or when two or more cards are over the limit anyway."""
    me = ctx.me
    surplus = len(ctx.faces) - me.hp
    heals = [(-_cost(ctx, o[5:]), o) for o in options if o.startswith("heal:")]
    if heals and (me.hp <= 2 or surplus >= 2):
        return pick(heals)
    cards = [(-card_value(ctx, o[8:], ctx.hand[o[8:]]), o) for o in options if o[:8] == "discard:"]
    return pick(cards) if cards else options[0]


def draw_source(ctx: Ctx, options: Sequence[str], pick: Pick) -> str:
    """Grip takes from the biggest enemy hand; Vulture Jr. takes a useful discard top."""
    best: list[tuple[float, str]] = []
    for o in options:
        a = parsed(o)
        if a.arg == "hand":
            j = a.target
            if ctx.want[j] > 0.1:
                best.append((ctx.seats[j].hand_size + 0.5 * ctx.want[j], o))
        elif a.arg == "discard":
            top = ctx.view.discard_top
            if top is not None:
                t = card_type(top)
                if card_value(ctx, t, ctx.hand[t] + 1) >= 3.0:
                    best.append((1.0, o))
    if best:
        return pick(best)
    return "draw:deck" if "draw:deck" in options else options[0]


def putback(ctx: Ctx, options: Sequence[str], pick: Pick) -> str:
    """Keep the best cards: put back the least useful one looked at."""
    seen: Counter[str] = Counter()
    worth: dict[str, float] = {}
    for face in ctx.view.looking:
        t = card_type(face)
        seen[t] += 1
        worth[face] = card_value(ctx, t, ctx.hand[t] + seen[t])
    scored = [(-worth.get(o[8:], 0.0), o) for o in options]
    return pick(scored)


def upgrade(ctx: Ctx, options: Sequence[str], pick: Pick) -> str:
    """Toughness when low, Marksmanship when no enemy is in range, Instinct early, else
    Toughness.  Also used for the bounty choice (same preferences)."""
    verb = options[0].partition(":")[0]
    have = {o.partition(":")[2] for o in options}
    order = _preference(ctx)
    for u in order:
        if u in have:
            return f"{verb}:{u}"
    return options[0]


def _preference(ctx: Ctx) -> list[str]:
    me = ctx.me
    if me.hp <= 2:
        return ["toughness", "marksmanship", "instinct"]
    in_range = out_of_range = False
    for j in ctx.alive:
        if ctx.want[j] > 0.1:
            d = ctx.seats[j].distance
            if d is not None and d <= ctx.reach:
                in_range = True
            else:
                out_of_range = True
    if out_of_range and not in_range:
        return ["marksmanship", "toughness", "instinct"]
    if ctx.view.round <= 5 and "instinct" not in me.upgrades:
        return ["instinct", "marksmanship", "toughness"]
    return ["toughness", "marksmanship", "instinct"]


__all__ = ["discard", "draw_source", "putback", "respond_match", "respond_shot", "upgrade"]
