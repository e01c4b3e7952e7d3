"""`bangarena prompt-stats --locale` reports token counts in every language (issue 15)."""

from __future__ import annotations

import json
import os

import pytest

from harness.cli.main import main
from harness.views.glossary import LOCALES
from harness.views.prompts import system_prompt_text

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never download a price map


def test_prompt_stats_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    results = {}
    for loc in LOCALES:
        argv = ["prompt-stats", "--games", "1", "--seats", "4", "--history", "since_last",
                "--tokenizer", "gpt-4o", "--locale", loc]  # fmt: skip
        assert main(argv) == 0
        results[loc] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [r["locale"] for r in results.values()] == list(LOCALES)
    # the same seeded game in every language: the same requests, counted in each language
    assert len({r["policies"]["since_last"]["requests"] for r in results.values()}) == 1
    systems = {loc: r["system_tokens"] for loc, r in results.items()}
    assert len(set(systems.values())) == len(LOCALES)  # five different texts
    for loc, r in results.items():
        text = system_prompt_text(loc)
        assert len(text) / 8 < systems[loc] < len(text), loc  # real tokens, not characters
        assert r["policies"]["since_last"]["request_median"] > systems[loc]
