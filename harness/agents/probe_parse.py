"""The answer of a belief probe: its strict parse, and the schema and grammar that ask for it.

The answer is one JSON object (optionally inside one ```json fence)::

    {"beliefs": {"<player name>": {"<role id>": <probability>, ...}, ...}}

with exactly the asked players (by the names the seat sees) and, for each, exactly the asked role
ids.  Every probability is a JSON number (not a boolean, not a string), finite and non-negative;
each player's probabilities sum to 1 within :data:`SUM_TOLERANCE` and are then renormalised to
sum to exactly 1.  Anything else is invalid, with the reason (one line).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .answer_parse import read_answer_object
from .providers.provider_contract import gbnf_literal

SUM_TOLERANCE = 0.02
PROBE_KEY = "beliefs"


@dataclass(frozen=True)
class ParsedProbe:
    """``beliefs`` (name -> role -> probability, renormalised) when valid, else ``problem``."""

    beliefs: dict[str, dict[str, float]] | None
    problem: str | None = None


def _q(text: str) -> str:
    short = text if len(text) <= 60 else text[:59] + "…"
    return json.dumps(short, ensure_ascii=False)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_probe(raw: str | None, names: Sequence[str], roles: Sequence[str]) -> ParsedProbe:
    """Strictly parse a probe answer for the players ``names`` and the role ids ``roles``."""
    obj, problem = read_answer_object(raw)
    if obj is None:
        return ParsedProbe(None, problem)
    extra = sorted(k for k in obj if k != PROBE_KEY)
    if extra:
        return ParsedProbe(None, f"it has the unexpected key {_q(extra[0])}")
    table = obj.get(PROBE_KEY)
    if not isinstance(table, dict):
        return ParsedProbe(None, f'it has no "{PROBE_KEY}" object')
    for name in table:
        if name not in names:
            return ParsedProbe(None, f"{_q(name)} is not one of the players asked about")
    out: dict[str, dict[str, float]] = {}
    for name in names:
        row = table.get(name)
        if not isinstance(row, dict):
            return ParsedProbe(None, f"it has no object of probabilities for {_q(name)}")
        for role in row:
            if role not in roles:
                return ParsedProbe(None, f"{_q(role)} for {_q(name)} is not a role asked about")
        values: dict[str, float] = {}
        for role in roles:
            if role not in row:
                return ParsedProbe(None, f"it gives no probability of {_q(role)} for {_q(name)}")
            p = row[role]
            if not _number(p) or not math.isfinite(float(p)):
                return ParsedProbe(None, f"the probability of {_q(role)} for {_q(name)} is "
                                   "not a number")  # fmt: skip
            if p < 0:
                return ParsedProbe(None, f"the probability of {_q(role)} for {_q(name)} is "
                                   "negative")  # fmt: skip
            values[role] = float(p)
        total = sum(values.values())
        if abs(total - 1.0) > SUM_TOLERANCE:
            return ParsedProbe(
                None,
                f"the probabilities for {_q(name)} sum to {total:.4g}, not 1 "
                f"(within {SUM_TOLERANCE})",
            )
        out[name] = {role: v / total for role, v in values.items()}
    return ParsedProbe(out)


def probe_schema(names: Sequence[str], roles: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of the answer (every player and role required, nothing else)."""
    row = {
        "type": "object",
        "properties": {r: {"type": "number", "minimum": 0, "maximum": 1} for r in roles},
        "required": list(roles),
        "additionalProperties": False,
    }
    beliefs = {
        "type": "object",
        "properties": {n: row for n in names},
        "required": list(names),
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {PROBE_KEY: beliefs},
        "required": [PROBE_KEY],
        "additionalProperties": False,
    }


def probe_grammar(names: Sequence[str], roles: Sequence[str]) -> str:
    """GBNF grammar (llama.cpp) of the answer: every player in order, every role in order, each
    probability a decimal in [0, 1] with at most 3 decimals (the sum is the parser's to check)."""
    row = ' ws "," ws '.join(f'{gbnf_literal(json.dumps(r))} ws ":" ws prob' for r in roles)
    players = ' ws "," ws '.join(
        f'{gbnf_literal(json.dumps(n, ensure_ascii=False))} ws ":" ws "{{" ws {row} ws "}}"'
        for n in names
    )
    return "\n".join(
        [
            f'root ::= "{{" ws "\\"{PROBE_KEY}\\"" ws ":" ws "{{" ws {players} ws "}}" ws "}}"',
            'prob ::= "0" ( "." [0-9]{1,3} )? | "1" ( ".0" "0"? "0"? )?',
            "ws ::= [ \\t\\n]{0,2}",
        ]
    )
