"""Role words in every locale, read from the glossaries (``harness/views/glossary/<locale>.yaml``),
as patterns that find them in the forms rendered text uses.

A role's terms are its glossary name, the names of the winning sides that stand for that role's
team (``raiders``, ``loner``, ``loners``) and, written as in field and option text, its id
(``double_agent``).  Each term becomes a pattern by the grammar of its language:

- **en**: any word also with ``s`` (``Raiders``), a final ``y`` also as ``ies`` (``Deputies``);
  words joined by spaces or ``_``.
- **ru**: each word's stem followed by any ending: final vowels, ``й`` and ``ь`` are dropped, and
  a ``к`` after a consonant too, since a fleeting vowel comes before it in some forms
  (``Одиночка`` → ``одиноч``: ``Одиночки``, ``Одиночек``); ``ё`` may be written ``е``.
- **zh**, **ja**: the term as written, inside any longer text: these languages put no spaces
  between words, and a plural adds a suffix (``劫匪们``, ``襲撃者たち``).
- **ar**: each word without its article ``ال``, with the prefixes Arabic attaches to it (a
  conjunction ``و ف``, then a preposition ``ب ك ل``, the article, or both as ``لل``) and an
  optional suffix (``ة ًا ا ون ين ان ات``): ``نائب``, ``وبالنائب``, ``والعميل المزدوج``,
  ``للمارشال``, ``المنفردون``.  Broken plurals, which no suffix makes (``مغوار`` →
  ``المغاوير``), are in the glossary as side names.

Patterns of every locale are tried longest term first, so a term that contains another one
(``保安官補``, the Deputy, contains ``保安官``, the Marshal) is found whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from harness.engine.roles import ROLES
from harness.views.names import LOCALES, glossary

# Winning sides (glossary ``sides``) whose name stands for one role's team.
SIDE_ROLE = {"raiders": "raider", "loner": "loner", "loners": "loner"}

_EDGE_BEFORE = r"(?<!\w)"
_EDGE_AFTER = r"(?!\w)"
_RU_VOWELS = "аяоеёэыиуюйь"
_AR_ARTICLE = "ال"
_AR_PREFIX = "(?:[وف]?(?:[بكل]?ال|لل|[بكل])|[وف])?"
_AR_SUFFIX = "(?:ة|ًا|ا|ون|ين|ان|ات)?"


def role_terms(locale: str) -> dict[str, list[str]]:
    """Role id → the words ``locale`` writes for it: its name, the sides that stand for it and
    (English only) the id itself."""
    g = glossary(locale)
    terms: dict[str, list[str]] = {role: [g.roles[role]] for role in ROLES}
    for side, role in SIDE_ROLE.items():
        terms[role].append(g.sides[side])
    if locale == "en":
        for role in ROLES:
            terms[role].append(role)
    return terms


def _en(term: str) -> str:
    def word(w: str) -> str:
        w = w.lower()
        if w.endswith("y"):
            return re.escape(w[:-1]) + "(?:y|ies)"
        return re.escape(w) + ("" if w.endswith("s") else "s?")

    return _EDGE_BEFORE + r"[\s_]+".join(word(w) for w in re.split(r"[\s_]+", term)) + _EDGE_AFTER


def _ru(term: str) -> str:
    def word(w: str) -> str:
        stem = w.lower().rstrip(_RU_VOWELS)
        if len(stem) > 2 and stem.endswith("к") and stem[-2] not in _RU_VOWELS:
            stem = stem[:-1]
        return re.escape(stem).replace("ё", "[её]") + r"\w*"

    return _EDGE_BEFORE + r"\s+".join(word(w) for w in term.split()) + _EDGE_AFTER


def _as_written(term: str) -> str:
    return re.escape(term)


def _ar(term: str) -> str:
    def word(w: str) -> str:
        stem = w.removeprefix(_AR_ARTICLE) if len(w) > len(_AR_ARTICLE) + 1 else w
        return _AR_PREFIX + re.escape(stem) + _AR_SUFFIX

    return _EDGE_BEFORE + r"\s+".join(word(w) for w in term.split()) + _EDGE_AFTER


GRAMMAR: dict[str, Callable[[str], str]] = {
    "en": _en,
    "ru": _ru,
    "zh": _as_written,
    "ja": _as_written,
    "ar": _ar,
}


@lru_cache(maxsize=1)
def role_patterns() -> tuple[tuple[str, str], ...]:
    """(role, pattern) for every term of every locale, longest term first.  A term another
    pattern of its role already finds in it (``Raiders`` after ``Raider``, ``劫匪们`` after
    ``劫匪``) adds no pattern."""
    found: dict[str, tuple[int, str]] = {}
    for locale in LOCALES:
        grammar = GRAMMAR[locale]
        for role, terms in role_terms(locale).items():
            mine: list[re.Pattern[str]] = []
            for term in terms:
                if any(p.search(term) for p in mine):
                    continue
                pattern = grammar(term)
                mine.append(re.compile(pattern, re.IGNORECASE))
                found.setdefault(pattern, (len(term), role))
    ordered = sorted(found.items(), key=lambda item: -item[1][0])
    return tuple((role, pattern) for pattern, (_, role) in ordered)


@lru_cache(maxsize=1)
def role_word_starts() -> str:
    """Every letter a role word can begin with (Arabic: an attached prefix or the article), as
    a regex character class: a text is searched for role words only where one may start."""
    starts: set[str] = set()
    for locale in LOCALES:
        for terms in role_terms(locale).values():
            for term in terms:
                starts.update(term[0].lower() + term[0].upper())
                if locale == "ar":
                    starts.update("وفبكل" + _AR_ARTICLE + term.removeprefix(_AR_ARTICLE)[0])
    return "[" + "".join(re.escape(c) for c in sorted(starts)) + "]"


__all__ = ["GRAMMAR", "SIDE_ROLE", "role_patterns", "role_terms", "role_word_starts"]
