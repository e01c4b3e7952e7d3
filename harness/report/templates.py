"""The report's shared template environment: the jinja loader of ``prompts/report/`` with the
report's filters (``pct``, ``usd``, ``num``, ``fix``, ``pp``, ``ci``), and the static files inlined
in its pages.  The index, the figures and the charts all render through :func:`environment`, so
they import it from here rather than from one another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from harness.paths import PROMPTS_DIR

__all__ = ["STATIC", "TEMPLATES", "environment", "interval_text", "static_text"]

TEMPLATES = PROMPTS_DIR / "report"
STATIC = Path(__file__).resolve().parent / "static"


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        autoescape=select_autoescape(("html", "html.j2", "svg.j2")),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = lambda x: "–" if x is None else f"{100 * x:.1f} %"
    env.filters["usd"] = lambda x: f"${x:,.4f}" if x < 100 else f"${x:,.2f}"
    env.filters["num"] = lambda x: f"{x:,}"
    env.filters["fix"] = lambda x, d=2: "—" if x is None else f"{x:.{d}f}"
    env.filters["pp"] = lambda x: "—" if x is None else f"{100 * x:+.1f}"
    env.filters["ci"] = interval_text
    return env


_INTERVAL_FORMATS: dict[str, Callable[[float], str]] = {
    "pct": lambda x: f"{100 * x:.1f} %",
    "pp": lambda x: f"{100 * x:+.1f}",
    "fix": lambda x: f"{x:.2f}",
    "fix1": lambda x: f"{x:.1f}",
    "fix3": lambda x: f"{x:.3f}",
}


def interval_text(bounds: Sequence[float | None] | None, kind: str = "pct") -> str:
    """``(41.2 % – 53.8 %)`` for a 95 % interval, ``(–)`` when there is none (one deal: every
    interval is clustered by deal, docs/statistics.md); ``kind`` is the format of the bounds."""
    lo, hi = bounds if bounds is not None else (None, None)
    if lo is None or hi is None or lo != lo or hi != hi:  # None or NaN
        return "(–)"
    fmt = _INTERVAL_FORMATS[kind]
    return f"({fmt(lo)} – {fmt(hi)})"


def static_text(name: str | Path) -> str:
    """A static file of the report (or, given a path, that file) to inline in a page."""
    text = (STATIC / name).read_text(encoding="utf-8")
    if "</script" in text.lower() or "</style" in text.lower():
        raise ValueError(f"static/{name} must not contain a closing script or style tag")
    return text
