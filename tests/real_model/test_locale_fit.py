"""Every language configs/locales.yaml lists fits the context its comments give, for a whole game:
each request a 5-seat game's model seat would send (rule bots play the game; every seat's requests
are built with the config's history policy and counted by the real SmolLM2 server's tokenizer,
llama-cpp-python's ``/extras/tokenize``), plus the answer's ``max_tokens``, stays within
``context_tokens``; and the preflight's count before any call passes.

Short (tokenizing reads no prompt into the model: seconds per language), so the suite checks all
five languages; tests/real_model/test_locale_leagues.py plays English and Russian against the
server in the suite and Chinese, Japanese and Arabic with ``BANGARENA_REAL_LOCALES=all``."""

from __future__ import annotations

import pytest

from harness.agents.model_spec import ModelSpec, counter_for
from harness.agents.prompt_sample import sample_prompts
from harness.league.preflight_context import check_context
from harness.views.names import LOCALES

from .test_locale_leagues import locale_league

pytestmark = pytest.mark.real_model

SEATS = 5  # the config's tables
SEED = 37


@pytest.mark.parametrize("locale", LOCALES)
def test_every_request_of_a_game_fits_the_configs_context(llama_server: str, locale: str) -> None:
    player = locale_league(llama_server, locale)["players"][0]
    spec = ModelSpec.model_validate(player["model"])
    assert spec.context_tokens is not None
    check_context(player["name"], spec, locale)  # the preflight's count: raises when it cannot fit
    counter = counter_for(spec)
    assert "tokenize" in counter.source, counter.source  # the server's own tokenizer
    meter = sample_prompts(SEATS, "classic", 1, SEED, locale, counter,
                           policies=[spec.history], context_tokens=spec.context_tokens)  # fmt: skip
    stats = meter.stats[spec.history]
    answer = int(spec.params["max_tokens"])
    assert stats.request_tokens, "the sampled game asked no model decision"
    largest = max(stats.request_tokens)
    print(f"{locale}: {len(stats.request_tokens)} requests, largest {largest:,} tokens "
          f"+ {answer} answer of {spec.context_tokens:,}")  # fmt: skip
    assert largest + answer <= spec.context_tokens, (locale, largest, answer)
