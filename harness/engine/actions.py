"""Actions: small immutable values with a canonical text id that round-trips.

Grammar of an action id: ``verb[:arg][@target][/extra]``

===========  ==========================================  =====================================
verb         meaning                                     examples
===========  ==========================================  =====================================
end          end the play phase                          ``end``
play         play a card from hand                       ``play:wagon`` ``play:shot@2``
                                                         ``play:snatch@3/horse`` ``play:knock_off@1/hand``
heal         Bonesetter: discard two cards for +1 ♥      ``heal:shot+ricochet``
dodge        cancel a Shot/Buckshot hit with card(s)     ``dodge:ricochet`` ``dodge:ricochet+ricochet``
flask        Flask at 1 ♥ against a hit                  ``flask``
take         take the hit / lose the ♥                   ``take``
match        discard a Shot against a Raid or in a Duel  ``match:shot``
discard      end-of-turn discard                         ``discard:duel``
draw         draw-phase source choice                    ``draw:deck`` ``draw:discard`` ``draw:hand@4``
putback      put a looked-at card back on the deck       ``putback:shot.QH``
upgrade      choose the upgrade of a new ★               ``upgrade:toughness``
bounty       choose which of the victim's ★ to take      ``bounty:instinct``
===========  ==========================================  =====================================

Cards in hand are named by type: the engine uses the most recently received copy of that type.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final, NamedTuple

from .errors import MalformedAction

VERBS: Final = frozenset(
    {"end", "play", "heal", "dodge", "flask", "take", "match", "discard", "draw", "putback",
     "upgrade", "bounty"}
)  # fmt: skip
_ID_RE: Final = re.compile(r"^([a-z]+)(?::([a-z_0-9.+A-Z]+))?(?:@(\d))?(?:/([a-z_]+))?$")


class Action(NamedTuple):
    verb: str
    arg: str = ""
    target: int = -1
    extra: str = ""

    @property
    def id(self) -> str:
        s = self.verb
        if self.arg:
            s += ":" + self.arg
        if self.target >= 0:
            s += "@" + str(self.target)
        if self.extra:
            s += "/" + self.extra
        return s

    def __str__(self) -> str:
        return self.id


def parse_action(text: str) -> Action:
    """Parse a canonical action id; raises :class:`MalformedAction` on bad syntax."""
    m = _ID_RE.match(text.strip())
    if not m or m.group(1) not in VERBS:
        raise MalformedAction(f"malformed action id {text!r}")
    verb, arg, target, extra = m.groups()
    return Action(verb, arg or "", int(target) if target is not None else -1, extra or "")


END: Final = Action("end")
TAKE: Final = Action("take")
FLASK: Final = Action("flask")


class _Ids(dict[Action, str]):
    """``action.id`` of every action seen so far: the same few hundred actions recur in every
    game, and a dict lookup is cheaper than building the text again."""

    def __missing__(self, action: Action) -> str:
        text = self[action] = action.id
        return text


action_id: Final[Callable[[Action], str]] = _Ids().__getitem__
"""``action.id``, remembered (a bound lookup: the hot paths map it over option lists)."""
