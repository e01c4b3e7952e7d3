"""Moving cards out of hands, with Empty Hands' trigger in one place."""

from __future__ import annotations

from .cards import CARD_FACE
from .state import GameState


class HandMixin(GameState):
    def after_hand_loss(self, seat: int) -> None:
        """Empty Hands: when his hand becomes empty, he draws 1 at once (RULES.md §1)."""
        s = self.seats[seat]
        if not s.hand and s.alive and s.character == "empty_hands" and not self.is_over:
            self.draw(seat, 1, "empty_hands")

    def take_from_hand(self, seat: int, type_id: str) -> int:
        """Remove the most recently received card of ``type_id``; caller decides where it goes."""
        s = self.seats[seat]
        c = s.hand_card(type_id)
        s.hand.remove(c)
        return c

    def discard_from_hand(self, seat: int, types: list[str], why: str) -> list[int]:
        cards = [self.take_from_hand(seat, t) for t in types]
        self.discard.extend(cards)
        self.emit(
            {
                "t": "discard",
                "seat": seat,
                "cards": list(map(CARD_FACE.__getitem__, cards)),
                "why": why,
            }
        )
        if not self.seats[seat].hand:
            self.after_hand_loss(seat)
        return cards

    def random_from_hand(self, seat: int) -> int:
        s = self.seats[seat]
        return s.hand.pop(self.random_hand_index(seat))

    def heal(self, seat: int, amount: int, why: str) -> None:
        s = self.seats[seat]
        gained = min(amount, s.max_hp - s.hp)
        s.hp += gained
        self.emit({"t": "heal", "seat": seat, "n": gained, "hp": s.hp, "why": why})

    def bonesetter_heal(self, seat: int, arg: str) -> None:
        """``heal:a+b`` — discard the two named cards, +1 ♥."""
        self.discard_from_hand(seat, arg.split("+"), "bonesetter")
        self.heal(seat, 1, "bonesetter")
