"""Table talk leaks nothing (RULES.md §9, §10; issue 23 item 4): signals are public events that
carry only what their sender chose to say.

Every seat of a game is a model seat with table talk on; its in-process model answers a random
option with a random signal drawn from the test's own generator (claims and marks that may be
true or false).  The test keeps its own account of what each seat said and when.  Then:

* every request each seat sent (system prompt and messages, every history policy) holds nothing
  its independent account does not allow, where a role said aloud by a signal (a claim about the
  sender, a mark about its target) is public from the moment it was said;
* every signal the table passed on is exactly one the test's account says was sent — its sender,
  kind, role, target and reaction, and no other field but the event count it followed;
* the check is not blind: a feed line that gives a seat's true hidden role as a claim it never
  made is reported as a leak.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from harness.agents.llm_agent import LLMAgent
from harness.agents.model_seat import ModelSeat
from harness.agents.pricing import PriceBook
from harness.agents.providers.provider_contract import Provider, ProviderReply, ProviderRequest
from harness.agents.table import Table
from harness.agents.table_signals import CLAIM_ROLES, REACTIONS, TableSignals
from harness.agents.transcript import Transcript
from harness.engine import Game
from harness.views.names import default_names, role_name
from harness.views.prompts import PromptBuilder

from .account import Account
from .check import check_seat_outputs

Sent = tuple[int, int, dict[str, Any] | None]  # (seat, events logged when sent, signal)


class Talkative(Provider):
    """One seat's model: a random listed option and, mostly, a random signal."""

    name = "openai"
    default_answer_mode = "json_object"
    supported_answer_modes = frozenset({"json_object"})

    def __init__(self, seat: int, game: Game, names: Sequence[str], log: list[Any]) -> None:
        self.seat, self.game, self.names, self.log = seat, game, list(names), log
        self.rng = random.Random(f"talk:{seat}:{game.seed}")
        self.sent: list[Sent] = []

    def signal(self) -> dict[str, Any] | None:
        kind = self.rng.choice(["claim", "mark", "react", None])
        if kind == "claim":
            return {"kind": "claim", "role": self.rng.choice(CLAIM_ROLES)}
        if kind == "mark":
            other = self.rng.choice([n for i, n in enumerate(self.names) if i != self.seat])
            return {"kind": "mark", "target": other, "role": self.rng.choice(CLAIM_ROLES)}
        if kind == "react":
            return {"kind": "react", "reaction": self.rng.choice(REACTIONS)}
        return None

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        upto = len(self.game.events)
        self.log.append((self.seat, upto, req))
        signal = self.signal()
        self.sent.append((self.seat, upto, signal))
        answer = {"choice": self.rng.choice(req.option_ids), "signal": signal}
        return ProviderReply(text=json.dumps(answer), input_tokens=10, output_tokens=5)


def said_by(sent: Sequence[Sent], upto: int, names: Sequence[str]) -> dict[int, set[str]]:
    """The roles said aloud about each seat by signals sent when ``upto`` events were logged."""
    out: dict[int, set[str]] = {}
    for seat, at, s in sent:
        if s is None or at > upto or s["kind"] == "react":
            continue
        about = seat if s["kind"] == "claim" else list(names).index(s["target"])
        out.setdefault(about, set()).add(s["role"])
    return out


def play(seats: int, mode: str, seed: int, locale: str, policy: str) -> dict[str, Any]:
    game = Game.new(seats, mode, seed)
    names = default_names(seats)
    log: list[Any] = []
    providers = [Talkative(i, game, names, log) for i in range(seats)]
    agents = [
        ModelSeat(
            f"m{i}",
            LLMAgent(
                providers[i],
                "m",
                Transcript(
                    names,
                    locale,
                    policy,
                    count_tokens=lambda text: len(text) // 4,
                    builder=PromptBuilder(names, locale, signals=True),
                ),
                fallback=lambda v, o: o[0],
                price_table=PriceBook({}, use_litellm=False),
                signal_names=names,
            ),
            decision_seconds=1e9,
        )
        for i in range(seats)
    ]
    signals = TableSignals(seats)
    asyncio.run(Table(game, agents, signals=signals, max_decisions=1500).play())
    sent = [s for p in providers for s in p.sent]
    return {"game": game, "names": names, "log": log, "sent": sent, "signals": signals}


@pytest.mark.parametrize(
    "seats, mode, seed, locale, policy",
    [
        (4, "classic", 2, "en", "conversation"),
        (5, "double_agent", 0, "ru", "log"),
        (5, "classic", 3, "zh", "since_last"),
    ],
)
def test_prompts_with_table_talk_hold_only_what_the_seat_may_know(
    seats: int, mode: str, seed: int, locale: str, policy: str
) -> None:
    played = play(seats, mode, seed, locale, policy)
    game, names, sent = played["game"], played["names"], played["sent"]
    assert played["signals"].log, "signals were passed on"
    account = Account.from_game(game)
    leaks: list[str] = []
    for seat, upto, req in played["log"]:
        outputs = {"system": req.system, "messages": req.messages}
        said = said_by(sent, upto, names)
        leaks += check_seat_outputs(
            game, seat, outputs, account=account, upto=upto, names=names, said=said
        )
    assert leaks == []
    # the feeds did narrate signals
    narrated = [
        m["content"] for _, _, r in played["log"] for m in r.messages if "💬" in m["content"]
    ]
    assert narrated


def test_a_signal_passed_on_is_exactly_what_its_sender_chose() -> None:
    played = play(5, "classic", 11, "en", "conversation")
    names = played["names"]
    chosen = [
        (seat, at, s) for seat, at, s in played["sent"] if s is not None
    ]  # every signal a seat sent, in the order the test's models sent them
    expected = []
    for seat, at, s in sorted(chosen, key=lambda x: x[1]):
        event = {"t": "signal", "seat": seat, "kind": s["kind"]}
        if s.get("role"):
            event["role"] = s["role"]
        if s.get("target"):
            event["target"] = names.index(s["target"])
        if s.get("reaction"):
            event["reaction"] = s["reaction"]
        event["at"] = at
        expected.append(event)
    log = played["signals"].log
    assert log
    for event in log:
        assert set(event) <= {"t", "seat", "kind", "role", "target", "reaction", "at"}
        assert event in expected  # nothing the sender did not choose
    assert len(log) <= len(expected)


def test_the_check_reports_a_hidden_role_given_as_a_claim_nobody_made() -> None:
    played = play(4, "classic", 2, "en", "conversation")
    game, names = played["game"], played["names"]
    account = Account.from_game(game)
    # a line giving a hidden seat's true role as a claim it never made
    hidden = next(j for j in range(1, 4) if game.seats[j].role != "marshal")
    role = game.seats[hidden].role
    upto = played["log"][0][1]  # the first request: every role but the Marshal's hidden
    viewer = next(v for v in range(4) if game.seats[v].role not in (role, "marshal"))
    assert hidden not in account.roles(viewer, upto)
    line = f'💬 {names[hidden]} says: "I am {role_name(role, "en")}."'
    said: dict[int, set[str]] = {hidden: {r for r in CLAIM_ROLES if r != role}}
    leaks = check_seat_outputs(
        game, viewer, {"messages": [{"role": "user", "content": line}]},
        account=account, upto=upto, names=names, said=said,
    )  # fmt: skip
    assert leaks and names[hidden] in leaks[0]
    said[hidden].add(role)  # once the seat said it, it is public
    assert not check_seat_outputs(
        game, viewer, {"messages": [{"role": "user", "content": line}]},
        account=account, upto=upto, names=names, said=said,
    )  # fmt: skip
