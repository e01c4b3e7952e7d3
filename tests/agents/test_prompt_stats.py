"""`bangarena prompt-stats`: token figures per history policy and the exact-prefix reuse share."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from harness.agents.prompt_stats import CONTEXT_DECISIONS, PrefixCache
from harness.views.names import LOCALES
from harness.views.tokens import MESSAGE_TOKENS


def _m(role: str, text: str) -> dict[str, str]:
    return {"role": role, "content": text}


def test_prefix_cache_reuses_the_longest_leading_run_seen_before() -> None:
    cache = PrefixCache()
    sys_m, u1, a1, u2 = (
        _m("system", "rules"),
        _m("user", "d1"),
        _m("assistant", "a1"),
        _m("user", "d2"),
    )
    assert cache.reusable([sys_m, u1], [100, 10]) == 0  # nothing cached yet
    assert cache.reusable([sys_m, u1, a1, u2], [100, 10, 3, 12]) == 110  # the previous prompt
    assert cache.reusable([sys_m, _m("user", "other seat")], [100, 9]) == 100  # rules only
    assert cache.reusable([_m("system", "other rules"), u1], [90, 10]) == 0  # no leading match


def test_prompt_stats_reports_every_policy_with_a_final_json_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "harness.cli.main", "prompt-stats", "--games", "1", "--seats", "4",
         "--tokenizer", "gpt-4o", "--context-tokens", "9000"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    result = json.loads(out.stdout.strip().splitlines()[-1])
    policies = result["policies"]
    assert set(policies) == {"conversation", "log", "since_last"}
    conv, log = policies["conversation"], policies["log"]
    assert conv["requests"] == log["requests"] > 0
    assert conv["reusable_share"] > log["reusable_share"]
    assert conv["request_max"] + 1024 <= 9000 * 1.05  # the budget holds (tokenizer drift margin)
    assert "conversation" in out.stdout and "reusable" in out.stdout


def test_prompt_stats_says_per_locale_what_context_a_model_needs() -> None:
    """``--locale all``: per locale, the first request and the decision sizes of a conversation,
    and the context that holds the system prompt, the game message and N decisions."""
    out = subprocess.run(
        [sys.executable, "-m", "harness.cli.main", "prompt-stats", "--games", "1", "--seats", "4",
         "--locale", "all", "--history", "conversation", "--tokenizer", "cl100k_base"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["tokenizer"] == "tiktoken cl100k_base"
    needs = {}
    for locale, r in result["locales"].items():
        c = r["context"]
        assert c["decisions"] == CONTEXT_DECISIONS
        assert c["system"] == r["system_tokens"] + MESSAGE_TOKENS  # as a message of a request
        assert c["first_median"] > c["system"] and 0 < c["decision_median"] <= c["decision_p95"]
        assert c["needs_median"] == (
            c["first_median"] + (CONTEXT_DECISIONS - 1) * c["decision_median"] + c["reserve"] + 2
        )
        needs[locale] = c["needs_median"]
    assert set(needs) == set(LOCALES) and needs["ru"] > needs["en"]
    assert "context a conversation needs per locale" in out.stdout


def test_prompt_stats_refuses_an_unknown_tokenizer_file_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{}")
    out = subprocess.run(
        [sys.executable, "-m", "harness.cli.main", "prompt-stats", "--games", "1",
         "--tokenizer", str(bad)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert "not a readable tokenizer.json" in out.stderr
