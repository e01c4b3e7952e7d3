"""Legal options of every decision kind, in a deterministic canonical order.

Order: card types in the order of RULES.md §1, then target seat, then the named card; the
"do nothing" option (``end``, ``take``) comes last.
"""

from __future__ import annotations

from .actions import END, TAKE, Action
from .cards import CARD_FACE, CARD_TYPE, TYPE_ORDER, WEAPON_RANGE
from .roles import UPGRADES
from .state import GameState, Seat

_SELF_BLUE = ("cover", "horse", "scope", "dynamite")
_UNTARGETED = ("raid", "wagon", "bazaar", "caravan", "buckshot")


def hand_types(s: Seat) -> list[str]:
    """Distinct card types in hand, in canonical order."""
    seen = {CARD_TYPE[c] for c in s.hand}
    return sorted(seen, key=TYPE_ORDER.__getitem__)


def takeable(t: Seat) -> list[str]:
    """What Snatch/Knock Off may name on ``t``: in-play card types, the weapon, ``hand``."""
    names = [CARD_TYPE[c] for c in t.in_play]
    if t.weapon >= 0:
        names.append(CARD_TYPE[t.weapon])
    names.sort(key=TYPE_ORDER.__getitem__)
    if t.hand:
        names.append("hand")
    return names


class OptionsMixin(GameState):
    def can_heal(self, s: Seat) -> bool:
        """Bonesetter's ability: not at max, not at 0, not in High Noon (R-4), 2+ cards."""
        return (
            s.character == "bonesetter"
            and 0 < s.hp < s.max_hp
            and len(s.hand) >= 2
            and not self.high_noon
        )

    def heal_options(self, s: Seat) -> list[Action]:
        if not self.can_heal(s):
            return []
        types = hand_types(s)
        out = []
        for i, a in enumerate(types):
            for b in types[i:]:
                if a != b or s.count_in_hand(a) >= 2:
                    out.append(Action("heal", f"{a}+{b}"))
        return out

    def play_options(self, seat: int) -> tuple[Action, ...]:
        s = self.seats[seat]
        seats = self.seats
        opts: list[Action] = []
        others = self.others_in_turn_order(seat)
        others.sort()
        can_shoot = self.shots_used == 0 or self.unlimited_shots(s)
        high_noon = self.high_noon
        dist: dict[int, int] = {}

        def d(j: int) -> int:
            v = dist.get(j)
            if v is None:
                v = dist[j] = self.distance(seat, j)
            return v

        for t in hand_types(s):
            if t == "shot" or (t == "ricochet" and s.character == "two_face"):
                if can_shoot:
                    rng = s.weapon_range
                    opts.extend(Action("play", t, j) for j in others if d(j) <= rng)
            elif t == "flask":
                if (
                    not high_noon
                    and s.hp < s.max_hp
                    and not (self.mode == "old_classic" and self.n_alive() == 2)
                ):
                    opts.append(Action("play", "flask"))
            elif t == "snatch" or t == "knock_off":
                for j in others:
                    if t == "snatch" and d(j) > 1:
                        continue
                    opts.extend(Action("play", t, j, what) for what in takeable(seats[j]))
            elif t == "duel":
                opts.extend(Action("play", t, j) for j in others)
            elif t in _UNTARGETED:
                opts.append(Action("play", t))
            elif t == "saloon":
                if not high_noon:
                    opts.append(Action("play", t))
            elif t == "jail":
                opts.extend(
                    Action("play", t, j)
                    for j in others
                    if seats[j].role != "marshal" and not seats[j].has_in_play("jail")
                )
            elif t in _SELF_BLUE:
                if not s.has_in_play(t):
                    opts.append(Action("play", t))
            elif t in WEAPON_RANGE:
                opts.append(Action("play", t))
        opts.extend(self.heal_options(s))
        opts.append(END)
        return tuple(opts)

    def discard_options(self, seat: int) -> tuple[Action, ...]:
        s = self.seats[seat]
        opts = [Action("discard", t) for t in hand_types(s)]
        opts.extend(self.heal_options(s))
        return tuple(opts)

    def shot_response_options(self, target: int, needed: int) -> tuple[Action, ...]:
        """RULES.md §5: Ricochet(s), Flask at 1 ♥ with 3+ alive, Bonesetter heal, take the hit."""
        s = self.seats[target]
        n_ric = s.count_in_hand("ricochet")
        n_shot = s.count_in_hand("shot") if s.character == "two_face" else 0
        opts: list[Action] = []
        if needed == 1:
            if n_ric:
                opts.append(Action("dodge", "ricochet"))
            if n_shot:
                opts.append(Action("dodge", "shot"))
        else:  # Ruling R-7: the required cards are discarded together
            if n_ric >= 2:
                opts.append(Action("dodge", "ricochet+ricochet"))
            if n_ric and n_shot:
                opts.append(Action("dodge", "ricochet+shot"))
            if n_shot >= 2:
                opts.append(Action("dodge", "shot+shot"))
        if s.hp == 1 and self.n_alive() >= 3 and not self.high_noon and s.hand_card("flask") >= 0:
            opts.append(Action("flask"))
        opts.extend(self.heal_options(s))
        opts.append(TAKE)
        return tuple(opts)

    def match_options(self, seat: int) -> tuple[Action, ...]:
        """Raid and Duel: discard a Shot (Two-Face: or a Ricochet), or lose 1 ♥."""
        s = self.seats[seat]
        opts: list[Action] = []
        if s.hand_card("shot") >= 0:
            opts.append(Action("match", "shot"))
        if s.character == "two_face" and s.hand_card("ricochet") >= 0:
            opts.append(Action("match", "ricochet"))
        opts.extend(self.heal_options(s))
        opts.append(TAKE)
        return tuple(opts)

    def draw_source_options(self, seat: int) -> tuple[Action, ...]:
        s = self.seats[seat]
        opts = [Action("draw", "deck")]
        if s.character == "grip":
            opts.extend(
                Action("draw", "hand", j)
                for j in sorted(self.others_in_turn_order(seat))
                if self.seats[j].hand
            )
        elif s.character == "vulture_jr" and self.discard:
            opts.append(Action("draw", "discard"))
        return tuple(opts)

    def putback_options(self) -> tuple[Action, ...]:
        faces: list[str] = []
        for c in self.looking:
            f = CARD_FACE[c]
            if f not in faces:
                faces.append(f)
        return tuple(Action("putback", f) for f in faces)

    def upgrade_options(self, seat: int) -> tuple[Action, ...]:
        has = self.seats[seat].upgrades
        return tuple(
            Action("upgrade", u) for u in UPGRADES if not (u == "instinct" and "instinct" in has)
        )

    def bounty_options(self, seat: int, victim: int) -> tuple[Action, ...]:
        theirs = self.seats[victim].upgrades
        has = self.seats[seat].upgrades
        opts = [
            Action("bounty", u)
            for u in UPGRADES
            if u in theirs and not (u == "instinct" and "instinct" in has)
        ]
        if not opts:  # only an Instinct ★ is left and he already has Instinct: the ★ still moves
            opts = [Action("bounty", "instinct")]
        return tuple(opts)
