"""The belief model at play time: where each unseen card is, from numpy weights.

A small network (two hidden layers of rectified units) reads a seat's
:func:`~basra.belief.features.encode` d view and gives, for every card the
seat cannot place, the chance that it is in each other hand or in the stock.
Its output for a card is a softmax over the locations that can hold unseen
cards, added to the prior of a random deal (the log of each location's share
of the unseen cards), so that a network knowing nothing deals at random.

The weights ship with the package (``weights.npz``, written by ``basra train
belief``, docs/BOTS.md). Inference is numpy when it is installed, otherwise
the same arithmetic in plain Python (the ``.npz`` read with the standard
library), never PyTorch.
"""

from __future__ import annotations

import ast
import math
import struct
import zipfile
from array import array
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from basra.belief.features import (
    CARD_INPUTS,
    CARDS,
    FEATURES,
    LOCATIONS,
    Encoded,
    encode,
    expand,
    expand_batch,
)
from basra.view import View

__all__ = [
    "DEFAULT_WEIGHTS",
    "FORMAT",
    "BeliefModel",
    "default_model",
    "read_npz",
    "softmax_with_prior",
    "uniform_probabilities",
]

FORMAT = "basra-belief/1"
DEFAULT_WEIGHTS = Path(__file__).with_name("weights.npz")
"""The weights shipped with the package."""
LAYERS = ("1", "2", "3")
KINDS = {"flat": (FEATURES, CARDS * LOCATIONS), "factored": (CARD_INPUTS, 1)}
"""The networks a weights file may hold: their inputs and outputs."""


def read_npz(path: Path) -> dict[str, tuple[tuple[int, ...], list[float] | str]]:
    """The arrays of an ``.npz`` file, read with the standard library: per name its shape
    and values (row-major floats), or the text of a string array."""
    out: dict[str, tuple[tuple[int, ...], list[float] | str]] = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            data = archive.read(member)
            if data[:6] != b"\x93NUMPY":
                raise ValueError(f"{path}: {member} is not a numpy array")
            major = data[6]
            if major == 1:
                (length,) = struct.unpack("<H", data[8:10])
                start = 10
            else:
                (length,) = struct.unpack("<I", data[8:12])
                start = 12
            header: dict[str, Any] = ast.literal_eval(data[start : start + length].decode("latin1"))
            body = data[start + length :]
            shape = tuple(header["shape"])
            descr = header["descr"]
            name = member.removesuffix(".npy")
            if descr in ("<f4", "<f2", "<f8"):
                if header["fortran_order"]:
                    raise ValueError(f"{path}: {member} is in Fortran order")
                values = _floats(descr, body)
                out[name] = (shape, values)
            elif descr.startswith("<U"):
                out[name] = (shape, body.decode("utf-32-le").rstrip("\x00"))
            else:
                raise ValueError(f"{path}: {member} has type {descr}, not float")
    return out


def _floats(descr: str, body: bytes) -> list[float]:
    if descr == "<f2":
        return [v[0] for v in struct.iter_unpack("<e", body)]
    typed = array("f" if descr == "<f4" else "d")
    typed.frombytes(body)
    return typed.tolist()


