"""The agent protocol's JSON Schema files in docs/schema/ are generated from its pydantic models
(``python -m harness.agents.wire_protocol --write``): this test fails when they are stale, and
checks real messages of a game against them."""

from __future__ import annotations

import json

import jsonschema

from harness.agents.wire_protocol import (
    PROTOCOL_VERSION,
    SCHEMA_DIR,
    decision_message,
    game_start_message,
    stale_schemas,
)
from harness.engine import Game, build_view
from harness.views.names import default_names


def _schema(stem: str) -> dict[str, object]:
    return json.loads((SCHEMA_DIR / f"agent-{stem}.v{PROTOCOL_VERSION}.json").read_text())


def test_the_published_schemas_are_up_to_date() -> None:
    assert stale_schemas() == [], "run: python -m harness.agents.wire_protocol --write"


def test_messages_of_a_game_validate_against_the_published_schemas() -> None:
    game = Game.new(5, "double_agent", 4)
    names = default_names(5)
    assert game.pending is not None
    view = build_view(game, game.pending.seat)
    start = game_start_message(view, names, "en", game_id="g", player="p")
    decision = decision_message(view, names, "en", game_id="g", player="p", index=1, deadline_s=3.0)
    combined = json.loads((SCHEMA_DIR / f"agent-protocol.v{PROTOCOL_VERSION}.json").read_text())
    for stem, message in (("game-start", start), ("decision", decision)):
        data = json.loads(message.model_dump_json())
        jsonschema.validate(data, _schema(stem))
        jsonschema.validate(data, combined)
    answer = {"option": decision.options[0].id, "reasoning": "r",
              "usage": {"input_tokens": 3, "output_tokens": 1, "cost_usd": 0.0, "model": "m"}}  # fmt: skip
    jsonschema.validate(answer, _schema("answer"))
    for bad in ({"option": "x", "extra": 1}, {"reasoning": "no option"},
                {"option": "x", "usage": {"input_tokens": -1}}):  # fmt: skip
        try:
            jsonschema.validate(bad, _schema("answer"))
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"{bad} validated")
