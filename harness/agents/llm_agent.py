"""The LLM agent shared by every provider: prompting, strict parsing, corrections, retries,
deadlines, fallback, caching, accounting and records live here once.

Contract of :meth:`LLMAgent.decide`:

* a single option is returned without calling the model;
* the answer (forced tool arguments, else the reply text) must be a JSON object whose ``choice``
  is exactly one of the option ids (text may be wrapped in one ```json fence); otherwise it is
  ``unparseable`` or ``illegal_option`` and the model gets up to ``max_corrections`` corrective
  re-prompts before the caller's ``fallback`` decides (reason ``invalid_answer``);
* an answer the token limit cut (finish reason ``length``) that does not parse is ``truncated``,
  not the model's invalid answer: its corrective re-prompt asks for a shorter answer, and when the
  last attempt was truncated the fallback reason is ``truncated``.  A cut answer that still parses
  strictly (the object was complete) is valid;
* with ``answer_shape="set"`` the answer is ``{"answer": [<option id>, ...]}`` instead: any subset
  of the options, each listed once (the model is asked even with a single option); the chosen
  value is then the JSON array of the chosen ids in option order (see :func:`parse_answer`);
* transient provider errors are retried with deterministic exponential back-off (honouring
  ``Retry-After``) within ``retry_budget`` and never past ``deadline``; every call is bounded by
  the time left. When retries cannot help the fallback decides, with reason ``timeout`` if time
  ran out and ``error`` otherwise;
* a request the server refuses as longer than the model's context (``context_overflow``) is
  sent once more after the seat's history is compacted to half its size
  (``Conversation.compact_to``); a second overflow, or a history that cannot get shorter, falls
  back with reason ``context_overflow``.  The server's error text is recorded in the attempt,
  never put in the model's conversation;
* fatal provider errors raise :class:`FatalModelError`: a misconfigured run stops, it is never
  papered over with fallbacks.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .answer_parse import (
    correction_message,
    parse_answer,
    truncated_answer,
)
from .conversation import Conversation, PromptBuilder, as_conversation
from .decision_record import (
    TRUNCATED,
    Attempt,
    ModelDecisionRecord,
    TokenCounts,
    quote_text,
    sha256_text,
)
from .key_redaction import redact
from .model_decision import Call, Decision, decision_record, exchange, one_line, stored
from .pricing import PriceBook, PriceTable
from .providers.provider_contract import (
    AnswerMode,
    AnswerShape,
    Provider,
    ProviderRequest,
)
from .providers.provider_errors import (
    ContextOverflow,
    FatalProviderError,
    ProviderError,
    ProviderTimeout,
    RateLimited,
    ServerError,
    TransientProviderError,
)
from .response_cache import ResponseCache
from .seat import FatalSeatError

__all__ = [
    "FallbackPolicy",
    "FatalModelError",
    "LLMAgent",
    "PromptBuilder",
]


FallbackPolicy = Callable[[Any, Sequence[str]], str]
RecordSink = Callable[[ModelDecisionRecord], None]
SystemPromptSink = Callable[[str, str], None]


class FatalModelError(FatalSeatError):
    """A fatal provider error (bad key, unknown model, bad request): the run must stop.

    Subclasses the seat layer's ``FatalSeatError`` so ``seat.decide`` lets it through instead of
    turning it into a fallback. The message is one line naming provider and model.
    """

    def __init__(self, provider: str, model: str, cause: ProviderError) -> None:
        status = f" (HTTP {cause.status})" if cause.status else ""
        first_line = redact((cause.message.strip().splitlines() or [""])[0])[:300]
        super().__init__(
            f"{provider} model {model!r}: {cause.kind.replace('_', ' ')}{status}: {first_line}"
        )
        self.provider = provider
        self.model = model
        self.cause = cause


# --------------------------------------------------------------------------- the agent


def _default_policy_name(fallback: FallbackPolicy) -> str:
    name = getattr(fallback, "__qualname__", None) or getattr(fallback, "__name__", None)
    return str(name or type(fallback).__name__)


class LLMAgent:
    """Decides with a language model behind any :class:`Provider`.

    ``fallback(view, options) -> option id`` is the caller's explicit policy for when the model
    cannot answer validly in time (the rules' simplest move or a rule bot). ``record_sink``
    receives every :class:`ModelDecisionRecord`; ``system_prompt_sink(sha256, text)`` receives
    each distinct system prompt once (records store only its hash). ``price_table`` is a config
    price table or a :class:`PriceBook`.
    """

    def __init__(
        self,
        provider: Provider,
        model: str,
        prompt_builder: PromptBuilder | Conversation,
        *,
        fallback: FallbackPolicy,
        answer_mode: AnswerMode | None = None,
        params: Mapping[str, Any] | None = None,
        max_corrections: int = 1,
        retry_budget: int = 4,
        backoff: float = 0.5,
        backoff_max: float = 30.0,
        price_table: PriceTable | PriceBook | None = None,
        cache: ResponseCache | None = None,
        record_sink: RecordSink | None = None,
        system_prompt_sink: SystemPromptSink | None = None,
        fallback_policy: str | None = None,
        min_attempt_s: float = 0.05,
        signal_names: Sequence[str] | None = None,
    ) -> None:
        mode = answer_mode or provider.default_answer_mode
        if mode not in provider.supported_answer_modes:
            supported = ", ".join(sorted(provider.supported_answer_modes))
            raise ValueError(
                f"answer mode {mode!r} is not supported by provider {provider.name!r} "
                f"(supported: {supported})"
            )
        if max_corrections < 0 or retry_budget < 0 or backoff < 0:
            raise ValueError("max_corrections, retry_budget and backoff must be >= 0")
        self.provider = provider
        self.model = model
        self.prompt_builder = prompt_builder
        self.conversation = as_conversation(prompt_builder)
        self.fallback = fallback
        self.fallback_policy = fallback_policy or _default_policy_name(fallback)
        self.answer_mode: AnswerMode = mode
        self.params: dict[str, Any] = dict(params or {})
        self.max_corrections = max_corrections
        self.retry_budget = retry_budget
        self.backoff = backoff
        self.backoff_max = backoff_max
        self.prices = price_table if isinstance(price_table, PriceBook) else PriceBook(price_table)
        self.cache = cache
        self.record_sink = record_sink
        self.system_prompt_sink = system_prompt_sink
        self.min_attempt_s = min_attempt_s
        self.system_prompts: dict[str, str] = {}
        # table talk: the seat names a signal's target is one of; None: no signals
        self.signal_names = list(signal_names) if signal_names is not None else None

    async def aclose(self) -> None:
        """Close the provider's network resources."""
        await self.provider.aclose()

    def hear(self, signals: Sequence[dict[str, Any]]) -> None:
        """Public table signals for the seat's feed (its conversation narrates them)."""
        hear = getattr(self.conversation, "hear", None)
        if hear is not None:
            hear(signals)

    # ----------------------------------------------------------------- public API

    async def decide(
        self,
        view: Any,
        options: Sequence[str],
        deadline: float,
        context: Mapping[str, Any],
        *,
        answer_shape: AnswerShape = "one",
    ) -> tuple[str, ModelDecisionRecord]:
        """Choose one of ``options`` (canonical ids) before ``deadline`` (``time.monotonic()``);
        with ``answer_shape="set"`` choose a subset of them (returned as a JSON array).

        ``context`` may carry ``game_id``, ``decision_index``, ``seat``, ``role``, ``player``,
        ``decision_kind`` and ``view_json`` (dict or JSON text); they are copied into the record.
        Returns the chosen id and the record (also sent to ``record_sink``). Raises
        :class:`FatalModelError` on authentication / unknown-model / bad-request errors.
        """
        started = time.monotonic()
        option_ids = tuple(options)
        if not option_ids:
            raise ValueError("decide() needs at least one option")
        if len(set(option_ids)) != len(option_ids):
            raise ValueError(f"duplicate option ids: {option_ids}")
        conversation = self.conversation
        conversation.observe(view)
        system = conversation.system(view)
        system_sha = self._remember_system_prompt(system)
        state = Decision(option_ids, [], answer_shape)
        if len(option_ids) > 1 or answer_shape == "set":
            if getattr(conversation, "blocking", False):  # counts ask a server: off the loop
                turn = await asyncio.to_thread(conversation.turn, view, option_ids)
            else:
                turn = conversation.turn(view, option_ids)
            *state.context, user = turn
            state.messages.append(user)
            try:
                await self._run(state, system, deadline, view)
            except BaseException:
                conversation.skipped()
                raise
            conversation.commit(exchange(state.messages, state.attempts), state.fallback)
        chosen = self._choose(view, state)
        record = self._record(state, chosen, system_sha, context, time.monotonic() - started)
        if self.record_sink is not None:
            self.record_sink(record)
        return chosen, record

    def restore(self, view: Any, options: Sequence[str], record: Mapping[str, Any]) -> None:
        """Advance the seat's conversation as if it had made the recorded decision ``record``
        (a :class:`ModelDecisionRecord` dict) on ``view``, without calling the model.  An empty
        ``record`` is a decision the table decided without the seat's record (its timer cut the
        call off): the request is dropped as it was then.  Raises :class:`ValueError` when the
        message the seat would send differs from the recorded one."""
        conversation = self.conversation
        conversation.observe(view)
        if len(options) <= 1:
            return
        *_, user = conversation.turn(view, tuple(options))
        if not record:
            conversation.skipped()
            return
        budget = record.get("context_compacted_to")
        if isinstance(budget, int):
            compact = getattr(conversation, "compact_to", None)
            redone = compact(view, budget) if compact is not None else None
            if redone is not None:
                user = redone[0][-1]
        messages = list(record.get("messages") or [])
        if not messages or messages[0] != user:
            conversation.skipped()
            raise ValueError(
                f"decision {record.get('decision_index')} of game {record.get('game_id')}: the "
                "recorded prompt differs from the one the seat builds now"
            )
        attempts = list(record.get("attempts") or [])
        relearn = getattr(conversation, "relearn", None)
        for a in attempts if relearn is not None else ():
            counted, reported = a.get("counted_input_tokens"), (a.get("tokens") or {}).get("input")
            if isinstance(counted, int) and isinstance(reported, int) and reported and relearn:
                relearn(counted, reported)
        conversation.commit(exchange(messages, attempts), record.get("fallback"))

    # ----------------------------------------------------------------- the loop

    async def _run(self, state: Decision, system: str, deadline: float, view: Any) -> None:
        """Call the model until a valid answer or a fallback reason is set on ``state``."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining < self.min_attempt_s:
                state.fallback = "timeout"
                return
            request = ProviderRequest(
                model=self.model,
                system=system,
                messages=[*state.context, *state.messages],
                answer_mode=self.answer_mode,
                option_ids=state.options,
                params=self.params,
                timeout=remaining,
                answer_shape=state.shape,
                signals=self.signal_names is not None,
            )
            call = await self._call(request, remaining)
            if call.error is not None:
                state.attempts.append(
                    Attempt(
                        error_kind=call.error.kind,  # type: ignore[arg-type]
                        error_message=one_line(call.error.message),
                        latency_s=call.latency_s,
                    )
                )
                if isinstance(call.error, ContextOverflow):
                    if not self._shorten(state, view):
                        state.fallback = "context_overflow"
                        return
                    continue
                if not await self._back_off(state, call.error, deadline):
                    return
                continue
            assert call.reply is not None
            state.counted = self._learn_count(request, call)
            if self._judge(state, call):
                return

    async def _call(self, request: ProviderRequest, remaining: float) -> Call:
        """One provider call bounded by ``remaining`` seconds, or a cache hit."""
        if self.cache is not None:
            hit = self.cache.get(self.provider.name, request)
            if hit is not None:
                return Call(hit, None, 0.0, cached=True)
        t0 = time.monotonic()
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
            # that arrives as the call completes, and the caller (a stopping run) never sees it.
            async with asyncio.timeout(remaining):
                reply = await self.provider.complete(request)
        except TimeoutError:
            error: TransientProviderError = ProviderTimeout(
                f"no answer within {remaining:.2f}s (decision deadline)"
            )
            return Call(None, error, time.monotonic() - t0, cached=False)
        except (TransientProviderError, ContextOverflow) as exc:
            return Call(None, exc, time.monotonic() - t0, cached=False)
        except FatalProviderError as exc:
            raise FatalModelError(self.provider.name, self.model, exc) from exc
        except ProviderError as exc:  # an adapter's unclassified error: treat as transient
            return Call(None, _as_transient(exc), time.monotonic() - t0, cached=False)
        latency = time.monotonic() - t0
        if self.cache is not None:
            self.cache.put(self.provider.name, request, reply)
        return Call(reply, None, latency, cached=False)

    def _shorten(self, state: Decision, view: Any) -> bool:
        """After a context overflow: redo the pending request with the seat's history compacted
        to half its size (once per decision); ``False`` when that is not possible."""
        if state.compacted_to is not None:
            return False
        compact = getattr(self.conversation, "compact_to", None)
        redone = compact(view) if compact is not None else None
        if redone is None:
            return False
        messages, state.compacted_to = redone
        *state.context, user = messages
        state.messages = [user]
        return True

    def _learn_count(self, request: ProviderRequest, call: Call) -> int | None:
        """Tell the conversation what the server counted for the request it built (its counter
        corrects later budgets).  A cached reply carries the count the server gave this same
        request, so a game replayed from the cache budgets as it did live.  Returns the
        conversation's own count of the request (kept in the attempt's record), or ``None``."""
        reported = getattr(self.conversation, "reported", None)
        if reported is None or call.reply is None or not call.reply.input_tokens:
            return None
        counted = reported(request.system, request.messages, call.reply.input_tokens)
        return counted if isinstance(counted, int) else None

    async def _back_off(
        self, state: Decision, error: TransientProviderError, deadline: float
    ) -> bool:
        """Sleep before a retry; ``False`` (with ``state.fallback`` set) when retrying is over."""
        if state.retries >= self.retry_budget:
            out_of_time = deadline - time.monotonic() < self.min_attempt_s
            state.fallback = "timeout" if out_of_time else "error"
            return False
        delay = self.retry_delay(state.retries, error)
        if time.monotonic() + delay + self.min_attempt_s > deadline:
            state.fallback = "timeout"
            return False
        state.retries += 1
        if delay > 0:
            await asyncio.sleep(delay)
        return True

    def retry_delay(self, retry_index: int, error: TransientProviderError) -> float:
        """Deterministic delay before retry ``retry_index`` (0-based): the server's
        ``Retry-After`` when given, else ``backoff * 2**retry_index``, capped at ``backoff_max``.
        """
        if isinstance(error, RateLimited) and error.retry_after is not None:
            return min(error.retry_after, self.backoff_max)
        return min(self.backoff * 2.0**retry_index, self.backoff_max)

    def _judge(self, state: Decision, call: Call) -> bool:
        """Record and parse one reply; ``True`` when the decision is settled."""
        reply = call.reply
        assert reply is not None
        answer = reply.tool_arguments if reply.tool_arguments is not None else reply.text
        parsed = truncated_answer(
            parse_answer(answer, state.options, state.shape), reply.finish_reason
        )
        state.parsed = parsed
        state.attempts.append(
            Attempt(
                raw_text=stored(reply.text),
                tool_arguments=stored(reply.tool_arguments),
                reasoning=stored(reply.reasoning),
                answer_chars=None if answer is None else len(answer),
                answer_sha256=None if answer is None else sha256_text(answer),
                error_kind=parsed.error_kind,
                error_message=None if parsed.problem is None else one_line(parsed.problem),
                finish_reason=reply.finish_reason,
                finish_reason_raw=reply.finish_reason_raw,
                latency_s=call.latency_s,
                tokens=TokenCounts(
                    input=reply.input_tokens,
                    cached_input=reply.cached_input_tokens,
                    output=reply.output_tokens,
                    reasoning=reply.reasoning_tokens,
                ),
                cached=call.cached,
                counted_input_tokens=state.counted,
            )
        )
        if parsed.error_kind is None:
            return True
        if state.corrections >= self.max_corrections:
            state.fallback = TRUNCATED if parsed.error_kind == TRUNCATED else "invalid_answer"
            return True
        state.corrections += 1
        state.messages.append({"role": "assistant", "content": quote_text(stored(answer))})
        state.messages.append(
            {"role": "user", "content": correction_message(parsed, state.options, state.shape)}
        )
        return False

    # ----------------------------------------------------------------- results

    def _choose(self, view: Any, state: Decision) -> str:
        if len(state.options) == 1 and state.shape == "one":
            return state.options[0]
        if state.fallback is None:
            assert state.parsed is not None and state.parsed.choice is not None
            return state.parsed.choice
        chosen = self.fallback(view, state.options)
        if state.shape == "set":
            valid = parse_answer(f'{{"answer": {chosen}}}', state.options, "set")
            ok = valid.error_kind is None and valid.choice == chosen
        else:
            ok = chosen in state.options
        if not ok:
            raise ValueError(
                f"fallback policy {self.fallback_policy!r} returned {chosen!r}, "
                f"not one of {list(state.options)}"
            )
        return chosen

    def _remember_system_prompt(self, system: str) -> str:
        sha = sha256_text(system)
        if sha not in self.system_prompts:
            self.system_prompts[sha] = system
            if self.system_prompt_sink is not None:
                self.system_prompt_sink(sha, system)
        return sha

    def _record(
        self,
        state: Decision,
        chosen: str,
        system_sha: str,
        context: Mapping[str, Any],
        latency_s: float,
    ) -> ModelDecisionRecord:
        return decision_record(state, chosen, system_sha, context, latency_s, self)


def _as_transient(exc: ProviderError) -> TransientProviderError:
    return ServerError(exc.message, status=exc.status)
