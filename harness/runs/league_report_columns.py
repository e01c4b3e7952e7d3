"""The columns of every table of the league report, in the order shown: for each table its title
and, per column, the header and the DataFrame column (or a cell built from the row) with its
format (:mod:`.league_report_cells`)."""

from __future__ import annotations

from .compactions import TITLE as COMPACTIONS_TITLE
from .league_report_cells import (
    Cell,
    Fmt,
    cached_input,
    call_latency,
    decisions,
    integer,
    interval,
    luck_cell,
    num,
    pct,
    plain,
    pp,
    spend_cached_input,
    usd,
    valid,
    with_interval,
)
from .talk_table import EFFECT_TITLE as CLAIM_EFFECT_TITLE
from .talk_table import TITLE as SIGNALS_TITLE

Column = tuple[str, str | Cell, Fmt | None]  # header, column/cell, format

TABLE_SPECS: dict[str, tuple[str, list[Column]]] = {
    "summary": (
        "Players (sorted by rating ordinal; intervals are 95%)",
        [
            ("player", "player", plain),
            ("model", "model", plain),
            ("games", "games", integer),
            ("seats", "seat_games", integer),
            ("win rate", valid(with_interval(pct, "win_rate", "win_lo", "win_hi")), None),
            (
                "role-adjusted (pp)",
                valid(with_interval(pp, "score", "score_lo", "score_hi")),
                None,
            ),
            (
                "ordinal",
                valid(with_interval(num(1), "ordinal", "ordinal_lo", "ordinal_hi")),
                None,
            ),
            ("fallbacks", "fallback_rate", pct),
            ("cost/game", "cost_per_game_usd", usd),
        ],
    ),
    "win_rates": (
        "Win rate by player × role (games = seats played in that role; 95% Wilson interval, "
        "clustered by deal)",
        [
            ("player", "player", plain),
            ("role", "role", plain),
            ("games", "games", integer),
            ("wins", "wins", integer),
            ("win rate", valid("win_rate", pct), None),
            ("95% CI", interval(pct, "ci_lo", "ci_hi"), None),
        ],
    ),
    "role_adjusted": (
        "Role-adjusted score: result minus the role's base rate at that table size and mode "
        "(percentage points; 95% CI, Student's t, clustered by deal)",
        [
            ("player", "player", plain),
            ("games", "games", integer),
            ("seats", "seat_games", integer),
            ("win rate", valid("win_rate", pct), None),
            ("expected", "expected", pct),
            ("score (pp)", valid("score", pp), None),
            ("95% CI", interval(pp, "ci_lo", "ci_hi"), None),
        ],
    ),
    "luck": (
        "Luck-adjusted score by player × role: the result minus the luck of chance and of "
        "known-policy seats, and the advantage-adjusted score: the rule-bot value of the deal "
        "plus the play-out advantage of every departure from the rule bot's choice "
        "(docs/analysis.md), next to the raw win rate; per player, "
        "role-adjusted (result minus the role's base rate), raw and adjusted (95% CI, "
        "clustered by deal); win rates in %, role-adjusted scores in pp, clipped to what is "
        "possible (luck.csv: unclipped)",
        [
            ("player", "player", plain),
            ("role", "role", plain),
            ("seats", "seat_games", integer),
            ("raw", valid(luck_cell("win_rate", "win_lo", "win_hi")), None),
            ("luck-adjusted", valid(luck_cell("adjusted", "adj_lo", "adj_hi")), None),
            ("advantage-adjusted", valid(luck_cell("advantage", "adv_lo", "adv_hi")), None),
        ],
    ),
    "moves": (
        "Move analysis by player × role (bangarena analyze; docs/analysis.md): win probability "
        "lost per decision, blunder rate and accuracy (0-100) of the player's own choices; 95% "
        "CI, Student's t, clustered by deal; left out and counted apart: fallback moves, "
        "autopilot moves, forced (one-option) decisions",
        [
            ("player", "player", plain),
            ("role", "role", plain),
            ("games", "games", integer),
            ("decisions", "decisions", integer),
            ("lost/decision", valid(with_interval(num(3), "loss", "loss_lo", "loss_hi")), None),
            (
                "blunders",
                valid(with_interval(pct, "blunder_rate", "blunder_lo", "blunder_hi")),
                None,
            ),
            ("accuracy", valid(with_interval(num(1), "accuracy", "acc_lo", "acc_hi")), None),
            ("fallbacks", "fallbacks", integer),
            ("autopilot", "autopilot", integer),
            ("forced", "forced", integer),
        ],
    ),
    "ratings": (
        "Ratings (openskill Plackett-Luce, team matches in game order; 95% CI from a bootstrap "
        "of whole deals)",
        [
            ("player", "player", plain),
            ("games", "games", integer),
            ("mu", valid("mu", num(2)), None),
            ("95% CI", interval(num(2), "mu_lo", "mu_hi"), None),
            ("sigma", "sigma", num(2)),
            ("ordinal", valid("ordinal", num(2)), None),
            ("95% CI", interval(num(2), "ordinal_lo", "ordinal_hi"), None),
        ],
    ),
    "rates": (
        "Decisions, fallbacks and costs (rates per decision — for model players per model "
        'decision, one with more than one option: "4 of 7" — latency per decision (a model '
        "player's over the decisions it answered itself), tokens, cost per game)",
        [
            ("player", "player", plain),
            ("kind", "kind", plain),
            ("decisions", decisions, None),
            ("fallback", "fallback_rate", pct),
            ("invalid", "invalid_rate", pct),
            ("timeout", "timeout_rate", pct),
            ("ms/decision", "latency_per_decision_ms", num(2)),
            ("s/game", "latency_per_game_s", num(2)),
            ("tokens/game", "tokens_per_game", num(0)),
            ("cost/game", "cost_per_game_usd", usd),
            ("cost", "cost_usd", usd),
        ],
    ),
    "model_calls": (
        "Model seats — rates per model decision (more than one option; a single option never "
        "reaches the model): fallback, invalid, truncated (answers cut by the token limit, not "
        "counted as invalid), timeout; per call (every attempt, retries and re-prompts "
        "included): /call, overflow (requests longer than the model's context), failed calls "
        "(no answer: errors, timeouts, overflows); call latency p50 / p95 over the answered "
        "calls; cached input tokens of the calls that reported them (n/a: none did); "
        "fallback reasons in rates.csv",
        [
            ("player", "player", plain),
            ("history", "history", plain),
            ("model dec.", "model_decisions", integer),
            ("1-option", "single_option", integer),
            ("calls", "model_calls", integer),
            ("fallback", "fallback_rate", pct),
            ("invalid", "invalid_rate", pct),
            ("truncated", "truncated_rate", pct),
            ("timeout", "timeout_rate", pct),
            ("invalid/call", "invalid_per_call", pct),
            ("truncated/call", "truncated_per_call", pct),
            ("timeout/call", "timeout_per_call", pct),
            ("overflow/call", "overflow_per_call", pct),
            ("error/call", "error_per_call", pct),
            ("failed calls", "failed_calls", integer),
            ("call p50 / p95", call_latency, None),
            ("cached in", cached_input, None),
        ],
    ),
    "spend": (
        "Spend — every model call the run sent, from spend.jsonl: preflight samples and calls of "
        "games without a result (void, or in flight at a stop) included and shown apart; calls "
        "cancelled at a stop have unknown tokens (not 0); answered calls in no decision record "
        "came back as the run stopped",
        [
            ("player", "player", plain),
            ("model", "model", plain),
            ("calls", "calls", integer),
            ("truncated", "truncated", integer),
            ("failed", "failed", integer),
            ("cancelled", "cancelled", integer),
            ("input tokens", "input_tokens", integer),
            ("cached in", spend_cached_input, None),
            ("output tokens", "output_tokens", integer),
            ("cost", "cost_usd", usd),
            ("preflight calls", "preflight_calls", integer),
            ("preflight cost", "preflight_cost_usd", usd),
            ("no-result calls", "outside_calls", integer),
            ("no-result cost", "outside_cost_usd", usd),
            ("tokens unknown", "unknown_token_calls", integer),
            ("answered, unrecorded", "unrecorded_answers", integer),
        ],
    ),
    "compactions": (
        COMPACTIONS_TITLE,
        [
            ("player", "player", plain),
            ("locale", "locale", plain),
            ("history", "history", plain),
            ("context", "context_tokens", integer),
            ("model dec.", "decisions", integer),
            ("compacted", "compacted", integer),
            ("share", "compacted_share", pct),
            ("first request", "first_tokens", integer),
            ("per decision", "decision_tokens", integer),
            ("needs", "needs_tokens", integer),
            ("flag", "flag", plain),
        ],
    ),
    "signals": (
        SIGNALS_TITLE,
        [
            ("player", "player", plain),
            ("role", "role", plain),
            ("seats", "seat_games", integer),
            ("claims", "claims", integer),
            ("honest", with_interval(pct, "honest", "honest_lo", "honest_hi"), None),
            ("as deputy", "as_deputy", integer),
            ("as raider", "as_raider", integer),
            ("as loner", "as_loner", integer),
            ("marks", "marks", integer),
            ("accurate", with_interval(pct, "accurate", "accurate_lo", "accurate_hi"), None),
            ("reactions", "reactions", integer),
            ("refused", "refused", integer),
        ],
    ),
    "claim_effect": (
        CLAIM_EFFECT_TITLE,
        [
            ("player", "player", plain),
            ("claimed", "claimed", plain),
            ("claims", "claims", integer),
            ("attacks before", "before", num(2)),
            ("after", "after", num(2)),
            ("change", with_interval(num(2), "change", "change_lo", "change_hi"), None),
            ("no claim", with_interval(num(2), "no_claim", "no_claim_lo", "no_claim_hi"), None),
            ("marks after", "marks_after", integer),
            (
                "agree before",
                with_interval(pct, "agree_before", "agree_before_lo", "agree_before_hi"),
                None,
            ),
            (
                "agree after",
                with_interval(pct, "agree_after", "agree_after_lo", "agree_after_hi"),
                None,
            ),
        ],
    ),
    "base_rates": (
        "Base win rate of each role (all players) by table size and mode",
        [
            ("seats", "seats", integer),
            ("mode", "mode", plain),
            ("role", "role", plain),
            ("games", "games", integer),
            ("win rate", "base_rate", pct),
        ],
    ),
}
# the probe scores of the model and both baselines, in the per-player and per-round tables
_PROBE_SCORES: list[Column] = [
    ("Brier", "brier", num(3)),
    ("Brier counting", "brier_counting", num(3)),
    ("Brier rule bot", "brier_rulebot", num(3)),
    ("log loss", "log_loss", num(3)),
    ("log loss counting", "log_loss_counting", num(3)),
    ("log loss rule bot", "log_loss_rulebot", num(3)),
]
TABLE_SPECS["probe_summary"] = (
    "Belief probes per model player (docs/probes.md): Brier score and log loss of the model, the "
    "counting observer and the rule bot on the same forecasts; beats the counting observer by "
    "(its Brier score minus the model's, per probe; 95% CI, cluster bootstrap over deals)",
    [
        ("player", "player", plain),
        ("model", "model", plain),
        ("probes", "probes", integer),
        ("invalid", "invalid_rate", pct),
        ("forecasts", "forecasts", integer),
        *_PROBE_SCORES,
        ("beats counting by", with_interval(num(3), "beats_counting", "beats_lo", "beats_hi"),
         None),
    ],
)  # fmt: skip
TABLE_SPECS["probes"] = (
    "Belief probes by model player × its role × round (role and round 'all': every probe)",
    [
        ("player", "player", plain),
        ("role", "role", plain),
        ("round", "round", plain),
        ("probes", "probes", integer),
        ("invalid", "invalid", integer),
        ("forecasts", "forecasts", integer),
        *_PROBE_SCORES,
    ],
)
# Shown in this order; "model_calls" is a view of the rates table, shown when a model played.
SHOWN = ("summary", "win_rates", "role_adjusted", "luck", "moves", "ratings", "rates", "model_calls",
         "spend", "compactions", "signals", "claim_effect", "probe_summary", "probes",
         "base_rates")  # fmt: skip
