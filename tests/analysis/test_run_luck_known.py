"""``league report --luck`` corrects the seats and decisions whose policy is known
(docs/analysis.md, "The rule bot's policy"): rule bots replayed as the rule bot, random seats as
uniform, an autopilot's decisions for a model or agent seat as the rule bot's; the evaluated
player's own choices never.  Over a bot league the mean correction stays 0 for the fitted model,
a constant and noise; an A/A league scores alike; a tampered bot choice is refused; stored lines
say which policy each seat was given and lines of other policies are computed again."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from harness.analysis import luck
from harness.analysis.fitted import FittedValue
from harness.analysis.known_policies import known_policies, table_fallback
from harness.analysis.luck import Policy, luck_adjust
from harness.analysis.run_luck import LUCK_DIR, LUCK_FILE, LuckLine, run_luck
from harness.analysis.value_model import ConstantValue, NoiseValue, ValueModel
from harness.cli.main import main
from harness.engine import Game, parse_action
from harness.records import RunStore
from harness.runs import ROLE_ADJUSTED, load_run, scored_table
from tests.bot_league import play_league

BOTS = """\
name: known
players:
  - {name: a, kind: bot}
  - {name: b, kind: bot}
  - {name: r, kind: random}
tables:
  - seats: [4, 5]
games_per_table: 30
paired: true
"""

AUTOPILOT = """\
name: auto
players:
  - {name: flaky, kind: agent, agent: "tests.analysis.flaky_agent:factory"}
  - {name: a, kind: bot}
  - {name: b, kind: bot}
tables:
  - seats: [4]
games_per_table: 4
paired: true
fallback: autopilot
max_fallback_rate: 1.0
"""

SAMPLES = 2  # re-drawn copies per transition (the report's default is 8: same estimator)
Z = 3.5  # a wide interval: several means are checked, a biased correction is far outside it
KIND_POLICY = {"bot": "rulebot", "random": "uniform"}


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_league(tmp_path_factory.mktemp("known"), BOTS, "known")


@pytest.fixture(scope="module")
def fitted(bots: Path) -> dict[str, LuckLine]:
    return run_luck(bots, samples=SAMPLES)


@pytest.fixture(scope="module")
def auto(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_league(tmp_path_factory.mktemp("auto"), AUTOPILOT, "auto")


def _games(run: Path) -> dict[str, tuple]:
    store = RunStore(run)
    return {g.game_id: store.read_game(g.game_id)[:2] for g in store.games()}


def _within(values: list[float]) -> bool:
    x = np.array(values)
    se = x.std(ddof=1) / math.sqrt(len(x))
    return abs(float(x.mean())) <= Z * se + 1e-12


def _unbiased(run: Path, lines: dict[str, LuckLine]) -> bool:
    """Mean correction 0 within its interval over all seats and per role, clustered by game
    (one mean per game and group)."""
    groups: dict[str, list[float]] = {}
    for gid, (start, _decisions) in _games(run).items():
        game = Game.new(start.seats, start.mode, start.seed)
        corr = np.array(lines[gid].raw) - np.array(lines[gid].adjusted)
        groups.setdefault("all", []).append(float(corr.mean()))
        for role in {s.role for s in game.seats}:
            at = [s.index for s in game.seats if s.role == role]
            groups.setdefault(role, []).append(float(corr[at].mean()))
    assert len(groups["all"]) >= 50
    return all(_within(v) for v in groups.values() if len(v) > 10)


def test_seats_get_the_policy_of_their_kind(bots: Path, fitted: dict[str, LuckLine]) -> None:
    lines = fitted
    for gid, (start, _decisions) in _games(bots).items():
        kinds = [p.kind for p in sorted(start.seating, key=lambda p: p.seat)]
        assert lines[gid].policies == [KIND_POLICY[k] for k in kinds]
        assert lines[gid].autopilot == [] and lines[gid].autopilot_unknown == []


def test_mean_correction_is_zero_with_the_fitted_model(
    bots: Path, fitted: dict[str, LuckLine]
) -> None:
    assert _unbiased(bots, fitted)
    assert any(line.raw != line.adjusted for line in fitted.values())  # it did adjust


@pytest.mark.parametrize("model", [ConstantValue(), NoiseValue(7)], ids=["constant", "noise"])
def test_mean_correction_is_zero_with_useless_models(bots: Path, model: ValueModel) -> None:
    lines = run_luck(bots, samples=SAMPLES, model=model)
    assert _unbiased(bots, lines)
    assert all(line.policies and "rulebot" in line.policies for line in lines.values())


def test_a_correction_without_its_baseline_is_caught(
    bots: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same check fails for a biased correction: the check has the power to fail."""
    run = tmp_path / "known"
    shutil.copytree(bots, run)
    monkeypatch.setattr(luck, "_sample", lambda before, action, rng, model: np.zeros(before.n))
    assert not _unbiased(run, run_luck(run, samples=1, model=FittedValue()))


