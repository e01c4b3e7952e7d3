"""Render a seat view as Markdown (for people and prompts) or JSON (for programs).

Both come from :func:`harness.views.render_context.view_context`, so they carry the same content; the
JSON form has stable field names and a ``schema_version``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template

from harness.engine import SeatView
from harness.paths import PROMPTS_DIR

from .names import feed_title as _feed_title
from .names import glossary
from .render_context import view_context


@lru_cache(maxsize=1)
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(PROMPTS_DIR),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
    )


@lru_cache(maxsize=8)
def _template(name: str) -> Template:
    return environment().get_template(name)


def render_markdown(
    view: SeatView,
    names: Sequence[str],
    locale: str = "en",
    *,
    abilities: bool = True,
    effects: bool = True,
    feed_title: str | None = None,
) -> str:
    ctx = view_context(view, names, locale)
    return markdown_from_context(ctx, abilities=abilities, effects=effects, feed_title=feed_title)


def markdown_from_context(
    ctx: dict[str, Any], *, abilities: bool = True, effects: bool = True,
    feed_title: str | None = None,
) -> str:  # fmt: skip
    locale = ctx["locale"]
    return _template(f"view.{locale}.md.j2").render(
        **ctx,
        abilities=abilities,
        effects=effects,
        feed_title=feed_title or _feed_title("decision", locale),
        g=glossary(locale),
    )


def render_json(view: SeatView, names: Sequence[str], locale: str = "en") -> dict[str, Any]:
    return view_context(view, names, locale)
