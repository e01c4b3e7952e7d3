"""What an Inspect solver reads of its seat (the task's first message: the game and the first
decision; every result of the ``choose`` tool: the next decision or the game's end) holds nothing
its seat's independent account does not (RULES.md §9).  Each text is checked at the decision it
shows (the game does not move while the seat's decision is pending), the game's end at the end;
the instructions (system message) say nothing about the game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402

from harness.engine import Game  # noqa: E402
from harness.integrations.inspect_seat import instructions  # noqa: E402
from harness.integrations.inspect_task import bangarena  # noqa: E402
from harness.records import RunStore  # noqa: E402
from harness.views.names import default_names  # noqa: E402
from tests.integrations.inspect_solvers import Chooser, react_player  # noqa: E402

from .account import Account  # noqa: E402
from .check import check_seat_outputs  # noqa: E402

DECISION = re.compile(
    r"^(?:(?:Refused: |Decision \d+ fell back).*?\n\n)?Decision (\d+) \(", re.DOTALL
)


@pytest.mark.parametrize("seats, mode, seed", [(4, "classic", 11), (5, "double_agent", 3)])
def test_solver_messages_hold_only_what_the_seat_may_know(
    seats: int, mode: str, seed: int, tmp_path: Path
) -> None:
    task = bangarena(seats=seats, games=2, mode=mode, seed=seed, run_dir=str(tmp_path / "run"))
    [log] = inspect_eval(task, solver=react_player(Chooser(bad_first=True)),
                         model="mockllm/model", log_dir=str(tmp_path / "logs"),
                         display="none")  # fmt: skip
    assert log.status == "success", log.error
    store = RunStore(tmp_path / "run")
    names = default_names(seats)
    checked = 0
    for sample in log.samples:
        game_id = str(sample.id)
        start, decisions, _ = store.read_game(game_id)
        seat = sample.scores["game_result"].metadata["seat"]
        game = Game.new(seats, mode, start.seed)
        upto: dict[int, int] = {}  # the seat's decision index -> events logged when it was asked
        for line in decisions:
            if line.seat == seat and len(line.options) > 1:
                upto[len(upto) + 1] = line.event_index
            game.apply(line.chosen)
        assert game.pending is None and len(upto) > 3
        account = Account.from_game(game)
        leaks: list[str] = []
        texts = [m.text for m in sample.messages if m.role == "user"]
        for m in sample.messages:  # a refused choice's error lists the options it refused
            if m.role == "tool" and m.function == "choose":
                texts.append(m.error.message if m.error is not None else m.text)
        for text in texts:
            found = DECISION.match(text)
            at = upto[int(found.group(1))] if found else len(game.events)
            assert found or "The game is over" in text or "not one of the options" in text, text
            leaks += check_seat_outputs(
                game, seat, {"text": text}, account=account, upto=at, names=names
            )
            checked += 1
        system = [m.text for m in sample.messages if m.role == "system"]
        assert instructions() in system
        assert leaks == []
        assert "seed" not in json.dumps(texts)
    assert checked > 10
