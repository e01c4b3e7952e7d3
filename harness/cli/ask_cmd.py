"""``bangarena ask`` — show one model one sample decision and print everything that happened.

The sample is deterministic: a classic game dealt from ``--seed`` is advanced with seeded random
moves to a decision with more than one option (which one also follows from the seed), and that
seat's :class:`~harness.agents.model_seat.ModelSeat` is asked once.  The command prints the size
of the system prompt, the decision prompt, each attempt's raw answer (and reasoning), the parsed
choice or the failure kind, retries, tokens, latency and cost.

Exit codes: 0 the model gave a valid answer; 1 the seat fell back (a server that kept failing or
answering garbage included); 2 bad arguments, a fatal provider error (bad key, unknown model) or
any other failure, reported on one line, never a traceback.  API keys are read from the
environment variable named by ``--api-key-env`` (or the provider's usual one) and never printed:
everything printed passes :func:`~harness.agents.key_redaction.redact`.

Wire-up: ``harness/cli/main.py`` lists this module in ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from typing import Any, get_args

from pydantic import ValidationError

from harness.agents.decision_record import ANSWERED_KINDS, ModelDecisionRecord, sha256_text
from harness.agents.key_redaction import redact
from harness.agents.llm_agent import FatalModelError
from harness.agents.model_spec import ModelSpec, ProviderName, counter_for
from harness.agents.providers import ANSWER_MODES
from harness.agents.providers.provider_errors import TransientKind
from harness.agents.sample_decision import Sample, ask, sample_decision
from harness.engine.roles import MAX_SEATS, MIN_SEATS
from harness.views.names import LOCALES, default_names
from harness.views.tokens import request_tokens

from .args import positive_float, seat_count
from .cli_errors import CliError

TRANSIENT_KINDS = frozenset(get_args(TransientKind))


def register(sub: Any) -> None:
    """Add ``ask`` to the top-level sub-parser group."""
    p = sub.add_parser(
        "ask",
        help="show a model one sample decision: prompt, raw answer, parsed choice, tokens, cost",
        description="Builds a deterministic sample decision (a seeded game advanced to a decision "
        "with several options) and asks the model once. Exit 0: valid answer; 1: fell back; "
        "2: bad arguments or a fatal provider error. Keys come only from environment variables.",
    )
    p.add_argument(
        "--provider", required=True, choices=get_args(ProviderName), help="model provider"
    )
    p.add_argument("--model", required=True, help="model name (litellm: e.g. openai/gpt-4o-mini)")
    p.add_argument(
        "--base-url",
        default=None,
        help="server URL (local or compatible servers; default: the provider's own)",
    )
    p.add_argument(
        "--api-key-env",
        default=None,
        metavar="NAME",
        help="NAME of the environment variable holding the API key (default: the provider's)",
    )
    p.add_argument(
        "--answer-mode",
        choices=ANSWER_MODES,
        default=None,
        help="default: the provider's (openai/litellm json_schema, anthropic tool); "
        "llama.cpp servers: json_object or grammar",
    )
    p.add_argument("--seed", type=int, default=1, help="deal and sample seed (default 1)")
    p.add_argument(
        "--seats", type=seat_count, default=4, help=f"{MIN_SEATS}..{MAX_SEATS} (default 4)"
    )
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the prompt")
    p.add_argument(
        "--param",
        type=_param,
        action="append",
        default=[],
        metavar="K=V",
        help="call parameter, repeatable (V is read as JSON when it parses: "
        "--param temperature=0 --param max_tokens=64)",
    )
    p.add_argument(
        "--decision-seconds", type=positive_float, default=60.0, help="deadline (default 60)"
    )
    p.add_argument(
        "--tokenizer",
        default=None,
        help="how prompt tokens are counted: a tiktoken encoding, a tokenizer.json path or "
        "'server' (default: the server's tokenize endpoint when it has one, else LiteLLM's "
        "tokenizer for a model it knows, else an estimate with a safety margin)",
    )
    p.set_defaults(func=run)


def _param(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected K=V, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def build_spec(args: argparse.Namespace) -> ModelSpec:
    """The spec from the arguments; invalid values become a one-line :class:`CliError`."""
    try:
        return ModelSpec(
            provider=args.provider,
            model=args.model,
            base_url=args.base_url,
            api_key_env=args.api_key_env,
            answer_mode=args.answer_mode,
            params=dict(args.param),
            decision_seconds=args.decision_seconds,
            tokenizer=getattr(args, "tokenizer", None),
        )
    except ValidationError as e:
        raise CliError(validation_summary(e)) from None


def validation_summary(error: ValidationError) -> str:
    """``field: message; ...`` on one line (input values are never included)."""
    parts = []
    for item in error.errors(include_input=False, include_url=False):
        where = ".".join(str(x) for x in item["loc"]) or "spec"
        parts.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    return "; ".join(parts)


def run(args: argparse.Namespace) -> int:
    spec = build_spec(args)
    names = default_names(args.seats)
    sample = sample_decision(args.seed, args.seats)
    try:
        record, system = asyncio.run(ask(spec, sample, names, args.locale))
    except FatalModelError as e:
        raise CliError(str(e)) from None
    except ImportError as e:
        raise CliError(f"{spec.provider} provider unavailable: {e}") from None
    except Exception as e:  # anything else still ends on one line, never a traceback
        raise CliError(f"{spec.label}: the decision failed: {type(e).__name__}: {e}") from None
    print(redact("\n".join(report_lines(spec, sample, names, record, system))))
    return 0 if record.fallback is None else 1


def report_lines(
    spec: ModelSpec,
    sample: Sample,
    names: Sequence[str],
    record: ModelDecisionRecord,
    system: str,
) -> list[str]:
    """The printed report: the decision, every attempt and the outcome."""
    lines: list[str] = []
    out = lines.append
    view = sample.view
    kind = view.pending.kind if view.pending else "?"
    out(f"model: {spec.label} (answer mode {record.answer_mode})")
    out(
        f"sample: seed {sample.game.seed}, {view.n_seats} seats, decision {sample.step + 1}: "
        f"{names[view.viewer]} ({view.role}), kind {kind}, {len(sample.options)} options"
    )
    counter = counter_for(spec)  # the seat's tokenizer (a server's is detected once)
    out(
        f"system prompt: {len(system):,} chars ({counter(system):,} tokens, counted with "
        f"{counter.source}), sha256 {sha256_text(system)[:16]}"
    )
    prompt = record.messages[0]["content"] if record.messages else ""
    out("--- decision prompt ---")
    out(prompt.rstrip("\n"))
    for i, attempt in enumerate(record.attempts, 1):
        out(f"--- attempt {i} ---")
        if attempt.tool_arguments is not None:
            out(f"tool arguments: {attempt.tool_arguments}")
        if attempt.raw_text is not None or attempt.tool_arguments is None:
            out(f"raw answer: {attempt.raw_text if attempt.raw_text is not None else '(none)'}")
        stored = attempt.tool_arguments if attempt.tool_arguments is not None else attempt.raw_text
        if attempt.answer_chars is not None and attempt.answer_chars > len(stored or ""):
            out(
                f"(answer cut for the record: {attempt.answer_chars:,} chars in all, "
                f"sha256 {attempt.answer_sha256})"
            )
        if attempt.reasoning:
            out(f"reasoning: {attempt.reasoning}")
        verdict = "valid" if attempt.error_kind is None else attempt.error_kind
        detail = f": {attempt.error_message}" if attempt.error_message else ""
        finish = ""
        if attempt.finish_reason is not None:
            raw = attempt.finish_reason_raw
            finish = f", finish {attempt.finish_reason}"
            finish += f" ({raw})" if raw and raw != attempt.finish_reason else ""
        out(f"verdict: {verdict}{detail}  ({attempt.latency_s:.3f} s{finish})")
    out("--- result ---")
    if record.fallback is None:
        reason = f"  (reason: {record.reason})" if record.reason else ""
        out(f"parsed choice: {record.chosen}{reason}")
    else:
        last = record.attempts[-1].error_kind if record.attempts else None
        out(
            f"failure: {record.fallback} (last attempt: {last or 'none'}); "
            f"fallback {record.fallback_policy} chose {record.chosen}"
        )
    kinds = [a.error_kind for a in record.attempts]
    retries = sum(1 for k in kinds[:-1] if k in TRANSIENT_KINDS)
    corrections = sum(1 for k in kinds[:-1] if k in ANSWERED_KINDS)
    out(f"attempts: {len(kinds)} (retries after errors: {retries}, corrections: {corrections})")
    cached = record.cached_input_tokens
    out(
        f"tokens: input {record.input_tokens:,} "
        f"(cached {'not reported' if cached is None else f'{cached:,}'}), "
        f"output {record.output_tokens:,} (reasoning {record.reasoning_tokens:,})"
    )
    if record.attempts and record.messages and record.attempts[0].tokens.input:
        counted = request_tokens(counter, [system, record.messages[0]["content"]])
        out(
            f"first request: counted {counted:,} tokens, the server reported "
            f"{record.attempts[0].tokens.input:,}"
        )
    out(f"latency: {record.latency_s:.3f} s")
    cost = (
        "unknown (no price for this model)"
        if record.cost_usd is None
        else f"${record.cost_usd:.6f}"
    )
    out(f"cost: {cost}")
    return lines
