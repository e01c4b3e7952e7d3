"""Scripted probers for the fake servers: a ``Script.default`` that answers belief-probe requests
with probabilities of the test's choosing and game decisions as the fake server always does."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from tests.fakes.script import Answer, Behaviour, Malformed

Beliefs = dict[str, dict[str, float]]
Prober = Callable[[list[str], list[str], str], Beliefs | str]


def _schema(body: Mapping[str, Any]) -> Mapping[str, Any] | None:
    fmt = body.get("response_format") or {}
    for schema in (fmt.get("schema"), (fmt.get("json_schema") or {}).get("schema")):
        if isinstance(schema, Mapping):
            return schema
    for tool in body.get("tools") or []:
        schema = tool.get("input_schema") or tool.get("function", {}).get("parameters")
        if isinstance(schema, Mapping):
            return schema
    return None


def probe_question(body: Mapping[str, Any]) -> tuple[list[str], list[str], str] | None:
    """The asked players, roles and the probe message's sha256 of a probe request (else None)."""
    schema = _schema(body)
    beliefs = (schema or {}).get("properties", {}).get("beliefs")
    if not isinstance(beliefs, Mapping):
        return None
    names = list(beliefs["required"])
    roles = list(beliefs["properties"][names[0]]["required"])
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    text = users[0]["content"] if users else ""
    return names, roles, hashlib.sha256(text.encode("utf-8")).hexdigest()


def uniform(names: list[str], roles: list[str], sha: str) -> Beliefs:
    return {n: {r: 1 / len(roles) for r in roles} for n in names}


def scripted(prober: Prober) -> Callable[[Mapping[str, Any]], Behaviour]:
    """A ``Script.default``: probes answered by ``prober(names, roles, prompt_sha)`` (a dict is
    sent as ``{"beliefs": ...}``, a string as it is), decisions by the first option."""

    def default(body: Mapping[str, Any]) -> Behaviour:
        asked = probe_question(body)
        if asked is None:
            return Answer()
        answer = prober(*asked)
        text = answer if isinstance(answer, str) else json.dumps({"beliefs": answer})
        return Malformed(text)

    return default
