"""``check``: what a Dynamite or Jail check does when it reveals the stated card(s).

The card is in front of a player, or supposed to be put in front of one now.  The holder's turn
is started on a copy of the game with the stated cards on top of the deck; the
engine's own check (RULES.md §6, §3.1, R-11 for Lucky's two tries, R-15 for old_classic's Jail)
gives the answer: Dynamite explodes or passes to the next living player; Jail frees the player,
lets him draw but not play, or (old_classic) skips his whole turn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from harness.engine import Game
from harness.engine.cards import CARD_FACE, CARD_TYPE, is_dynamite_blast
from harness.views.names import default_names

from ..worlds import clone, hidden_faces, put_on_top, restart
from .question_kind import Draft, QuestionKind, cites

JAIL_OUTCOMES = ("free", "draw_no_play", "skip")
DRAWING = frozenset({"draw", "look", "take_discard", "grab"})
CHECK_CARDS = ("dynamite", "jail")


def _blast(face: str) -> bool:
    return is_dynamite_blast(CARD_FACE.index(face))


def _heart(face: str) -> bool:
    return face.endswith("H")


def place(game: Game, holder: int, card: str) -> bool:
    """Put the physical ``card`` in front of ``holder`` in ``game``, from wherever it is."""
    s = game.seats[holder]
    if s.has_in_play(card):
        return True
    zones = [game.deck, game.discard, game.looking]
    for other in game.seats:
        zones += [other.hand, other.in_play]
    for zone in zones:
        found = next((c for c in zone if CARD_TYPE[c] == card), -1)
        if found >= 0:
            zone.remove(found)
            s.in_play.append(found)
            return True
    return False


class Check(QuestionKind):
    """The card is in front of the holder, or (``placed``) supposed to be put there now."""

    name = "check"
    shape = "one"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        return rng.choice(game.living())

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        card = rng.choice(("dynamite", "jail"))
        living = [s for s in game.seats if s.alive]
        natural = [s.index for s in living if s.has_in_play(card)]
        if natural and rng.random() < 0.7:
            holder, placed = rng.choice(natural), False
        else:
            free = [
                s.index
                for s in living
                if not s.has_in_play(card) and not (card == "jail" and s.role == "marshal")
            ]
            if not free:
                return None
            holder, placed = rng.choice(free), True
        pool = [f for f in hidden_faces(game, seat) if f.split(".")[0] not in CHECK_CARDS]
        good = _blast if card == "dynamite" else _heart
        yes = [f for f in pool if good(f)]
        no = [f for f in pool if not good(f)]
        tricky = [f for f in no if (f[-1] == "D" if card == "jail" else f[-1] == "S" or
                                    f.split(".")[1][:-1] in "23456789")]  # fmt: skip
        tries = 2 if game.seats[holder].character == "lucky" else 1
        faces: list[str] = []
        for _ in range(tries):
            side = yes if rng.random() < 0.5 else (tricky if tricky and rng.random() < 0.6 else no)
            side = [f for f in side if f not in faces] or [f for f in pool if f not in faces]
            faces.append(rng.choice(side))
        params = {"holder": holder, "card": card, "placed": placed, "revealed": faces}
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        names = default_names(game.n)
        if card == "dynamite":
            near = [game.next_living(holder), game.others_in_turn_order(holder)[-1]]
            candidates: tuple[str, ...] = (
                "explode",
                "stay",
                *dict.fromkeys(f"pass:{names[j]}" for j in near),
            )
            rules = {"§6", "§3.1", "R-1", "R-11"}
        else:
            candidates = JAIL_OUTCOMES
            rules = {"§6", "§3.1", "R-11", "R-15"}
        return Draft(params, candidates, answer, cites(rules))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        holder, card, faces = int(params["holder"]), params["card"], list(params["revealed"])
        start = clone(game)
        if params["placed"]:
            if not place(start, holder, card):
                return None
        elif not start.seats[holder].has_in_play(card):
            return None
        if card == "jail" and start.seats[holder].has_in_play("dynamite"):
            return None  # Dynamite is checked first and would take the stated card
        if not put_on_top(start, faces):
            return None
        g = restart(start, [("begin_turn", holder)], turn=holder)
        events = g.events[len(start.events) :]
        shown = [e["card"] for e in events if e["t"] == "check" and e["for"] == card]
        if not shown or shown != faces[: len(shown)]:
            return None
        for i, e in enumerate(events):
            if e["t"] == "dynamite" and card == "dynamite":
                if e["blast"]:
                    return ("explode",)
                return (f"pass:{default_names(game.n)[e['to_seat']]}",)
            if e["t"] == "jail" and card == "jail":
                if e["free"]:
                    return ("free",)
                later = events[i + 1 :]
                drew = any(x["t"] in DRAWING and x["seat"] == holder for x in later)
                d = g.pending
                deciding = (
                    d is not None and d.seat == holder and d.kind in ("draw_source", "putback")
                )
                return ("draw_no_play",) if drew or deciding else ("skip",)
        return None


__all__ = ["Check", "place"]
