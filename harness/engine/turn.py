"""Turn flow (RULES.md §3): checks, draw phase, play, discard, next turn, rounds, High Noon."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .actions import Action
from .cards import CARD_FACE, is_dynamite_blast, is_red
from .hand import HandMixin
from .roles import HIGH_NOON_ROUND
from .state import DecisionKind, Frame


class TurnMixin(HandMixin):
    if TYPE_CHECKING:  # provided by the other parts of Game

        def ask(self, seat: int, kind: DecisionKind, options: tuple[Action, ...]) -> None: ...
        def play_card(self, seat: int, action: Action) -> None: ...
        def push_damage(self, victim: int, amount: int, source: int) -> None: ...
        def play_options(self, seat: int) -> tuple[Action, ...]: ...
        def discard_options(self, seat: int) -> tuple[Action, ...]: ...
        def draw_source_options(self, seat: int) -> tuple[Action, ...]: ...
        def putback_options(self) -> tuple[Action, ...]: ...

    # ------------------------------------------------------------------ frames
    def f_begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.shots_used = 0
        self.phase = "start"
        self.emit({"t": "turn", "seat": seat, "round": self.round})
        if self.seats[seat].in_play:  # Dynamite, then Jail, are checked before the draw
            self.stack += [("start_draw", seat), ("jail_check", seat), ("dynamite_check", seat)]
        else:  # nothing to check: the start_draw frame, run directly (it asks nothing)
            self.f_start_draw(seat)

    def f_dynamite_check(self, seat: int) -> None:
        s = self.seats[seat]
        dyn = s.in_play_card("dynamite")
        if dyn < 0 or not s.alive:
            return
        safe = self._check(seat, "dynamite", lambda c: not is_dynamite_blast(c))
        s.in_play.remove(dyn)
        if safe is False:
            self.discard.append(dyn)
            self.emit({"t": "dynamite", "seat": seat, "blast": True})
            self.push_damage(seat, 3, -1)
        else:  # no blast, or no card to reveal: it passes on (RULES.md §3 "Deck")
            nxt = self.next_living(seat)
            self.seats[nxt].in_play.append(dyn)
            self.emit({"t": "dynamite", "seat": seat, "blast": False, "to_seat": nxt})

    def f_jail_check(self, seat: int) -> None:
        s = self.seats[seat]
        jail = s.in_play_card("jail")
        if jail < 0 or not s.alive:
            return
        free = self._check(seat, "jail", self.is_heart)
        s.in_play.remove(jail)
        self.discard.append(jail)
        free = free is not False  # no card to reveal: Jail releases the player
        self.emit({"t": "jail", "seat": seat, "free": free})
        if not free:
            below = self.stack.pop()
            assert below == ("start_draw", seat)
            if self.mode == "old_classic":  # the whole turn is skipped
                self.stack.append(("end_turn", seat))
            else:  # draw as usual, play nothing
                self.stack.append(("start_draw_jailed", seat))

    def _check(self, seat: int, purpose: str, success: Callable[[int], bool]) -> bool | None:
        """Reveal 1 card (Lucky: 2) for a check; True if any try succeeds; None without cards."""
        tries = 2 if self.seats[seat].character == "lucky" else 1
        result: bool | None = None
        for _ in range(tries):
            c = self.reveal_check(seat, purpose)
            if c < 0:
                break
            ok = success(c)
            result = ok or bool(result)
        return result

    def f_start_draw(self, seat: int) -> None:
        self.phase = "draw"
        if not self.seats[seat].alive:
            self.stack.append(("end_turn", seat))
            return
        self.stack.append(("play", seat))
        self._push_draw_phase(seat)

    def f_start_draw_jailed(self, seat: int) -> None:
        self.phase = "draw"
        self.stack.append(("discard", seat))
        self._push_draw_phase(seat)

    def _push_draw_phase(self, seat: int) -> None:
        ch = self.seats[seat].character
        if ch in ("grip", "vulture_jr"):
            self.stack.append(("draw_source", seat))
        else:  # the frame that would be pushed and popped at once, run directly
            self.f_deck_draw(seat, 2)

    def f_draw_source(self, seat: int) -> None:
        self.ask(seat, "draw_source", self.draw_source_options(seat))

    def d_draw_source(self, a: Action, seat: int) -> None:
        if a.arg == "deck":
            self.stack.append(("deck_draw", seat, 2))
            return
        if a.arg == "discard":
            c = self.discard.pop()
            self.seats[seat].hand.append(c)
            self.emit({"t": "take_discard", "seat": seat, "card": CARD_FACE[c]})
        else:
            c = self.random_from_hand(a.target)
            self.seats[seat].hand.append(c)
            self.emit_private(
                {"t": "grab", "seat": seat, "from": a.target},
                [seat, a.target],
                {"card": CARD_FACE[c]},
            )
            self.after_hand_loss(a.target)
        self.stack.append(("deck_draw", seat, 1))

    def f_deck_draw(self, seat: int, k: int) -> None:
        """Draw ``k`` from the deck; Three Eyes and Instinct look at extra cards first."""
        s = self.seats[seat]
        extra = (1 if s.character == "three_eyes" and k == 2 else 0) + (
            1 if "instinct" in s.upgrades else 0
        )
        if not extra:
            got = self.draw(seat, k)
            self._red_suit(seat, got)
            return
        looked: list[int] = []
        for _ in range(k + extra):
            c = self.pop_deck()
            if c < 0:
                break
            looked.append(c)
        self.looking = looked
        self.emit_private(
            {"t": "look", "seat": seat, "n": len(looked)},
            [seat],
            {"cards": [CARD_FACE[c] for c in looked]},
        )
        self.stack += [("keep", seat), ("putback", seat, k)]

    def f_putback(self, seat: int, keep: int) -> None:
        if len(self.looking) <= keep:
            return
        self.ask(seat, "putback", self.putback_options())

    def d_putback(self, a: Action, seat: int, keep: int) -> None:
        c = next(c for c in self.looking if CARD_FACE[c] == a.arg)
        self.looking.remove(c)
        self.deck.append(c)
        self.seats[seat].known_top.append(c)
        self.emit_private({"t": "putback", "seat": seat}, [seat], {"card": a.arg})
        self.stack.append(("putback", seat, keep))

    def f_keep(self, seat: int) -> None:
        got = self.looking
        self.looking = []
        self.seats[seat].hand.extend(got)
        self.emit_private(
            {"t": "draw", "seat": seat, "n": len(got), "why": "draw"},
            [seat],
            {"cards": [CARD_FACE[c] for c in got]},
        )
        self._red_suit(seat, got)

    def _red_suit(self, seat: int, got: list[int]) -> None:
        """Red Suit: the 2nd draw-phase card is shown to all; red → draw 1 more."""
        if self.seats[seat].character != "red_suit" or len(got) < 2:
            return
        second = got[1]
        red = is_red(second)
        self.emit({"t": "show", "seat": seat, "card": CARD_FACE[second], "red": red})
        if red:
            self.draw(seat, 1, "red_suit")

    def f_play(self, seat: int) -> None:
        self.phase = "play"
        if not self.seats[seat].alive:
            self.stack.append(("end_turn", seat))
            return
        self.ask(seat, "play", self.play_options(seat))

    def d_play(self, a: Action, seat: int) -> None:
        if a.verb == "end":
            self.stack.append(("discard", seat))
            return
        self.stack.append(("play", seat))
        if a.verb == "heal":
            self.bonesetter_heal(seat, a.arg)
        else:
            self.play_card(seat, a)

    def f_discard(self, seat: int) -> None:
        self.phase = "discard"
        s = self.seats[seat]
        if s.alive and len(s.hand) > s.hp:
            self.ask(seat, "discard", self.discard_options(seat))
        else:  # the end_turn frame, run directly (it asks nothing)
            self.f_end_turn(seat)

    def d_discard(self, a: Action, seat: int) -> None:
        self.stack.append(("discard", seat))
        if a.verb == "heal":
            self.bonesetter_heal(seat, a.arg)
        else:
            self.discard_from_hand(seat, [a.arg], "hand_limit")

    def f_end_turn(self, seat: int) -> None:
        self.emit({"t": "end_turn", "seat": seat})
        nxt = self.next_living(seat)
        if nxt == self.marshal:
            self.round += 1
            if self.round == HIGH_NOON_ROUND and self.mode != "old_classic":
                self.emit({"t": "high_noon", "round": self.round})
        self.f_begin_turn(nxt)  # the begin_turn frame, run directly (it asks nothing)

    def push(self, *frames: Frame) -> None:
        """Push frames so that the first one given runs first."""
        self.stack.extend(reversed(frames))
