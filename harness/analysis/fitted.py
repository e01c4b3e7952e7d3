"""The fast value estimator: logistic regression on :mod:`.features`, one weight vector per\ntable size, mode and team.

The weights are package data (``harness/analysis/data/value_model.json``), written by
``bangarena analysis train`` (:mod:`.train`) from rule-bot self-play with a fixed seed and never
from the runs it evaluates.  The file is versioned: ``schema``, the feature names, the training
configuration and the sha256 of the training data.  Evaluation is plain numpy.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from harness.engine import Game

from .features import KEYS, NAMES, features, key_index
from .value_model import result_values

SCHEMA = 1
MODEL_PATH = Path(__file__).with_name("data") / "value_model.json"


class TeamWeights(BaseModel):
    model_config = ConfigDict(extra="forbid")
    coef: list[float]
    intercept: float


class ValueModelFile(BaseModel):
    """The saved fitted model."""

    model_config = ConfigDict(extra="forbid")
    schema_version: int = SCHEMA
    kind: str = "logistic"
    features: list[str]
    mean: list[float]
    scale: list[float]
    weights: dict[str, TeamWeights]  # "team" (or "team|seats|mode") -> its logistic regression
    base_rates: dict[str, float]  # "team|seats|mode" -> share of won seats in the training data
    training: dict[str, Any]  # configuration of the training run
    data_sha256: str
    rows: int


class ModelFileError(ValueError):
    """The value model file is missing, unreadable or does not match the features."""


def load_model_file(path: Path = MODEL_PATH) -> ValueModelFile:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ModelFileError(f"cannot read the value model {path}: {e}") from None
    try:
        m = ValueModelFile.model_validate(data)
    except ValueError as e:
        raise ModelFileError(f"{path}: not a value model file ({e.__class__.__name__})") from None
    if m.schema_version != SCHEMA:
        raise ModelFileError(f"{path}: schema {m.schema_version}, this harness reads {SCHEMA}")
    if tuple(m.features) != NAMES:
        raise ModelFileError(f"{path}: its features differ from this harness's; retrain it")
    return m


def base_rate_key(team: str, seats: int, mode: str) -> str:
    return f"{team}|{seats}|{mode}"


class FittedValue:
    """Logistic regression per team; see the module docstring."""

    name = "fitted"

    def __init__(self, model: ValueModelFile | None = None) -> None:
        self.file = model if model is not None else load_model_file()
        # what a stored score was computed with: the whole file (weights and training)
        self.digest = hashlib.sha256(self.file.model_dump_json().encode()).hexdigest()
        self._mean = np.array(self.file.mean)
        self._scale = np.array(self.file.scale)
        missing = TeamWeights(coef=[0.0] * len(NAMES), intercept=0.0)
        # a key is "team|seats|mode"; a file fitted per team holds "team" keys
        ws = [self.file.weights.get(k, self.file.weights.get(k.partition("|")[0], missing))
              for k in KEYS]  # fmt: skip
        self._w = np.array([w.coef for w in ws])
        self._b = np.array([w.intercept for w in ws])
        self._rates = np.array([self.file.base_rates.get(k, 0.5) for k in KEYS])

    def logits(self, x: np.ndarray, keys: np.ndarray) -> np.ndarray:
        z = (x - self._mean) / self._scale
        return np.einsum("ij,ij->i", z, self._w[keys]) + self._b[keys]

    def predict(self, x: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """P(win) for feature rows ``x`` whose weight vectors are ``keys`` (:data:`KEYS`)."""
        return 1.0 / (1.0 + np.exp(-self.logits(x, keys)))

    def values(self, game: Game) -> np.ndarray:
        if game.is_over:
            return result_values(game)
        return self.predict(features(game), key_index(game))

    def base_rates(self, keys: np.ndarray) -> np.ndarray:
        """The training share of won seats for each row's table and team."""
        return self._rates[keys]

    def base_rate(self, team: str, seats: int, mode: str) -> float:
        return self.file.base_rates.get(base_rate_key(team, seats, mode), 0.5)
