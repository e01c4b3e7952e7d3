"""``bangarena bench quiz`` — how fast the engine builds quiz questions, and what the harness
costs per asked question with the network excluded.

* Build: questions drafted from rule-bot games and worded (``quiz build`` without writing),
  timed on one core; questions per second.
* Ask: every built question is asked through the same :func:`harness.quiz.run.answer_question`
  a run uses (the shared :class:`~harness.agents.llm_agent.LLMAgent`, strict parsing, the
  decision record, scoring) against an in-process provider that answers at once with a seeded
  random answer of the requested shape; the overhead per question is its wall time minus the
  time spent inside the provider, plus writing its answer line.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

from harness.agents.model_spec import ModelPriceSpec, ModelSpec, build_llm_agent
from harness.agents.providers import (
    ANSWER_MODES,
    AnswerMode,
    Provider,
    ProviderReply,
    ProviderRequest,
)
from harness.league.stats_basic import percentile
from harness.quiz.dataset import build_datasets
from harness.quiz.quiz_records import Dataset
from harness.quiz.run import (
    NO_ANSWER,
    QuizPrompts,
    answer_question,
    dataset_sha256,
    no_answer,
    rules_doc,
)

from .core import print_result, python_version


class InstantQuizProvider(Provider):
    """Answers at once with a seeded random answer of the requested shape; times itself."""

    name: ClassVar[str] = "instant-quiz"
    default_answer_mode: AnswerMode = "json_schema"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(ANSWER_MODES)

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self.seconds = 0.0

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        t0 = time.perf_counter()
        ids = list(req.option_ids)
        if req.answer_shape == "set":
            body: dict[str, Any] = {"answer": [o for o in ids if self._rng.random() < 0.5]}
        else:
            body = {"choice": ids[self._rng.randrange(len(ids))]}
        text = json.dumps(body)
        reply = ProviderReply(
            text=text,
            input_tokens=(len(req.system) + sum(len(m["content"]) for m in req.messages)) // 4,
            output_tokens=12,
            model=req.model,
        )
        self.seconds += time.perf_counter() - t0
        return reply


async def _ask_all(dataset: Dataset, seed: int) -> dict[str, Any]:
    provider = InstantQuizProvider(seed)
    spec = ModelSpec(provider="openai", model="instant", price=ModelPriceSpec(input=1, output=2))
    doc = rules_doc(None, dataset.header.locale)
    agent = build_llm_agent(
        spec,
        QuizPrompts(doc, dataset.header.locale),
        fallback=no_answer,
        fallback_policy=NO_ANSWER,
        provider=provider,
    )
    sha = dataset_sha256(dataset)
    sink = io.StringIO()
    samples: list[float] = []
    exact = 0
    for q in dataset.questions:
        provider.seconds = 0.0
        t0 = time.perf_counter()
        answer = await answer_question(
            agent, q, time.monotonic() + 60.0, run="bench", dataset=dataset, dataset_sha=sha,
            player="instant", model=spec.label, rules=doc,
        )  # fmt: skip
        sink.write(answer.model_dump_json() + "\n")
        samples.append((time.perf_counter() - t0 - provider.seconds) * 1000.0)
        exact += answer.exact
    return {
        "asked": len(samples),
        "overhead_median_ms": round(statistics.median(samples), 3),
        "overhead_p95_ms": round(percentile(samples, 0.95) or 0.0, 3),
        "overhead_mean_ms": round(statistics.fmean(samples), 3),
        "answer_line_bytes": round(len(sink.getvalue().encode()) / max(1, len(samples))),
        "random_exact": exact,
    }


def measure(
    questions: int, seed: int = 1, locale: str = "en", note: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Build ``questions`` questions, then ask each once; returns the figures."""
    t0 = time.perf_counter()
    header, built = build_datasets(questions, seed, [locale], name="bench")[locale]
    build_s = time.perf_counter() - t0
    if note is not None:
        note(f"built {len(built)} questions in {build_s:.1f} s; asking them")
    asked = asyncio.run(_ask_all(Dataset(header=header, questions=built), seed))
    return {
        "questions": len(built),
        "locale": locale,
        "build_s": round(build_s, 3),
        "questions_per_s": round(len(built) / build_s, 1),
        **asked,
        "python": python_version(),
    }


__all__ = ["InstantQuizProvider", "measure"]


def run(questions: int, seed: int, locale: str) -> int:
    """Measure, print the figures and the JSON line (notes on the build go to stderr)."""
    r = measure(questions, seed, locale, note=lambda s: print(s, file=sys.stderr))
    print(
        f"quiz benchmark: {r['questions']} questions ({r['locale']}), 1 core; asked through the "
        "quiz model path against an instant in-process provider (network excluded)"
    )
    print(f"  questions built per second  {r['questions_per_s']:>9,.1f}  ({r['build_s']} s)")
    print(f"  overhead per question       {r['overhead_median_ms']:>9.3f} ms median")
    print(
        f"  p95 / mean                  {r['overhead_p95_ms']:>9.3f} / {r['overhead_mean_ms']:.3f} ms"
    )
    print(f"  answer line                 {r['answer_line_bytes']:>9,} bytes")
    return print_result({"benchmark": "quiz", **r})
