"""``GET /metrics``: the server's numbers in the Prometheus text format (prometheus-client).

One :class:`Metrics` per process (made by :class:`~basra.server.env.Env`), on a registry of
its own. Several processes on one host share their numbers through prometheus-client's
*multiprocess mode*: given a directory (``[operations] metrics_dir``, the same for every
process of the host, emptied when the host starts), each process writes its values to
memory-mapped files there and any of them answers ``/metrics`` with the host's totals:
counters and histograms summed over every process that ever ran since the directory was
made (a restart loses no count), gauges of live processes only (``livesum``; the numbers
read from the shared store, the same in every process, with ``livemax``). Without a
directory, ``/metrics`` is this process's own.

What is measured (all names start ``basra_``):

- ``live_tables``, ``open_sockets``: tables held in memory and WebSocket connections;
- ``owned_tables``: the tables each process drives (their clocks, stand-ins and bots:
  :mod:`basra.server.table.ownership`), one value per live process (labelled with its
  ``pid`` in multiprocess mode), and ``bot_decisions_total``, the bot moves worked out
  (each once, by the table's owner);
- ``moves_total`` (people's and bots' plays stored) and ``move_ack_seconds``, a histogram
  of a person's move from its frame read to its acknowledgement queued;
- ``bot_jobs_queued`` / ``bot_jobs_running`` (the fair scheduler: bots, hints, review
  decisions) and ``reviews_unfinished`` (review jobs queued or running, store-wide);
- ``quickplay_waiting`` (people in the pools, store-wide) and ``quickplay_wait_seconds``,
  a histogram of the time from a seek to its table;
- ``errors_total{kind=...}``: refusals sent, by their code (HTTP and WebSocket).
"""

from __future__ import annotations

import os
from pathlib import Path

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text format's media type."""
ACK_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
WAIT_BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class Metrics:
    """This process's metrics; ``shared_dir`` turns on the multiprocess mode."""

    def __init__(self, shared_dir: str | None = None) -> None:
        self.shared_dir = shared_dir
        registry: CollectorRegistry | None
        if shared_dir is not None:
            Path(shared_dir).mkdir(parents=True, exist_ok=True)
            os.environ[MULTIPROC_ENV] = shared_dir
            # prometheus-client picks its value class when it is imported; choose again now
            # that the directory is known (the metrics below are made after this).
            values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]
            registry = None
        else:
            registry = self.registry = CollectorRegistry()
        self.live_tables = Gauge(
            "basra_live_tables",
            "Tables held in memory (waiting or in play, with someone connected or a bot to move).",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.open_sockets = Gauge(
            "basra_open_sockets",
            "WebSocket connections open (tables, quick play, bot programs).",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.owned_tables = Gauge(
            "basra_owned_tables",
            "Tables this process drives: their clocks, stand-ins and bots.",
            registry=registry,
            multiprocess_mode="liveall",
        )
        self.bot_decisions = Counter(
            "basra_bot_decisions",
            "Bot moves worked out (bots and stand-ins; each by the table's owner only).",
            registry=registry,
        )
        self.moves = Counter("basra_moves", "Plays stored (people's and bots').", registry=registry)
        self.move_ack = Histogram(
            "basra_move_ack_seconds",
            "A person's move, from its frame read to its acknowledgement queued.",
            registry=registry,
            buckets=ACK_BUCKETS,
        )
        self.bot_jobs_queued = Gauge(
            "basra_bot_jobs_queued",
            "Jobs waiting for a worker process: bots' moves, hints, review decisions.",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.bot_jobs_running = Gauge(
            "basra_bot_jobs_running",
            "Jobs running in worker processes.",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.reviews_unfinished = Gauge(
            "basra_reviews_unfinished",
            "Game reviews queued or being worked out (the whole site: read from the store).",
            registry=registry,
            multiprocess_mode="livemax",
        )
        self.quickplay_waiting = Gauge(
            "basra_quickplay_waiting",
            "People waiting in the quick-play pools (the whole site: read from the store).",
            registry=registry,
            multiprocess_mode="livemax",
        )
        self.quickplay_wait = Histogram(
            "basra_quickplay_wait_seconds",
            "Quick play: from a seek to its table.",
            registry=registry,
            buckets=WAIT_BUCKETS,
        )
        self.errors = Counter(
            "basra_errors",
            "Refusals sent to clients, by code (rate_limited, bad_move, signed_out, ...).",
            ["kind"],
            registry=registry,
        )
        self._moves_seen = 0
        self._decisions_seen = 0

    def error(self, kind: str) -> None:
        """A refusal was sent."""
        self.errors.labels(kind=kind[:40]).inc()

    def moved(self, total: int) -> None:
        """The master's count of plays stored is now ``total``."""
        if total > self._moves_seen:
            self.moves.inc(total - self._moves_seen)
        self._moves_seen = total

    def decided(self, total: int) -> None:
        """The autopilot's count of bot moves worked out is now ``total``."""
        if total > self._decisions_seen:
            self.bot_decisions.inc(total - self._decisions_seen)
        self._decisions_seen = total

    def expose(self) -> bytes:
        """The text of ``/metrics``: this host's processes (multiprocess mode) or this one."""
        if self.shared_dir is None:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=self.shared_dir)  # type: ignore[no-untyped-call]
        return generate_latest(registry)

    def close(self) -> None:
        """This process ends: its live gauges leave the host's totals."""
        if self.shared_dir is not None:
            multiprocess.mark_process_dead(os.getpid(), self.shared_dir)  # type: ignore[no-untyped-call]
