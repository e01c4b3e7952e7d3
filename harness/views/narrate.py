"""Event feed lines: each engine event type is a jinja2 macro in ``prompts/events.<locale>.j2``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.paths import PROMPTS_DIR

from .names import card_label, card_name, mode_name, role_name, upgrade_name

_WHY = {
    "en": {
        "deal": "deal", "wagon": "Wagon", "caravan": "Caravan", "bazaar": "Bazaar",
        "stone_leopard": "Stone Leopard", "empty_hands": "Empty Hands", "red_suit": "Red Suit",
        "vulture_jr": "Vulture Jr.", "bounty": "bounty", "raider_reward": "reward for a Raider",
        "hand_limit": "hand limit", "knock_off": "Knock Off", "eliminated": "eliminated",
        "bonesetter": "Bonesetter", "flask": "Flask", "saloon": "Saloon", "glory": "glory",
        "last_bullet": "last bullet", "penalty": "penalty",
    },
    "ru": {
        "deal": "раздача", "wagon": "Обоз", "caravan": "Караван", "bazaar": "Базар",
        "stone_leopard": "Каменный Барс", "empty_hands": "Пустые Руки", "red_suit": "Красная Масть",
        "vulture_jr": "Стервятник-младший", "bounty": "награда за голову",
        "raider_reward": "награда за Налётчика", "hand_limit": "лимит руки",
        "knock_off": "Сбросить", "eliminated": "выбыл", "bonesetter": "Костоправ",
        "flask": "Фляга", "saloon": "Салун", "glory": "слава", "last_bullet": "последний патрон",
        "penalty": "штраф",
    },
}  # fmt: skip
_SIDE = {
    "en": {
        "law": "the Law",
        "raiders": "the Raiders",
        "loner": "the Loner",
        "loners": "the Loners",
    },
    "ru": {"law": "Закон", "raiders": "Налётчики", "loner": "Одиночка", "loners": "Одиночки"},
}


class Narrator:
    """Turns engine events (as a seat saw them) into one line of text each."""

    def __init__(self, names: Sequence[str], locale: str = "en") -> None:
        self.names = list(names)
        self.locale = locale
        helpers = {
            "name": self.name,
            "card": lambda f: card_label(f, locale),
            "cards": lambda fs: ", ".join(card_label(f, locale) for f in fs),
            "role": lambda r: role_name(r, locale),
            "mode": lambda m: mode_name(m, locale),
            "upgrade": lambda u: upgrade_name(u, locale),
            "what": lambda w: (
                ("рука" if locale == "ru" else "hand") if w == "hand" else card_name(w, locale)
            ),
            "why": lambda w: _WHY[locale].get(w, w),
            "side": lambda s: _SIDE[locale][s],
        }
        self._helpers = _Attr(helpers)
        self._module = _module(locale)

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def line(self, event: dict[str, Any]) -> str:
        macro = getattr(self._module, "ev_" + event["t"], None)
        if macro is None:
            return f"[{event['t']}]"
        return str(macro(_Attr(event), self._helpers)).strip()

    def lines(self, events: Sequence[dict[str, Any]]) -> list[str]:
        out = []
        for e in events:
            text = self.line(e)
            if text:
                out.append(text)
        return out


class _Attr(dict[str, Any]):
    """A dict whose keys jinja2 can also read as attributes (``e.seat``)."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


@lru_cache(maxsize=4)
def _module(locale: str) -> Any:
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR), undefined=StrictUndefined, autoescape=False
    )
    return env.get_template(f"events.{locale}.j2").make_module()
