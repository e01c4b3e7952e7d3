"""What of the game a model seat's request carries: the seat's history policy.

A :class:`Transcript` belongs to one seat in one game.  It sees every view the seat gets (the
views' events are ``filter_event`` output for that seat, so the history is built only from what
the seat saw) and builds the messages of each request:

* ``conversation`` (default): one append-only message list.  The first user message holds the game
  message; each decision appends a user message (the table now, the events since the seat's
  previous message, the options) and the model's own answer.  Earlier messages never change, so a
  provider's prefix cache reuses everything but the new tail.  Corrective re-prompts stay in the
  transcript.  When the request would not fit ``context_tokens`` (counted with the seat's
  :class:`~harness.views.tokens.TokenCounter`, corrected by what the server reported for earlier
  requests), the transcript is compacted deterministically: it restarts with one message holding the game message, the public record of
  the older events (:mod:`harness.views.public_record`) and the most recent events verbatim.
* ``log``: one user message per decision with the game message, the whole narrated feed of the
  game as this seat saw it (the public record plus the recent events once the feed is longer than
  ``log_feed_tokens``), the table and the options.
* ``since_last``: one user message with the game message, the table, the events the current view
  carries (those since the seat's previous decision) and the options.

Table signals (a league with ``signals: true``) are public events that the table hands the seat
with :meth:`Transcript.hear` before the view they precede; the transcript puts each one in the
feed after the engine events that came before it, so every policy narrates them in game order.

The system prompt is the same for every seat (rules and answer format) and is not part of the
list :meth:`Transcript.turn` returns; :meth:`Transcript.request` adds it first.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from harness.engine import SeatView
from harness.views.prompts import DEFAULT_LOG_FEED_TOKENS, RECENT_EVENTS, PromptBuilder
from harness.views.tokens import approx_tokens, estimate_counter, request_tokens

HistoryPolicy = Literal["conversation", "log", "since_last"]
HISTORY_POLICIES: tuple[str, ...] = get_args(HistoryPolicy)
DEFAULT_CONTEXT_TOKENS = 8192
DEFAULT_RESERVE_TOKENS = 1024  # kept free for the answer (and tokenizer differences)

Message = dict[str, str]
TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class _Draft:
    """What one user message will hold; :meth:`Transcript._write` has the prompt builder write it."""

    events: Sequence[dict[str, Any]] = ()  # narrated under ``title``
    lines: Sequence[str] | None = None  # the same events already narrated
    title: str = "since"  # since, game or recent
    game: bool = False  # the game message first
    record: Sequence[dict[str, Any]] | None = None  # events told as the public record first


@dataclass
class _Turn:
    """The request being decided: the messages before it and its new user message."""

    prefix: list[Message]
    user: Message
    events_end: int
    compacted: bool
    note: str | None = None  # the previous decision's fallback reason, shown in this turn


class Transcript:
    """The history of one seat in one game under one policy (see the module docstring)."""

    def __init__(
        self,
        names: Sequence[str],
        locale: str = "en",
        policy: str = "conversation",
        context_tokens: int | None = None,
        *,
        reserve_tokens: int = DEFAULT_RESERVE_TOKENS,
        log_feed_tokens: int = DEFAULT_LOG_FEED_TOKENS,
        count_tokens: TokenCounter | None = None,
        builder: PromptBuilder | None = None,
    ) -> None:
        if policy not in HISTORY_POLICIES:
            raise ValueError(f"history policy must be one of {', '.join(HISTORY_POLICIES)}")
        self.builder = builder or PromptBuilder(names, locale)
        self.policy = policy
        self.context_tokens = context_tokens
        self.reserve_tokens = reserve_tokens
        self.log_feed_tokens = log_feed_tokens
        # a TokenCounter (harness.views.tokens) also corrects totals and learns from the server;
        # without one, the estimate with its safety margin
        self._count = count_tokens or estimate_counter()
        self._counted: dict[str, int] = {}
        self.events: list[dict[str, Any]] = []  # every event this seat saw, in game order
        self._seen = 0  # event_count of the newest view observed
        self.shown = 0  # events[:shown] are in the committed conversation
        self.history: list[Message] = []  # committed conversation (user/assistant), no system
        self.previous_fallback: str | None = None
        self.compactions = 0
        self.compacted = False  # whether the latest turn restarted the conversation
        self._turn: _Turn | None = None
        self.signals: list[dict[str, Any]] = []  # every table signal heard, in order
        self._unplaced: list[dict[str, Any]] = []  # heard, not yet in ``events``

    def __deepcopy__(self, memo: dict[int, Any]) -> Transcript:
        """A copy with its own history that shares the (stateless) prompt builder."""
        twin = copy.copy(self)
        twin.events = list(self.events)
        twin.history = list(self.history)
        twin.signals = list(self.signals)
        twin._unplaced = list(self._unplaced)
        twin._counted = dict(self._counted)
        return twin

    # ----------------------------------------------------------------- inputs

    def observe(self, view: SeatView) -> None:
        """Take in the events of a view the seat got (overlaps with earlier views are skipped)."""
        first = view.event_count - len(view.events)
        skip = max(0, self._seen - first)
        if self._unplaced:
            self.events.extend(self._with_signals(view.events[skip:], first + skip, self._unplaced))
            self._unplaced = [s for s in self._unplaced if s["at"] > view.event_count]
        else:
            self.events.extend(view.events[skip:])
        self._seen = max(self._seen, view.event_count)

    def hear(self, signals: Sequence[dict[str, Any]]) -> None:
        """Public table signals (``{"t": "signal", ..., "at": <engine events before it>}``) sent
        since the seat's previous view; they enter the feed with the next :meth:`observe`."""
        self.signals.extend(signals)
        self._unplaced.extend(signals)

    def _feed_of(self, view: SeatView) -> Sequence[dict[str, Any]]:
        """The events ``view`` carries with the signals heard among them (``since_last``)."""
        if not self.signals:
            return view.events
        first = view.event_count - len(view.events)
        inside = [s for s in self.signals if first <= s["at"] <= view.event_count]
        return self._with_signals(view.events, first, inside)

    @staticmethod
    def _with_signals(
        events: Sequence[dict[str, Any]], first: int, signals: Sequence[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """``events`` (game events ``first``, ``first + 1``, ...) with each signal placed after
        the events logged before it (signals up to the last event's end only)."""
        out: list[dict[str, Any]] = []
        pending = sorted(
            (s for s in signals if s["at"] <= first + len(events)), key=lambda s: s["at"]
        )
        k = 0
        for i, event in enumerate(events):
            while k < len(pending) and pending[k]["at"] <= first + i:
                out.append(pending[k])
                k += 1
            out.append(event)
        out.extend(pending[k:])
        return out

    def system(self, view: Any = None) -> str:
        return self.builder.system_prompt()

    @property
    def blocking(self) -> bool:
        """Whether counting may wait on the network (a server's tokenize endpoint)."""
        return bool(getattr(self._count, "blocking", False))

    def request_tokens(self, system: str, messages: Sequence[Message]) -> int:
        """The counted tokens of a request (system prompt, then ``messages``), uncorrected."""
        return request_tokens(self.tokens, [system, *(m["content"] for m in messages)])

    def budget_tokens(self, messages: Sequence[Message]) -> int:
        """The tokens a request of ``messages`` after the system prompt is taken to need:
        its count corrected by what the server reported for this seat's earlier requests."""
        counted = self.request_tokens(self.system(), messages)
        corrected = getattr(self._count, "corrected", None)
        return int(corrected(counted)) if corrected is not None else counted

    def reported(self, system: str, messages: Sequence[Message], prompt_tokens: int) -> int | None:
        """The server counted ``prompt_tokens`` for a request of ``system`` and ``messages``:
        the seat's counter learns the ratio (later budgets use corrected counts).  Returns the
        request's own count (``None`` without a budget), which the decision record keeps so that
        a resumed seat learns the same again (:meth:`relearn`)."""
        if self.context_tokens is None:  # no budget: nothing to correct
            return None
        counted = self.request_tokens(system, messages)
        self.relearn(counted, prompt_tokens)
        return counted

    def relearn(self, counted: int, prompt_tokens: int) -> None:
        """Learn again what a recorded request taught: counted ``counted``, the server said
        ``prompt_tokens``."""
        learn = getattr(self._count, "learn", None)
        if learn is not None and self.context_tokens is not None:
            learn(counted, prompt_tokens)

    def tokens(self, text: str) -> int:
        n = self._counted.get(text)
        if n is None:
            n = self._count(text)
            if len(self._counted) > 4096:
                self._counted.clear()
            self._counted[text] = n
        return n

    # ----------------------------------------------------------------- requests

    def turn(self, view: SeatView, options: Sequence[str] | None = None) -> list[Message]:
        """The messages (after the system prompt) asking for the pending decision of ``view``.
        Call :meth:`observe` with ``view`` first; call :meth:`commit` when the decision is made."""
        if self.policy == "conversation":
            turn = self._conversation_turn(view)
        else:
            note = self._take_fallback_note()
            draft = (
                self._log_draft()
                if self.policy == "log"
                else _Draft(self._feed_of(view), game=True)
            )
            turn = _Turn([], self._write(view, draft, note), len(self.events), False, note)
        self._turn = turn
        self.compacted = turn.compacted
        return [*turn.prefix, turn.user]

    def request(self, view: SeatView, options: Sequence[str] | None = None) -> list[Message]:
        """:meth:`observe`, then the full message list of the request, system prompt first."""
        self.observe(view)
        return [{"role": "system", "content": self.system()}, *self.turn(view, options)]

    def commit(self, exchange: Sequence[Message], fallback: str | None = None) -> None:
        """Close the pending request.  ``exchange`` is what this decision added: the user message
        from :meth:`turn`, then assistant answers and corrective re-prompts in order.  The
        conversation keeps it up to its last assistant message; a request nobody answered is
        dropped and its events are carried into the next message."""
        turn = self._turn
        if turn is None:
            raise RuntimeError("commit() without a pending turn()")
        self._turn = None
        self.previous_fallback = fallback
        if self.policy != "conversation":
            return
        last = max((i for i, m in enumerate(exchange) if m["role"] == "assistant"), default=-1)
        if last < 0:
            if turn.compacted:
                self.history = []
            return
        self.history = [*turn.prefix, *exchange[: last + 1]]
        self.shown = turn.events_end

    def answered(self, text: str, fallback: str | None = None) -> None:
        """Commit the pending request answered by ``text`` (no corrections)."""
        if self._turn is None:
            raise RuntimeError("answered() without a pending request()")
        self.commit([self._turn.user, {"role": "assistant", "content": text}], fallback)

    def skipped(self) -> None:
        """The pending request was not sent (e.g. the decision had one option)."""
        self._turn = None

    def compact_to(
        self, view: SeatView, budget: int | None = None
    ) -> tuple[list[Message], int] | None:
        """Redo the pending turn as a compacted conversation (the game message, the public
        record of the older events, the recent ones) fitting ``budget`` tokens with the system
        prompt — by default half of the pending request as counted (or of ``context_tokens`` when
        smaller): the server refused the request as longer than the model's context.  Returns the
        new messages and the budget, or ``None`` when compaction does not make the request
        shorter.  The seat's budget for later turns is unchanged."""
        turn = self._turn
        if turn is None:
            raise RuntimeError("compact_to() without a pending turn()")
        before = [*turn.prefix, turn.user]
        used = self.budget_tokens(before)
        if budget is None:
            budget = max(1, min(used, self.context_tokens or used) // 2)
        saved = self.context_tokens
        self.context_tokens = budget
        try:
            _, user = self._first_fitting(view, [([], d) for d in self._compacted()], turn.note)
        finally:
            self.context_tokens = saved
        if self.budget_tokens([user]) >= used:
            return None
        self.compactions += int(not turn.compacted)
        self._turn = _Turn([], user, len(self.events), True, turn.note)
        self.compacted = True
        return [user], budget

    # ----------------------------------------------------------------- policies

    def _user(self, text: str) -> Message:
        return {"role": "user", "content": text}

    def _take_fallback_note(self) -> str | None:
        note, self.previous_fallback = self.previous_fallback, None
        return note

    def _conversation_turn(self, view: SeatView) -> _Turn:
        note = self._take_fallback_note()
        whole = _Draft(self.events[self.shown :], game=not self.history)
        drafts = [(list(self.history), whole), *(([], d) for d in self._compacted())]
        index, user = self._first_fitting(view, drafts, note)
        self.compactions += index > 0
        return _Turn(drafts[index][0], user, len(self.events), index > 0, note)

    def _first_fitting(
        self, view: SeatView, drafts: Sequence[tuple[list[Message], _Draft]], note: str | None
    ) -> tuple[int, Message]:
        """The first of ``drafts`` (each after its prefix of messages) that fits the context,
        else the last one, written, with its index."""
        for index, (prefix, draft) in enumerate(drafts):
            user = self._write(view, draft, note)
            if index == len(drafts) - 1 or self._fits([*prefix, user]):
                return index, user
        raise ValueError("no draft to write")

    def _fits(self, messages: Sequence[Message]) -> bool:
        if self.context_tokens is None:
            return True
        return self.budget_tokens(messages) + self.reserve_tokens <= self.context_tokens

    def _with_record(self, recent: int) -> _Draft:
        """Game message, public record of all but the last ``recent`` events, those verbatim."""
        cut = max(0, len(self.events) - recent)
        return _Draft(self.events[cut:], title="recent", game=True, record=self.events[:cut])

    def _compacted(self) -> list[_Draft]:
        """The compacted messages, longest first: the last :data:`RECENT_EVENTS` events
        verbatim after the public record of the others, then the public record alone."""
        return [self._with_record(RECENT_EVENTS), self._with_record(0)]

    def _log_draft(self) -> _Draft:
        lines = self.builder.feed_lines(self.events)
        if self.tokens("\n".join(lines)) <= self.log_feed_tokens:
            return _Draft(lines=lines, title="game", game=True)
        return self._with_record(RECENT_EVENTS)

    def _write(self, view: SeatView, draft: _Draft, note: str | None) -> Message:
        """The one place a user message is written (by the prompt builder)."""
        text = self.builder.message(
            view,
            events=draft.events,
            lines=draft.lines,
            feed_title=draft.title,
            game=draft.game,
            record=draft.record,
            previous_fallback=note,
        )
        return self._user(text)


__all__ = [
    "DEFAULT_CONTEXT_TOKENS",
    "HISTORY_POLICIES",
    "HistoryPolicy",
    "Transcript",
    "approx_tokens",
]
