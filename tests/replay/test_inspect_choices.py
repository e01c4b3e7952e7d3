"""``inspect`` shows real choices first: decisions with a single option (made without asking the
seat) are left out unless ``--forced`` (issue 36: ``inspect --model`` started with them)."""

from __future__ import annotations

import json

import pytest

from harness.cli.main import main
from harness.records import RunStore

from . import MODEL_LABEL, build_run


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunStore:
    return build_run(tmp_path_factory.mktemp("runs"))


def _shown(capsys: pytest.CaptureFixture[str]) -> tuple[list[dict], str]:  # type: ignore[type-arg]
    out, err = capsys.readouterr()
    return [json.loads(line) for line in out.splitlines()], err.strip().splitlines()[-1]


def test_inspect_model_leaves_out_single_option_decisions_unless_forced(
    run: RunStore, capsys: pytest.CaptureFixture[str]
) -> None:
    model = MODEL_LABEL.split("/", 1)[1]
    decisions = []
    for g in run.games():
        start, lines, _end = run.read_game(g.game_id)
        seats = {x.seat for x in start.seating if x.model == MODEL_LABEL}
        decisions += [(g.game_id, d.index, len(d.options)) for d in lines if d.seat in seats]
    choices = [d for d in decisions if d[2] > 1]
    assert choices and len(choices) < len(decisions)  # the run has both kinds
    argv = ["inspect", str(run.root), "--model", model, "--limit", "0", "--json"]
    assert main(argv) == 0
    shown, note = _shown(capsys)
    assert [(d["game_id"], d["index"], len(d["options"])) for d in shown] == choices
    assert (
        note
        == f"{len(choices)} matching decisions; decisions with a single option left out (--forced)"
    )
    assert main([*argv, "--forced"]) == 0
    every, note = _shown(capsys)
    assert [(d["game_id"], d["index"], len(d["options"])) for d in every] == decisions
    assert note == f"{len(decisions)} matching decisions"
