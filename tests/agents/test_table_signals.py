"""Table talk for model seats (RULES.md §10, docs/signals.md): the answer formats gain an optional
signal only when signals are on, a signal is read strictly and never touches the choice, the table
holds model seats to the people's limits, and every seat's feed narrates signals in game order in
every locale."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest

from harness.agents.answer_parse import parse_answer
from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.llm_agent import LLMAgent
from harness.agents.model_seat import ModelSeat
from harness.agents.pricing import PriceBook
from harness.agents.providers.provider_contract import (
    Provider,
    ProviderReply,
    ProviderRequest,
    answer_grammar,
    answer_schema,
)
from harness.agents.seat_protocol import Agent
from harness.agents.table import Recorded, Table
from harness.agents.table_signals import (
    MAX_PER_MATCH,
    SignalRefused,
    TableSignals,
    check_signal,
    public_seats,
    read_signal,
)
from harness.agents.transcript import Transcript
from harness.engine import Game, SeatView
from harness.views.names import LOCALES, default_names
from harness.views.narrate import Narrator
from harness.views.prompts import PromptBuilder, system_prompt_text

NAMES = ["Ada", "Bill", "Cole", "Dora"]


# ------------------------------------------------------------------ the answer format


def test_without_signals_the_answer_formats_are_unchanged() -> None:
    """signals: false changes nothing a model is sent (RULES.md §10: off by default)."""
    ids = ["a", "b"]
    assert answer_schema(ids) == answer_schema(ids, "one", False)
    assert "signal" not in json.dumps(answer_schema(ids))
    assert "signal" not in answer_grammar(ids)
    assert PromptBuilder(NAMES, "en").system_prompt() == system_prompt_text("en")
    for locale in LOCALES:
        assert "signal" not in system_prompt_text(locale)
        assert '"signal"' in system_prompt_text(locale, True)
        assert system_prompt_text(locale, True).startswith(system_prompt_text(locale))


def test_with_signals_every_answer_constraint_allows_an_optional_signal() -> None:
    ids = ["a", "b"]
    schema = answer_schema(ids, "one", True)
    assert schema["required"] == ["choice", "reason", "signal"]  # strict mode: null for none
    options = schema["properties"]["signal"]["anyOf"]
    assert {"type": "null"} in options
    signal = next(o for o in options if o.get("type") == "object")
    assert signal["properties"]["kind"]["enum"] == ["claim", "mark", "react"]
    assert signal["additionalProperties"] is False
    grammar = answer_grammar(ids, "one", True)
    assert 'ws "\\"signal\\"" ws ":" ws signal )?' in grammar
    assert grammar.count("signal ::=") == 1 and "reaction ::=" in grammar


def test_a_signal_never_changes_the_choice() -> None:
    good = parse_answer(
        '{"choice": "b", "signal": {"kind": "claim", "role": "deputy"}}', ["a", "b"]
    )
    assert (good.choice, good.error_kind) == ("b", None)
    assert good.signal == {"kind": "claim", "role": "deputy"}
    junk = parse_answer('{"choice": "b", "signal": [1, 2]}', ["a", "b"])
    assert (junk.choice, junk.error_kind, junk.signal) == ("b", None, [1, 2])


@pytest.mark.parametrize(
    "raw, problem",
    [
        ("claim deputy", "not a JSON object"),
        ({"kind": "shout"}, "kind is one of"),
        ({"kind": "mark", "target": "Zed", "role": "raider"}, "not a player's name"),
        ({"kind": "claim", "role": 3}, '"role" is not a string'),
        ({"kind": "claim", "role": "deputy", "why": "x"}, "unknown fields: why"),
        # not kept in the decision record: a refused signal's words stay out of the run folder
        ({"kind": "claim", "role": "deputy" + "x" * 100_000}, "a role is one of"),
        ({"kind": "react", "reaction": "\u202egg"}, "a reaction is one of"),
        ({"kind": "mark", "target": "Cole", "role": "sheriff\u200b"}, "a role is one of"),
    ],
)
def test_a_signal_that_is_not_one_is_refused_with_its_reason(raw: Any, problem: str) -> None:
    with pytest.raises(SignalRefused) as e:
        read_signal(raw, NAMES)
    assert problem in str(e.value)


def test_a_mark_names_its_target_by_the_name_the_seat_was_shown() -> None:
    sig = read_signal({"kind": "mark", "target": "Cole", "role": "loner"}, NAMES)
    assert (sig.kind, sig.target, sig.role) == ("mark", 2, "loner")


@pytest.mark.parametrize(
    "kind, kw, code",
    [
        ("claim", {"role": "marshal"}, "bad_signal"),  # the Marshal is public: no claim of it
        ("claim", {"role": "deputy", "alive": False}, "eliminated"),
        ("mark", {"role": "raider", "target": 0}, "bad_signal"),  # yourself
        ("mark", {"role": "raider", "target": 2, "target_alive": False}, "bad_signal"),
        ("mark", {"role": "raider", "target": 9}, "bad_signal"),
        ("react", {"reaction": "boo"}, "bad_signal"),
        ("react", {"reaction": "gg", "sent": MAX_PER_MATCH}, "signal_limit"),
    ],
)
def test_the_rules_of_signals(kind: str, kw: dict[str, Any], code: str) -> None:
    """RULES.md §10: claims and marks only while alive, at most 60 signals per match."""
    args = {"n_seats": 4, "alive": True, "sent": 0, **kw}
    with pytest.raises(SignalRefused) as e:
        check_signal(0, kind, **args)
    assert e.value.code == code
    check_signal(0, "react", n_seats=4, alive=False, sent=MAX_PER_MATCH - 1, reaction="gg")


def test_claims_and_marks_about_a_public_role_are_refused() -> None:
    """Issue 35 item 12: the Marshal claims nothing ("Deputy" would count as 0 % honest) and
    nobody marks the Marshal ("Raider" would count as 0 % accurate); the Marshal still marks
    and reacts, and a mark on a hidden role still goes."""
    public = [False, True, False, False]  # seat 1 is the Marshal
    base = {"n_seats": 4, "alive": True, "sent": 0, "public": public}
    with pytest.raises(SignalRefused) as e:
        check_signal(1, "claim", role="deputy", **base)
    assert (e.value.code, str(e.value)) == (
        "public_role",
        "your role is public: a claim is about a hidden role",
    )
    with pytest.raises(SignalRefused) as e:
        check_signal(0, "mark", role="raider", target=1, **base)
    assert e.value.code == "public_role" and "that player's role is public" in str(e.value)
    check_signal(1, "mark", role="raider", target=2, **base)
    check_signal(1, "react", reaction="gg", **base)
    check_signal(0, "claim", role="deputy", **base)
    check_signal(0, "mark", role="loner", target=3, **base)


def test_public_seats_are_the_marshal_and_eliminated_players() -> None:
    game = Game.new(5, "classic", 7)
    marshal = next(s.index for s in game.seats if s.role == "marshal")
    assert public_seats(game) == [i == marshal for i in range(5)]
    other = (marshal + 1) % 5
    game.seats[other].alive = False
    assert public_seats(game) == [i in (marshal, other) for i in range(5)]


def test_the_table_refuses_a_model_seats_claim_as_the_marshal_with_a_reason() -> None:
    """A model seat at the table runner is held to the same rule; its choice stands."""
    game = Game.new(4, "classic", 5)
    marshal = next(s.index for s in game.seats if s.role == "marshal")
    talkers = [Talker(f"t{i}", lambda n: {"kind": "claim", "role": "deputy"}) for i in range(4)]
    records: list[Any] = []
    signals = TableSignals(4)
    table = Table(game, list(talkers), signals=signals, max_decisions=40,
                  on_decision=lambda g, v, d: records.append((v.viewer, d.record)))  # fmt: skip
    asyncio.run(table.play())
    mine = [r for seat, r in records if seat == marshal]
    assert mine and all(r.signal_refused == "public_role: your role is public: a claim is about "
                        "a hidden role" for r in mine)  # fmt: skip
    assert all(r.chosen == r.options[-1] for r in mine)
    assert signals.log and all(e["seat"] != marshal for e in signals.log)


# ------------------------------------------------------------------ the table


class Talker(Agent):
    """A seat that answers like a model seat: last option, with a record carrying ``say(n)``."""

    kind = "model"

    def __init__(self, name: str, say: Any) -> None:
        super().__init__(name)
        self.say = say
        self.n = 0
        self.heard: list[dict[str, Any]] = []

    def hear(self, signals: Sequence[dict[str, Any]]) -> None:
        self.heard.extend(signals)

    async def choose(self, view: SeatView, options: Sequence[str]) -> Any:
        from harness.agents.seat_protocol import Choice

        self.n += 1
        record = ModelDecisionRecord(
            provider="test",
            model="t",
            answer_mode="json_object",
            options=list(options),
            system_prompt_sha256="x",
            chosen=options[-1],
            signal=self.say(self.n),
        )
        return Choice(options[-1], None, None, record)


def test_the_table_holds_a_model_seat_to_sixty_signals_and_refuses_with_a_reason() -> None:
    game = Game.new(4, "classic", 3)
    talkers = [Talker(f"t{i}", lambda n: {"kind": "react", "reaction": "gg"}) for i in range(4)]
    records: list[Any] = []
    signals = TableSignals(4)
    table = Table(
        game,
        list(talkers),
        signals=signals,
        max_decisions=600,
        on_decision=lambda g, v, d: records.append((v.viewer, d.record)),
    )
    asyncio.run(table.play())
    for seat in range(4):
        mine = [r for s, r in records if s == seat]
        accepted = [r for r in mine if r.signal_refused is None]
        assert len(accepted) == min(len(mine), MAX_PER_MATCH)
        assert len([e for e in signals.log if e["seat"] == seat]) == len(accepted)
        assert all(r.signal_refused == "signal_limit: at most 60 signals per match"
                   for r in mine[MAX_PER_MATCH:])  # fmt: skip
    assert max(sum(1 for s, _ in records if s == seat) for seat in range(4)) > MAX_PER_MATCH
    assert all(r.chosen == r.options[-1] for _, r in records)  # the choice stood every time
    for t in talkers:  # every seat hears every signal, in order
        assert t.heard == signals.log[: len(t.heard)]


def test_signals_reach_every_seat_in_game_order_and_at_the_event_they_followed() -> None:
    game = Game.new(4, "classic", 5)
    says = [
        {"kind": "claim", "role": "deputy"},
        {"kind": "mark", "target": 2, "role": "raider"},
        None,
    ]
    talkers = [Talker(f"t{i}", lambda n: says[n % 3]) for i in range(4)]
    signals = TableSignals(4)
    events_at: list[int] = []
    table = Table(
        game,
        talkers,
        signals=signals,
        max_decisions=60,
        on_decision=lambda g, v, d: events_at.append(len(g.events)),
    )
    asyncio.run(table.play())
    assert signals.log, "signals were sent"
    assert [e["at"] for e in signals.log] == sorted(e["at"] for e in signals.log)
    assert {e["at"] for e in signals.log} <= set(events_at)
    for t in talkers:  # each seat heard a prefix of the log, in order, nothing else
        assert t.heard == signals.log[: len(t.heard)]


# ------------------------------------------------------------------ the feed


def test_the_feed_narrates_signals_in_every_locale() -> None:
    claim = {"t": "signal", "seat": 1, "kind": "claim", "role": "deputy", "at": 0}
    mark = {"t": "signal", "seat": 1, "kind": "mark", "target": 3, "role": "raider", "at": 0}
    react = {"t": "signal", "seat": 2, "kind": "react", "reaction": "suspect", "at": 0}
    for locale in LOCALES:
        names = default_names(4)
        lines = Narrator(names, locale).lines([claim, mark, react])
        assert len(lines) == 3 and not any(line.startswith("[") for line in lines), locale
        assert names[1] in lines[0] and names[1] in lines[1] and names[3] in lines[1]
        assert names[2] in lines[2]


def test_the_transcript_places_signals_after_the_events_before_them() -> None:
    game = Game.new(4, "classic", 1)
    names = default_names(4)
    from harness.engine import build_view

    for policy in ("conversation", "log", "since_last"):
        t = Transcript(names, "en", policy, count_tokens=lambda s: len(s) // 4)
        first = build_view(game, 0)
        t.observe(first)
        n = first.event_count
        t.hear([{"t": "signal", "seat": 2, "kind": "react", "reaction": "gg", "at": n}])
        game2 = Game.new(4, "classic", 1)
        game2.apply(game2.pending.option_ids[-1])  # type: ignore[union-attr]
        view = build_view(game2, 0, since=n)
        t.observe(view)
        feed = [e["t"] for e in t.events]
        assert feed[n] == "signal" and len(feed) == view.event_count + 1, policy
        text = t.turn(view, ["x", "y"])[-1]["content"]
        assert f"{names[2]} reacts" in text, policy


# ------------------------------------------------------------------ a resumed game


class Cycling(Provider):
    """An in-process model: the first option and, by turns, a claim, a mark, a reaction,
    nothing, or a mark on nobody (refused)."""

    name = "openai"
    default_answer_mode = "json_object"
    supported_answer_modes = frozenset({"json_object"})

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.n = 0

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.n += 1
        plan = [
            {"kind": "claim", "role": "deputy"},
            {"kind": "mark", "target": self.names[self.n % 4], "role": "raider"},
            {"kind": "react", "reaction": "gg"},
            None,
            {"kind": "mark", "target": "Zed", "role": "loner"},
        ]
        answer = {"choice": req.option_ids[0], "signal": plan[self.n % len(plan)]}
        return ProviderReply(text=json.dumps(answer), input_tokens=10, output_tokens=3)


def _talking_seats(names: Sequence[str]) -> list[Agent]:
    provider = Cycling(names)
    return [
        ModelSeat(
            f"m{i}",
            LLMAgent(
                provider,
                "m",
                Transcript(
                    names,
                    "en",
                    "conversation",
                    count_tokens=lambda s: len(s) // 4,
                    builder=PromptBuilder(names, "en", signals=True),
                ),
                fallback=lambda v, o: o[0],
                price_table=PriceBook({}, use_litellm=False),
                signal_names=names,
            ),
            decision_seconds=1e9,
        )
        for i in range(4)
    ]


def test_a_resumed_game_hears_the_same_signals_and_rebuilds_the_same_prompts() -> None:
    """Replaying recorded decisions offers their signals again: every seat's restored
    conversation must equal the recorded prompts (a signal line missing or misplaced is a
    ReplayMismatch), and the table's signal log is the live one."""
    names = default_names(4)
    recorded: list[Recorded] = []

    def keep(g: Game, v: SeatView, d: Any) -> None:
        record = d.record.model_dump(mode="json") if d.record is not None else None
        recorded.append(Recorded(d.option, d.fallback, d.error, d.latency_s, record))

    live = TableSignals(4)
    table = Table(Game.new(4, "classic", 7), _talking_seats(names), signals=live,
                  max_decisions=90, on_decision=keep)  # fmt: skip
    asyncio.run(table.play())
    cut = 70
    assert any((r.record or {}).get("signal_refused") for r in recorded[:cut])

    async def resume() -> TableSignals:
        again = TableSignals(4)
        twin = Table(Game.new(4, "classic", 7), _talking_seats(names), signals=again)
        for rec in recorded[:cut]:
            await twin.replay(rec)
        return again

    again = asyncio.run(resume())
    accepted = [
        r
        for r in recorded[:cut]
        if (r.record or {}).get("signal") and not (r.record or {}).get("signal_refused")
    ]
    assert accepted and len(again.log) == len(accepted)
    assert again.log == live.log[: len(again.log)]
