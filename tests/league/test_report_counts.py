"""The league report counts honestly: rates per model decision (decisions with more than one
option: a single option never reaches the model) and per model call, call counts, call latency
median / p95, cached input tokens summed per player, each model player's history policy — and no
NaN in any format (terminal, Markdown, CSV, HTML)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from harness.cli.main import main
from harness.engine.roles import TEAM_OF
from harness.league.model_calls import count_model_calls
from harness.league.stats_basic import percentile
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, RunStore, SeatOutcome
from harness.records.record_models import SeatPlayer
from harness.runs import build_report, markdown, print_report, save_report

NAN = re.compile(r"\bnan\b", re.IGNORECASE)
ROLES = ("marshal", "raider", "raider", "loner")


def attempt(kind: str | None = None, latency: float = 1.0, cached: int = 0) -> dict[str, Any]:
    return {
        "error_kind": kind,
        "latency_s": latency,
        "tokens": {"input": 100, "cached_input": cached, "output": 5, "reasoning": 0},
    }


def model_record(options: list[str], attempts: list[dict[str, Any]], chosen: str,
                 fallback: str | None = None) -> dict[str, Any]:  # fmt: skip
    return {
        "provider": "openai",
        "model": "m",
        "answer_mode": "json_object",
        "options": options,
        "system_prompt_sha256": "0" * 64,
        "attempts": attempts,
        "chosen": chosen,
        "fallback": fallback,
        "input_tokens": sum(a["tokens"]["input"] for a in attempts),
        "cached_input_tokens": sum(a["tokens"]["cached_input"] for a in attempts),
        "output_tokens": sum(a["tokens"]["output"] for a in attempts),
        "latency_s": sum(a["latency_s"] for a in attempts),
    }


def decision(i: int, seat: int, options: list[str], model: dict[str, Any] | None,
             fallback: str | None = None, latency: float = 0.5) -> DecisionLine:  # fmt: skip
    return DecisionLine(game_id="g1", index=i, event_index=i, seat=seat, player="llm" if seat == 0
                        else "bot", role=ROLES[seat], decision_kind="play", options=options,
                        chosen=options[-1], fallback=fallback, latency_s=latency,
                        model=model)  # fmt: skip


# Seat 0 is the model player "llm"; seats 1..3 are bots.  Seven decisions of the model seat:
SCRIPT = [
    # three single options: taken without a call
    ("one", ["end"], model_record(["end"], [], "end"), None),
    ("one", ["end"], model_record(["end"], [], "end"), None),
    ("one", ["end"], model_record(["end"], [], "end"), None),
    # two invalid answers (answer + corrective re-prompt), then the fallback
    (
        "inv",
        ["a", "b"],
        model_record(
            ["a", "b"],
            [attempt("unparseable", 2.0), attempt("illegal_option", 3.0)],
            "b",
            "invalid_answer",
        ),
        "invalid_answer",
    ),  # fmt: skip
    # a valid answer, 800 of its 100-token prompt... cached: 60
    ("ok", ["a", "b"], model_record(["a", "b"], [attempt(None, 1.0, cached=60)], "a"), None),
    # a timed-out call, then a valid retry
    (
        "retry",
        ["a", "b"],
        model_record(["a", "b"], [attempt("timeout", 9.0), attempt(None, 0.5, cached=40)], "a"),
        None,
    ),  # fmt: skip
    # cut off by the decision timer: no model record at all
    ("lost", ["a", "b", "c"], None, "timeout"),
]


Script = list[tuple[str, list[str], dict[str, Any] | None, str | None]]


def write_model_run(
    root: Path, history: str = "log", recorded: str | None = None, script: Script = SCRIPT
) -> Path:
    """The run: ``history`` is the policy in its config.json, ``recorded`` the one in the game
    file's seating (older runs record none), ``script`` the model seat's decisions."""
    store = RunStore(root)
    store.prepare()
    players = [("llm", "model")] + [("bot", "bot")] * 3
    start = GameStart(run="counts", game_id="g1", seed=1, seats=4, mode="classic", deal=0,
                      rotation=0, seating=[SeatPlayer(seat=i, player=p, kind=k,  # type: ignore[arg-type]
                      model="openai/m" if k == "model" else None, name=f"N{i}",
                      history=recorded if k == "model" else None)
                      for i, (p, k) in enumerate(players)])  # fmt: skip
    decisions = [
        decision(i + 1, 0, opts, m, fb, latency=m["latency_s"] if m else 0.5)
        for i, (_, opts, m, fb) in enumerate(script)
    ]
    decisions.append(decision(len(decisions) + 1, 1, ["x", "y"], None))
    end = GameEnd(game_id="g1", winning_side="law", winners=[0], rounds=3,
                  decisions=len(decisions), events=[])  # fmt: skip
    outcomes = [
        SeatOutcome(seat=i, player=p, kind=k, model="openai/m" if k == "model" else None,
                    role=ROLES[i], team=TEAM_OF[ROLES[i]], won=i == 0, alive=True,
                    decisions=len(script) if i == 0 else 1,
                    fallbacks={"invalid_answer": 1, "timeout": 1} if i == 0 else {},
                    invalid_answers=2 if i == 0 else 0, model_calls=5 if i == 0 else 0,
                    input_tokens=500 if i == 0 else 0, cached_input_tokens=100 if i == 0 else 0,
                    output_tokens=25 if i == 0 else 0, latency_s=3.0)
        for i, (p, k) in enumerate(players)
    ]  # fmt: skip
    record = GameRecord(run="counts", game_id="g1", seed=1, seats=4, mode="classic", deal=0,
                        rotation=0, winning_side="law", winners=[0], rounds=3, high_noon=False,
                        decisions=len(decisions), seat_outcomes=outcomes, fallbacks=2,
                        cost_usd=0.0, input_tokens=500, output_tokens=25, duration_s=1.0,
                        finished_at="2024-01-01T00:00:00+00:00")  # fmt: skip
    store.write_game(start, decisions, end, record)
    config = {"name": "counts", "paired": False, "players": [
        {"name": "llm", "kind": "model", "model": {"provider": "openai", "model": "m",
                                                    "history": history}},
        {"name": "bot", "kind": "bot"}]}  # fmt: skip
    (root / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def test_counts_per_model_decision_and_per_call(tmp_path: Path) -> None:
    run = write_model_run(tmp_path / "run")
    c = count_model_calls(run, RunStore(run).games())["llm"]
    assert (c.decisions, c.single_option, c.calls) == (4, 3, 5)
    assert c.fallbacks == {"invalid_answer": 1, "timeout": 1} and c.lost_records == 1
    assert c.invalid_per_decision == 1 / 4  # two invalid answers in one decision count once
    assert c.invalid_per_call == 2 / 5
    assert c.timeout_per_decision == 2 / 4 and c.timeout_per_call == 1 / 5
    assert c.fallback_per_decision == 2 / 4 and c.error_per_call == 0.0
    # latency over the answered calls (invalid answers are answers); the timed-out call apart
    assert c.call_latencies == [2.0, 3.0, 1.0, 0.5] and c.failed_calls == 1
    assert (c.call_latency(0.5), c.call_latency(0.95)) == (1.0, 3.0)
    assert c.cached_input_tokens == 100
    assert c.reasons_text() == "invalid_answer 1, timeout 1 (decision timer 1)"


def test_latency_is_over_answered_calls_and_failed_calls_are_counted_apart(
    tmp_path: Path,
) -> None:
    """Instant connection failures (0.00 s, then the R-5 fallback) must not pull the call and
    decision latency towards 0: the latency columns are over what was answered."""
    failed = [attempt("connection_error", 0.0) for _ in range(3)]
    script: Script = [
        ("down", ["a", "b"], model_record(["a", "b"], failed, "b", "error"), "error")
        for _ in range(3)
    ]
    script += [
        ("ok", ["a", "b"], model_record(["a", "b"], [attempt(None, 30.0 + k)], "a"), None)
        for k in range(4)
    ]
    run = write_model_run(tmp_path / "run", script=script)
    c = count_model_calls(run, RunStore(run).games())["llm"]
    assert c.calls == 13 and c.failed_calls == 9 and c.answered_calls == 4
    assert (c.call_latency(0.5), c.call_latency(0.95)) == (31.0, 33.0)  # all 13: median 0.0
    assert (c.decision_latency(0.5), c.mean_decision_latency) == (31.0, 31.5)
    report = build_report(run, bootstrap=0)
    llm = report.rates.set_index("player").loc["llm"]
    assert (llm["call_latency_median_s"], llm["failed_calls"]) == (31.0, 9)
    assert llm["latency_per_decision_ms"] == pytest.approx(31_500.0)
    console = Console(width=300, record=True)
    print_report(report, console)
    text = console.export_text()
    header = next(line for line in text.splitlines() if line.startswith("┃ player") and
                  "failed calls" in line)  # fmt: skip
    row = next(line for line in text.splitlines() if line.lstrip("│ ").startswith("llm") and
               "31.00 s / 33.00 s" in line)  # fmt: skip
    cells = [c.strip() for c in row.split("│")]
    assert cells[[h.strip() for h in header.split("┃")].index("failed calls")] == "9"
    from harness.report.league_summary import load_config, summarize

    summary = summarize("a", RunStore(run).games(), load_config(run), run)
    assert next(p for p in summary.players if p.player == "llm").latency_per_decision == 31.5


def test_report_shows_the_counts_without_nan(tmp_path: Path) -> None:
    run = write_model_run(tmp_path / "run", history="log")
    report = build_report(run, bootstrap=0)
    llm = report.rates.set_index("player").loc["llm"]
    assert llm["history"] == "log" and llm["model_decisions"] == 4 and llm["model_calls"] == 5
    assert llm["invalid_rate"] == pytest.approx(0.25)  # not 2 invalid / 7 decisions, never > 1
    assert llm["fallback_rate"] == pytest.approx(0.5) and llm["single_option"] == 3
    assert llm["call_latency_p95_s"] == 3.0 and llm["cached_input_tokens"] == 100
    assert llm["failed_calls"] == 1
    console = Console(width=250, record=True)
    print_report(report, console)
    text = console.export_text()
    assert "Model seats — rates per model decision" in text
    row = next(line for line in text.splitlines() if line.lstrip("│ ").startswith("llm") and
               " log " in line)  # fmt: skip
    for cell in ("25.0%", "40.0%", "1.00 s / 3.00 s", "100"):
        assert cell in row, (cell, row)
    md = markdown(report)
    out = save_report(report)
    for name, body in [("terminal", text), ("markdown", md)] + [
        (p.name, p.read_text(encoding="utf-8")) for p in out.glob("*.csv")
    ]:
        assert not NAN.search(body), name


def test_one_game_run_has_no_nan_in_any_format(tmp_path: Path) -> None:
    """One game: role-adjusted intervals cannot be computed (one cluster) — shown as "–"."""
    cfg = tmp_path / "one.yaml"
    cfg.write_text(
        "name: one\nplayers:\n  - {name: rulebot, kind: bot}\n  - {name: random, kind: random}\n"
        "tables:\n  - seats: [4]\ngames_per_table: 1\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert main(["league", "run", str(cfg), "--output", str(out), "--workers", "1",
                 "--no-progress"]) == 0  # fmt: skip
    report = build_report(out / "one", bootstrap=5)
    assert report.role_adjusted["se"].isna().all()  # the case that printed "+nan"
    console = Console(width=200, record=True)
    print_report(report, console)
    saved = save_report(report)
    from harness.report.html import build_report as build_html

    html = build_html(out / "one", tmp_path / "html", workers=1)
    bodies = {"terminal": console.export_text(), "markdown": markdown(report),
              "html": html.index.read_text(encoding="utf-8")}  # fmt: skip
    bodies.update({p.name: p.read_text(encoding="utf-8") for p in saved.glob("*.csv")})
    for name, body in bodies.items():
        assert not NAN.search(body), name


def test_percentile_nearest_rank() -> None:
    assert percentile([], 0.5) is None
    assert percentile([3.0], 0.95) == 3.0
    xs = [float(x) for x in range(1, 21)]  # 1..20
    assert percentile(xs, 0.5) == 10.0 and percentile(xs, 0.95) == 19.0
    assert percentile(xs, 1.0) == 20.0 and percentile(xs, 0.0) == 1.0


def test_history_policy_as_recorded_in_the_games(tmp_path: Path) -> None:
    """The policy a seat played under is the one recorded in its game's seating; the config's
    (or the default) only for runs that recorded none (issue 10, history policies)."""
    recorded = write_model_run(tmp_path / "a", history="log", recorded="since_last")
    assert build_report(recorded, bootstrap=0).rates.set_index("player").loc["llm", "history"] == (
        "since_last"
    )
    from harness.report.league_summary import load_config, summarize

    games = RunStore(recorded).games()
    summary = summarize("a", games, load_config(recorded), recorded)
    assert {p.player: p.history for p in summary.players} == {"llm": "since_last", "bot": None}
    default = write_model_run(tmp_path / "b", history="")
    assert build_report(default, bootstrap=0).rates.set_index("player").loc["llm", "history"] == (
        "conversation"
    )
