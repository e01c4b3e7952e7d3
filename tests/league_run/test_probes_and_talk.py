"""Issue 23's whole measurement in one run: a model league against the fake OpenAI server with
belief probes (docs/probes.md) and table talk (docs/signals.md) together reports Brier scores,
log loss, both baselines, claim honesty and mark accuracy."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.records import RunStore
from harness.records.probes import read_probes
from harness.runs import build_report, markdown
from tests.fakes.script import Behaviour, Malformed
from tests.probes.answers import probe_question, uniform

from .test_league_signals import league, run, server, talker, truth  # noqa: F401

pytest.importorskip("openai")


def probe_or_talk(bodies: itertools.count) -> Any:  # type: ignore[type-arg]
    """Probes answered with uniform probabilities; decisions as the table-talk script."""
    talk = talker(bodies)

    def answer(body: Mapping[str, Any]) -> Behaviour:
        asked = probe_question(body)
        if asked is None:
            return talk(body)
        return Malformed(json.dumps({"beliefs": uniform(*asked)}))

    return answer


def test_probes_and_table_talk_in_one_league(tmp_path: Path, server) -> None:  # noqa: F811
    server.script.default = probe_or_talk(itertools.count())
    cfg = league(tmp_path, server, "both", signals=True)
    data = yaml.safe_load(cfg.read_text())
    for p in data["players"]:
        if p["kind"] == "model":
            p["probes"] = {"every": 4, "at": ["elimination"]}
    cfg.write_text(yaml.safe_dump(data))
    folder = run(cfg)

    probes = read_probes(folder)
    assert probes and all(p.valid for p in probes)
    report = build_report(folder)
    summary = report.probe_summary.set_index("player")
    assert list(summary.index) == ["talker"]
    row = summary.loc["talker"]
    # uniform beliefs over the asked roles score exactly 1 - 1/k (Brier) and ln k (log loss)
    expected_brier = sum(1 - 1 / len(p.roles) for p in probes for _ in p.targets)
    targets = sum(len(p.targets) for p in probes)
    assert row["brier"] == pytest.approx(expected_brier / targets)
    assert 0 <= row["brier_counting"] <= 2 and 0 <= row["brier_rulebot"] <= 2
    assert row["log_loss"] > 0 and row["log_loss_counting"] >= 0 and row["log_loss_rulebot"] >= 0
    deals = {g.seed for g in RunStore(folder).games()}
    if len(deals) > 1:
        assert row["beats_lo"] <= row["beats_counting"] <= row["beats_hi"]
    else:  # the rotations of one deal are one cluster: no interval (docs/statistics.md)
        assert math.isnan(row["beats_lo"]) and math.isnan(row["beats_hi"])

    signals = report.signals.set_index(["player", "role"])
    expected = truth(folder)
    assert expected
    for key, seen in expected.items():
        got = signals.loc[key]
        if seen["claim"]:
            assert got["honest"] == pytest.approx(sum(seen["claim"]) / len(seen["claim"]))
        if seen["mark"]:
            assert got["accurate"] == pytest.approx(sum(seen["mark"]) / len(seen["mark"]))
    md = markdown(report)
    assert "Belief probes" in md and "Table talk: on" in md and "Table talk by player" in md
    # the talk line also counts the belief probes: asked, answered validly, invalid
    asked = read_probes(folder)
    valid = sum(1 for p in asked if p.valid)
    assert report.talk.endswith(
        f"; belief probes: {len(asked):,} asked, {valid:,} answered validly, "
        f"{len(asked) - valid:,} invalid"
    )
