"""``legal``: which of these candidate actions are legal now (a mix of legal and plausible
illegal ones); ``high_noon``: which plays High Noon allows or forbids at the table now.

The legal options are the engine's own (``game.pending.options`` and ``Game.play_options``); the
plausible illegal ones are built from the asked seat's hand and the table it sees.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from harness.engine import Action, Game, parse_action
from harness.engine.cards import BLUE_TYPES, WEAPON_RANGE
from harness.engine.options import hand_types, takeable

from ..worlds import with_cards
from .question_kind import Draft, QuestionKind, cites, play_seat

DECISIONS = ("play", "respond_shot", "respond_raid", "respond_duel")
TRIVIAL = ("end", "take")
TARGETED = ("shot", "ricochet", "duel", "jail")
TAKING = ("snatch", "knock_off")


def plausible_actions(game: Game, seat: int, kind: str) -> list[str]:
    """Actions the seat might think it can take now: every card in its hand played at every
    living player, every way of answering with the cards it holds."""
    s = game.seats[seat]
    types = hand_types(s)
    others = game.others_by_index(seat)
    out: list[Action] = []
    if kind == "play":
        for t in types:
            if t in TARGETED:
                out += [Action("play", t, j) for j in others]
            elif t in TAKING:
                for j in others:
                    named = takeable(game.seats[j])
                    if "hand" not in named:
                        named.append("hand")
                    out += [Action("play", t, j, what) for what in named]
            else:
                out.append(Action("play", t))
    elif kind == "respond_shot":
        if "ricochet" in types:
            out.append(Action("dodge", "ricochet"))
            if s.count_in_hand("ricochet") >= 2:
                out.append(Action("dodge", "ricochet+ricochet"))
        if "shot" in types:
            out.append(Action("dodge", "shot"))
        if "flask" in types:
            out.append(Action("flask"))
    else:
        out += [Action("match", t) for t in ("shot", "ricochet") if t in types]
    if s.character == "bonesetter" and len(s.hand) >= 2:
        pair = types[:2] if len(types) >= 2 else types * 2
        out.append(Action("heal", "+".join(pair)))
    return [a.id for a in out]


def action_cites(game: Game, kind: str, ids: list[str]) -> tuple[str, ...]:
    """The RULES.md sections and rulings that decide whether ``ids`` are legal."""
    out: set[str] = {"§5"} if kind != "play" else set()
    for oid in ids:
        a = parse_action(oid)
        cards = a.arg.split("+") if a.verb in ("dodge", "heal") else [a.arg]
        if a.verb == "flask" or "flask" in cards:
            out |= {"§5", "R-8"}
        if a.verb == "heal" or "flask" in cards or "saloon" in cards:
            out.add("R-4" if game.high_noon else "§5")
        if a.verb == "dodge" and len(cards) == 2:
            out.add("R-7")
        for card in cards if a.verb in ("play", "dodge", "match") else []:
            if card in ("shot", "ricochet") and a.verb == "play":
                out |= {"§3.3", "§4"}
            if card == "ricochet" and a.verb != "dodge" or card == "shot" and a.verb == "dodge":
                out.add("§1")  # only Two-Face swaps Shot and Ricochet
            if card in (*TAKING, "duel") or card in WEAPON_RANGE:
                out.add("§4")
            if card == "jail":
                out |= {"§1", "R-6"}
            elif card in BLUE_TYPES:
                out.add("R-6")
            if card == "saloon":
                out.add("§1")
    return cites(out or {"§3.3"})


class Legal(QuestionKind):
    name = "legal"
    shape = "set"
    rate = 0.06

    def asker(self, game: Game, rng: random.Random) -> int | None:
        d = game.pending
        return d.seat if d is not None and d.kind in DECISIONS and len(d.options) > 1 else None

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        d = game.pending
        if d is None or d.seat != seat or d.kind not in DECISIONS:
            return None
        legal = [o for o in d.option_ids if o not in TRIVIAL]
        illegal = [a for a in plausible_actions(game, seat, d.kind) if a not in d.option_ids]
        n_legal = rng.randint(0, min(3, len(legal)))
        n_illegal = min(len(illegal), max(1, 5 - n_legal))
        picks = rng.sample(legal, n_legal) + rng.sample(illegal, n_illegal)
        if len(picks) < 3:
            return None
        rng.shuffle(picks)
        params = {"decision": d.kind, "actions": picks}
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        return Draft(params, tuple(picks), answer, action_cites(game, d.kind, picks))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        d = game.pending
        if d is None or d.seat != seat or d.kind != params["decision"]:
            return None
        legal = set(d.option_ids)
        return tuple(a for a in params["actions"] if a in legal)


HIGH_NOON_CARDS = ("shot", "flask", "saloon")
ROUNDS = (5, 7, 8, 8, 9, 11)  # High Noon holds from round 8 (RULES.md §3)


class HighNoon(QuestionKind):
    """Supposing it were round ``round`` (High Noon from round 8, never in old_classic) and the
    seat also held a Shot, a Flask and a Saloon and had played one Shot this turn: may it play a
    second Shot at a player in range, the Flask, the Saloon, (Bonesetter) its heal?  RULES.md §3
    (High Noon), R-4, R-8."""

    name = "high_noon"
    shape = "set"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        return play_seat(game)

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        g = with_cards(game, seat, HIGH_NOON_CARDS)
        if g is None:
            return None
        g.shots_used = 0
        targets = sorted(
            {a.target for a in g.play_options(seat) if a.verb == "play" and a.arg == "shot"}
        )
        if not targets:
            return None
        params = {"target": rng.choice(targets), "round": rng.choice(ROUNDS)}
        candidates = ["second_shot", "flask", "saloon"]
        if game.seats[seat].character == "bonesetter":
            candidates.append("heal")
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        return Draft(params, tuple(candidates), answer, cites({"§3.3", "R-4", "R-8", "§5"}))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        g = with_cards(game, seat, HIGH_NOON_CARDS)
        if g is None:
            return None
        g.shots_used = 1
        g.round = int(params["round"])
        opts = {a.id for a in g.play_options(seat)}
        out = []
        if f"play:shot@{params['target']}" in opts:
            out.append("second_shot")
        out += [c for c in ("flask", "saloon") if f"play:{c}" in opts]
        if any(o.startswith("heal:") for o in opts):
            out.append("heal")
        return tuple(out)


__all__ = ["HighNoon", "Legal", "action_cites", "plausible_actions"]
