"""Legal options of every decision kind, in a deterministic canonical order.

Order: card types in the order of RULES.md §1, then target seat, then the named card; the
"do nothing" option (``end``, ``take``) comes last.
"""

from __future__ import annotations

from .actions import END, FLASK, TAKE, Action
from .cards import CARD_FACE, CARD_TYPE, CARD_TYPES, TYPE_ORDER, WEAPON_RANGE
from .roles import MAX_SEATS, UPGRADES
from .state import GameState, Seat

_SELF_BLUE = ("cover", "horse", "scope", "dynamite")
_UNTARGETED = ("raid", "wagon", "bazaar", "caravan", "buckshot")

# Card types by their place in RULES.md §1, and each physical card's place: sorting small ints
# is the hot path of every decision.
_TYPE_IDS: tuple[str, ...] = tuple(t.id for t in CARD_TYPES)
_CARD_ORDER: tuple[int, ...] = tuple(TYPE_ORDER[t] for t in CARD_TYPE)

# How a card type is offered in the play phase (the branches of ``play_options``); a Ricochet is
# not playable in the play phase, except by Two-Face, who plays it as a Shot.
_NONE, _SHOT, _FLASK, _SNATCH, _KNOCK, _DUEL, _PLAIN, _SALOON, _JAIL, _SELF = range(10)
_PLAY_KIND: dict[str, int] = {
    "shot": _SHOT, "ricochet": _NONE, "flask": _FLASK, "snatch": _SNATCH,
    "knock_off": _KNOCK, "duel": _DUEL, "saloon": _SALOON, "jail": _JAIL,
    **{t: _PLAIN for t in _UNTARGETED}, **{t: _PLAIN for t in WEAPON_RANGE},
    **{t: _SELF for t in _SELF_BLUE},
}  # fmt: skip

# Every play action built once, indexed by the card type's place: options hand out these shared
# (immutable) values.
_KIND_AT: tuple[int, ...] = tuple(_PLAY_KIND[t] for t in _TYPE_IDS)
_KIND_AT_TWO_FACE: tuple[int, ...] = tuple(
    _SHOT if t == "ricochet" else _PLAY_KIND[t] for t in _TYPE_IDS
)
_PLAY: tuple[Action, ...] = tuple(Action("play", t) for t in _TYPE_IDS)
_PLAY_AT: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("play", t, j) for j in range(MAX_SEATS)) for t in _TYPE_IDS
)
_TAKE_NAMES = (*_TYPE_IDS, "hand")
_PLAY_TAKE: tuple[tuple[dict[str, Action], ...], ...] = tuple(
    tuple({w: Action("play", t, j, w) for w in _TAKE_NAMES} for j in range(MAX_SEATS))
    for t in _TYPE_IDS
)
_DISCARD: dict[str, Action] = {t: Action("discard", t) for t in _TYPE_IDS}
_HEAL: dict[tuple[str, str], Action] = {
    (a, b): Action("heal", f"{a}+{b}") for i, a in enumerate(_TYPE_IDS) for b in _TYPE_IDS[i:]
}
_DODGE: dict[str, Action] = {
    w: Action("dodge", w)
    for w in ("ricochet", "shot", "ricochet+ricochet", "ricochet+shot", "shot+shot")
}
_MATCH: dict[str, Action] = {w: Action("match", w) for w in ("shot", "ricochet")}
_DRAW_DECK = Action("draw", "deck")
_DRAW_DISCARD = Action("draw", "discard")
_DRAW_HAND: tuple[Action, ...] = tuple(Action("draw", "hand", j) for j in range(MAX_SEATS))
_PUTBACK: dict[str, Action] = {f: Action("putback", f) for f in CARD_FACE}
_UPGRADE: dict[str, Action] = {u: Action("upgrade", u) for u in UPGRADES}
_BOUNTY: dict[str, Action] = {u: Action("bounty", u) for u in UPGRADES}


def hand_types(s: Seat) -> list[str]:
    """Distinct card types in hand, in canonical order."""
    return list(map(_TYPE_IDS.__getitem__, sorted(set(map(_CARD_ORDER.__getitem__, s.hand)))))