def test_a_and_a_league_difference_is_zero_within_its_interval(
    bots: Path, fitted: dict[str, LuckLine]
) -> None:
    """Two identical rule-bot players: their role-adjusted luck-adjusted scores (the report's
    table) differ by 0 within the 95 % interval of the difference."""
    seats = load_run(bots).seats
    seats = seats[seats["game_id"].isin(list(fitted))].copy()
    seats["adjusted"] = [
        fitted[g].adjusted[s] for g, s in zip(seats["game_id"], seats["seat"], strict=True)
    ]
    t = scored_table(seats)
    rows = t[t["role"] == ROLE_ADJUSTED].set_index("player")
    a, b = rows.loc["a"], rows.loc["b"]
    half = 1.959964 * (a["adj_se"] ** 2 + b["adj_se"] ** 2) ** 0.5
    assert half > 0
    assert abs(a["adjusted"] - b["adjusted"]) <= half


def _unknown(policies: list[str]) -> list[Policy]:
    return ["uniform" if p == "uniform" else "unknown" for p in policies]


def test_more_transitions_corrected_than_with_rule_bots_unknown(
    bots: Path, fitted: dict[str, LuckLine]
) -> None:
    lines = fitted
    known = unknown = 0
    for gid, (start, decisions) in _games(bots).items():
        line = lines[gid]
        assert line.policies is not None and line.transitions is not None
        r = luck_adjust(
            start.seats, start.mode, start.seed, [d.chosen for d in decisions],
            _unknown(line.policies), ConstantValue(), 1, rng_seed=start.seed,
        )  # fmt: skip
        known += line.transitions
        unknown += r.transitions
    assert known > unknown


def _tampered_choice(start, decisions) -> tuple[int, str] | None:  # type: ignore[no-untyped-def]
    """A rule bot's decision and an option it would not choose there."""
    actions = [d.chosen for d in decisions]
    known = known_policies(start, decisions, None)
    for i, d in enumerate(decisions):
        if known.policies[d.seat] != "rulebot":
            continue
        for other in (o for o in d.options if o != d.chosen):
            try:
                luck_adjust(start.seats, start.mode, start.seed, [*actions[:i], other],
                            known.policies, ConstantValue(), 1)  # fmt: skip
            except ValueError as e:
                if "not the rule bot's choice" in str(e):
                    return i, other
    return None


def test_a_tampered_bot_choice_is_refused(
    bots: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "known"
    shutil.copytree(bots, run)
    shutil.rmtree(run / LUCK_DIR, ignore_errors=True)
    gid, (start, decisions) = next(iter(_games(run).items()))
    found = _tampered_choice(start, decisions)
    assert found is not None
    i, other = found
    path = run / "games" / f"{gid}.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(k for k, text in enumerate(lines) if json.loads(text).get("index") == i + 1)
    record = json.loads(lines[at])
    assert record["kind"] == "decision" and record["chosen"] == decisions[i].chosen
    record["chosen"] = other
    lines[at] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["league", "report", str(run), "--luck", "--no-save"]) == 2
    err = capsys.readouterr().err
    # one error line (after the progress line of the computation it stopped)
    errors = [line for line in err.splitlines() if line.startswith("bangarena:")]
    assert len(errors) == 1 and err.endswith(errors[0] + "\n") and "Traceback" not in err
    assert f"game {gid}" in err and f"decision {i + 1}:" in err
    assert "not the rule bot's choice" in err


