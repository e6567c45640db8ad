"""Big offline jobs spread over processes on this machine or over a Ray cluster.

``basra arena`` (:mod:`basra.bots.arena`), ``basra puzzles make`` and ``basra
review`` over many games are each a list of independent pieces of work (a
deal, a game) whose results depend on the piece and the run's settings alone:
every piece is seeded from the run's seed and its own content, never from the
process or the order it ran in. So the pieces may run anywhere and the run's
output is the same however the work was split; only the timings differ.

:func:`spread` runs ``work(shared, item)`` for every item in this process, in
``jobs`` processes (:class:`~concurrent.futures.ProcessPoolExecutor`), or as Ray
tasks on a cluster (``ray``: an address as ``ray.init`` takes it, or ``local``
to start Ray on this machine for the run; the ``ray`` extra), at most a few
pieces a worker in flight at once, and yields the results **in input order** as
soon as each one's turn comes (so output streams, and a failure surfaces at its
item's turn, after the results before it). An error a piece raises is raised
here as it was raised there.

The connection to Ray (:func:`connect_ray`) is the arena's: a cluster reached by
address runs this machine's basra (Ray's ``py_modules``), an address nothing
answers at fails in seconds rather than Ray's two minutes, and every trouble is
one :class:`ClusterError` that says what to do. Ray is imported only for a run
that asks for it.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

__all__ = [
    "LOCAL_RAY",
    "ClusterError",
    "connect_ray",
    "first_line",
    "spread",
]

S = TypeVar("S")
I = TypeVar("I")  # noqa: E741
R = TypeVar("R")

LOCAL_RAY = "local"
"""The ``ray`` address that starts a Ray instance on this machine for the run."""


class ClusterError(RuntimeError):
    """Ray is not installed, its cluster cannot be reached, or the cluster failed."""


Progress = Callable[[int, int], None]
"""Called with (pieces done, pieces in all)."""


def spread(
    work: Callable[[S, I], R],
    shared: S,
    items: Sequence[I],
    *,
    jobs: int = 1,
    ray: str | None = None,
    progress: Progress | None = None,
    env_prefix: str = "BASRA_",
) -> Iterator[R]:
    """``work(shared, item)`` for each item, yielded in input order (see the module
    docstring). ``work`` must be a module-level function and ``shared`` and the items
    picklable when ``jobs`` > 1 or ``ray`` is given; ``jobs`` is unused with ``ray``.
    Environment variables starting with ``env_prefix`` go to Ray's workers."""
    if jobs < 1:
        raise ValueError("jobs must be 1 or more")
    if ray is not None:
        yield from _on_ray(work, shared, items, ray, progress, env_prefix)
        return
    total = len(items)
    if progress is not None:
        progress(0, total)
    if jobs == 1 or total <= 1:
        for done, item in enumerate(items, 1):
            yield work(shared, item)
            if progress is not None:
                progress(done, total)
        return
    with ProcessPoolExecutor(max_workers=min(jobs, total)) as pool:

        def finished(pending: list[Future[R]]) -> list[Future[R]]:
            return list(wait(pending, return_when=FIRST_COMPLETED).done)

        yield from _in_order(
            items,
            4 * jobs,
            lambda item: pool.submit(work, shared, item),
            finished,
            lambda future: future.result(),
            lambda future: future.cancel(),
            progress,
        )


H = TypeVar("H")


def _in_order(
    items: Sequence[I],
    window: int,
    submit: Callable[[I], H],
    finished: Callable[[list[H]], list[H]],
    fetch: Callable[[H], R],
    cancel: Callable[[H], object],
    progress: Progress | None,
) -> Iterator[R]:
    """Run the items as jobs, at most ``window`` in flight, and yield their results in
    input order; cancel what is in flight when the caller stops early or a job fails."""
    total = len(items)
    queue = iter(enumerate(items))
    pending: dict[H, int] = {}
    ready: dict[int, R] = {}
    failed: dict[int, Exception] = {}
    turn = 0
    done = 0
    try:
        while turn < total:
            while len(pending) < window:
                nxt = next(queue, None)
                if nxt is None:
                    break
                index, item = nxt
                pending[submit(item)] = index
            for handle in finished(list(pending)):
                index = pending.pop(handle)
                try:
                    ready[index] = fetch(handle)
                except Exception as exc:  # raised at its turn, after the results before it
                    failed[index] = exc
                done += 1
                if progress is not None:
                    progress(done, total)
            while turn in ready or turn in failed:
                if turn in failed:
                    raise failed[turn]
                turn += 1
                yield ready.pop(turn - 1)
    finally:
        for handle in pending:
            cancel(handle)


def _on_ray(
    work: Callable[[S, I], R],
    shared: S,
    items: Sequence[I],
    address: str,
    progress: Progress | None,
    env_prefix: str,
) -> Iterator[R]:
    """The items as Ray tasks (one a piece, two a CPU in flight)."""
    ray, connected = connect_ray(address)
    from ray.exceptions import RayError, RayTaskError

    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        options: dict[str, Any] = {"num_cpus": 1}
        env_vars = {k: v for k, v in os.environ.items() if k.startswith(env_prefix)}
        if env_vars:
            options["runtime_env"] = {"env_vars": env_vars}
        task = ray.remote(work).options(**options)
        put = ray.put(shared)
        if progress is not None:
            progress(0, len(items))  # once connected: the wait for Ray is not a piece's

        def fetch(ref: Any) -> R:
            try:
                result: R = ray.get(ref)
            except RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None
                raise ClusterError(f"the Ray cluster failed: {first_line(exc)}") from None
            except RayError as exc:
                raise ClusterError(f"the Ray cluster failed: {first_line(exc)}") from None
            return result

        yield from _in_order(
            items,
            2 * cpus,
            lambda item: task.remote(put, item),
            lambda refs: list(ray.wait(refs, num_returns=1)[0]),
            fetch,
            ray.cancel,
            progress,
        )
    finally:
        if connected:
            ray.shutdown()


def connect_ray(address: str) -> tuple[Any, bool]:
    """Ray, connected to ``address`` unless already connected; and whether this call connected."""
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "Ray is not installed: pip install 'basra[ray]' (the ray extra)"
        ) from None
    if ray.is_initialized():
        return ray, False
    _check_reachable(address)
    options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address == LOCAL_RAY:
        options["include_dashboard"] = False
    else:
        # The cluster's nodes run this basra, whatever they have installed.
        import basra

        options["runtime_env"] = {
            "py_modules": [os.path.dirname(basra.__file__)],
            "excludes": ["__pycache__"],
        }
    try:
        ray.init(address=address, **options)
    except (Exception, SystemExit) as exc:  # Ray exits the process on some failures
        if address == "auto" and isinstance(exc, ConnectionError):
            reason = "no Ray cluster runs on this machine (start one with `ray start --head`)"
        elif isinstance(exc, ValueError):
            reason = f"{first_line(exc)} (give HOST:PORT, ray://HOST:PORT, auto or local)"
        else:
            reason = first_line(exc)
            if os.environ.get("RAY_AUTH_MODE") != "token":
                reason += (
                    "; a cluster with token authentication also needs RAY_AUTH_MODE=token "
                    "and its token (RAY_AUTH_TOKEN, or the file ~/.ray/auth_token) here"
                )
        raise ClusterError(f"cannot connect to Ray at {address}: {reason}") from None
    return ray, True


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast when nothing answers at ``HOST:PORT`` (Ray itself waits two minutes)."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return  # local, auto, or an address Ray will explain the trouble with
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ClusterError(f"cannot reach a Ray cluster at {address}: {reason}") from None


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (or its type's name)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
