"""How well a belief predicts where the unseen cards are: log-loss and calibration (numpy).

For held-out examples (:class:`~basra.train.belief_data.Examples` with the reading's
probabilities) it compares three beliefs per table:

- **uniform**: a random deal (each unseen card in each place by the place's share);
- **reading**: today's hand reading, the search's pool of deals weighted by how
  well they explain this deal's plays (``read`` 0.15);
- **model**: the learned belief.

**Log-loss** is the mean, over every unseen card of every example, of minus the
natural log of the probability given to the place the card really was (lower is
better; probabilities are floored at :data:`FLOOR`, as a pool can miss a card).
**Calibration** bins the probabilities given to "this card is in that hand"
(the other seats' hands, not the stock) into ten bins and compares each bin's
mean probability with how often the card was there; the expected calibration
error (ECE) is the mean gap, weighted by the bins' sizes. **Hits** is the share of
the cards really in another hand among the cards the belief thinks most likely
to be there (as many as that hand holds unseen): how often a sampled deal puts a
card where it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from basra.belief.features import LOCATIONS
from basra.belief.model import BeliefModel, uniform_probabilities
from basra.train.belief_data import TABLES, Examples

__all__ = ["FLOOR", "calibration", "compare", "hits", "log_loss", "report_text"]

FLOOR = 1e-4
"""The smallest probability counted in a log-loss."""


def log_loss(probabilities: Any, targets: Any) -> float:
    """Mean minus log-probability of each unseen card's true place (see the module docstring)."""
    import numpy

    mask = targets >= 0
    chosen = numpy.take_along_axis(
        probabilities, numpy.maximum(targets, 0)[:, :, None].astype(numpy.int64), axis=2
    )[:, :, 0]
    return float(-numpy.log(numpy.maximum(chosen[mask], FLOOR)).mean())


def calibration(
    probabilities: Any, targets: Any, counts: Any, bins: int = 10
) -> tuple[float, list[dict[str, float]]]:
    """The expected calibration error and each bin's ``{"low", "high", "predicted",
    "observed", "n"}``, over (card, other hand) pairs."""
    import numpy

    mask = (targets >= 0)[:, :, None] & (counts[:, None, 1:] > 0)
    predicted = probabilities[:, :, 1:][mask]
    truth = (targets[:, :, None] == numpy.arange(1, LOCATIONS)[None, None, :])[mask]
    edges = numpy.linspace(0.0, 1.0, bins + 1)
    which = numpy.clip(numpy.digitize(predicted, edges) - 1, 0, bins - 1)
    out = []
    gap = 0.0
    for b in range(bins):
        chosen = which == b
        n = int(chosen.sum())
        if not n:
            continue
        mean_p = float(predicted[chosen].mean())
        observed = float(truth[chosen].mean())
        gap += n * abs(mean_p - observed)
        out.append(
            {
                "low": float(edges[b]),
                "high": float(edges[b + 1]),
                "predicted": mean_p,
                "observed": observed,
                "n": n,
            }
        )
    return gap / max(len(predicted), 1), out


def hits(probabilities: Any, targets: Any, counts: Any) -> float:
    """The share of other hands' cards among each hand's most likely cards (see above)."""
    import numpy

    found = total = 0
    for location in range(1, LOCATIONS):
        for i in numpy.nonzero(counts[:, location] > 0)[0]:
            k = int(counts[i, location])
            top = numpy.argsort(-probabilities[i, :, location], kind="stable")[:k]
            found += int((targets[i, top] == location).sum())
            total += k
    return found / max(total, 1)


def compare(examples: Examples, model: BeliefModel) -> dict[str, Any]:
    """Per table and in all: examples, and each belief's log-loss, ECE, calibration bins
    and hits (see the module docstring). Needs the reading's probabilities."""
    import numpy

    if examples.reading is None:
        raise ValueError("the held-out examples carry no reading probabilities")
    unseen = examples.targets >= 0
    counts = examples.counts.astype(numpy.int64)
    beliefs = {
        "uniform": uniform_probabilities(counts, unseen),
        "reading": examples.reading.astype(numpy.float64),
        "model": model.batch_probabilities(examples.features, counts, unseen),
    }
    out: dict[str, Any] = {}
    groups: list[tuple[str, Any]] = [
        (t.name, examples.table == i) for i, t in enumerate(TABLES) if (examples.table == i).any()
    ]
    groups.append(("all", numpy.ones(len(examples), dtype=bool)))
    for name, rows in groups:
        entry: dict[str, Any] = {"examples": int(rows.sum())}
        for kind, probs in beliefs.items():
            ece, bins = calibration(probs[rows], examples.targets[rows], counts[rows])
            entry[kind] = {
                "log_loss": log_loss(probs[rows], examples.targets[rows]),
                "ece": ece,
                "hits": hits(probs[rows], examples.targets[rows], counts[rows]),
                "bins": bins,
            }
        out[name] = entry
    return out


def report_text(
    result: dict[str, Any], kinds: Sequence[str] = ("uniform", "reading", "model")
) -> str:
    """The comparison as a table for people."""
    head = f"{'table':<20} {'examples':>8}  " + "  ".join(
        f"{k + ' log-loss':>16} {'ECE':>6} {'hits':>6}" for k in kinds
    )
    lines = [head]
    for name, entry in result.items():
        cells = "  ".join(
            f"{entry[k]['log_loss']:>16.4f} {entry[k]['ece']:>6.3f} {entry[k]['hits']:>6.3f}"
            for k in kinds
        )
        lines.append(f"{name:<20} {entry['examples']:>8}  {cells}")
    return "\n".join(lines)
