"""`bangarena bench engine --compare rlcard` and `bangarena bench pettingzoo`: figures and a final
JSON line; a missing extra is one line on stderr with the install command and exit 2."""

from __future__ import annotations

import json

import pytest

from harness import extras
from harness.cli.main import main


def _last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_bench_engine_compare_prints_both_figures_and_the_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("rlcard")
    argv = ["bench", "engine", "--games", "6", "--compare", "rlcard", "--rounds", "2"]
    assert main([*argv, "--no-progress"]) == 0
    out = capsys.readouterr().out
    data = _last_json(out)
    c = data["compare"]
    assert data["games"] == 6 and c["games"] == 6 and c["rounds"] == 2
    assert c["decisions_per_s"] > 0 and c["decisions_per_game"] > 0
    assert c["ratio"] == pytest.approx(data["decisions_per_s"] / c["decisions_per_s"], rel=0.01)
    assert "ratio (ours/RLCard)" in out


def test_bench_engine_compare_without_rlcard_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import harness.integrations.rlcard_uno as uno

    def missing(module: str, extra: str) -> None:
        raise extras.MissingExtra(f"rlcard is not installed: pip install -e '.[{extra}]'")

    monkeypatch.setattr(uno, "require", missing)
    argv = ["bench", "engine", "--games", "2", "--compare", "rlcard", "--no-progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["bangarena: error: rlcard is not installed: pip install -e '.[rl]'"]


def test_require_names_the_extra() -> None:
    with pytest.raises(extras.MissingExtra, match=r"pip install -e '\.\[ray\]'"):
        extras.require("surely_not_a_module_here", "ray")


def test_bench_pettingzoo_prints_both_rollout_figures(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo")
    assert main(["bench", "pettingzoo", "--games", "2"]) == 0
    data = _last_json(capsys.readouterr().out)
    assert [r["views"] for r in data["runs"]] == [False, True]
    assert all(r["decisions_per_s"] > 0 and r["agent_steps_per_s"] > 0 for r in data["runs"])
