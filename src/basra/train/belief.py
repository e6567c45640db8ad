"""Training the belief model with PyTorch (CPU), and exporting its weights for numpy.

Used by ``basra train belief`` (docs/BOTS.md). PyTorch is imported only here,
only when training runs (``pip install torch==2.13.0``, the CPU build); play
never needs it (:mod:`basra.belief.model` reads the exported ``.npz``).

The network is :mod:`basra.belief.model`'s: two hidden layers of rectified
units giving per card a logit for each location (``flat``: the whole view in,
every card's logits out; ``factored``: one small network scoring each card in
each other hand from the same few numbers, the stock scoring 0), added to the
log of each location's share of the unseen cards; the loss is the
cross-entropy of every unseen card's true location (the mean over cards).
Adam, mini-batches, a fixed seed; the epoch with the lowest validation loss
is kept.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from basra.belief.features import CARDS, LOCATIONS, expand_batch
from basra.belief.model import FORMAT, KINDS
from basra.train.belief_data import Examples

__all__ = ["TrainSettings", "export", "train"]


class TrainSettings:
    """The knobs of a training run."""

    def __init__(
        self,
        hidden: int = 256,
        epochs: int = 12,
        batch: int = 512,
        rate: float = 1e-3,
        decay: float = 1e-5,
        seed: int = 0,
        threads: int = 1,
        kind: str = "flat",
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"the network is one of {', '.join(KINDS)}, not {kind!r}")
        self.kind = kind
        self.hidden = hidden
        self.epochs = epochs
        self.batch = batch
        self.rate = rate
        self.decay = decay
        self.seed = seed
        self.threads = threads

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON values."""
        return dict(vars(self))


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise RuntimeError(
            "training needs PyTorch (the CPU build): pip install torch==2.13.0"
        ) from None
    return torch


def _tensors(torch: Any, examples: Examples) -> tuple[Any, Any, Any]:
    import numpy

    features = torch.from_numpy(numpy.asarray(examples.features, dtype=numpy.float16))
    targets = torch.from_numpy(numpy.asarray(examples.targets, dtype=numpy.int64))
    counts = numpy.asarray(examples.counts, dtype=numpy.float64)
    share = counts / counts.sum(axis=1, keepdims=True)
    prior = numpy.where(counts > 0, numpy.log(numpy.maximum(share, 1e-300)), -1e9)
    return features, targets, torch.from_numpy(prior.astype(numpy.float32))


def _logits(torch: Any, net: Any, features: Any, kind: str) -> Any:
    if kind == "flat":
        return net(features.float()).view(-1, CARDS, LOCATIONS)
    scores = net(torch.from_numpy(expand_batch(features.numpy())))[..., 0]
    return torch.cat([torch.zeros(len(features), CARDS, 1), scores], dim=2)


def _loss(
    torch: Any, net: Any, features: Any, targets: Any, prior: Any, kind: str
) -> tuple[Any, int]:
    logits = _logits(torch, net, features, kind) + prior[:, None, :]
    log_p = torch.log_softmax(logits, dim=2)
    mask = targets >= 0
    chosen = log_p.gather(2, targets.clamp(min=0)[:, :, None])[:, :, 0]
    n = int(mask.sum())
    return -(chosen * mask).sum() / max(n, 1), n


def train(
    training: Examples,
    validation: Examples,
    settings: TrainSettings,
    log: Callable[[str], None] = print,
) -> tuple[dict[str, Any], list[dict[str, float]]]:
    """Fit the network; returns its weights as numpy arrays (the best epoch on
    ``validation``) and a line per epoch (training and validation loss, seconds)."""
    torch = _torch()
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    h = settings.hidden
    inputs, outputs = KINDS[settings.kind]
    net = torch.nn.Sequential(
        torch.nn.Linear(inputs, h),
        torch.nn.ReLU(),
        torch.nn.Linear(h, h),
        torch.nn.ReLU(),
        torch.nn.Linear(h, outputs),
    )
    with torch.no_grad():  # start as a random deal: the prior alone
        net[4].weight.mul_(0.1)
        net[4].bias.zero_()
    optimizer = torch.optim.Adam(net.parameters(), lr=settings.rate, weight_decay=settings.decay)
    x, y, prior = _tensors(torch, training)
    vx, vy, vprior = _tensors(torch, validation)
    generator = torch.Generator().manual_seed(settings.seed)
    history: list[dict[str, float]] = []
    best = math.inf
    best_state: dict[str, Any] = {}
    for epoch in range(settings.epochs):
        started = time.perf_counter()
        net.train()
        order = torch.randperm(len(y), generator=generator)
        total = 0.0
        cards = 0
        for start in range(0, len(order), settings.batch):
            rows = order[start : start + settings.batch]
            loss, n = _loss(torch, net, x[rows], y[rows], prior[rows], settings.kind)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * n
            cards += n
        net.eval()
        with torch.no_grad():
            valid_total = 0.0
            valid_cards = 0
            for start in range(0, len(vy), 4096):
                part = slice(start, start + 4096)
                loss, n = _loss(torch, net, vx[part], vy[part], vprior[part], settings.kind)
                valid_total += float(loss) * n
                valid_cards += n
        line = {
            "epoch": epoch + 1,
            "train_loss": total / max(cards, 1),
            "valid_loss": valid_total / max(valid_cards, 1),
            "seconds": time.perf_counter() - started,
        }
        history.append(line)
        log(
            f"epoch {epoch + 1}: training loss {line['train_loss']:.4f}, "
            f"validation {line['valid_loss']:.4f} ({line['seconds']:.0f} s)"
        )
        if line["valid_loss"] < best:
            best = line["valid_loss"]
            best_state = {k: v.detach().clone() for k, v in net.state_dict().items()}
    weights: dict[str, Any] = {
        "kind": settings.kind,
        "w1": best_state["0.weight"].T.contiguous().numpy(),
        "b1": best_state["0.bias"].numpy(),
        "w2": best_state["2.weight"].T.contiguous().numpy(),
        "b2": best_state["2.bias"].numpy(),
        "w3": best_state["4.weight"].T.contiguous().numpy(),
        "b3": best_state["4.bias"].numpy(),
    }
    return weights, history


def export(weights: dict[str, Any], path: Path) -> None:
    """Write weights for :class:`basra.belief.model.BeliefModel` (float32 ``.npz``)."""
    import numpy

    arrays: dict[str, Any] = {
        name: numpy.asarray(value, dtype=numpy.float32)
        for name, value in weights.items()
        if name != "kind"
    }
    arrays["format"] = numpy.array(FORMAT)
    arrays["kind"] = numpy.array(weights.get("kind", "flat"))
    numpy.savez_compressed(path, **arrays)
