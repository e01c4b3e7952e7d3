"""A person's name at the table: what a ``create`` or ``join`` name becomes, or why it is refused.

A name is NFKC-normalised (full-width letters, compatibility spaces and ligatures become their
plain forms), trimmed, and runs of white space become one space.  It is refused when nothing is
left, when it is longer than :data:`MAX_NAME_CHARS`, when it holds a character that can disguise
it (bidi controls, zero-width and other format characters, control, private-use or unassigned
code points, line or paragraph separators, ``<`` and ``>``), a character that shows as nothing
(:data:`INVISIBLE`: the Hangul fillers, the blank Braille pattern, invisible marks), or a combining
mark with no letter before it; and when it looks like a bot's or a model seat's name in any page
language ("Bot 2", "ИИ 3", "ボット 5": the glossary words ``bot`` and ``ai`` with a number; see
:meth:`harness.web.room_state.RoomState.names`) — compared by :func:`name_key`, so "B\u043et 2" with a
Cyrillic о, "B0t 2", "Bót 2" or "Bot-2" are refused too.
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
# Characters that are drawn as nothing but are neither format characters nor spaces: the Hangul
# fillers, the blank Braille pattern, the combining grapheme joiner, the Khmer inherent vowels and
# the Mongolian free variation selectors (Unicode's Default_Ignorable_Code_Point outside Cf, less
# the variation selectors, which only choose how the letter before them is drawn)
INVISIBLE = frozenset(
    chr(c) for c in (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F,
                     0x2800, 0x3164, 0xFFA0)
)  # fmt: skip
_SPACES = re.compile(r"\s+")
# Letters of other scripts (and Latin forms) drawn like the Latin letters of the seat names, as
# they are after casefolding; digits drawn like letters are matched in the pattern instead
_LOOKALIKE = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "ь": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԁ": "d",
        "ӏ": "i", "ԛ": "q", "ԝ": "w",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϐ": "b",
        # Latin forms
        "ı": "i", "ɪ": "i", "l": "i", "ɑ": "a", "ʙ": "b", "ᴏ": "o", "ᴛ": "t", "ȷ": "j",
    }
)  # fmt: skip
_DIGIT_LOOKALIKES = {"o": "0", "i": "1"}
_KANA_MARKS = frozenset("\u3099\u309a")  # the voicing marks make other kana, not accents


class NameRefused(ValueError):
    """A name that cannot be used (one line)."""


def name_key(name: str) -> str:
    """How ``name`` reads, for comparing names that look alike: casefolded, accents and other
    marks dropped, letters of other scripts drawn like Latin ones replaced by them, and only
    letters and digits kept ("B\u043et-2" and "bót 2" give "bot2")."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    plain = "".join(
        ch for ch in folded if ch in _KANA_MARKS or not unicodedata.category(ch).startswith("M")
    )
    plain = unicodedata.normalize("NFC", plain)  # ボ stays ボ, not ホ
    return "".join(ch for ch in plain.translate(_LOOKALIKE) if ch.isalnum())


@lru_cache(maxsize=1)
def _seat_names() -> re.Pattern[str]:
    """Keys (:func:`name_key`) of the seat names of bots and model seats: a glossary word, then
    a number."""
    keys = sorted({name_key(word(w, loc)) for loc in LOCALES for w in ("bot", "ai")}, key=len)
    alternatives = "|".join(
        "".join(f"[{re.escape(ch)}{_DIGIT_LOOKALIKES.get(ch, '')}]" for ch in key)
        for key in reversed(keys)
    )
    return re.compile(rf"^(?:{alternatives})\d+$")


def person_name(raw: str) -> str:
    """The name ``raw`` becomes at the table, or :class:`NameRefused`."""
    name = unicodedata.normalize("NFKC", raw)
    for ch in name:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _REFUSED_CHARS:
            raise NameRefused(
                f"a name cannot hold the character U+{ord(ch):04X} ({_char_name(ch)})"
            )
        if ch in INVISIBLE:
            raise NameRefused(
                f"a name cannot hold the character U+{ord(ch):04X} ({_char_name(ch)}): it shows "
                "as nothing"
            )
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise NameRefused("a name needs at least one letter, digit or sign that is not a space")
    for i, ch in enumerate(name):
        if unicodedata.category(ch).startswith("M") and (i == 0 or name[i - 1] == " "):
            raise NameRefused(
                f"a name cannot hold a mark with no letter before it: U+{ord(ch):04X} "
                f"({_char_name(ch)})"
            )
    if len(name) > MAX_NAME_CHARS:
        raise NameRefused(f"a name may be at most {MAX_NAME_CHARS} characters")
    if name == "—" or _seat_names().match(name_key(name)):
        raise NameRefused(f"{name!r} is how the table names a bot or model seat; choose another")
    return name


def _char_name(ch: str) -> str:
    return unicodedata.name(ch, unicodedata.category(ch)).lower()
