"""The rule bot plays exactly as recorded: every choice of 40 whole games (every table size and
mode, an ε-bot seated) matches tests/golden/rulebot_games.json, so a speed-up inside the bot that
changes a single decision fails here."""

from __future__ import annotations

import json

import pytest

from tests.golden.rulebot_games import FILE, GAMES, digest

RECORDED = json.loads(FILE.read_text(encoding="utf-8"))


def test_every_game_is_recorded() -> None:
    assert set(RECORDED) == {f"{n}-{m}-{s}" for n, m, s in GAMES}


@pytest.mark.parametrize(("n", "mode", "seed"), GAMES)
def test_rule_bot_game_matches_the_record(n: int, mode: str, seed: int) -> None:
    assert digest(n, mode, seed) == RECORDED[f"{n}-{mode}-{seed}"]
