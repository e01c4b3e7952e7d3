"""BangArena rules engine: pure rules, one seeded generator per game, no I/O.

Typical use::

    from harness.engine import Game, build_view
    game = Game.new(5, "classic", seed=1)
    while game.pending:
        decision = game.pending                  # (seat, kind, options)
        view = build_view(game, decision.seat)   # all that seat may see
        game.apply(decision.options[0])          # or an action id string
"""

from .actions import Action, parse_action
from .conformance import check_invariants, random_playout
from .errors import EngineError, GameOver, IllegalAction, MalformedAction, PositionError
from .fallback import simplest_action, simplest_for_view, simplest_option
from .game import Game
from .position import dump_position, load_position, position_json
from .state import DECISION_KINDS, EVENT_TYPES, Decision, DecisionKind, EventType
from .view import SPECTATOR, PendingView, PublicSeat, SeatView, build_view, filter_event

__all__ = [
    "Action",
    "DECISION_KINDS",
    "Decision",
    "DecisionKind",
    "EVENT_TYPES",
    "EngineError",
    "EventType",
    "Game",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "PendingView",
    "PositionError",
    "PublicSeat",
    "SPECTATOR",
    "SeatView",
    "build_view",
    "check_invariants",
    "dump_position",
    "filter_event",
    "load_position",
    "parse_action",
    "position_json",
    "random_playout",
    "simplest_action",
    "simplest_for_view",
    "simplest_option",
]