def takeable(t: Seat) -> list[str]:
    """What Snatch/Knock Off may name on ``t``: in-play card types, the weapon, ``hand``."""
    order = _CARD_ORDER
    places = [order[c] for c in t.in_play]
    if t.weapon >= 0:
        places.append(order[t.weapon])
    places.sort()
    ids = _TYPE_IDS
    names = [ids[i] for i in places]
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
                    out.append(_HEAL[a, b])
        return out

    def play_options(self, seat: int) -> tuple[Action, ...]:
        seats = self.seats
        s = seats[seat]
        opts: list[Action] = []
        others: list[int] | None = None  # living seats but this one, in seat order
        in_range: list[int] | None = None  # the seats a Shot reaches
        kinds = _KIND_AT_TWO_FACE if s.character == "two_face" else _KIND_AT

        for i in sorted(set(map(_CARD_ORDER.__getitem__, s.hand))):
            kind = kinds[i]
            if kind == _NONE:
                continue
            if kind == _SHOT:
                if self.shots_used == 0 or self.unlimited_shots(s):
                    if in_range is None:
                        in_range = self.seats_within(seat, s.weapon_range)
                    opts.extend(map(_PLAY_AT[i].__getitem__, in_range))
            elif kind == _PLAIN:
                opts.append(_PLAY[i])
            elif kind == _SELF:
                if not s.has_in_play(_TYPE_IDS[i]):
                    opts.append(_PLAY[i])
            elif kind == _FLASK:
                if (
                    not self.high_noon
                    and s.hp < s.max_hp
                    and not (self.mode == "old_classic" and self.n_alive() == 2)
                ):
                    opts.append(_PLAY[i])
            elif kind == _SNATCH:
                by_target = _PLAY_TAKE[i]
                for j in self.seats_within(seat, 1):
                    opts.extend(map(by_target[j].__getitem__, takeable(seats[j])))
            elif kind == _KNOCK:
                others = self.others_by_index(seat) if others is None else others
                by_target = _PLAY_TAKE[i]
                for j in others:
                    opts.extend(map(by_target[j].__getitem__, takeable(seats[j])))
            elif kind == _DUEL:
                others = self.others_by_index(seat) if others is None else others
                opts.extend(map(_PLAY_AT[i].__getitem__, others))
            elif kind == _SALOON:
                if not self.high_noon:
                    opts.append(_PLAY[i])
            elif kind == _JAIL:
                others = self.others_by_index(seat) if others is None else others
                acts = _PLAY_AT[i]
                opts.extend(
                    [
                        acts[j]
                        for j in others
                        if seats[j].role != "marshal" and not seats[j].has_in_play("jail")
                    ]
                )
        if s.character == "bonesetter":
            opts.extend(self.heal_options(s))
        opts.append(END)
        return tuple(opts)

    def discard_options(self, seat: int) -> tuple[Action, ...]:
        s = self.seats[seat]
        opts = list(map(_DISCARD.__getitem__, hand_types(s)))
        if s.character == "bonesetter":
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
                opts.append(_DODGE["ricochet"])
            if n_shot:
                opts.append(_DODGE["shot"])
        else:  # Ruling R-7: the required cards are discarded together
            if n_ric >= 2:
                opts.append(_DODGE["ricochet+ricochet"])
            if n_ric and n_shot:
                opts.append(_DODGE["ricochet+shot"])
            if n_shot >= 2:
                opts.append(_DODGE["shot+shot"])
        if s.hp == 1 and self.n_alive() >= 3 and not self.high_noon and s.hand_card("flask") >= 0:
            opts.append(FLASK)
        if s.character == "bonesetter":
            opts.extend(self.heal_options(s))
        opts.append(TAKE)
        return tuple(opts)

    def match_options(self, seat: int) -> tuple[Action, ...]:
        """Raid and Duel: discard a Shot (Two-Face: or a Ricochet), or lose 1 ♥."""
        s = self.seats[seat]
        opts: list[Action] = []
        if s.hand_card("shot") >= 0:
            opts.append(_MATCH["shot"])
        if s.character == "two_face" and s.hand_card("ricochet") >= 0:
            opts.append(_MATCH["ricochet"])
        if s.character == "bonesetter":
            opts.extend(self.heal_options(s))
        opts.append(TAKE)
        return tuple(opts)

    def draw_source_options(self, seat: int) -> tuple[Action, ...]:
        s = self.seats[seat]
        opts = [_DRAW_DECK]
        if s.character == "grip":
            opts.extend(_DRAW_HAND[j] for j in self.others_by_index(seat) if self.seats[j].hand)
        elif s.character == "vulture_jr" and self.discard:
            opts.append(_DRAW_DISCARD)
        return tuple(opts)

    def putback_options(self) -> tuple[Action, ...]:
        faces: list[str] = []
        for c in self.looking:
            f = CARD_FACE[c]
            if f not in faces:
                faces.append(f)
        return tuple(map(_PUTBACK.__getitem__, faces))

    def upgrade_options(self, seat: int) -> tuple[Action, ...]:
        has = self.seats[seat].upgrades
        return tuple(_UPGRADE[u] for u in UPGRADES if not (u == "instinct" and "instinct" in has))

    def bounty_options(self, seat: int, victim: int) -> tuple[Action, ...]:
        theirs = self.seats[victim].upgrades
        has = self.seats[seat].upgrades
        opts = [
            _BOUNTY[u]
            for u in UPGRADES
            if u in theirs and not (u == "instinct" and "instinct" in has)
        ]
        if not opts:  # only an Instinct ★ is left and he already has Instinct: the ★ still moves
            opts = [_BOUNTY["instinct"]]
        return tuple(opts)