class BeliefModel:
    """The network with its weights (see the module docstring)."""

    def __init__(self, path: Path = DEFAULT_WEIGHTS) -> None:
        arrays = read_npz(path)
        fmt = arrays.get("format")
        if fmt is None or fmt[1] != FORMAT:
            raise ValueError(f"{path} is not a {FORMAT} weights file")
        self.path = path
        kind = arrays.get("kind", ((), "flat"))[1]
        if kind not in KINDS:
            raise ValueError(f"{path}: the network is {kind!r}, not one of {', '.join(KINDS)}")
        self.kind = kind
        """``flat`` (the whole view in, every card's logits out) or ``factored`` (one
        small network scoring each card and hand: :func:`~basra.belief.features.expand`)."""
        self.shapes: dict[str, tuple[int, ...]] = {}
        self._plain: dict[str, list[float]] = {}
        for name in ("w1", "b1", "w2", "b2", "w3", "b3"):
            shape, values = arrays[name]
            assert not isinstance(values, str)
            self.shapes[name] = shape
            self._plain[name] = values
        inputs, outputs = KINDS[kind]
        if self.shapes["w1"][0] != inputs or self.shapes["w3"][1] != outputs:
            raise ValueError(
                f"{path} was trained for {self.shapes['w1'][0]} inputs and "
                f"{self.shapes['w3'][1]} outputs, not {inputs} and {outputs}"
            )
        self._numpy: dict[str, Any] | None = None
        try:
            import numpy
        except ImportError:  # plain Python below
            return
        self._numpy = {
            name: numpy.asarray(values, dtype=numpy.float32).reshape(self.shapes[name])
            for name, values in self._plain.items()
        }

    def _network(self, x: Any) -> Any:
        """The layers on a numpy array (inputs in its last axis)."""
        import numpy

        w = self._numpy
        assert w is not None
        h = numpy.maximum(x @ w["w1"] + w["b1"], 0.0)
        h = numpy.maximum(h @ w["w2"] + w["b2"], 0.0)
        return h @ w["w3"] + w["b3"]

    def _plain_network(self, inputs: Sequence[float]) -> list[float]:
        p = self._plain
        values: list[float] = list(inputs)
        for layer in LAYERS:
            weights = p["w" + layer]
            cols = self.shapes["w" + layer][1]
            acc = list(p["b" + layer])
            for i, value in enumerate(values):
                if value:
                    row = weights[i * cols : (i + 1) * cols]
                    for j in range(cols):
                        acc[j] += value * row[j]
            values = [max(a, 0.0) for a in acc] if layer != LAYERS[-1] else acc
        return values

    def logits(self, features: Sequence[float]) -> list[float]:
        """The network's raw output: :data:`CARDS` x :data:`LOCATIONS` numbers, row-major
        (the stock's 0 in the factored network)."""
        if self._numpy is not None:
            out: list[float] = self._batch_logits([features])[0].ravel().tolist()
            return out
        if self.kind == "flat":
            return self._plain_network(features)
        flat = []
        for rows in expand(features):
            flat.append(0.0)
            flat.extend(self._plain_network(row)[0] for row in rows)
        return flat

    def _batch_logits(self, features: Any) -> Any:
        import numpy

        x = numpy.asarray(features, dtype=numpy.float32)
        if self.kind == "flat":
            return self._network(x).reshape(len(x), CARDS, LOCATIONS)
        scores = self._network(expand_batch(x))[..., 0]  # (n, 52, 3)
        return numpy.concatenate([numpy.zeros((len(x), CARDS, 1), numpy.float32), scores], 2)

    def batch_probabilities(self, features: Any, counts: Any, unseen: Any) -> Any:
        """:meth:`probabilities` of many inputs at once (numpy): ``features`` (n,
        :data:`FEATURES`), ``counts`` (n, :data:`LOCATIONS`) and ``unseen`` (n, 52, booleans)
        give (n, 52, :data:`LOCATIONS`) probabilities."""
        if self._numpy is None:
            raise RuntimeError("batch_probabilities needs numpy")
        return softmax_with_prior(self._batch_logits(features), counts, unseen)

    def probabilities(self, encoded: Encoded) -> list[list[float]]:
        """Per card 0-51, its chance of being in each location (all 0 for a card the seat
        can place; 0 for a location that holds no unseen card)."""
        logits = self.logits(encoded.features)
        counts = encoded.counts
        total = sum(counts)
        prior = [math.log(c / total) if c else -math.inf for c in counts]
        out = []
        for card in range(CARDS):
            if not encoded.unseen >> card & 1:
                out.append([0.0] * LOCATIONS)
                continue
            row = [
                logits[card * LOCATIONS + loc] + prior[loc] if counts[loc] else -math.inf
                for loc in range(LOCATIONS)
            ]
            top = max(row)
            weights = [math.exp(v - top) if v > -math.inf else 0.0 for v in row]
            norm = sum(weights)
            out.append([w / norm for w in weights])
        return out

    def of_view(self, view: View) -> tuple[Encoded, list[list[float]]]:
        """The encoded view and its probabilities."""
        encoded = encode(view)
        return encoded, self.probabilities(encoded)


def softmax_with_prior(logits: Any, counts: Any, unseen: Any) -> Any:
    """The model's probabilities from its raw output (numpy; see the module docstring):
    ``logits`` (n, 52, 4) plus the log of each location's share of the unseen cards
    (``counts``, (n, 4)), over the locations that hold any; 0 for cards not ``unseen``."""
    import numpy

    counts = numpy.asarray(counts, dtype=numpy.float64)
    share = counts / counts.sum(axis=1, keepdims=True)
    with numpy.errstate(divide="ignore"):
        prior = numpy.where(counts > 0, numpy.log(numpy.maximum(share, 1e-300)), -numpy.inf)
    z = numpy.asarray(logits, dtype=numpy.float64) + prior[:, None, :]
    z -= z.max(axis=2, keepdims=True)
    e = numpy.exp(z)
    probs = e / e.sum(axis=2, keepdims=True)
    return numpy.where(numpy.asarray(unseen)[:, :, None], probs, 0.0)


def uniform_probabilities(counts: Any, unseen: Any) -> Any:
    """A random deal's probabilities: each unseen card in each location by its share."""
    import numpy

    return softmax_with_prior(numpy.zeros((len(counts), CARDS, LOCATIONS)), counts, unseen)


@cache
def default_model() -> BeliefModel:
    """The shipped model (loaded once)."""
    if not DEFAULT_WEIGHTS.exists():
        raise FileNotFoundError(
            f"the belief model's weights are missing ({DEFAULT_WEIGHTS}): "
            "train them with `basra train belief` (docs/BOTS.md)"
        )
    return BeliefModel(DEFAULT_WEIGHTS)
