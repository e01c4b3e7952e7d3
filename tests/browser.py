"""Headless Debian chromium driven by playwright, for the browser tests.

Needs ``pip install playwright`` (never ``playwright install``: the system chromium is used) and
``apt-get install -y chromium``; :func:`require_chromium` skips the calling test module, with the
reason, when either is missing.  Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


def require_chromium() -> Any:
    """playwright's sync API; call it at module level: the module is skipped without it."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
    )
    if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)
    return sync_api


def launch() -> Iterator[Any]:
    """A headless chromium, closed after use: ``yield from launch()`` in a fixture."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield b
        finally:
            b.close()


def watch_errors(page: Any, problems: list[str]) -> None:
    """Append the console errors, page errors and failed requests of ``page`` to ``problems``."""
    page.on(
        "console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))


def open_watched(
    browser: Any, url: str, width: int, height: int
) -> tuple[Any, list[str], list[str]]:
    """A new page of ``width`` × ``height`` at ``url``, with its problems (:func:`watch_errors`)
    and every URL it requested recorded from the start: ``(page, problems, requested)``."""
    page = browser.new_page(viewport={"width": width, "height": height})
    problems: list[str] = []
    watch_errors(page, problems)
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(url)
    return page, problems, requested
