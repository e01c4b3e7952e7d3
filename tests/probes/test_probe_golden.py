"""Golden probe messages (tests/golden/probes_*.md), one game per locale: a change in wording
shows up as a reviewable diff.  Regenerate with `python -m tests.probes.golden`."""

from __future__ import annotations

import difflib

import pytest

from .golden import AT, GAMES, path, produce


@pytest.mark.parametrize(("name", "seats", "mode", "seed", "locale"), GAMES)
def test_probe_messages_match_the_golden_files(
    name: str, seats: int, mode: str, seed: int, locale: str
) -> None:
    fresh = produce(seats, mode, seed, locale)
    stored = path(name).read_text(encoding="utf-8")
    if fresh != stored:
        diff = "".join(list(difflib.unified_diff(
            stored.splitlines(True), fresh.splitlines(True), "golden", "fresh"))[:60])  # fmt: skip
        pytest.fail(f"{path(name).name} differs (python -m tests.probes.golden):\n{diff}")
    assert fresh.count("## Decision") == len(AT)
