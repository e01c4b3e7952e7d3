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
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .conversation import Conversation, PromptBuilder, as_conversation, final_turn
from .decision_record import (
    TRUNCATED,
    Attempt,
    FallbackReason,
    ModelDecisionRecord,
    TokenCounts,
    cap_text,
    quote_text,
    sha256_text,
    sum_reported,
)
from .pricing import PriceBook, PriceTable
from .providers.base import (
    REASON_MAX_CHARS,
    AnswerMode,
    AnswerShape,
    Provider,
    ProviderReply,
    ProviderRequest,
)
from .providers.errors import (
    ContextOverflow,
    FatalProviderError,
    ProviderError,
    ProviderTimeout,
    RateLimited,
    ServerError,
    TransientProviderError,
)
from .redact import redact
from .response_cache import ResponseCache
from .seat import FatalSeatError
from .table_signals import SignalRefused, read_signal

__all__ = [
    "FallbackPolicy",
    "FatalModelError",
    "LLMAgent",
    "ParsedAnswer",
    "PromptBuilder",
    "correction_message",
    "parse_answer",
    "read_answer_object",
    "set_choice",
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


# --------------------------------------------------------------------------- parsing

_FENCE = re.compile(r"\A```(?:json)?[ \t]*\n(.*?)\n?[ \t]*```\Z", re.DOTALL)


@dataclass(frozen=True)
class ParsedAnswer:
    """Result of :func:`parse_answer`: ``error_kind is None`` iff ``choice`` is a listed id."""

    choice: str | None
    reason: str | None = None
    error_kind: Literal["unparseable", "illegal_option", "truncated"] | None = None
    problem: str | None = None
    signal: Any = None  # the answer object's ``signal`` as sent (table talk), unchecked


def truncated_answer(parsed: ParsedAnswer, finish_reason: str | None) -> ParsedAnswer:
    """``parsed`` as a ``truncated`` answer when the token limit cut it (``finish_reason``
    ``length``) and it could not be read; otherwise ``parsed`` unchanged (a cut answer that still
    parses strictly was complete, and an illegal option is the model's own choice)."""
    if finish_reason != "length" or parsed.error_kind != "unparseable":
        return parsed
    problem = f"it was cut off at the token limit before it was complete ({parsed.problem})"
    return ParsedAnswer(None, parsed.reason, error_kind="truncated", problem=problem)


def parse_answer(
    raw: str | None, option_ids: Sequence[str], shape: AnswerShape = "one"
) -> ParsedAnswer:
    """Strictly parse ``raw`` as ``{"choice": <option id>, "reason": <str, optional>}``.

    The stripped text (optionally inside one ```json fence) must be a JSON object whose
    ``choice`` is a string equal to one of ``option_ids``. No fuzzy matching, substring search or
    case folding; an object that repeats a key (``{"choice": "a", "choice": "b"}``) is
    ``unparseable``.  The reason is kept up to ``REASON_MAX_CHARS`` characters.

    ``shape="set"``: the object's ``answer`` must be an array of strings, each one of
    ``option_ids`` and none repeated; ``choice`` is then that subset as a JSON array in the order
    of ``option_ids`` (``[]`` for none).
    """
    obj, problem = read_answer_object(raw)
    if obj is None:
        return ParsedAnswer(None, error_kind="unparseable", problem=problem)
    reason = (
        cap_text(obj["reason"], REASON_MAX_CHARS) if isinstance(obj.get("reason"), str) else None
    )
    if shape == "set":
        parsed = _parse_set(obj.get("answer"), option_ids, reason)
        return replace(parsed, signal=obj.get("signal")) if parsed.error_kind is None else parsed
    choice = obj.get("choice")
    if not isinstance(choice, str):
        return ParsedAnswer(
            None, reason, error_kind="unparseable", problem='it has no string "choice" field'
        )
    if choice not in option_ids:
        return ParsedAnswer(
            choice,
            reason,
            error_kind="illegal_option",
            problem=f"{_quote(choice)} is not one of the listed option ids",
        )
    return ParsedAnswer(choice, reason, signal=obj.get("signal"))


def read_answer_object(raw: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object of an answer: the stripped text, optionally inside one ```json fence, no
    key repeated in any object.  Returns ``(object, None)`` or ``(None, problem)``."""
    text = (raw or "").strip()
    if not text:
        return None, "the answer is empty"
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        obj = json.loads(text, object_pairs_hook=_unique_keys)
    except _RepeatedKey as repeated:
        return None, f"it repeats the key {_quote(repeated.key)}"
    except (json.JSONDecodeError, RecursionError):
        return None, "it is not a JSON object"
    if not isinstance(obj, dict):
        return None, "it is not a JSON object"
    return obj, None


def _parse_set(value: Any, option_ids: Sequence[str], reason: str | None) -> ParsedAnswer:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problem = 'it has no "answer" array of option id strings'
        return ParsedAnswer(None, reason, error_kind="unparseable", problem=problem)
    for v in value:
        if v not in option_ids:
            problem = f"{_quote(v)} is not one of the listed option ids"
            return ParsedAnswer(v, reason, error_kind="illegal_option", problem=problem)
    if len(set(value)) != len(value):
        twice = next(v for v in value if value.count(v) > 1)
        problem = f"it lists {_quote(twice)} more than once"
        return ParsedAnswer(None, reason, error_kind="unparseable", problem=problem)
    return ParsedAnswer(set_choice([o for o in option_ids if o in value]), reason)


def set_choice(ids: Sequence[str]) -> str:
    """The chosen value of a set answer: the JSON array of ``ids``."""
    return json.dumps(list(ids), ensure_ascii=False)


class _RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` refusing an object that names a key twice."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _RepeatedKey(key)
        obj[key] = value
    return obj


def _quote(text: str, limit: int = 80) -> str:
    text = redact(text)  # before cutting: a key cut in half would escape redaction
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return json.dumps(short, ensure_ascii=False)


def correction_message(
    parsed: ParsedAnswer, option_ids: Sequence[str], shape: AnswerShape = "one"
) -> str:
    """The short user message that names the problem of an invalid answer."""
    listed = ", ".join(option_ids)
    fmt = '{"answer": ["<option id>", ...]}' if shape == "set" else '{"choice": "<option id>"}'
    if parsed.error_kind == "illegal_option" and parsed.choice is not None:
        return (
            f"Your answer {_quote(parsed.choice)} is not one of the listed option ids. "
            f"Answer with a JSON object {fmt} using one of: {listed}"
        )
    if parsed.error_kind == TRUNCATED:
        return (
            "Your answer was cut off at the token limit before it was complete. "
            f"Answer with only a JSON object {fmt} using one of: {listed} "
            "— keep the reason to one short sentence, or leave it out."
        )
    return (
        f"Your answer could not be read: {parsed.problem}. "
        f"Answer with only a JSON object {fmt} using one of: {listed}"
    )


# --------------------------------------------------------------------------- the agent


@dataclass
class _Call:
    """Outcome of one provider call (or cache hit)."""

    reply: ProviderReply | None
    error: TransientProviderError | ContextOverflow | None
    latency_s: float
    cached: bool


@dataclass
class _Decision:
    """Mutable state of one ``decide`` call."""

    options: tuple[str, ...]
    messages: list[dict[str, str]]
    shape: AnswerShape = "one"
    context: list[dict[str, str]] = field(default_factory=list)  # earlier turns of the seat
    attempts: list[Attempt] = field(default_factory=list)
    parsed: ParsedAnswer | None = None
    fallback: FallbackReason | None = None
    retries: int = 0
    corrections: int = 0
    compacted_to: int | None = None  # the budget the history was compacted to after an overflow
    counted: int | None = None  # the seat's own count of the request last answered


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
        state = _Decision(option_ids, [], answer_shape)
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
            conversation.commit(_exchange(state.messages, state.attempts), state.fallback)
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
            if isinstance(counted, int) and isinstance(reported, int) and reported:
                relearn(counted, reported)
        conversation.commit(_exchange(messages, attempts), record.get("fallback"))

    # ----------------------------------------------------------------- the loop

    async def _run(self, state: _Decision, system: str, deadline: float, view: Any) -> None:
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
                        error_message=_one_line(call.error.message),
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

    async def _call(self, request: ProviderRequest, remaining: float) -> _Call:
        """One provider call bounded by ``remaining`` seconds, or a cache hit."""
        if self.cache is not None:
            hit = self.cache.get(self.provider.name, request)
            if hit is not None:
                return _Call(hit, None, 0.0, cached=True)
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
            return _Call(None, error, time.monotonic() - t0, cached=False)
        except (TransientProviderError, ContextOverflow) as exc:
            return _Call(None, exc, time.monotonic() - t0, cached=False)
        except FatalProviderError as exc:
            raise FatalModelError(self.provider.name, self.model, exc) from exc
        except ProviderError as exc:  # an adapter's unclassified error: treat as transient
            return _Call(None, _as_transient(exc), time.monotonic() - t0, cached=False)
        latency = time.monotonic() - t0
        if self.cache is not None:
            self.cache.put(self.provider.name, request, reply)
        return _Call(reply, None, latency, cached=False)

    def _shorten(self, state: _Decision, view: Any) -> bool:
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

    def _learn_count(self, request: ProviderRequest, call: _Call) -> int | None:
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
        self, state: _Decision, error: TransientProviderError, deadline: float
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

    def _judge(self, state: _Decision, call: _Call) -> bool:
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
                raw_text=_stored(reply.text),
                tool_arguments=_stored(reply.tool_arguments),
                reasoning=_stored(reply.reasoning),
                answer_chars=None if answer is None else len(answer),
                answer_sha256=None if answer is None else sha256_text(answer),
                error_kind=parsed.error_kind,
                error_message=None if parsed.problem is None else _one_line(parsed.problem),
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
        state.messages.append({"role": "assistant", "content": quote_text(_stored(answer))})
        state.messages.append(
            {"role": "user", "content": correction_message(parsed, state.options, state.shape)}
        )
        return False

    # ----------------------------------------------------------------- results

    def _choose(self, view: Any, state: _Decision) -> str:
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
        state: _Decision,
        chosen: str,
        system_sha: str,
        context: Mapping[str, Any],
        latency_s: float,
    ) -> ModelDecisionRecord:
        spent = [a for a in state.attempts if not a.cached]
        totals = TokenCounts(
            input=sum(a.tokens.input for a in spent),
            cached_input=sum_reported(a.tokens.cached_input for a in spent),
            output=sum(a.tokens.output for a in spent),
            reasoning=sum(a.tokens.reasoning for a in spent),
        )
        if totals.input == 0 and totals.output == 0:
            cost: float | None = 0.0
        else:
            cost = self.prices.cost(
                self.model,
                input_tokens=totals.input,
                cached_input_tokens=totals.cached_input or 0,
                output_tokens=totals.output,
                provider=self.provider.name,
            )
        parsed = state.parsed
        record = ModelDecisionRecord(
            game_id=_opt_str(context.get("game_id")),
            decision_index=context.get("decision_index"),
            seat=context.get("seat"),
            role=_opt_str(context.get("role")),
            player=_opt_str(context.get("player")),
            provider=self.provider.name,
            model=self.model,
            decision_kind=_opt_str(context.get("decision_kind")),
            answer_mode=self.answer_mode,
            options=list(state.options),
            view=_view_dict(context.get("view_json")),
            system_prompt_sha256=system_sha,
            messages=state.messages,
            history=self.conversation.policy,
            context_messages=len(state.context),
            context_sha256=_messages_sha(state.context) if state.context else None,
            compacted=self.conversation.compacted and len(state.options) > 1,
            context_compacted_to=state.compacted_to,
            attempts=state.attempts,
            parsed_choice=parsed.choice if parsed is not None else None,
            reason=parsed.reason if parsed is not None else None,
            chosen=chosen,
            fallback=state.fallback,
            fallback_policy=self.fallback_policy if state.fallback is not None else None,
            latency_s=latency_s,
            input_tokens=totals.input,
            cached_input_tokens=totals.cached_input,
            output_tokens=totals.output,
            reasoning_tokens=totals.reasoning,
            cost_usd=cost,
            cached=bool(state.attempts) and all(a.cached for a in state.attempts),
        )
        signal = parsed.signal if parsed is not None and state.fallback is None else None
        if self.signal_names is not None and signal is not None:
            try:
                record.signal = read_signal(signal, self.signal_names).model_dump(exclude_none=True)
            except SignalRefused as refused:
                record.signal_refused = f"{refused.code}: {refused}"
        return record


def _exchange(messages: Sequence[dict[str, str]], attempts: Sequence[Any]) -> list[dict[str, str]]:
    """What a decision adds to the seat's conversation: its messages, then the final answer."""
    final = final_turn(attempts)
    return [*messages, final] if final is not None else list(messages)


def _messages_sha(messages: Sequence[dict[str, str]]) -> str:
    return sha256_text(json.dumps(list(messages), ensure_ascii=False, sort_keys=True))


def _as_transient(exc: ProviderError) -> TransientProviderError:
    return ServerError(exc.message, status=exc.status)


def _stored(text: str | None) -> str | None:
    """Model output as stored in an attempt: keys redacted first (a key cut in half at the cap
    would escape redaction), then cut to ``STORED_TEXT_CHARS``."""
    return None if text is None else cap_text(redact(text))


def _one_line(text: str, limit: int = 500) -> str:
    """``text`` on one line, at most ``limit`` characters, API keys redacted (it is written)."""
    line = " ".join(redact(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _view_dict(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, str):
        loaded = json.loads(value)
        return loaded if isinstance(loaded, dict) else {"value": loaded}
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"context['view_json'] must be a dict or JSON text, not {type(value).__name__}")
