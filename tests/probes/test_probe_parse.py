"""The strict parse of a belief probe's answer (docs/probes.md "Parse rule")."""

from __future__ import annotations

import json

import pytest

from harness.agents.probe_parse import SUM_TOLERANCE, parse_probe, probe_grammar, probe_schema

NAMES = ["Ann", "Bob"]
ROLES = ["deputy", "raider", "loner"]


def answer(beliefs: object) -> str:
    return json.dumps({"beliefs": beliefs})


def test_a_valid_answer_is_renormalised_to_sum_to_one() -> None:
    raw = answer({"Ann": {"deputy": 0.5, "raider": 0.3, "loner": 0.21},
                  "Bob": {"deputy": 0, "raider": 1, "loner": 0}})  # fmt: skip
    parsed = parse_probe(raw, NAMES, ROLES)
    assert parsed.problem is None and parsed.beliefs is not None
    assert sum(parsed.beliefs["Ann"].values()) == pytest.approx(1.0, abs=1e-12)
    assert parsed.beliefs["Ann"]["deputy"] == pytest.approx(0.5 / 1.01)
    assert parsed.beliefs["Bob"] == {"deputy": 0.0, "raider": 1.0, "loner": 0.0}


def test_a_fenced_answer_is_read() -> None:
    raw = "```json\n" + answer({n: {r: 1 / 3 for r in ROLES} for n in NAMES}) + "\n```"
    assert parse_probe(raw, NAMES, ROLES).beliefs is not None


@pytest.mark.parametrize(
    ("beliefs", "reason"),
    [
        ({"Ann": {"deputy": 0.5, "raider": 0.3, "loner": 0.1},
          "Bob": {"deputy": 0.2, "raider": 0.4, "loner": 0.4}}, "sum to 0.9"),
        ({"Ann": {"deputy": 0.5, "raider": 0.5, "loner": 0.0}}, 'no object of probabilities for "Bob"'),
        ({"Ann": {"deputy": 1, "raider": 0, "loner": 0}, "Bob": {"deputy": 1, "raider": 0, "loner": 0},
          "Cid": {"deputy": 1, "raider": 0, "loner": 0}}, '"Cid" is not one of the players'),
        ({"Ann": {"deputy": 1, "raider": 0}, "Bob": {"deputy": 1, "raider": 0, "loner": 0}},
         'no probability of "loner" for "Ann"'),
        ({"Ann": {"deputy": 1, "raider": 0, "loner": 0, "marshal": 0},
          "Bob": {"deputy": 1, "raider": 0, "loner": 0}}, '"marshal" for "Ann" is not a role'),
        ({"Ann": {"deputy": 1.2, "raider": -0.2, "loner": 0},
          "Bob": {"deputy": 1, "raider": 0, "loner": 0}}, "negative"),
        ({"Ann": {"deputy": "0.5", "raider": 0.5, "loner": 0},
          "Bob": {"deputy": 1, "raider": 0, "loner": 0}}, "not a number"),
        ({"Ann": {"deputy": True, "raider": 0, "loner": 0},
          "Bob": {"deputy": 1, "raider": 0, "loner": 0}}, "not a number"),
        ([0.5, 0.5], 'no "beliefs" object'),
    ],
)  # fmt: skip
def test_an_invalid_answer_names_its_problem(beliefs: object, reason: str) -> None:
    parsed = parse_probe(answer(beliefs), NAMES, ROLES)
    assert parsed.beliefs is None
    assert parsed.problem is not None and reason in parsed.problem


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "empty"),
        ("I think Ann is a raider.", "not a JSON object"),
        ('{"beliefs": {}, "beliefs": {}}', "repeats the key"),
        ('{"beliefs": {}, "reason": "x"}', 'unexpected key "reason"'),
    ],
)
def test_text_that_is_not_the_answer_object_is_invalid(raw: str, reason: str) -> None:
    parsed = parse_probe(raw, NAMES, ROLES)
    assert parsed.beliefs is None and parsed.problem is not None and reason in parsed.problem


def test_the_tolerance_is_inclusive_and_no_wider() -> None:
    inside = 1 - SUM_TOLERANCE + 1e-9
    outside = 1 - SUM_TOLERANCE - 1e-6
    row = lambda total: {"deputy": total, "raider": 0.0, "loner": 0.0}  # noqa: E731
    ok = answer({"Ann": row(inside), "Bob": row(1.0)})
    bad = answer({"Ann": row(outside), "Bob": row(1.0)})
    assert parse_probe(ok, NAMES, ROLES).beliefs is not None
    assert parse_probe(bad, NAMES, ROLES).beliefs is None


def test_schema_and_grammar_ask_for_every_player_and_role() -> None:
    schema = probe_schema(NAMES, ROLES)
    beliefs = schema["properties"]["beliefs"]
    assert beliefs["required"] == NAMES and beliefs["additionalProperties"] is False
    assert beliefs["properties"]["Bob"]["required"] == ROLES
    grammar = probe_grammar(NAMES, ROLES)
    assert grammar.startswith("root ::= ")
    for text in [*NAMES, *ROLES]:
        assert f'\\"{text}\\"' in grammar
