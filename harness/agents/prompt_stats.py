"""Prompt sizes of model seats under each history policy, measured on sampled games.

Every seat of every sampled game keeps one :class:`~harness.agents.transcript.Transcript` per policy
and "answers" the option its player chose, so the requests are exactly those a model seat would
send.  For each request the input tokens are counted (system prompt included), and the part an
exact-prefix cache can reuse: the longest run of leading messages identical to a prefix of any
earlier request of the run (the system prompt is shared by every seat and game; a conversation
reuses everything but its new tail).  Counting at message granularity is conservative: a cache
that matches tokens inside a message would reuse a little more.

:class:`ContextNeed` says what context a conversation needs to hold the system prompt, the game
message and :data:`CONTEXT_DECISIONS` decisions without restarting: the first request of a seat
(system prompt, game message, first decision) plus ``CONTEXT_DECISIONS - 1`` later decisions
(each the seat's answer and its next message) at the median and the p95 decision size, plus the
tokens kept free for the answer.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.views.tokens import MESSAGE_TOKENS, REQUEST_TOKENS

from .transcript import DEFAULT_RESERVE_TOKENS, HISTORY_POLICIES, Transcript

CONTEXT_DECISIONS = 8  # decisions a conversation should hold before it has to restart

Message = dict[str, str]


def percentile(values: Sequence[int], q: float) -> int:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else 0


@dataclass
class PolicyStats:
    """Token figures of one history policy over the sampled requests."""

    policy: str
    request_tokens: list[int] = field(default_factory=list)  # whole request, system included
    tail_tokens: list[int] = field(default_factory=list)  # without the system prompt
    reusable_tokens: int = 0
    game_tokens: list[int] = field(default_factory=list)  # input tokens of all requests of a game
    compactions: int = 0
    # the shortest valid answer to each request, {"choice": "<the option chosen>"}
    answer_tokens: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        total = sum(self.request_tokens)
        return {
            "requests": len(self.request_tokens),
            "request_median": int(statistics.median(self.request_tokens or [0])),
            "request_p95": percentile(self.request_tokens, 0.95),
            "request_max": max(self.request_tokens, default=0),
            "without_system_median": int(statistics.median(self.tail_tokens or [0])),
            "without_system_p95": percentile(self.tail_tokens, 0.95),
            "game_median": int(statistics.median(self.game_tokens or [0])),
            "reusable_share": round(self.reusable_tokens / total, 4) if total else 0.0,
            "compactions": self.compactions,
        }


@dataclass
class ContextNeed:
    """Sizes of conversation requests: first requests and the growth per later decision."""

    system: int = 0
    first: list[int] = field(default_factory=list)  # system prompt + game message + decision
    growth: list[int] = field(default_factory=list)  # an answer and the next decision message

    def needs(self, size: int, decisions: int = CONTEXT_DECISIONS) -> int:
        first = int(statistics.median(self.first or [0]))
        return REQUEST_TOKENS + first + (decisions - 1) * size + DEFAULT_RESERVE_TOKENS

    def summary(self, decisions: int = CONTEXT_DECISIONS) -> dict[str, Any]:
        median = int(statistics.median(self.growth or [0]))
        p95 = percentile(self.growth, 0.95)
        return {
            "decisions": decisions,
            "reserve": DEFAULT_RESERVE_TOKENS,
            "system": self.system,
            "first_median": int(statistics.median(self.first or [0])),
            "decision_median": median,
            "decision_p95": p95,
            "needs_median": self.needs(median, decisions),
            "needs_p95": self.needs(p95, decisions),
        }


class PrefixCache:
    """Which message prefixes earlier requests sent (an exact-prefix cache's contents)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def reusable(self, messages: Sequence[Message], tokens: Sequence[int]) -> int:
        """Tokens of the longest leading run of ``messages`` some earlier request began with;
        then remember every prefix of this request."""
        reused = 0
        run = 0
        matched = True
        h = hashlib.sha256()
        for m, n in zip(messages, tokens, strict=True):
            h.update(json.dumps(m, sort_keys=True, ensure_ascii=False).encode())
            key = h.hexdigest()
            run += n
            if matched and key in self._seen:
                reused = run
            else:
                matched = False
            self._seen.add(key)
        return reused


class PolicyMeter:
    """Feeds one game's decisions to a transcript per seat and policy and counts tokens."""

    def __init__(
        self,
        names: Sequence[str],
        locale: str,
        count: Callable[[str], int],
        policies: Sequence[str] = HISTORY_POLICIES,
        context_tokens: int | None = None,
    ) -> None:
        self.names = list(names)
        self.locale = locale
        self.policies = list(policies)
        self.context_tokens = context_tokens
        self._count = count
        self._counted: dict[str, int] = {}
        self.stats = {p: PolicyStats(p) for p in self.policies}
        self.context = ContextNeed()
        self.caches = {p: PrefixCache() for p in self.policies}
        self._transcripts: dict[str, list[Transcript]] = {}
        self._game_tokens: dict[str, int] = {}

    def tokens(self, text: str) -> int:
        n = self._counted.get(text)
        if n is None:
            n = self._counted[text] = self._count(text)
        return n

    def new_game(self) -> None:
        self.end_game()
        self._transcripts = {
            p: [
                Transcript(
                    self.names, self.locale, p, self.context_tokens, count_tokens=self.tokens
                )
                for _ in self.names
            ]
            for p in self.policies
        }
        self._game_tokens = {p: 0 for p in self.policies}

    def end_game(self) -> None:
        for p, ts in self._transcripts.items():
            self.stats[p].game_tokens.append(self._game_tokens[p])
            self.stats[p].compactions += sum(t.compactions for t in ts)
        self._transcripts = {}

    def decision(self, view: Any, options: Sequence[str], chosen: str) -> None:
        """One decision of ``view.viewer``; requests are built when it has several options."""
        answer = json.dumps({"choice": chosen})
        for p in self.policies:
            t = self._transcripts[p][view.viewer]
            if len(options) <= 1:
                t.observe(view)
                continue
            messages = t.request(view, options)
            tokens = [self.tokens(m["content"]) + MESSAGE_TOKENS for m in messages]
            st = self.stats[p]
            st.request_tokens.append(sum(tokens))
            st.tail_tokens.append(sum(tokens[1:]))
            st.reusable_tokens += self.caches[p].reusable(messages, tokens)
            self._game_tokens[p] += sum(tokens)
            if p == "conversation" and not t.compacted:
                if len(messages) == 2:  # the system prompt and the game message
                    self.context.system = tokens[0]
                    self.context.first.append(sum(tokens))
                else:  # the seat's previous answer and this decision's message
                    self.context.growth.append(sum(tokens[-2:]))
            st.answer_tokens.append(self.tokens(answer))
            t.answered(answer)


__all__ = [
    "CONTEXT_DECISIONS",
    "ContextNeed",
    "PolicyMeter",
    "PolicyStats",
    "PrefixCache",
    "percentile",
]
