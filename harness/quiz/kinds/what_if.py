"""What happens if the asked seat chooses one of its options, computed by applying the option to
a copy of the game with the Cover outcome fixed and stated, then playing on by the quiz policy
(every player who must answer takes the hit; upgrade and bounty choices take the first option):

* ``hp_after`` — the ♥ of a player right after the option resolves;
* ``next_responder`` — who must respond first (or nobody);
* ``cover_check`` — whether a Cover check is made for a player;
* ``game_end`` — whether the game ends, and which side wins;
* ``glory`` — which of glory, bounty, Last Bullet, the Marshal's penalty, the old_classic reward
  and the end of the game happen when the option eliminates a player (whose revealed role is
  stated).

When an elimination happens the result may hang on hidden roles (victory, penalty, Last Bullet):
the answer is then computed in every assignment of the roles the seat cannot see and the question
is only asked when they all agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from harness.engine import Action, Game, parse_action
from harness.views.names import default_names

from ..worlds import (
    RESPONSES,
    across_worlds,
    cover_results,
    eliminated,
    possible_roles,
    what_if,
)
from .question_kind import Draft, QuestionKind, Shape, cites, play_seat

T = TypeVar("T")
Events = list[dict[str, Any]]

ATTACKS = ("shot", "ricochet", "duel", "raid", "buckshot")
COVERED = ("shot", "ricochet", "buckshot")  # cards whose hits a Cover check may block
SIDES = ("continues", "law", "raiders", "loner", "loners")
HAPPENINGS = ("glory", "bounty", "last_bullet", "penalty", "reward", "game_over")


def attacks(game: Game, seat: int) -> list[Action]:
    d = game.pending
    assert d is not None
    return [a for a in d.options if a.verb == "play" and a.arg in ATTACKS]


def targets(game: Game, seat: int, a: Action) -> list[int]:
    """Who the option hits, in the order they answer."""
    if a.target >= 0:
        return [a.target]
    if a.arg in ("raid", "buckshot"):
        return game.others_in_turn_order(seat)
    if a.arg == "saloon":
        return game.living()
    return [seat]


def lethal(game: Game, seat: int, a: Action) -> bool:
    return any(game.seats[j].hp == 1 for j in targets(game, seat, a))


def settle(
    game: Game,
    seat: int,
    params: Mapping[str, Any],
    value: Callable[[Game, Events], T],
    fixed: Mapping[int, str] | None = None,
    *,
    worlds: bool = True,
) -> T | None:
    """``value`` of the option's outcome; ``None`` when it depends on roles the seat cannot see
    or the stated Cover outcome could not be forced.  ``worlds=False``: in the game's own roles
    only (a quick look before the full computation)."""
    blocked = bool(params.get("blocked", False))

    def compute(roles: Mapping[int, str] | None) -> T | None:
        g, events = what_if(game, seat, params["option"], blocked=blocked, roles=roles)
        if any(b != blocked for _, b in cover_results(events)):
            return None
        return value(g, events)

    if fixed is None:
        g, events = what_if(game, seat, params["option"], blocked=blocked)
        if not worlds or not eliminated(events):
            if any(b != blocked for _, b in cover_results(events)):
                return None
            return value(g, events)
    return across_worlds(game, seat, compute, fixed)


def option_cites(a: Action, covered: bool) -> set[str]:
    out = {"§5"}
    if a.arg in ("shot", "ricochet"):
        out |= {"§3.3", "§4"}
    if covered:
        out |= {"§6", "R-6", "R-11"}
    return out


class _WhatIf(QuestionKind):
    shape: ClassVar[Shape] = "one"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        seat = play_seat(game)
        return seat if seat is not None and attacks(game, seat) else None


class HpAfter(_WhatIf):
    name = "hp_after"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        return play_seat(game)

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        d = game.pending
        assert d is not None
        opts = [
            a
            for a in d.options
            if (a.verb == "play" and a.arg in (*ATTACKS, "flask", "saloon")) or a.verb == "heal"
        ]
        if not opts:
            return None
        a = rng.choice(opts)
        target = rng.choice(targets(game, seat, a))
        params: dict[str, Any] = {"option": a.id, "target": target}
        if a.arg in COVERED:
            params["blocked"] = rng.random() < 0.5
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        t = game.seats[target]
        low, high = max(0, t.hp - 2), min(t.max_hp, t.hp + 1)
        candidates = tuple(str(h) for h in range(low, high + 1))
        extra = {"R-8"} if a.arg == "flask" else {"§1"} if a.arg == "saloon" else set()
        if a.verb == "heal" or a.arg in ("flask", "saloon"):
            extra.add("R-4")
        return Draft(
            params, candidates, answer, cites(option_cites(a, "blocked" in params), {"§7"}, extra)
        )

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        target = params["target"]
        return settle(game, seat, params, lambda g, _: (str(g.seats[target].hp),))


class NextResponder(_WhatIf):
    name = "next_responder"

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        a = rng.choice(attacks(game, seat))
        params: dict[str, Any] = {"option": a.id}
        if a.arg in COVERED:
            params["blocked"] = rng.random() < 0.5
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        names = default_names(game.n)
        candidates = (*(names[j] for j in game.living()), "nobody")
        return Draft(params, candidates, answer, cites(option_cites(a, "blocked" in params)))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        blocked = bool(params.get("blocked", False))
        g, events = what_if(game, seat, params["option"], blocked=blocked, settle=False)
        if any(b != blocked for _, b in cover_results(events)):
            return None
        d = g.pending
        if d is not None and d.kind in RESPONSES:
            return (default_names(game.n)[d.seat],)
        return ("nobody",)


class CoverCheck(_WhatIf):
    name = "cover_check"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        seat = play_seat(game)
        if seat is None:
            return None
        opts = attacks(game, seat)
        covered = any(game.seats[j].has_cover for a in opts for j in targets(game, seat, a))
        return seat if opts and (covered or rng.random() < 0.2) else None

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        opts = attacks(game, seat)
        aimed = [a for a in opts if any(game.seats[j].has_cover for j in targets(game, seat, a))]
        a = rng.choice(aimed if aimed and rng.random() < 0.8 else opts)
        hit = targets(game, seat, a)
        covered = [j for j in hit if game.seats[j].has_cover]
        target = rng.choice(covered if covered and rng.random() < 0.7 else hit)
        params = {"option": a.id, "target": target}
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        extra = {"§3.3"} if game.round >= 7 else set()  # High Noon is near
        return Draft(params, ("yes", "no"), answer, cites({"§5", "§6", "R-6", "R-11"}, extra))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        target = params["target"]

        def checked(g: Game, events: Events) -> tuple[str, ...]:
            return ("yes",) if any(j == target for j, _ in cover_results(events)) else ("no",)

        return settle(game, seat, params, checked)


class GameEnd(_WhatIf):
    name = "game_end"
    rate = 0.12

    def asker(self, game: Game, rng: random.Random) -> int | None:
        seat = play_seat(game)
        if seat is None:
            return None
        opts = attacks(game, seat)
        if any(lethal(game, seat, a) for a in opts):
            return seat
        return seat if opts and rng.random() < 0.15 else None

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        opts = attacks(game, seat)
        deadly = [a for a in opts if lethal(game, seat, a)]
        a = rng.choice(deadly if deadly and rng.random() < 0.85 else opts)
        params = {"option": a.id, "blocked": False}
        quick = settle(game, seat, params, self._side, worlds=False)
        if quick == ("continues",) and rng.random() < 0.9:
            return None  # most options do not end the game: ask about those less often
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        return Draft(params, SIDES, answer, cites({"§8", "R-9", "§7"}))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        return settle(game, seat, params, self._side)

    @staticmethod
    def _side(g: Game, events: Events) -> tuple[str, ...]:
        return (g.winning_side or "continues",)


class Glory(_WhatIf):
    name = "glory"
    shape = "set"
    rate = 0.5

    def asker(self, game: Game, rng: random.Random) -> int | None:
        seat = play_seat(game)
        if seat is None:
            return None
        return seat if self._deadly(game, seat) else None

    def _deadly(self, game: Game, seat: int) -> list[Action]:
        d = game.pending
        assert d is not None
        return [
            a
            for a in d.options
            if a.verb == "play"
            and a.arg in ("shot", "ricochet", "duel")
            and game.seats[a.target].hp == 1
        ]

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        d = game.pending
        if d is None or d.seat != seat:
            return None
        deadly = self._deadly(game, seat)
        if not deadly:
            return None
        a = rng.choice(deadly)
        params = {
            "option": a.id,
            "blocked": False,
            "victim": a.target,
            "role": rng.choice(possible_roles(game, seat, a.target)),
        }
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        return Draft(
            params,
            HAPPENINGS,
            answer,
            cites({"R-9", "§7.5", "§7.6", "§7.7", "§7.8", "§8", "R-13", "R-14"}),
        )

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        victim = int(params["victim"])
        if parse_action(params["option"]).target != victim:
            return None

        def happenings(g: Game, events: Events) -> tuple[str, ...]:
            if not any(e["t"] == "eliminated" and e["seat"] == victim for e in events):
                return ("(victim survives)",)
            why = {e["why"] for e in events if e["t"] == "star"}
            found = {
                "glory": any(
                    e["t"] == "star" and e["seat"] == seat and e["why"] == "glory" for e in events
                ),  # fmt: skip
                "bounty": "bounty" in why,
                "last_bullet": "last_bullet" in why,
                "penalty": any(e["t"] == "penalty" for e in events),
                "reward": any(e["t"] == "draw" and e["why"] == "raider_reward" for e in events),
                "game_over": any(e["t"] == "game_over" for e in events),
            }
            return tuple(h for h in HAPPENINGS if found[h])

        out = settle(game, seat, params, happenings, fixed={victim: params["role"]})
        return None if out is None or "(victim survives)" in out else out


__all__ = ["CoverCheck", "GameEnd", "Glory", "HpAfter", "NextResponder"]
