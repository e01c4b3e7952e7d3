"""Playing a card from hand (RULES.md §1, §4): moves the card and pushes its resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action
from .cards import BLUE_TYPES, CARD_FACE, CARD_TYPE, WEAPON_RANGE
from .hand import HandMixin
from .state import Frame


class PlayMixin(HandMixin):
    if TYPE_CHECKING:  # provided by the other parts of Game

        def push(self, *frames: Frame) -> None: ...

    def play_card(self, seat: int, a: Action) -> None:
        card_type = a.arg
        card = self.take_from_hand(seat, card_type)
        s = self.seats[seat]
        event = {"t": "play", "seat": seat, "card": CARD_FACE[card]}
        if a.target >= 0:
            event["target"] = a.target
        if a.extra:
            event["what"] = a.extra
        self.emit(event)
        if card_type in WEAPON_RANGE:
            if s.weapon >= 0:
                self.discard.append(s.weapon)
            s.weapon = card
        elif card_type in BLUE_TYPES:
            holder = a.target if card_type == "jail" else seat
            self.seats[holder].in_play.append(card)
        else:
            self.resolving.append(card)
            self._push_effect(seat, card_type, a)
        if not s.hand:
            self.after_hand_loss(seat)

    def _push_effect(self, seat: int, card_type: str, a: Action) -> None:
        """Push the brown card's resolution; the card reaches the discard pile after it
        ("settle"), so Wagon/Bazaar/Caravan can never draw themselves back."""
        target = a.target
        settle: Frame = ("settle",)
        if card_type in ("shot", "ricochet"):  # Two-Face: Ricochet played as a Shot
            self.shots_used += 1
            needed = (
                2
                if self.seats[seat].character == "double_barrel"
                and self.distance(seat, target) == 1
                else 1
            )
            self.push(("shot_hit", seat, target, needed, "shot"), settle)
        elif card_type == "buckshot":
            hits = [("shot_hit", seat, j, 1, "buckshot") for j in self.others_in_turn_order(seat)]
            self.push(*hits, settle)
        elif card_type == "raid":
            raids = [("respond_raid", seat, j) for j in self.others_in_turn_order(seat)]
            self.push(*raids, settle)
        elif card_type == "duel":
            self.push(("respond_duel", seat, target, target), settle)
        elif card_type == "flask":
            self.push(("heal", seat, 1, "flask"), settle)
        elif card_type == "saloon":
            self.push(*[("heal", j, 1, "saloon") for j in self.living()], settle)
        elif card_type == "wagon":
            self.push(("draw_n", seat, 2, "wagon"), settle)
        elif card_type == "caravan":
            self.push(("draw_n", seat, 3, "caravan"), settle)
        elif card_type == "bazaar":
            order = [seat, *self.others_in_turn_order(seat)]
            self.push(*[("draw_n", j, 1, "bazaar") for j in order], settle)
        elif card_type in ("snatch", "knock_off"):
            self.push((card_type, seat, target, a.extra), settle)
        else:  # pragma: no cover - every brown card is listed above
            raise AssertionError(card_type)

    # ------------------------------------------------------------------ frames
    def f_settle(self) -> None:
        self.discard.extend(self.resolving)
        self.resolving.clear()

    def f_draw_n(self, seat: int, n: int, why: str) -> None:
        if self.seats[seat].alive:
            self.draw(seat, n, why)

    def f_heal(self, seat: int, n: int, why: str) -> None:
        if self.seats[seat].alive:
            self.heal(seat, n, why)

    def f_snatch(self, seat: int, target: int, what: str) -> None:
        self._take_card(seat, target, what, steal=True)

    def f_knock_off(self, seat: int, target: int, what: str) -> None:
        self._take_card(seat, target, what, steal=False)

    def _take_card(self, seat: int, target: int, what: str, steal: bool) -> None:
        t = self.seats[target]
        if what == "hand":
            c = self.random_from_hand(target)
        elif t.weapon >= 0 and CARD_TYPE[t.weapon] == what:
            c = t.weapon
            t.weapon = -1
        else:
            c = t.in_play_card(what)
            t.in_play.remove(c)
        if steal:
            self.seats[seat].hand.append(c)
            event = {"t": "steal", "seat": seat, "from": target, "what": what}
            if what == "hand":
                self.emit_private(event, [seat, target], {"card": CARD_FACE[c]})
            else:
                event["card"] = CARD_FACE[c]
                self.emit(event)
        else:
            self.discard.append(c)
            self.emit(
                {"t": "knocked", "seat": seat, "from": target, "what": what, "card": CARD_FACE[c]}
            )
        if what == "hand":
            self.after_hand_loss(target)
