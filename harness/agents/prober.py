"""Belief probes of a model seat: side requests asking who it thinks is who.

A :class:`Prober` belongs to one model seat in one game.  It sees every view the seat gets
(:meth:`Prober.note`, also for decisions replayed when a game is resumed, so a resumed game asks
the same probes) and keeps what it needs from those views only: the events the seat saw and a
rule bot's suspicion of the table.  When a probe is due (:mod:`.probe_settings`) the table awaits
:meth:`Prober.probe` before the seat's decision and outside its decision timer:

* the request is the seat's system prompt (the rules, cached with the game's requests) and one
  self-contained user message (:func:`harness.views.probe_prompt.probe_message`); it never
  enters the seat's conversation, so the seat's play is the same with or without probes;
* the answer is parsed strictly (:func:`.probe_parse.parse_probe`); an invalid answer gets one
  corrective re-prompt, then the probe is recorded as invalid with the reason;
* a failed call (error, timeout) ends the probe as invalid with the error; nothing a probe does
  raises into the game, except a stopping run's cancellation;
* the calls go through the seat's provider, so the run's limits, spend ledger and caps count
  them (the ledger marks them ``purpose: "probe"`` through :data:`probe_call`);
* the record (:class:`harness.agents.probe_record.ProbeRecord`) carries the two baselines computed
  from the same view: the counting observer and the rule bot's suspicion as role probabilities.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import Any

from harness.engine import SeatView
from harness.engine.role_counting import counting_observer, probe_targets
from harness.views.probe_prompt import probe_message

from .decision_record import cap_text, quote_text, sha256_text
from .key_redaction import redact
from .pricing import PriceBook
from .probe_parse import SUM_TOLERANCE, parse_probe, probe_grammar, probe_schema
from .probe_record import ProbeAttempt, ProbeRecord, ProbeTrigger
from .probe_settings import ProbeSettings
from .providers.provider_contract import Provider, ProviderRequest
from .providers.provider_errors import ProviderError
from .rulebot.role_beliefs import suspicion_roles
from .rulebot.suspicion import Suspicion

# True while a probe's call is in flight (the league's ledger marks such calls as probes).
probe_call: ContextVar[bool] = ContextVar("probe_call", default=False)

ProbeSink = Callable[[ProbeRecord], None]
MAX_CORRECTIONS = 1


def correction_text(problem: str, names: Sequence[str], roles: Sequence[str]) -> str:
    """The corrective re-prompt after an invalid probe answer."""
    return "\n".join(
        [
            f"Your answer could not be used: {problem}.",
            'Answer with only a JSON object {"beliefs": {...}} giving, for each player, a '
            f"probability of each role (non-negative numbers summing to 1 within {SUM_TOLERANCE} "
            "per player).",
            "Players: " + ", ".join(names),
            "Roles: " + ", ".join(roles),
        ]
    )


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(redact(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _by_name(beliefs: dict[int, dict[str, float]]) -> dict[str, dict[str, float]]:
    return {str(seat): dict(row) for seat, row in beliefs.items()}


class Prober:
    """The probes of one model seat in one game (see the module docstring)."""

    def __init__(
        self,
        settings: ProbeSettings,
        provider: Provider,
        model: str,
        *,
        names: Sequence[str],
        locale: str,
        system: Callable[[], str],
        sink: ProbeSink,
        answer_mode: Any,
        params: dict[str, Any] | None = None,
        seconds: float = 60.0,
        prices: PriceBook | None = None,
        label: str | None = None,
    ) -> None:
        self.settings = settings
        self.provider = provider
        self.model = model
        self.names = list(names)
        self.locale = locale
        self.system = system
        self.sink = sink
        self.answer_mode = answer_mode
        self.params = dict(params or {})
        if settings.max_tokens is not None:
            self.params["max_tokens"] = settings.max_tokens
        self.seconds = settings.seconds or seconds
        self.prices = prices or PriceBook(None)
        self.label = label
        self.game_id = ""
        self.seat = -1
        self.player = ""
        self.events: list[dict[str, Any]] = []
        self._seen = 0
        self.suspicion: Suspicion | None = None
        self.decisions = 0  # model decisions (more than one option) of the seat so far
        self._round = 0  # the round of the seat's previous model decision
        self._eliminations = 0  # eliminations the seat had seen at that decision
        self._seen_eliminations = 0
        self.records: list[ProbeRecord] = []

    def new_game(self, game_id: str, seat: int, player: str) -> None:
        self.game_id, self.seat, self.player = game_id, seat, player
        self.events, self._seen, self.suspicion = [], 0, None
        self.decisions, self._round = 0, 0
        self._eliminations = self._seen_eliminations = 0

    # ----------------------------------------------------------------- what the seat saw

    def _observe(self, view: SeatView) -> None:
        first = view.event_count - len(view.events)
        skip = max(0, self._seen - first)
        new = view.events[skip:]
        self.events.extend(new)
        self._seen = max(self._seen, view.event_count)
        self._seen_eliminations += sum(1 for e in new if e.get("t") == "eliminated")
        if self.suspicion is None or self.suspicion.n != view.n_seats:
            self.suspicion = Suspicion(view.n_seats)
        self.suspicion.feed(view)

    def note(self, view: SeatView, options: Sequence[str]) -> list[ProbeTrigger]:
        """Take in a view of the seat's decision; the triggers of a probe due now (empty: none).
        Called for every decision of the seat, live or replayed."""
        self._observe(view)
        if len(options) < 2:
            return []
        self.decisions += 1
        due: list[ProbeTrigger] = []
        every = self.settings.every
        if every is not None and self.decisions % every == 0:
            due.append("every")
        if "elimination" in self.settings.at and self._seen_eliminations > self._eliminations:
            due.append("elimination")
        if "round_start" in self.settings.at and view.round > self._round:
            due.append("round_start")
        self._round = view.round
        self._eliminations = self._seen_eliminations
        return due if probe_targets(view)[0] else []

    # ----------------------------------------------------------------- the probe

    async def probe(
        self, view: SeatView, triggers: Sequence[ProbeTrigger], decision_index: int
    ) -> ProbeRecord | None:
        """Ask the probe for ``view`` (the seat's pending decision ``decision_index``), record it
        and hand it to the sink.  Never raises, except a cancellation."""
        try:
            record = await self._ask(view, list(triggers), decision_index)
        except asyncio.CancelledError:
            raise
        except Exception:  # a probe never stops or changes the game
            return None
        self.records.append(record)
        with contextlib.suppress(Exception):  # a full disk must not end the game either
            self.sink(record)
        return record

    async def _ask(
        self, view: SeatView, triggers: list[ProbeTrigger], decision_index: int
    ) -> ProbeRecord:
        t0 = time.monotonic()
        targets, roles = probe_targets(view)
        names = [self.names[s] for s in targets]
        assert self.suspicion is not None
        counting = counting_observer(view, targets)
        bot = suspicion_roles(self.suspicion, view, targets, roles)
        user = probe_message(view, self.events, self.names, self.locale, targets, roles)
        messages: list[dict[str, str]] = [{"role": "user", "content": user}]
        attempts: list[ProbeAttempt] = []
        beliefs: dict[str, dict[str, float]] | None = None
        problem: str | None = None
        deadline = t0 + self.seconds
        schema, grammar = probe_schema(names, roles), probe_grammar(names, roles)
        for attempt in range(MAX_CORRECTIONS + 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0.05:
                problem = problem or "no time left for the probe"
                break
            request = ProviderRequest(
                model=self.model,
                system=self.system(),
                messages=list(messages),
                answer_mode=self.answer_mode,
                option_ids=("beliefs",),
                params=self.params,
                timeout=remaining,
                schema=schema,
                grammar=grammar,
            )
            started = time.monotonic()
            token = probe_call.set(True)
            try:
                async with asyncio.timeout(remaining):
                    reply = await self.provider.complete(request)
            except TimeoutError:
                problem = f"no answer within {remaining:.1f} s"
                attempts.append(ProbeAttempt(error_kind="timeout", error_message=problem,
                                             latency_s=time.monotonic() - started))  # fmt: skip
                break
            except ProviderError as e:
                problem = f"{e.kind}: {_one_line(e.message)}"
                attempts.append(ProbeAttempt(error_kind=e.kind, error_message=_one_line(e.message),
                                             latency_s=time.monotonic() - started))  # fmt: skip
                break
            finally:
                probe_call.reset(token)
            answer = reply.tool_arguments if reply.tool_arguments is not None else reply.text
            parsed = parse_probe(answer, names, roles)
            kind = None
            if parsed.beliefs is None:
                cut = reply.finish_reason == "length"
                kind = "truncated" if cut else "invalid"
                problem = parsed.problem or "invalid"
                if cut:
                    problem = f"it was cut off at the token limit ({problem})"
            attempts.append(
                ProbeAttempt(
                    raw_text=cap_text(redact(answer)) if answer is not None else None,
                    error_kind=kind,
                    error_message=problem if kind else None,
                    finish_reason=reply.finish_reason,
                    latency_s=time.monotonic() - started,
                    input_tokens=reply.input_tokens,
                    output_tokens=reply.output_tokens,
                )
            )
            if parsed.beliefs is not None:
                beliefs, problem = parsed.beliefs, None
                break
            if attempt < MAX_CORRECTIONS:
                messages.append({"role": "assistant", "content": quote_text(answer or "")})
                messages.append(
                    {"role": "user", "content": correction_text(problem or "", names, roles)}
                )
        tokens_in = sum(a.input_tokens for a in attempts)
        tokens_out = sum(a.output_tokens for a in attempts)
        cost: float | None = 0.0
        if tokens_in or tokens_out:
            cost = self.prices.cost(
                self.model,
                input_tokens=tokens_in,
                cached_input_tokens=0,
                output_tokens=tokens_out,
                provider=self.provider.name,
            )
        by_seat = None
        if beliefs is not None:
            by_seat = {str(s): beliefs[n] for s, n in zip(targets, names, strict=True)}
        return ProbeRecord(
            game_id=self.game_id,
            seat=self.seat,
            player=self.player,
            model=self.label,
            role=view.role,
            decision_index=decision_index,
            triggers=triggers,
            round=view.round,
            event_count=view.event_count,
            targets=targets,
            names=names,
            roles=roles,
            prompt_sha256=sha256_text(user),
            prompt_chars=len(user),
            valid=beliefs is not None,
            invalid_reason=None if beliefs is not None else (problem or "no answer"),
            beliefs=by_seat,
            counting=_by_name(counting),
            rulebot=_by_name(bot),
            attempts=attempts,
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            cost_usd=None if cost is None else round(cost, 9),
            latency_s=round(time.monotonic() - t0, 6),
        )