def test_lines_of_other_policies_are_computed_again(bots: Path, tmp_path: Path) -> None:
    run = tmp_path / "known"
    shutil.copytree(bots, run)
    shutil.rmtree(run / LUCK_DIR, ignore_errors=True)
    model = ConstantValue()
    fresh = run_luck(run, samples=1, model=model)
    path = run / LUCK_DIR / LUCK_FILE
    gids = sorted(fresh)
    old = fresh[gids[0]].model_dump(exclude={"policies", "autopilot", "autopilot_unknown",
                                             "transitions"})  # fmt: skip
    old.update(schema_version=1, adjusted=[9.0] * len(old["adjusted"]))  # a schema 1 line
    unknown = fresh[gids[1]].model_copy(
        update={"policies": _unknown(fresh[gids[1]].policies or []), "adjusted": [9.0]}
    )
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(old) + "\n" + unknown.model_dump_json() + "\n")
    assert LuckLine.model_validate(old).policies is None  # old lines still read
    n = len(path.read_text(encoding="utf-8").splitlines())
    again = run_luck(run, samples=1, model=model)
    assert again == fresh  # both computed again, with the known policies
    assert len(path.read_text(encoding="utf-8").splitlines()) == n + 2
    assert run_luck(run, samples=1, model=model, compute=False) == fresh


def test_autopilot_decisions_are_replayed_as_the_rule_bot(auto: Path) -> None:
    lines = run_luck(auto, samples=2, model=ConstantValue())
    assert table_fallback(auto) == "autopilot"
    corrected = 0
    for gid, (start, decisions) in _games(auto).items():
        line = lines[gid]
        fell_back = [
            d.index for d in decisions if d.model and d.model.get("fallback") and len(d.options) > 1
        ]
        assert all(d.model["fallback_policy"] == "autopilot" for d in decisions
                   if d.index in fell_back)  # fmt: skip
        assert line.autopilot == fell_back  # only the autopilot's, never the agent's own
        assert line.autopilot_unknown == []  # the replayed bot reproduces every one
        kinds = [p.kind for p in sorted(start.seating, key=lambda p: p.seat)]
        assert line.policies == [KIND_POLICY.get(k, "unknown") for k in kinds]
        corrected += len(line.autopilot)
        assert line.policies is not None and line.transitions is not None
        without = luck_adjust(
            start.seats, start.mode, start.seed, [d.chosen for d in decisions],
            line.policies, ConstantValue(), 2, rng_seed=start.seed,
        )  # fmt: skip
        assert line.transitions >= without.transitions
    assert corrected > 20


def test_an_autopilot_choice_outside_its_ties_stays_unknown(auto: Path) -> None:
    """Decisions marked as an autopilot's whose choice the replayed bot would not make (here:
    the agent's own decisions, passed as if the autopilot had made them) are kept unknown."""
    start, decisions = next(iter(_games(auto).values()))
    known = known_policies(start, decisions, "autopilot")
    own = [i for i, d in enumerate(decisions)
           if d.model and not d.model.get("fallback") and len(d.options) > 1]  # fmt: skip
    actions = [d.chosen for d in decisions]
    r = luck_adjust(start.seats, start.mode, start.seed, actions, known.policies,
                    ConstantValue(), 1, autopilot=[*known.autopilot, *own])  # fmt: skip
    assert set(r.unmatched) <= set(own) and r.unmatched  # the agent plays the last option
    game = Game.new(start.seats, start.mode, start.seed)
    for a in actions:
        game.apply(parse_action(a))
    assert list(r.raw) == [1.0 if i in game.winners else 0.0 for i in range(game.n)]
