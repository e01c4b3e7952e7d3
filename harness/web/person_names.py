"""A person's name at the table: what a ``create`` or ``join`` name becomes, or why it is refused.

A name is NFKC-normalised (full-width letters, compatibility spaces and ligatures become their
plain forms), trimmed, and runs of white space become one space.  It is refused when nothing is
left, when it is longer than :data:`MAX_NAME_CHARS`, when it holds a character that can disguise
it (bidi controls, zero-width and other format characters, control, private-use or unassigned
code points, line or paragraph separators, ``<`` and ``>``), or when it reads like a bot's or a
model seat's name in any page language ("Bot 2", "ИИ 3", "ボット 5": the glossary words ``bot``
and ``ai`` with a number; see :meth:`harness.web.rooms.Room.names`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from harness.views.names import LOCALES, word

MAX_NAME_CHARS = 24
BAD_NAME = "bad_name"  # the ``code`` of the error frame for a refused name
# Cc control, Cf format (bidi controls, zero-width joiners and spaces, BOM), Cs surrogate,
# Co private use, Cn unassigned, Zl/Zp line and paragraph separators
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_REFUSED_CHARS = frozenset("<>")
_SPACES = re.compile(r"\s+")


class NameRefused(ValueError):
    """A name that cannot be used (one line)."""


@lru_cache(maxsize=1)
def _seat_names() -> re.Pattern[str]:
    words = sorted({word(w, loc).casefold() for loc in LOCALES for w in ("bot", "ai")}, key=len)
    alternatives = "|".join(re.escape(w) for w in reversed(words))
    return re.compile(rf"^(?:{alternatives})\s*\d+$|^—$")


def person_name(raw: str) -> str:
    """The name ``raw`` becomes at the table, or :class:`NameRefused`."""
    name = unicodedata.normalize("NFKC", raw)
    for ch in name:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _REFUSED_CHARS:
            raise NameRefused(
                f"a name cannot hold the character U+{ord(ch):04X} ({_char_name(ch)})"
            )
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise NameRefused("a name needs at least one letter, digit or sign that is not a space")
    if len(name) > MAX_NAME_CHARS:
        raise NameRefused(f"a name may be at most {MAX_NAME_CHARS} characters")
    if _seat_names().match(name.casefold()):
        raise NameRefused(f"{name!r} is how the table names a bot or model seat; choose another")
    return name


def _char_name(ch: str) -> str:
    return unicodedata.name(ch, unicodedata.category(ch)).lower()
