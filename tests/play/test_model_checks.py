"""The checks on seating a model player that ask no model live on the play floor
(``harness.play.model_checks``): the league's preflight, the web table's price check and the
quiz's key check share them, and the web table and the quiz seat model players without
importing the league (docs/architecture.md, the play floor)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.agents.model_spec import ModelSpec
from harness.play.model_checks import PreflightError, check_price, where
from harness.play.players import SpendingCaps

ROOT = Path(__file__).resolve().parents[2]

UNPRICED = ModelSpec(provider="openai", model="no-such-model-for-pricing",
                     base_url="http://127.0.0.1:9/v1")  # fmt: skip
PRICED = ModelSpec.model_validate(
    {**UNPRICED.model_dump(exclude_unset=True), "price": {"input": 1.0, "output": 2.0}}
)


def test_an_unknown_price_stops_a_dollar_cap_and_warns_without_one() -> None:
    with pytest.raises(PreflightError) as e:
        check_price("p", UNPRICED, SpendingCaps(max_usd=1.0))
    assert str(e.value) == (
        f"preflight: {where('p', UNPRICED)}: unknown price, so the dollar cap cannot be enforced; "
        "add 'price: {input: …, output: …}' ($ per million tokens) to its model section"
    )
    assert e.value.spend == []
    warning = check_price("p", UNPRICED, SpendingCaps(max_tokens=1000))
    assert warning is not None and warning.startswith("warning: player p (openai model")
    assert check_price("p", PRICED, SpendingCaps(max_usd=1.0)) is None


def test_the_league_raises_the_same_stop() -> None:
    from harness.league import preflight, preflight_records

    assert preflight.PreflightError is PreflightError
    assert preflight_records.PreflightError is PreflightError


def _league_imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        out |= {n for n in names if n == "harness.league" or n.startswith("harness.league.")}
    return out


def test_the_web_table_and_the_quiz_import_nothing_of_the_league() -> None:
    found = {
        (path.relative_to(ROOT).as_posix(), name)
        for package in ("web", "quiz")
        for path in sorted((ROOT / "harness" / package).rglob("*.py"))
        for name in _league_imports(path)
    }
    assert found == set()
