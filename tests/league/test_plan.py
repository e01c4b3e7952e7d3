"""``bangarena plan``: the sample-size arithmetic, the schedule's seat-games, the spread read from
a pilot run, the planned power checked by simulation, costs, and bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from harness.cli.main import main
from harness.league.league_config import parse_config
from harness.league.schedule import build_schedule
from harness.records.record_models import GameRecord
from harness.runs import ROLE_ADJUSTED
from harness.runs import plan as plan_module
from harness.runs.plan import (
    PlanError,
    ScheduleCounts,
    Source,
    Spread,
    Usage,
    bench_source,
    games_per_table,
    make_plan,
    pilot_source,
    seat_games_needed,
)
from tests.bot_league import play_league

TWO_BOTS = {
    "name": "two",
    "players": [{"name": "a", "kind": "bot"}, {"name": "b", "kind": "random"}],
    "tables": [{"seats": [4]}],
    "games_per_table": 8,
}
PILOT = """\
name: pilot
players:
  - {name: rulebot, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4]
games_per_table: 8
paired: true
"""


def _flat(sd: float) -> Source:
    roles = ["marshal", "deputy", "raider", "loner", "double_agent", ROLE_ADJUSTED]
    return Source("pilot", "test", {r: Spread(r, sd, sd / 2, 10) for r in roles})


def test_sample_size_against_a_hand_computed_case() -> None:
    # 2 · (1.959964 + 0.841621)² · 0.5² / 0.1² = 2 · 7.848879 · 25 = 392.444
    assert seat_games_needed(0.5, 0.1, 0.05, 0.8) == pytest.approx(392.444, abs=0.01)
    # α = 0.01, power 0.9: 2 · (2.575829 + 1.281552)² · 0.4² / 0.05² = 2 · 14.87939 · 64 = 1904.56
    assert seat_games_needed(0.4, 0.05, 0.01, 0.9) == pytest.approx(1904.56, abs=0.01)


def test_seat_games_of_the_schedule_by_hand() -> None:
    # two players at a 4-seat classic table: each holds 2 seats a game, so 2 · 1/4 = 0.5
    # marshal seat-games and 2 · 2/4 = 1 raider seat-game per game
    counts = ScheduleCounts(parse_config(TWO_BOTS))
    assert counts.least(10, "marshal") == pytest.approx(5.0)
    assert counts.least(10, ROLE_ADJUSTED) == pytest.approx(20.0)
    assert games_per_table(counts, "marshal", 100) == 200
    assert games_per_table(counts, "raider", 100) == 100
    assert games_per_table(counts, "marshal", 100_000) == 200_000  # past the exact limit


def test_plan_totals_by_hand() -> None:
    plan = make_plan(parse_config(TWO_BOTS), 0.1, 0.05, 0.8, _flat(0.5))
    rows = {r.role: r for r in plan.roles}
    assert set(rows) == {"marshal", "raider", "loner", ROLE_ADJUSTED}  # what a 4-seat table deals
    assert rows["marshal"].per_player_raw == 393  # ceil(392.444)
    assert rows["marshal"].games_raw == 785  # 392.444 / 0.5 per game, rounded up
    assert rows["raider"].games_raw == 393
    assert rows["marshal"].per_player_adjusted == 99  # σ/2: a quarter of the seat-games
    assert plan.games_raw == 785 and plan.games_adjusted == 197
    assert plan.costs_raw == []  # no model player


def test_a_planned_n_has_the_planned_power() -> None:
    """Bernoulli arms p = 0.5 and 0.4 at the planned n: a two-sided z test at 5 % rejects in
    ≈ 80 % of 4,000 simulated experiments; at half the n, far fewer."""
    pa, pb = 0.5, 0.4
    sd = math.sqrt((pa * (1 - pa) + pb * (1 - pb)) / 2)
    n = math.ceil(seat_games_needed(sd, pa - pb, 0.05, 0.8))
    rng = np.random.default_rng(7)

    def power(m: int) -> float:
        xa = rng.binomial(m, pa, 4000) / m
        xb = rng.binomial(m, pb, 4000) / m
        se = np.sqrt(xa * (1 - xa) / m + xb * (1 - xb) / m)
        return float(np.mean(np.abs(xa - xb) / se > 1.959964))

    assert power(n) == pytest.approx(0.8, abs=0.025)
    assert power(n // 2) < 0.6


def test_bench_figures_give_the_bench_formula() -> None:
    s = bench_source()
    assert "rule bots" in s.text and "bench variance" in s.text
    spread = s.spreads["marshal"]
    # paired: n = (z + z)² σ_d² / δ², as bench variance computes its deals
    assert spread.needed(0.05, 0.05, 0.8, adjusted=False) == pytest.approx(
        (1.959964 + 0.841621) ** 2 * spread.sd_raw**2 / 0.05**2, rel=1e-5
    )


@pytest.fixture(scope="module")
def pilot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plan")
    return play_league(root, PILOT, "pilot")


def test_plan_from_a_pilot_reads_its_spread(pilot: Path) -> None:
    """Two players at four seats, paired: each sits every seat of a deal once over its two
    seatings, so a role's spread is ``√(m · s_d² / 2)`` — ``m`` seats of the role a deal,
    ``s_d²`` the sample variance of the per-deal differences of the two players' mean results
    (harness.runs.plan_spread) — and a role with no spread seen takes the spread over all
    seats (``m = 4``)."""
    s = pilot_source(pilot)
    records = [
        GameRecord.model_validate_json(line)
        for line in (pilot / "games.jsonl").read_text().splitlines()
    ]
    luck = {
        d["game_id"]: d["adjusted"]
        for d in map(json.loads, (pilot / "analysis" / "luck.jsonl").read_text().splitlines())
    }

    def spread(role: str | None, m: int, column: str) -> float:
        """√(m · s_d² / 2) over the per-deal differences rulebot − random of ``column``."""
        sums: dict[tuple[int, str], list[float]] = {}
        for g in records:
            for o in g.seat_outcomes:
                if role is None or o.role == role:
                    x = float(o.won) if column == "won" else luck[g.game_id][o.seat]
                    sums.setdefault((g.seed, o.player), []).append(x)
        assert all(len(v) == m for v in sums.values())  # balanced
        deals = sorted({seed for seed, _p in sums})
        d = [np.mean(sums[(k, "rulebot")]) - np.mean(sums[(k, "random")]) for k in deals]
        return math.sqrt(m * float(np.var(d, ddof=1)) / 2)

    assert s.kind == "pilot" and s.pilot_paired is True
    assert "8 games in 4 deals" in s.text
    fell_back = 0
    for role, m in (("marshal", 1), ("raider", 2), ("loner", 1)):
        got = s.spreads[role]
        assert got.seat_games == sum(1 for g in records for o in g.seat_outcomes if o.role == role)
        if spread(role, m, "won") > 0 and spread(role, m, "adjusted") > 0:
            assert got.sd_raw == pytest.approx(spread(role, m, "won"))
            assert got.sd_adjusted == pytest.approx(spread(role, m, "adjusted"))
            assert got.note == "4 deals, 1 pair of players"
        else:  # e.g. in every deal the rule bot and the random seat both won as marshal
            fell_back += 1
            assert got.sd_raw == pytest.approx(spread(None, 4, "won"))
            assert got.sd_adjusted == pytest.approx(spread(None, 4, "adjusted"))
            assert got.note == "no spread seen in the pilot: the spread over all roles"
    assert fell_back < 3
    assert s.usage == {}  # no model seats in the pilot


def test_plan_command_prints_a_table_and_a_json_line(
    pilot: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = pilot.parent.parent / "pilot.yaml"
    assert main(["plan", str(cfg), "--from", str(pilot), "--detect", "0.1", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    assert data["source"] == "pilot" and data["detect"] == 0.1
    s = pilot_source(pilot)
    per_game = {"marshal": 0.5, "raider": 1.0, "loner": 0.5}  # each player: 2 of 4 seats
    for role, rate in per_game.items():
        row = next(r for r in data["roles"] if r["role"] == role)
        spread = s.spreads[role]
        need = spread.needed(0.1, 0.05, 0.8, adjusted=False)
        assert need > 0
        assert row["per_player_raw"] == math.ceil(need)
        assert row["games_raw"] == math.ceil(need / rate)
    assert any("pilot run pilot" in line for line in out)
    assert main(["plan", str(cfg)]) == 0
    assert "bot figures" in capsys.readouterr().out


def test_costs_from_usage_and_prices() -> None:
    cfg = parse_config(
        {
            "name": "m",
            "players": [
                {
                    "name": "m1",
                    "kind": "model",
                    "model": {
                        "provider": "openai",
                        "model": "x-1",
                        "price": {"input": 1.0, "cached_input": 0.5, "output": 4.0},
                    },
                },  # fmt: skip
                {"name": "bot", "kind": "bot"},
            ],
            "tables": [{"seats": [4]}],
            "games_per_table": 4,
        }
    )
    src = _flat(0.5)
    src.usage[""] = Usage(20.0, 1000.0, 400.0, 50.0, "test")
    plan = make_plan(cfg, 0.1, 0.05, 0.8, src)
    c = plan.costs_raw[0]
    assert c.seat_games == 2 * plan.games_per_table_raw  # two of four seats a game
    assert c.calls == pytest.approx(20.0 * c.seat_games)
    expected = c.calls * (600 * 1.0 + 400 * 0.5 + 50 * 4.0) / 1e6
    assert c.usd == pytest.approx(expected, rel=1e-6)


def test_a_plan_past_the_exact_schedule_costs_its_seat_games_without_building_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[int] = []

    def guarded(config: Any) -> Any:  # the schedule is built once, at the exact limit
        built.append(config.games_per_table)
        assert config.games_per_table <= plan_module.EXACT_LIMIT
        return build_schedule(config)

    monkeypatch.setattr(plan_module, "build_schedule", guarded)
    cfg = parse_config(
        {
            **TWO_BOTS,
            "players": [
                {"name": "m", "kind": "model", "model": {"provider": "openai", "model": "x-1"}},
                {"name": "b", "kind": "bot"},
            ],
        }
    )
    src = _flat(0.5)
    src.usage[""] = Usage(10.0, source="test")
    plan = make_plan(cfg, 0.002, 0.05, 0.8, src)  # about a million games per table
    assert plan.games_per_table_raw > 100 * plan_module.EXACT_LIMIT
    # two of four seats a game, past the exact limit as before it
    assert [c.seat_games for c in plan.costs_raw] == [2 * plan.games_per_table_raw]
    assert [c.seat_games for c in plan.costs_adjusted] == [2 * plan.games_per_table_adjusted]
    assert built == [plan_module.EXACT_LIMIT]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["plan", "missing.yaml"], "cannot read config missing.yaml"),
        (["plan", "{cfg}", "--from", "/nonexistent/run"], "no run folder /nonexistent/run"),
        (["plan", "{cfg}", "--detect", "0"], "--detect: must be between 0 and 1"),
        (["plan", "{cfg}", "--power", "1.5"], "--power: must be between 0 and 1"),
        (["plan", "{cfg}", "--alpha", "x"], "--alpha: not a number"),
        (["plan", "{bad}"], "config field"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(PILOT, encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(PILOT.replace("games_per_table: 8", "games_per_table: 0"), encoding="utf-8")
    argv = [a.format(cfg=cfg, bad=bad) for a in argv]
    assert _exit_code(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _exit_code(argv: list[str]) -> int:
    """``main``'s exit code, argparse's own exits (SystemExit) included."""
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


def test_plan_from_a_model_pilot_reads_its_calls_and_tokens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pilot with a model seat (fake OpenAI server on 127.0.0.1): calls per model seat-game and
    tokens per call are the pilot's, and the dollars follow from the model's price."""
    pytest.importorskip("openai")
    from tests.fakes.backends import KEY_ENV, SECRET_KEY
    from tests.fakes.openai_server import FakeOpenAIServer
    from tests.league_run.model_league import run_dir, run_league, write_league

    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        server.script.cached_tokens = 100
        cfg = write_league(tmp_path / "m.yaml", server, name="mp", model_players=1, bots=1)
        assert run_league(cfg) == 0
    run = run_dir(cfg)
    records = [GameRecord.model_validate_json(x) for x in (run / "games.jsonl").read_text().split()]
    seats = [o for g in records for o in g.seat_outcomes if o.kind == "model"]
    calls = sum(o.model_calls for o in seats)
    assert calls > 0
    src = pilot_source(run)
    u = src.usage[str(seats[0].model)]
    assert u.calls_per_seat_game == pytest.approx(calls / len(seats))
    assert u.input_per_call == pytest.approx(sum(o.input_tokens for o in seats) / calls)
    assert u.output_per_call == pytest.approx(sum(o.output_tokens for o in seats) / calls)
    assert u.cached_per_call == pytest.approx(100.0)
    assert main(["plan", str(cfg), "--from", str(run), "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    (c,) = data["costs_adjusted"]
    assert c["calls"] == pytest.approx(u.calls_per_seat_game * c["seat_games"])
    # price in model_league: $1 per M input tokens (cached ones too), $2 per M output tokens
    usd = (round(c["input_tokens"]) * 1.0 + round(c["output_tokens"]) * 2.0) / 1e6
    assert c["usd"] == pytest.approx(usd, rel=1e-6)


def test_without_a_model_pilot_prompts_are_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No pilot: each model player's prompts are measured on rule-bot games of the config's
    tables; every request holds the system prompt; output tokens are the shortest valid answers
    (plus a thinking budget when the params set one), and dollars cover both."""
    from harness.agents.tokenizers import counter_named
    from harness.views.prompts import system_prompt_text

    cfg = tmp_path / "m.yaml"
    cfg.write_text(
        """\
name: m
players:
  - name: m1
    kind: model
    model: {provider: openai, model: x-1, tokenizer: cl100k_base, context_tokens: 200000,
            price: {input: 2.0, cached_input: 0.5, output: 8.0}}
  - {name: bot, kind: bot}
tables:
  - seats: [4]
games_per_table: 4
""",
        encoding="utf-8",
    )
    argv = ["plan", str(cfg), "--detect", "0.2", "--prompt-games", "1", "--json"]
    assert main(argv) == 0
    out = capsys.readouterr().out.strip().splitlines()
    (c,) = json.loads(out[-1])["costs_raw"]
    assert "the shortest valid answer" in c["source"] and "thinking" not in c["source"]
    assert c["calls"] > c["seat_games"]  # several decisions with a choice per seat-game
    count = counter_named("cl100k_base")
    system = count(system_prompt_text("en"))
    assert c["input_tokens"] > system * c["calls"]  # every request carries the system prompt
    assert 0 < c["cached_input_tokens"] < c["input_tokens"]
    # each answer is {"choice": id}: between the shortest id's answer and the longest id's
    shortest = count(json.dumps({"choice": "end"}))
    longest = count(json.dumps({"choice": "play:knock_off@2/long_rifle"}))
    assert shortest * c["calls"] <= c["output_tokens"] <= longest * c["calls"]
    usd = (
        (round(c["input_tokens"]) - round(c["cached_input_tokens"])) * 2.0
        + round(c["cached_input_tokens"]) * 0.5
        + round(c["output_tokens"]) * 8.0
    ) / 1e6
    assert c["usd"] == pytest.approx(usd, rel=1e-6)
    assert not any("(input tokens only)" in line for line in out)
    thinking = cfg.read_text(encoding="utf-8").replace(
        "tokenizer: cl100k_base,",
        "tokenizer: cl100k_base, params: {thinking: {type: enabled, budget_tokens: 1000}},",
    )
    cfg.write_text(thinking, encoding="utf-8")
    assert main(argv) == 0
    (t,) = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["costs_raw"]
    assert t["calls"] == c["calls"] and "the thinking budget (1,000 per call)" in t["source"]
    assert t["output_tokens"] == pytest.approx(c["output_tokens"] + 1000 * c["calls"])
    assert main(["plan", str(cfg), "--detect", "0.2", "--prompt-games", "0"]) == 0
    assert "tokens not estimated" in capsys.readouterr().out


def test_pilot_spread_of_the_advantage_adjusted_score(pilot: Path) -> None:
    from harness.analysis.run_advantage import run_advantage

    s = pilot_source(pilot, score="advantage")
    assert "advantage-adjusted" in s.text
    lines = run_advantage(pilot, compute=False)
    assert lines  # computed and stored beside the run
    luck = pilot_source(pilot)
    for role, spread in s.spreads.items():
        assert spread.sd_raw == luck.spreads[role].sd_raw  # the same raw spread
        assert spread.sd_adjusted > 0
    with pytest.raises(PlanError, match="'luck' or 'advantage'"):
        pilot_source(pilot, score="nope")


def test_without_a_pilot_a_servers_own_tokenizer_counts_the_prompts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model on a server with a tokenize endpoint (llama.cpp's) and no ``tokenizer:``: the plan
    counts its prompts with the server's tokenizer (not the estimate) and its source line says
    which figures are measured and which guessed."""
    from tests.fakes.openai_server import FakeOpenAIServer

    with FakeOpenAIServer(tokenize="llama.cpp") as server:
        cfg = tmp_path / "s.yaml"
        cfg.write_text(
            f"""\
name: s
players:
  - name: m1
    kind: model
    model: {{provider: openai, model: smol, base_url: "{server.base_url}",
            context_tokens: 200000, price: {{input: 0.0, output: 0.0}}}}
  - {{name: bot, kind: bot}}
tables:
  - seats: [4]
games_per_table: 4
""",
            encoding="utf-8",
        )
        assert main(["plan", str(cfg), "--detect", "0.2", "--prompt-games", "1", "--json"]) == 0
        tokenized = server.tokenize_calls
    (c,) = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["costs_raw"]
    assert "tokens counted by server" in c["source"], c["source"]
    assert "calls guessed" in c["source"] and "output guessed" in c["source"]
    assert tokenized > 0  # the prompts went to the server's tokenizer
