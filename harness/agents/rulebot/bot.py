"""The rule-based bot: plays its role from public information only.

Contract:

* Input is only what the seat protocol gives: :class:`SeatView` objects (``observe``/``choose``)
  and the option ids; the bot-only playout gives :meth:`RuleBot.decide` a
  :class:`~harness.engine.live_view.LiveView` instead (the same fields, read on demand).  Both are
  read through :class:`~harness.engine.live_view.SeatInfo`; the bot never touches a :class:`Game`.
* Decisions that need no suspicion beliefs (answers to a Shot or a Raid, discards, put-backs)
  do not compute them; the beliefs are a function of the feed read so far, who is alive and the
  deal-time knowledge, so computing them later gives the values the bot would have kept.
* Each event of the feed is processed exactly once, even when views overlap (``observe`` then
  ``choose`` with the same view, as an autopilot does); see :class:`.suspicion.Suspicion`.
* Ties are broken by the bot's own :class:`random.Random`, seeded from the game seed and the seat
  given to :meth:`RuleBot.new_game` (when the first tie comes), so a game stays reproducible.
  ``last_ties`` holds the options the last decision chose among uniformly (its policy there, for
  the luck adjustment).
* :meth:`RuleBot.decide` is the synchronous core (``choose`` awaits nothing else); it always
  returns one of the options.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from harness.engine.live_view import SeatInfo, pending_kind
from harness.engine.state import DecisionKind

from ..seat_protocol import Agent
from . import reactions
from .decision_facts import Ctx
from .policy import play_option
from .suspicion import Suspicion


class RuleBot(Agent):
    """Rule-based bot (kind ``bot``); see the module docstring."""

    kind = "bot"

    def __init__(self, name: str = "bot", seed: int = 0) -> None:
        super().__init__(name)
        self._seed = seed
        # the tie-breaking generator, seeded on the first tie (seeding costs as much as several
        # decisions, and most bots of a playout meet no tie): the same draws as one seeded up front
        self._rng_seed = f"{seed}:0:0"
        self._rng: random.Random | None = None
        self._susp: Suspicion | None = None
        self._seat = -1
        # the options the last decision chose among uniformly (its exact ties, or the choice)
        self.last_ties: tuple[str, ...] = ()

    # ------------------------------------------------------------ protocol
    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        self._rng_seed = f"{self._seed}:{seed}:{seat}"
        self._rng = None
        self._susp = None
        self._seat = seat

    def resume(self, suspicion: Suspicion) -> None:
        """Continue this game from ``suspicion``: a model of this seat that has read the feed up
        to some event (the same picture as reading those events; :meth:`Suspicion.feed` then
        reads only the newer ones).  Call after :meth:`new_game`."""
        self._susp = suspicion

    def observe(self, view: SeatInfo) -> None:
        self._suspicion(view).feed(view)

    async def choose(self, view: SeatInfo, options: Sequence[str]) -> str:
        return self.decide(view, options)

    # ---------------------------------------------------------------- core
    def decide(self, view: SeatInfo, options: Sequence[str]) -> str:
        """The bot's choice for ``view``'s pending decision; always one of ``options``."""
        if len(options) == 1:
            self.observe(view)
            self.last_ties = (options[0],)
            return options[0]
        self.last_ties = ()
        susp = self._suspicion(view)
        susp.feed(view)
        ctx = Ctx(view, lambda: susp.beliefs(view), susp.marshal(view))
        choice = self._by_kind(pending_kind(view) or "play", ctx, options)
        choice = choice if choice in options else options[0]
        if choice not in self.last_ties:
            self.last_ties = (choice,)
        return choice

    def _by_kind(self, kind: DecisionKind, ctx: Ctx, options: Sequence[str]) -> str:
        pick = self._pick
        if kind == "play":
            scored = []
            for o in options:
                a, score = play_option(o)
                s = score(ctx, a)
                scored.append((s if s > 0 or o == "end" else -1.0, o))  # "not now" < ending
            return pick(scored)
        if kind == "respond_shot":
            return reactions.respond_shot(ctx, options, pick)
        if kind == "respond_raid":
            return reactions.respond_match(ctx, options, pick, -1)  # matching spares nobody
        if kind == "respond_duel":
            c = ctx.view.pending.context if ctx.view.pending else {}
            ch, tg = c.get("challenger", -1), c.get("target", -1)
            opponent = tg if ch == ctx.view.viewer else ch
            return reactions.respond_match(ctx, options, pick, opponent)
        if kind == "discard":
            return reactions.discard(ctx, options, pick)
        if kind == "draw_source":
            return reactions.draw_source(ctx, options, pick)
        if kind == "putback":
            return reactions.putback(ctx, options, pick)
        if kind in ("upgrade", "bounty"):
            return reactions.upgrade(ctx, options, pick)
        return options[0]

    def _pick(self, scored: Sequence[tuple[float, str]]) -> str:
        """The best-scored option; exact ties go to the seeded generator."""
        best, top = -math.inf, []  # the greatest score so far and its options, in order
        for s, o in scored:
            if s > best:
                best, top = s, [o]
            elif s == best:
                top.append(o)
        self.last_ties = tuple(top)
        if len(top) == 1:
            return top[0]
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._rng_seed)
        return top[rng.randrange(len(top))]

    def _suspicion(self, view: SeatInfo) -> Suspicion:
        s = self._susp
        if s is None or s.n != view.n_seats or self._seat != view.viewer:
            s = self._susp = Suspicion(view.n_seats)
            self._seat = view.viewer
        return s
