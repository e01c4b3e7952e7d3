"""Attacks, responses, damage, elimination (Ruling R-9), glory and victory (RULES.md §5, §7, §8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action
from .cards import CARD_FACE
from .hand import HandMixin
from .roles import TEAM_OF
from .state import DecisionKind, Frame


class CombatMixin(HandMixin):
    if TYPE_CHECKING:  # provided by the other parts of Game

        def ask(self, seat: int, kind: DecisionKind, options: tuple[Action, ...]) -> None: ...
        def push(self, *frames: Frame) -> None: ...
        def shot_response_options(self, target: int, needed: int) -> tuple[Action, ...]: ...
        def match_options(self, seat: int) -> tuple[Action, ...]: ...
        def upgrade_options(self, seat: int) -> tuple[Action, ...]: ...
        def bounty_options(self, seat: int, victim: int) -> tuple[Action, ...]: ...

    # ------------------------------------------------------------ Shot, Buckshot
    def f_shot_hit(self, attacker: int, target: int, needed: int, src: str) -> None:
        t = self.seats[target]
        if not t.alive:
            return
        if t.has_cover and not self.high_noon and self._cover(target):
            needed -= 1
            if needed == 0:
                self.emit({"t": "miss", "seat": target, "by": attacker, "how": "cover"})
                return
        self.stack.append(("respond_shot", attacker, target, needed, src))

    def _cover(self, seat: int) -> bool:
        """A Cover check: a fair coin (old_classic: reveal a card, ♥ wins); Lucky tries twice.
        Ruling R-6: a Cover card and Iron Brow's built-in Cover give one check, not two."""
        tries = 2 if self.seats[seat].character == "lucky" else 1
        ok = False
        for _ in range(tries):
            if self.mode == "old_classic":
                c = self.reveal_check(seat, "cover")
                if c < 0:
                    break  # no card anywhere: Cover does not block
                ok = ok or self.is_heart(c)
            else:
                ok = self.coin(seat) or ok
        return ok

    def f_respond_shot(self, attacker: int, target: int, needed: int, src: str) -> None:
        self.ask(target, "respond_shot", self.shot_response_options(target, needed))

    def d_respond_shot(self, a: Action, attacker: int, target: int, needed: int, src: str) -> None:
        if a.verb == "take":  # the damage frame would run next: run it directly
            self.f_damage(target, 1, attacker)
        elif a.verb == "dodge":
            self.discard_from_hand(target, a.arg.split("+"), "dodge")
            self.emit({"t": "miss", "seat": target, "by": attacker, "how": "ricochet"})
        elif a.verb == "flask":
            self.discard_from_hand(target, ["flask"], "flask")
            self.emit({"t": "miss", "seat": target, "by": attacker, "how": "flask"})
        else:  # Bonesetter heals before the hit lands, then answers again
            self.bonesetter_heal(target, a.arg)
            self.stack.append(("respond_shot", attacker, target, needed, src))

    # ------------------------------------------------------------------- Raid
    def f_respond_raid(self, attacker: int, target: int) -> None:
        if self.seats[target].alive:
            self.ask(target, "respond_raid", self.match_options(target))

    def d_respond_raid(self, a: Action, attacker: int, target: int) -> None:
        if a.verb == "take":  # the damage frame would run next: run it directly
            self.f_damage(target, 1, attacker)
        elif a.verb == "match":
            self.discard_from_hand(target, [a.arg], "raid")
        else:
            self.bonesetter_heal(target, a.arg)
            self.stack.append(("respond_raid", attacker, target))

    # ------------------------------------------------------------------- Duel
    def f_respond_duel(self, challenger: int, target: int, current: int) -> None:
        if self.seats[challenger].alive and self.seats[target].alive:
            self.ask(current, "respond_duel", self.match_options(current))

    def d_respond_duel(self, a: Action, challenger: int, target: int, current: int) -> None:
        other = challenger if current == target else target
        if a.verb == "take":  # the damage frame would run next: run it directly
            self.f_damage(current, 1, other)
        elif a.verb == "match":
            self.discard_from_hand(current, [a.arg], "duel")
            self.stack.append(("respond_duel", challenger, target, other))
        else:
            self.bonesetter_heal(current, a.arg)
            self.stack.append(("respond_duel", challenger, target, current))

    # ----------------------------------------------------------------- damage
    def push_damage(self, victim: int, amount: int, source: int) -> None:
        self.stack.append(("damage", victim, amount, source))

    def f_damage(self, victim: int, amount: int, source: int) -> None:
        v = self.seats[victim]
        if not v.alive:
            return
        v.hp = max(0, v.hp - amount)
        self.emit({"t": "hit", "seat": victim, "by": source, "n": amount, "hp": v.hp})
        if v.hp == 0:
            self.stack.append(("eliminate", victim, source))
            return
        # After-hit abilities apply to a player who survives the hit.
        if v.character == "stone_leopard":
            self.draw(victim, 2 if v.hp <= 2 else 1, "stone_leopard")
        elif v.character == "collector" and source >= 0 and self.seats[source].hand:
            c = self.random_from_hand(source)
            v.hand.append(c)
            self.emit_private(
                {"t": "collect", "seat": victim, "from": source},
                [victim, source],
                {"card": CARD_FACE[c]},
            )
            self.after_hand_loss(source)

    # ------------------------------------------------------- elimination R-9
    def f_eliminate(self, victim: int, source: int) -> None:
        seats = self.seats
        v = seats[victim]
        v.alive = False
        # 1-2: the role is revealed; the eliminator is the source of the last damage.
        self.emit({"t": "eliminated", "seat": victim, "by": source, "role": v.role})
        # 3: a living Scavenger takes hand and in-play cards; otherwise they are discarded.
        table = list(v.in_play)
        if v.weapon >= 0:
            table.append(v.weapon)
        hand = v.hand
        v.hand, v.in_play, v.weapon = [], [], -1
        scavenger = next((s for s in seats if s.alive and s.character == "scavenger"), None)
        if scavenger is not None:
            scavenger.hand.extend(table + hand)
            self.emit_private(
                {"t": "scavenge", "seat": scavenger.index, "from": victim,
                 "in_play": [CARD_FACE[c] for c in table], "n_hand": len(hand)},
                [scavenger.index, victim],
                {"hand": [CARD_FACE[c] for c in hand]},
            )  # fmt: skip
        else:
            self.discard.extend(table + hand)
            if table or hand:
                self.emit(
                    {"t": "discard", "seat": victim, "why": "eliminated",
                     "cards": [CARD_FACE[c] for c in table + hand]}
                )  # fmt: skip
        # 4: a living Vulture Jr. draws 2.
        for s in seats:
            if s.alive and s.character == "vulture_jr":
                self.draw(s.index, 2, "vulture_jr")
        # 5: penalty — the Marshal eliminated a Deputy.
        if source == self.marshal and v.role == "deputy":
            m = seats[self.marshal]
            lost = m.hand + m.in_play + ([m.weapon] if m.weapon >= 0 else [])
            m.hand, m.in_play, m.weapon = [], [], -1
            self.discard.extend(lost)
            self.emit({"t": "penalty", "seat": self.marshal, "cards": [CARD_FACE[c] for c in lost]})
            self.after_hand_loss(self.marshal)
        # 6: victory.
        if self._check_victory():
            return
        # 8 (old_classic): whoever eliminates a raider draws 3.
        if self.mode == "old_classic":
            if v.role == "raider" and source >= 0 and seats[source].alive:
                self.draw(source, 3, "raider_reward")
            return
        # 7: glory, bounty, last bullet.
        frames: list[Frame] = []
        if source >= 0 and seats[source].alive:
            frames.append(("upgrade", source, "glory"))
            if v.upgrades:
                frames.append(("bounty", source, victim, len(v.upgrades)))
        if (
            v.role == "deputy"
            and seats[self.marshal].alive
            and not any(s.alive and s.role == "deputy" for s in seats)
        ):
            frames.append(("upgrade", self.marshal, "last_bullet"))
        self.push(*frames)

    def f_upgrade(self, seat: int, why: str) -> None:
        self.ask(seat, "upgrade", self.upgrade_options(seat))

    def d_upgrade(self, a: Action, seat: int, why: str) -> None:
        self._gain(seat, a.arg, why)

    def f_bounty(self, seat: int, victim: int, stars: int) -> None:
        self.ask(seat, "bounty", self.bounty_options(seat, victim))

    def d_bounty(self, a: Action, seat: int, victim: int, stars: int) -> None:
        self.seats[victim].upgrades.remove(a.arg)
        self._gain(seat, a.arg, "bounty")
        self.draw(seat, stars, "bounty")

    def _gain(self, seat: int, upgrade: str, why: str) -> None:
        s = self.seats[seat]
        s.upgrades.append(upgrade)
        if upgrade == "toughness":
            s.max_hp += 1
            s.hp += 1
        self.emit({"t": "star", "seat": seat, "upgrade": upgrade, "why": why})

    # ----------------------------------------------------------------- victory
    def _check_victory(self) -> bool:
        """RULES.md §8; on a result the game ends at once (the frame stack is dropped).
        Partners below 8 seats plays exactly as classic (one loner), so its lone winner is
        reported as ``loner``."""
        seats = self.seats
        alive = [s for s in seats if s.alive]
        if not seats[self.marshal].alive:
            if self.mode == "partners" and self.n == 8 and all(s.role == "loner" for s in alive):
                side = "loners"
                winners = [s.index for s in seats if s.role == "loner"]
            elif len(alive) == 1 and alive[0].role == "loner":
                side = "loner"
                winners = [alive[0].index]
            else:
                side = "raiders"
                winners = [s.index for s in seats if TEAM_OF[s.role] == "raiders"]
        elif not any(TEAM_OF[s.role] != "law" for s in alive):
            side = "law"
            winners = [s.index for s in seats if TEAM_OF[s.role] == "law"]
        else:
            return False
        self.winning_side = side
        self.winners = tuple(winners)
        self.stack.clear()
        self.emit({"t": "game_over", "side": side, "winners": list(winners)})
        return True
