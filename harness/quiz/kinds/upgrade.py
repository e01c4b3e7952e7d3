"""``upgrade``: what a glory upgrade does for the asked seat if it gained a ★ now and chose it
(RULES.md §7.7): Toughness — its ♥ and max ♥; Marksmanship — its Shot range; Instinct — how many
cards it looks at in its next draw phase drawing from the deck (R-12: Three Eyes looks at 4).

The engine's own upgrade decision is run on a copy (an upgrade frame put on top), then for
Instinct the seat's draw phase.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from harness.engine import Action, Game
from harness.engine.roles import UPGRADES

from ..worlds import restart
from .question_kind import Draft, QuestionKind, cites, play_seat


class Upgrade(QuestionKind):
    name = "upgrade"
    shape = "one"
    modes = ("classic", "partners", "double_agent")  # old_classic has no glory (RULES.md §7.8)

    def asker(self, game: Game, rng: random.Random) -> int | None:
        return play_seat(game)

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        me = game.seats[seat]
        choices = [u for u in UPGRADES if not (u == "instinct" and "instinct" in me.upgrades)]
        params = {"upgrade": rng.choice(choices)}
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        if params["upgrade"] == "toughness":
            hp, mx = me.hp, me.max_hp
            options = {f"{hp}/{mx}", f"{hp + 1}/{mx + 1}", f"{hp}/{mx + 1}", f"{hp + 1}/{mx}"}
            candidates = tuple(sorted(options, key=lambda t: tuple(map(int, t.split("/")))))
        elif params["upgrade"] == "marksmanship":
            r = me.weapon_range
            candidates = tuple(str(x) for x in range(max(1, r - 1), r + 3))
        else:
            candidates = ("2", "3", "4", "5")
        rules = {"§7.7", "R-12"} if params["upgrade"] == "instinct" else {"§7.7"}
        if params["upgrade"] == "marksmanship":
            rules.add("§4")
        return Draft(params, candidates, answer, cites(rules))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        upgrade = params["upgrade"]
        g = restart(game, [("upgrade", seat, "glory")])
        d = g.pending
        choice = Action("upgrade", upgrade)
        if d is None or d.seat != seat or choice not in d.options:
            return None
        g.apply(choice)
        me = g.seats[seat]
        if upgrade == "toughness":
            return (f"{me.hp}/{me.max_hp}",)
        if upgrade == "marksmanship":
            return (str(me.weapon_range),)
        start = len(g.events)
        g = restart(g, [("start_draw", seat)], turn=seat)
        if g.pending is not None and g.pending.kind == "draw_source":
            g.apply(Action("draw", "deck"))
        looked = [e["n"] for e in g.events[start:] if e["t"] == "look" and e["seat"] == seat]
        return (str(looked[0]),) if looked else None


__all__ = ["Upgrade"]
