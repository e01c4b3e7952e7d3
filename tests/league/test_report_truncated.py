"""Answers cut by the token limit and requests longer than the context are counted apart from the
model's invalid answers in every report format, yet count towards ``max_fallback_rate``; cached
tokens not reported are "n/a", and the cached share is over the calls that reported them
(issue 26)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

from harness.engine.roles import TEAM_OF
from harness.league.model_calls import count_model_calls
from harness.records import GameEnd, GameRecord, GameStart, RunStore, SeatOutcome
from harness.records.record_models import SeatPlayer
from harness.replay.decision_browser import DecisionFilter, find_decisions
from harness.runs import build_report, markdown, print_report, save_report
from tests.league.test_report_counts import ROLES, decision, model_record


def attempt(kind: str | None = None, cached: int | None = None) -> dict[str, Any]:
    finish = "length" if kind == "truncated" else None if kind == "context_overflow" else "stop"
    tokens = {"input": 0 if kind == "context_overflow" else 100, "cached_input": cached,
              "output": 5, "reasoning": 0}  # fmt: skip
    return {"error_kind": kind, "latency_s": 1.0, "finish_reason": finish, "tokens": tokens}


def record(attempts: list[dict[str, Any]], chosen: str, fallback: str | None) -> dict[str, Any]:
    made = model_record(["a", "b"], [], chosen, fallback)
    made["attempts"] = attempts
    made["input_tokens"] = sum(a["tokens"]["input"] for a in attempts)
    cached = [
        a["tokens"]["cached_input"] for a in attempts if a["tokens"]["cached_input"] is not None
    ]
    made["cached_input_tokens"] = sum(cached) if cached else None
    return made


SCRIPT = [
    # cut twice: the fallback's reason is truncated
    ([attempt("truncated"), attempt("truncated")], "b", "truncated"),
    # cut, then answered on the re-prompt (cached tokens reported: 30)
    ([attempt("truncated"), attempt(None, cached=30)], "a", None),
    # refused as too long, answered after compaction (cached not reported)
    ([attempt("context_overflow"), attempt(None)], "a", None),
    # a valid answer, cached not reported
    ([attempt(None)], "a", None),
]


def write_run(root: Path) -> Path:
    store = RunStore(root)
    store.prepare()
    players = [("llm", "model")] + [("bot", "bot")] * 3
    start = GameStart(run="cut", game_id="g1", seed=1, seats=4, mode="classic", deal=0,
                      rotation=0, seating=[SeatPlayer(seat=i, player=p, kind=k,  # type: ignore[arg-type]
                      model="openai/m" if k == "model" else None, name=f"N{i}")
                      for i, (p, k) in enumerate(players)])  # fmt: skip
    decisions = [
        decision(i + 1, 0, ["a", "b"], record(att, chosen, fb), fb)
        for i, (att, chosen, fb) in enumerate(SCRIPT)
    ]
    end = GameEnd(game_id="g1", winning_side="law", winners=[0], rounds=3,
                  decisions=len(decisions), events=[])  # fmt: skip
    outcomes = [
        SeatOutcome(seat=i, player=p, kind=k, model="openai/m" if k == "model" else None,
                    role=ROLES[i], team=TEAM_OF[ROLES[i]], won=i == 0, alive=True,
                    decisions=len(SCRIPT) if i == 0 else 0,
                    fallbacks={"truncated": 1} if i == 0 else {}, model_calls=7 if i == 0 else 0,
                    input_tokens=600 if i == 0 else 0,
                    cached_input_tokens=30 if i == 0 else 0, output_tokens=35 if i == 0 else 0)
        for i, (p, k) in enumerate(players)
    ]  # fmt: skip
    rec = GameRecord(run="cut", game_id="g1", seed=1, seats=4, mode="classic", deal=0,
                     rotation=0, winning_side="law", winners=[0], rounds=3, high_noon=False,
                     decisions=len(decisions), seat_outcomes=outcomes, fallbacks=1,
                     cost_usd=0.0, input_tokens=600, output_tokens=35, duration_s=1.0,
                     finished_at="2024-01-01T00:00:00+00:00")  # fmt: skip
    store.write_game(start, decisions, end, rec)
    config = {"name": "cut", "paired": False, "max_fallback_rate": 0.05, "players": [
        {"name": "llm", "kind": "model", "model": {"provider": "openai", "model": "m"}},
        {"name": "bot", "kind": "bot"}]}  # fmt: skip
    (root / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def test_truncated_and_overflow_are_counted_apart(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run")
    c = count_model_calls(run, RunStore(run).games())["llm"]
    assert (c.decisions, c.calls) == (4, 7)
    assert c.invalid_calls == 0 and c.invalid_per_decision == 0.0
    assert (c.truncated_calls, c.truncated_decisions) == (3, 2)
    assert c.overflow_calls == 1 and c.error_calls == 0
    assert c.fallbacks == {"truncated": 1} and c.reasons_text() == "truncated 1"
    # cached tokens: 6 answered calls (3 cut, 3 valid; the refused one got none), 1 reported
    assert (c.answered_calls, c.cached_reported_calls) == (6, 1)
    assert c.cached_tokens == 30 and c.cached_input_share == 30 / 100


def test_every_report_format_shows_them_apart(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run")
    report = build_report(run, bootstrap=0)
    llm = report.rates.set_index("player").loc["llm"]
    assert llm["invalid_rate"] == 0.0 and llm["truncated_rate"] == 0.5
    assert llm["overflow_per_call"] == 1 / 7 and llm["cached_reported_calls"] == 1
    # a truncated fallback still counts towards max_fallback_rate
    assert report.flags.player_flag("llm") is not None
    assert "truncated" in report.flags.player_flag("llm").message  # type: ignore[union-attr]
    console = Console(width=300, record=True)
    print_report(report, console)
    text = console.export_text()
    md = markdown(report)
    for body in (text, md):
        assert "truncated" in body and "overflow/call" in body
        assert "30 (30.0%, 1 of 6 calls)" in body
    out = save_report(report)
    rates = (out / "rates.csv").read_text(encoding="utf-8")
    header = rates.splitlines()[0].split(",")
    assert {"truncated_rate", "truncated_per_call", "overflow_per_call"} <= set(header)
    assert {"cached_reported_calls", "answered_calls"} <= set(header)
    from harness.report.html import build_report as build_html

    html = build_html(run, tmp_path / "html", workers=1).index.read_text(encoding="utf-8")
    assert "Truncated answers / call" in html and "truncated answer 1" in html
    assert "1 of 6 calls reported" in html


def test_a_run_that_never_reported_cached_tokens_shows_n_a(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run")
    path = run / "games" / "g1.jsonl"
    text = path.read_text(encoding="utf-8").replace('"cached_input":30', '"cached_input":null')
    path.write_text(text.replace('"cached_input_tokens":30', '"cached_input_tokens":null'))
    report = build_report(run, bootstrap=0)
    llm = report.rates.set_index("player").loc["llm"]
    assert llm["cached_reported_calls"] == 0
    assert llm["cached_input_tokens"] != llm["cached_input_tokens"]  # NaN: not reported
    assert "n/a" in markdown(report)
    out = save_report(report)
    rows = list(__import__("csv").DictReader((out / "rates.csv").open(encoding="utf-8")))
    row = next(r for r in rows if r["player"] == "llm")
    assert row["cached_input_tokens"] == "" and row["cached_input_share"] == ""
    from harness.report.html import build_report as build_html

    html = build_html(run, tmp_path / "html", workers=1).index.read_text(encoding="utf-8")
    assert "cached: not reported" in html


def test_inspect_finds_the_truncated_decisions(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run")
    store = RunStore(run)
    cut = [d.index for _, d in find_decisions(store, DecisionFilter(truncated=True))]
    assert cut == [1, 2]
    assert [d.index for _, d in find_decisions(store, DecisionFilter(invalid=True))] == []
    by_reason = find_decisions(store, DecisionFilter(fallback="truncated"))
    assert [d.index for _, d in by_reason] == [1]
