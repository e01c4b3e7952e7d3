"""The shipped value model loads; ``analysis train``, ``bench value`` and ``bench variance`` run
small and end with their JSON line; bad input is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.analysis.features import KEYS, NAMES
from harness.analysis.fitted import FittedValue, ModelFileError, load_model_file
from harness.analysis.train import CELLS, HOLDOUT_SEED, game_seed
from harness.analysis.variance import SEED, games_needed
from harness.cli.main import main
from harness.engine import Game


def _last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_shipped_model_is_versioned_and_evaluates() -> None:
    m = load_model_file()
    assert m.schema_version == 1 and tuple(m.features) == NAMES
    assert len(m.data_sha256) == 64 and m.training["seed"] == 10_000_000
    assert set(m.base_rates) <= set(KEYS)
    v = FittedValue(m).values(Game.new(6, "partners", 2))
    assert v.shape == (6,) and ((v > 0) & (v < 1)).all()


def test_the_shipped_model_never_saw_the_games_it_is_measured_on() -> None:
    """Training games, `bench value`'s held-out games and `bench variance`'s deals (up to 10,000
    of each) use disjoint seeds."""
    t = load_model_file().training
    trained = {
        game_seed(t["seed"], c, k) for c in range(len(CELLS)) for k in range(t["games_per_cell"])
    }
    held_out = {game_seed(HOLDOUT_SEED, c, k) for c in range(len(CELLS)) for k in range(10_000)}
    deals = {SEED + d for d in range(10_000)}
    assert len(trained) == t["games"] and not trained & held_out and not trained & deals
    assert not held_out & deals


def test_a_model_file_for_other_features_is_refused(tmp_path: Path) -> None:
    data = json.loads(load_model_file().model_dump_json())
    data["features"] = data["features"][:-1]
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="retrain"):
        load_model_file(bad)
    (tmp_path / "junk.json").write_text("{", encoding="utf-8")
    with pytest.raises(ModelFileError, match="cannot read"):
        load_model_file(tmp_path / "junk.json")


def test_train_writes_a_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "vm.json"
    assert main(["analysis", "train", "--games", "1", "--out", str(out), "--no-progress"]) == 0
    m = load_model_file(out)
    assert m.training["games"] == 20 and m.rows > 0
    assert "value model:" in capsys.readouterr().out
    again = tmp_path / "again.json"
    assert main(["analysis", "train", "--games", "1", "--out", str(again), "--no-progress"]) == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")  # fixed seed


def test_bench_value_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "rel.svg"
    argv = ["bench", "value", "--games", "1", "--positions", "3", "--rollouts", "1",
            "--speed-games", "1", "--svg", str(svg), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    r = _last_json(capsys.readouterr().out)
    assert r["benchmark"] == "value" and r["holdout"]["games"] == 20
    assert 0 <= r["holdout"]["brier"] <= 1 and r["reference"]["positions"] == 3
    assert r["speed"]["rollout_decisions_per_s"] > 0 and r["speed"]["fitted_evaluations_per_s"] > 0
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    assert main(["bench", "value", "--svg", str(tmp_path / "no" / "x.svg")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_bench_variance_small(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "variance", "--games", "3", "--samples", "1", "--workers", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    r = _last_json(capsys.readouterr().out)
    assert r["benchmark"] == "variance" and r["deals"] == 3
    assert [a["agent"] for a in r["agents"]] == ["rulebot", "eps0.05", "eps0.15", "eps0.3", "eps1"]
    assert r["pairs"][0]["pair"] == "rulebot vs eps0.15" and len(r["pairs"]) == 5
    assert isinstance(r["ladder_ordered"], bool) and "factor" in r["headline"]
    assert all(p["sd_before"] >= 0 for p in r["pairs"]) and "factor_before" in r["headline"]


def test_bench_variance_advantage_small(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "variance", "--advantage", "--games", "3", "--seats", "4,5", "--mode",
            "classic", "--pair", "0.5", "--playouts", "2", "--se-bound", "0",
            "--max-playouts", "2", "--workers", "1", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    r = _last_json(capsys.readouterr().out)
    assert r["benchmark"] == "variance-advantage" and r["deals"] == 3 and r["seats"] == [4, 5]
    assert [a["agent"] for a in r["agents"]] == ["rulebot", "eps0.5"]
    assert r["agents"][0]["departures_per_game"] == 0  # the rule bot never departs
    assert r["playouts"] == {"start": 2, "se_bound": 0.0, "cap": 2}
    (p,) = r["pairs"]
    assert p["pair"] == "rulebot vs eps0.5" and p["goal"] == 3.0 and isinstance(p["pass"], bool)


def test_bench_variance_advantage_with_a_model_seat(capsys: pytest.CaptureFixture[str]) -> None:
    """``--models``: a model seat answered by the test server, paired with the rule bot on the
    same deals; no goal, and left out of the ε-ladder's order."""
    argv = ["bench", "variance", "--advantage", "--games", "2", "--seats", "4", "--pair", "0.5",
            "--models", "first,random", "--playouts", "2", "--se-bound", "0", "--max-playouts",
            "2", "--workers", "1", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    r = _last_json(out)
    assert [a["agent"] for a in r["agents"]] == ["rulebot", "eps0.5", "model-first", "model-random"]
    pairs = {p["pair"]: p for p in r["pairs"]}
    for name in ("rulebot vs model-first", "rulebot vs model-random"):
        assert pairs[name]["goal"] is None and pairs[name]["pass"] is None
    assert r["agents"][2]["departures_per_game"] > 0
    assert all(a["cpu_seconds_per_game"] > 0 for a in r["agents"])
    assert "a model seat answered by the test server" in out


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--pair", "0"),
        ("--pair", "x"),
        ("--seats", "9"),
        ("--se-bound", "-1"),
        ("--models", "smart"),
    ],
)
def test_bench_variance_advantage_bad_input(
    flag: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["bench", "variance", "--advantage", flag, value])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and flag in err


def test_games_needed() -> None:
    assert games_needed(0.5, 0.1) == pytest.approx(196.2, abs=0.1)
    assert games_needed(0.5, 0.0) is None
