"""The league report counts history compactions per model player and locale (from the decision
records' ``compacted``) and flags a player whose context cannot hold the system prompt, the game
message and CONTEXT_DECISIONS decisions — in the terminal, Markdown and CSV."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
from rich.console import Console

from harness.agents.prompt_stats import CONTEXT_DECISIONS
from harness.agents.transcript import DEFAULT_RESERVE_TOKENS
from harness.engine.roles import TEAM_OF
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, RunStore, SeatOutcome
from harness.records.record_models import SeatPlayer
from harness.runs import build_report, markdown, print_report, save_report

ROLES = ("marshal", "raider", "raider", "loner")
PLAYERS = [("en-llm", "model"), ("ru-llm", "model"), ("bot", "bot"), ("bot", "bot")]


def _model(tokens: int, context_messages: int, compacted: bool) -> dict[str, Any]:
    return {
        "provider": "openai", "model": "m", "answer_mode": "grammar", "options": ["a", "b"],
        "system_prompt_sha256": "0" * 64, "history": "conversation",
        "context_messages": context_messages, "compacted": compacted, "chosen": "a",
        "attempts": [{"latency_s": 1.0, "tokens": {"input": tokens, "output": 5}}],
        "input_tokens": tokens, "output_tokens": 5, "latency_s": 1.0,
    }  # fmt: skip


def _decisions() -> list[DecisionLine]:
    # en-llm (seat 0): a conversation growing by 600 tokens a decision from a 4,000-token start;
    # ru-llm (seat 1): its 9,000-token first request fills its context, every later one restarts
    steps: list[tuple[int, dict[str, Any]]] = []
    for k in range(5):
        steps.append((0, _model(4000 + 600 * k, 2 * k, False)))
        steps.append((1, _model(9000 if k == 0 else 7900, 0, k > 0)))
    return [
        DecisionLine(game_id="g1", index=i + 1, event_index=i, seat=seat,
                     player=PLAYERS[seat][0], role=ROLES[seat], decision_kind="play",
                     options=["a", "b"], chosen="a", latency_s=1.0, model=m)
        for i, (seat, m) in enumerate(steps)
    ]  # fmt: skip


def _write_run(root: Path) -> Path:
    store = RunStore(root)
    store.prepare()
    start = GameStart(run="cmp", game_id="g1", seed=1, seats=4, mode="classic", deal=0,
                      rotation=0, seating=[SeatPlayer(seat=i, player=p, kind=k,  # type: ignore[arg-type]
                      model="openai/m" if k == "model" else None, name=f"N{i}",
                      history="conversation" if k == "model" else None)
                      for i, (p, k) in enumerate(PLAYERS)])  # fmt: skip
    decisions = _decisions()
    end = GameEnd(game_id="g1", winning_side="law", winners=[0], rounds=3,
                  decisions=len(decisions), events=[])  # fmt: skip
    outcomes = [
        SeatOutcome(seat=i, player=p, kind=k, model="openai/m" if k == "model" else None,
                    role=ROLES[i], team=TEAM_OF[ROLES[i]], won=i == 0, alive=True,
                    decisions=5 if k == "model" else 0, model_calls=5 if k == "model" else 0,
                    latency_s=5.0)
        for i, (p, k) in enumerate(PLAYERS)
    ]  # fmt: skip
    record = GameRecord(run="cmp", game_id="g1", seed=1, seats=4, mode="classic", deal=0,
                        rotation=0, winning_side="law", winners=[0], rounds=3, high_noon=False,
                        decisions=len(decisions), seat_outcomes=outcomes, fallbacks=0,
                        cost_usd=0.0, input_tokens=0, output_tokens=0, duration_s=1.0,
                        finished_at="2024-01-01T00:00:00+00:00")  # fmt: skip
    store.write_game(start, decisions, end, record)
    model = {"provider": "openai", "model": "m", "history": "conversation"}
    config = {"name": "cmp", "paired": False, "locale": "en", "players": [
        {"name": "en-llm", "kind": "model", "model": {**model, "context_tokens": 12000}},
        {"name": "ru-llm", "kind": "model", "locale": "ru",
         "model": {**model, "context_tokens": 8192}},
        {"name": "bot", "kind": "bot"}]}  # fmt: skip
    (root / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def test_compactions_per_player_and_locale_and_the_context_flag(tmp_path: Path) -> None:
    report = build_report(_write_run(tmp_path / "run"), bootstrap=0)
    table = report.compactions.set_index("player")
    en, ru = table.loc["en-llm"], table.loc["ru-llm"]
    assert (en["locale"], en["decisions"], en["compacted"]) == ("en", 5, 0)
    assert (en["first_tokens"], en["decision_tokens"]) == (4000, 600)
    assert en["needs_tokens"] == 4000 + (CONTEXT_DECISIONS - 1) * 600 + DEFAULT_RESERVE_TOKENS
    assert en["holds"] and en["flag"] == ""
    assert (ru["locale"], ru["decisions"], ru["compacted"]) == ("ru", 5, 4)
    assert ru["compacted_share"] == 0.8 and ru["flag"].startswith("ru-llm's conversation")
    assert "8,192-token context does not hold 8 decisions" in ru["flag"]

    console = Console(width=250, record=True)
    print_report(report, console)
    text = console.export_text()
    md = markdown(report)
    for body in (text, md):
        assert "History compactions per model player and locale" in body
        assert "warning: ru-llm's conversation restarted on 4 of 5 decisions" in body
    saved = pd.read_csv(save_report(report) / "compactions.csv")
    assert list(saved["compacted"]) == [0, 4] and list(saved["locale"]) == ["en", "ru"]


def test_a_small_context_that_cannot_hold_n_decisions_is_flagged(tmp_path: Path) -> None:
    run = _write_run(tmp_path / "run")
    config = json.loads((run / "config.json").read_text())
    config["players"][0]["model"]["context_tokens"] = 8192  # 4,000 + 7 x 600 + 1,024 > 8,192
    (run / "config.json").write_text(json.dumps(config))
    en = build_report(run, bootstrap=0).compactions.set_index("player").loc["en-llm"]
    assert not en["holds"]
    assert en["flag"] == (
        "en-llm cannot hold the system prompt, the game message and 8 decisions in its "
        "8,192-token context (needs about 9,224); its conversation restarted on 0 of 5 decisions"
    )
