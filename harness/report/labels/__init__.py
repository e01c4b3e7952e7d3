"""The words of the HTML report's own pages in every language: one label file per locale
(``<locale>.yaml``), separate from the game's glossary (:mod:`harness.views.glossary`, which names
roles, modes, cards and sides; the report takes those from there).

A label file holds

* ``page`` — headings, table headers, notes, buttons and hints of ``index.html``;
* ``charts`` — chart titles, axis and legend words and tooltips;
* ``viewer`` — the replay viewer's words, read by ``static/report.js`` from the page's JSON;
* ``quiz`` — the rules-quiz page;
* ``kinds``, ``fallback_reasons`` — a player's kind and why a decision fell back;
* ``counts`` — counted nouns, one form per plural category of the locale (the CLDR rule of
  ``prompts/plural.j2``: en one/other, ru one/few/many, ar one/two/few/many/other, zh and ja
  other); every form holds ``{n}``, except the Arabic one and two, which say the number in
  the noun (as ``prompts/plural.ar.j2`` does).

Texts may hold ``{name}`` placeholders, filled by :func:`fill`.  Every file must have exactly the
keys of the English one; a file that misses or invents a key fails with one line naming it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from harness.locale_files import key_mismatch, read_locale_file
from harness.views.glossary import LOCALES
from harness.views.render import environment

__all__ = [
    "LABELS_DIR",
    "PLURAL_FORMS",
    "LabelError",
    "ReportLabels",
    "count",
    "fill",
    "labels",
    "load_labels",
    "plural_category",
    "plural_table",
]

LABELS_DIR = Path(__file__).resolve().parent
# The plural categories of whole numbers each locale distinguishes (prompts/plural.j2).
PLURAL_FORMS: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "ru": ("one", "few", "many"),
    "zh": ("other",),
    "ja": ("other",),
    "ar": ("one", "two", "few", "many", "other"),
}
SECTIONS = ("page", "charts", "viewer", "quiz", "kinds", "fallback_reasons", "counts")
_FIELD = re.compile(r"\{(\w+)\}")


class LabelError(ValueError):
    """A label file that cannot be used; the message is one line."""


class ReportLabels(BaseModel):
    """The words of the report's pages in one locale."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    locale: str = Field(pattern=r"^[a-z]{2}$")
    page: dict[str, str]
    charts: dict[str, str]
    viewer: dict[str, str]
    quiz: dict[str, str]
    kinds: dict[str, str]
    fallback_reasons: dict[str, str]
    counts: dict[str, dict[str, str]]

    @model_validator(mode="after")
    def _well_formed(self) -> ReportLabels:
        if self.locale not in PLURAL_FORMS:
            raise ValueError(f"unknown locale {self.locale!r}")
        forms = PLURAL_FORMS[self.locale]
        for section in SECTIONS[:-1]:
            empty = [k for k, v in getattr(self, section).items() if not v.strip()]
            if empty:
                raise ValueError(f"{section}: empty {', '.join(empty)}")
        for noun, got in self.counts.items():
            if sorted(got) != sorted(forms):
                raise ValueError(
                    f"counts.{noun}: forms {', '.join(got)}; {self.locale} needs {', '.join(forms)}"
                )
            for form, text in got.items():
                numberless = self.locale == "ar" and form in ("one", "two")
                if "{n}" not in text and not numberless:
                    raise ValueError(f"counts.{noun}.{form}: no {{n}} in {text!r}")
        return self

    def keys(self) -> dict[str, list[str]]:
        """The label keys of every section (the counted nouns for ``counts``)."""
        return {s: sorted(getattr(self, s)) for s in SECTIONS}


def _compare(got: ReportLabels, ref: ReportLabels, name: str) -> None:
    have = got.keys()
    for section, keys in ref.keys().items():
        mismatch = key_mismatch(section, have[section], keys)
        if mismatch:
            raise LabelError(f"labels {name}: {mismatch}")
    for section in SECTIONS[:-1]:
        for key, text in getattr(ref, section).items():
            want = sorted(set(_FIELD.findall(text)))
            found = sorted(set(_FIELD.findall(getattr(got, section)[key])))
            if want != found:
                raise LabelError(
                    f"labels {name}: {section}.{key}: placeholders {found}, expected {want}"
                )


def load_labels(path: Path, reference: ReportLabels | None = None) -> ReportLabels:
    """Read and validate one label file (against the English ``reference`` when given);
    :class:`LabelError` (one line) when unusable."""
    got = read_locale_file(path, ReportLabels, "labels", LabelError)
    if reference is not None:
        _compare(got, reference, path.name)
    return got


@lru_cache(maxsize=len(LOCALES))
def labels(locale: str) -> ReportLabels:
    """The report labels of ``locale`` (one of the glossary's locales), checked against English."""
    if locale not in LOCALES:
        raise LabelError(f"no report labels for locale {locale[:8]!r}; known: {', '.join(LOCALES)}")
    english = load_labels(LABELS_DIR / "en.yaml")
    return english if locale == "en" else load_labels(LABELS_DIR / f"{locale}.yaml", english)


def fill(text: str, **values: Any) -> str:
    """``text`` with every ``{name}`` replaced by ``values[name]``."""
    return _FIELD.sub(lambda m: str(values[m.group(1)]), text)


@lru_cache(maxsize=1)
def _plural_macro() -> Any:
    return environment().get_template("plural.j2").module.category  # type: ignore[attr-defined]


@lru_cache(maxsize=4096)
def plural_category(n: int, locale: str) -> str:
    """The plural category of ``n`` in ``locale``, by the rule of ``prompts/plural.j2``."""
    return str(_plural_macro()(n, locale)).strip()


def plural_table(locale: str) -> list[str]:
    """Categories of 0 … 199: the category of any ``n`` is ``table[n]`` below 200, else
    ``table[100 + n % 100]`` (every rule reads only ``n`` below 3 and ``n % 100``); the page's
    script counts with it."""
    return [plural_category(n, locale) for n in range(200)]


def count(n: int, noun: str, words: ReportLabels, shown: str | None = None) -> str:
    """``n`` with ``noun`` in the right form (``shown``: how the number is written)."""
    forms = words.counts[noun]
    form = forms.get(plural_category(n, words.locale)) or forms.get("other") or forms["many"]
    return fill(form, n=shown if shown is not None else n)
