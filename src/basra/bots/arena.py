"""Measuring bots honestly: paired deals, confidence intervals, ratings.

``basra arena`` (:mod:`basra.cli.arena`) runs :func:`run_arena`. Every deal is
played once per rotation of the bots around the table (two bots: once each
way round), from the same shuffled pack, so the luck of the cards cancels out
of the comparison; all of a deal's rotations form one sample, and confidence
intervals are taken over deals (a paired, clustered design).

- Points per round: the mean over a bot's deals of its points per round, with
  a 95% Student-t interval over deals.
- Win rates (rounds, and matches with ``matches=True``): the same over deals,
  a tie at the top counting as a share; when every deal gives the same value
  (no spread to estimate from), the Wilson score interval of the raw count.
- ``margin`` (two bots, or one bot against copies of another at 3 or 4 sides):
  the first bot's points per round minus the second's (or the others' mean),
  paired by deal.
- Ratings: a Bradley-Terry fit (Elo scale, standard library) and, when the
  ``arena`` extra is installed, openskill's Plackett-Luce model.

The deals run in this process, in ``jobs`` processes, or on a Ray cluster
(``ray``: an address, or ``local``; the ``ray`` extra). Every deal is seeded
from the run's seed alone, so the results are the same wherever it ran; only
the timings differ. Ray is imported only for a run that asks for it; the connection
to it is :mod:`basra.spread`'s, shared with ``basra puzzles make`` and ``basra review``.

The statistics functions are public and tested on known inputs.
"""

from __future__ import annotations

import math
import os
import random
import socket
import statistics
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TypeVar

from basra.bots.base import Bot, BotError, make_bot
from basra.bots.runner import play_round
from basra.rules import Rules
from basra.spread import LOCAL_RAY, ClusterError
from basra.spread import connect_ray as _connect
from basra.spread import first_line as _first_line
from basra.state import GameState, shuffled_pack

__all__ = [
    "LOCAL_RAY",
    "ArenaConfig",
    "ClusterError",
    "GameResult",
    "Interval",
    "bradley_terry",
    "mean_interval",
    "rate_interval",
    "run_arena",
    "summarize",
    "t_quantile",
    "tables_for",
    "wilson",
]


# --------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Interval:
    """A mean and its confidence interval."""

    mean: float
    low: float
    high: float

    def to_json(self, digits: int = 4) -> dict[str, float | None]:
        """``{"mean", "low", "high"}`` rounded for results.json.

        A bound that does not exist (an interval from a single deal is
        unbounded) is ``null``: JSON has no infinity.

        >>> mean_interval([3.0]).to_json()
        {'mean': 3.0, 'low': None, 'high': None}
        """
        return {
            "mean": _finite(self.mean, digits),
            "low": _finite(self.low, digits),
            "high": _finite(self.high, digits),
        }

    def text(self, digits: int = 2) -> str:
        """``+4.21 [3.10, 5.32]``."""
        return f"{self.mean:+.{digits}f} [{self.low:+.{digits}f}, {self.high:+.{digits}f}]"


def _finite(value: float, digits: int) -> float | None:
    return round(value, digits) if math.isfinite(value) else None


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom.

    Exact for 1 and 2 degrees of freedom, a Cornish-Fisher expansion (error
    below 0.002 at the 97.5% point) from 3 on.

    >>> round(t_quantile(0.975, 10), 3)
    2.228
    """
    if not 0.0 < p < 1.0 or df < 1:
        raise ValueError("p must be in (0, 1) and df at least 1")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = statistics.NormalDist().inv_cdf(p)
    v = float(df)
    z3, z5, z7, z9 = z**3, z**5, z**7, z**9
    return (
        z
        + (z3 + z) / (4 * v)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * v**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v**3)
        + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v**4)
    )


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """The mean of ``values`` with a Student-t confidence interval.

    >>> mean_interval([1.0, 2.0, 3.0]).text()
    '+2.00 [-0.48, +4.48]'
    """
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, -math.inf, math.inf)
    half = t_quantile(0.5 + confidence / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def wilson(successes: float, trials: int, confidence: float = 0.95) -> Interval:
    """A proportion with its Wilson score interval.

    >>> wilson(0, 10).text(3)
    '+0.000 [+0.000, +0.278]'
    """
    if trials <= 0:
        return Interval(math.nan, math.nan, math.nan)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    denominator = 1 + z * z / trials
    center = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, center - half), min(1.0, center + half))


def rate_interval(
    per_deal: Sequence[float], games_per_deal: int = 1, confidence: float = 0.95
) -> Interval:
    """A win rate from per-deal rates: Student-t over deals, clipped to [0, 1].

    When every deal gives the same rate the t interval is empty, so the Wilson
    interval of all games pooled is used instead.

    >>> rate_interval([1.0, 1.0, 1.0, 1.0], games_per_deal=2).text(3)
    '+1.000 [+0.676, +1.000]'
    """
    if not per_deal:
        return Interval(math.nan, math.nan, math.nan)
    if len(per_deal) == 1 or len(set(per_deal)) == 1:
        games = len(per_deal) * games_per_deal
        return wilson(math.fsum(per_deal) * games_per_deal, games, confidence)
    interval = mean_interval(per_deal, confidence)
    return Interval(interval.mean, max(0.0, interval.low), min(1.0, interval.high))


def bradley_terry(
    wins: dict[tuple[int, int], float], players: int, iterations: int = 200
) -> list[float]:
    """Bradley-Terry strengths on the Elo scale (mean 0) from pairwise wins.

    ``wins[i, j]`` is how many games ``i`` won against ``j`` (ties as halves).
    Fitted by the MM algorithm (Hunter 2004), with half a win added each way
    to every pair that met so that unbeaten players stay finite.

    >>> [round(r) for r in bradley_terry({(0, 1): 3.0, (1, 0): 1.0}, 2)]
    [74, -74]
    """
    w = [[0.0] * players for _ in range(players)]
    for (i, j), count in wins.items():
        w[i][j] += count
    for i in range(players):
        for j in range(players):
            if i != j and (w[i][j] or w[j][i]):
                w[i][j] += 0.5
    strength = [1.0] * players
    for _ in range(iterations):
        new = []
        for i in range(players):
            total_wins = sum(w[i])
            denominator = sum(
                (w[i][j] + w[j][i]) / (strength[i] + strength[j])
                for j in range(players)
                if j != i and (w[i][j] or w[j][i])
            )
            new.append(total_wins / denominator if denominator else strength[i])
        mean_log = sum(math.log(s) for s in new if s > 0) / players
        strength = [s / math.exp(mean_log) for s in new]
    return [400.0 * math.log10(s) for s in strength]


# --------------------------------------------------------------- the games


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: see ``basra arena --help``."""

    variant: str
    rules: Rules
    players: int
    teams: bool
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    matches: bool = False
    jobs: int = 1
    """Processes on this machine (without ``ray``)."""
    ray: str | None = None
    """Run the deals on Ray: a cluster's address as ``ray.init`` takes it
    (``HOST:PORT``, ``ray://HOST:PORT``, ``auto``), or ``local`` (:data:`LOCAL_RAY`)
    to start a Ray instance on this machine for the run. ``jobs`` is then unused."""

    @property
    def sides(self) -> int:
        """Sides at the table: the players, or 2 with teams."""
        return 2 if self.teams else self.players


@dataclass
class GameResult:
    """One round (or match) of one deal in one rotation."""

    table: int
    deal: int
    rotation: int
    side_bots: tuple[int, ...]
    """The index in ``bots`` of the bot playing each side."""
    points: tuple[int, ...]
    """Points each side scored (over the whole match with ``matches``)."""
    rounds: int
    wins: tuple[float, ...]
    """Each side's share of the win: 1 to the winner, split on a tie."""
    round_wins: tuple[float, ...] = ()
    """Each side's round wins (shares, as ``wins``), summed over the rounds played."""
    times: dict[int, list[float]] = field(default_factory=dict)
    """Seconds per decision by bot index: decisions with more than one legal move."""
    forced: dict[int, int] = field(default_factory=dict)
    """Decisions with a single legal move, by bot index."""


def tables_for(bots: int, sides: int) -> list[tuple[int, ...]]:
    """The bot lineups (one bot index per side) of a run.

    As many bots as sides: one table. More: every combination (a round robin).
    Fewer, when they divide the sides: each bot repeated around the table.

    >>> tables_for(2, 2), tables_for(3, 2), tables_for(2, 4)
    ([(0, 1)], [(0, 1), (0, 2), (1, 2)], [(0, 1, 0, 1)])
    """
    if bots == sides:
        return [tuple(range(bots))]
    if bots > sides:
        return list(combinations(range(bots), sides))
    if bots >= 1 and sides % bots == 0:
        return [tuple(i % bots for i in range(sides))]
    raise ValueError(f"{bots} bots cannot share {sides} sides evenly")


def _shares(values: Sequence[float]) -> tuple[float, ...]:
    top = max(values)
    leaders = [i for i, v in enumerate(values) if v == top]
    return tuple(1.0 / len(leaders) if i in leaders else 0.0 for i in range(len(values)))


def play_deal(config: ArenaConfig, table_index: int, deal: int) -> list[GameResult]:
    """Play one deal of one table in every rotation (the unit of work of a job)."""
    lineup = tables_for(len(config.bots), config.sides)[table_index]
    k = config.sides
    deal_rng = random.Random(f"basra-arena/{config.seed}/{deal}")
    first_dealer = deal_rng.randrange(config.players)
    pack_seed = deal_rng.getrandbits(64)
    results = []
    for rotation in range(k):
        side_bots = tuple(lineup[(side + rotation) % k] for side in range(k))
        state = GameState(
            config.variant,
            config.players,
            teams=config.teams,
            first_dealer=first_dealer,
            rules=config.rules,
        )
        bot_rng = random.Random(f"basra-arena/{config.seed}/{table_index}/{deal}/{rotation}")
        bots: list[Bot] = []
        try:
            for seat in range(config.players):
                index = side_bots[state.side_of[seat]]
                bots.append(make_bot(config.bots[index], seed=bot_rng.getrandbits(63)))
            result = _play(config, state, bots, side_bots, pack_seed)
        except BotError as exc:
            raise BotError(
                f"deal {deal + 1}, rotation {rotation + 1}, table "
                f"{' v '.join(config.bots[i] for i in side_bots)}: {exc}"
            ) from None
        finally:
            for bot in bots:
                bot.close()
        result.table, result.deal, result.rotation = table_index, deal, rotation
        results.append(result)
    return results


def _play(
    config: ArenaConfig,
    state: GameState,
    bots: list[Bot],
    side_bots: tuple[int, ...],
    pack_seed: int,
) -> GameResult:
    times: dict[int, list[float]] = {}
    forced: dict[int, int] = {}

    def clock(seat: int, seconds: float, choices: int) -> None:
        index = side_bots[state.side_of[seat]]
        if choices > 1:
            times.setdefault(index, []).append(seconds)
        else:
            forced[index] = forced.get(index, 0) + 1

    rules = config.rules
    rounds = 0
    round_wins = [0.0] * config.sides
    unused = random.Random(0)  # every pack is dealt here, so play_round never shuffles
    while True:
        pack = shuffled_pack(rules, random.Random(f"{pack_seed}/{rounds}"))
        state.deal(pack)
        play_round(state, bots, unused, clock=clock)
        rounds += 1
        played = state.rounds[-1].result
        assert played is not None
        for side, share in enumerate(_shares(played.points)):
            round_wins[side] += share
        if not config.matches or state.is_over:
            break
        if rounds >= 1000:
            raise RuntimeError("a match did not end in 1000 rounds")
    if config.matches:
        points = tuple(state.scores)
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            wins = _shares(points)
        else:
            wins = tuple(1.0 if side == outcome.winner else 0.0 for side in range(config.sides))
    else:
        result = state.rounds[-1].result
        assert result is not None
        points = result.points
        wins = _shares(points)
    return GameResult(-1, -1, -1, side_bots, points, rounds, wins, tuple(round_wins), times, forced)


# ------------------------------------------------------------------ a run

Progress = Callable[[int, int], None]
"""Called with (deals done, deals in all) as the run goes."""

Unit = tuple[int, int]
"""A table index and a deal: what :func:`play_deal` plays."""

Handle = TypeVar("Handle", bound=Hashable)


def run_arena(
    config: ArenaConfig, progress: Progress | None = None
) -> tuple[list[GameResult], float]:
    """Play every deal of every table; returns the games (in a fixed order) and seconds.

    With ``jobs`` > 1 the deals are spread over processes, with ``ray`` over a
    Ray cluster; the results depend on neither. Raises :class:`BotError` when
    a bot fails and :class:`ClusterError` when Ray is missing or its cluster
    cannot be reached.
    """
    tables = tables_for(len(config.bots), config.sides)
    units = [(t, d) for d in range(config.deals) for t in range(len(tables))]
    started = time.perf_counter()
    results: list[GameResult] = []
    if progress is not None and config.ray is None:
        progress(0, len(units))
    if config.ray is not None:
        results = _run_on_ray(config, config.ray, units, progress)
    elif config.jobs <= 1:
        for done, (t, d) in enumerate(units, 1):
            results.extend(play_deal(config, t, d))
            if progress is not None:
                progress(done, len(units))
    else:
        with ProcessPoolExecutor(max_workers=config.jobs) as pool:

            def submit(chunk: list[Unit]) -> Future[list[GameResult]]:
                return pool.submit(play_deals, config, chunk)

            def finished(
                pending: list[Future[list[GameResult]]],
            ) -> Iterable[Future[list[GameResult]]]:
                return wait(pending, return_when=FIRST_COMPLETED).done

            results = _spread(
                [[unit] for unit in units],
                4 * config.jobs,
                submit,
                finished,
                lambda future: future.result(),
                lambda future: future.cancel(),
                progress,
            )
    results.sort(key=lambda r: (r.deal, r.table, r.rotation))
    return results, time.perf_counter() - started


def play_deals(
    config: ArenaConfig, units: Sequence[Unit], cwd: str | None = None
) -> list[GameResult]:
    """Play some deals (see :func:`play_deal`): the work of one process job or Ray task.

    ``cwd``: the directory to play from (where ``cmd:`` bots start), when the
    worker may be elsewhere.
    """
    previous = None
    if cwd is not None and cwd != os.getcwd():
        previous = os.getcwd()
        try:
            os.chdir(cwd)
        except OSError as exc:
            raise BotError(
                f"cmd: bots start in the arena's directory {cwd}, which the worker on "
                f"{socket.gethostname()} cannot enter: {exc.strerror or exc}"
            ) from None
    try:
        results: list[GameResult] = []
        for table, deal in units:
            results.extend(play_deal(config, table, deal))
        return results
    finally:
        if previous is not None:
            os.chdir(previous)


def _spread(
    chunks: Sequence[list[Unit]],
    window: int,
    submit: Callable[[list[Unit]], Handle],
    finished: Callable[[list[Handle]], Iterable[Handle]],
    fetch: Callable[[Handle], list[GameResult]],
    cancel: Callable[[Handle], object],
    progress: Progress | None,
) -> list[GameResult]:
    """Run chunks of deals as jobs, at most ``window`` at a time, reporting progress.

    The executor is given as functions: ``submit`` starts a job, ``finished``
    waits until at least one of the given jobs is done and returns those,
    ``fetch`` returns a done job's games (raising its error), ``cancel`` stops a
    job that is no longer wanted.
    """
    total = sum(len(chunk) for chunk in chunks)
    queue = iter(chunks)
    pending: dict[Handle, int] = {}
    results: list[GameResult] = []
    done = 0
    try:
        while True:
            while len(pending) < window:
                chunk = next(queue, None)
                if chunk is None:
                    break
                pending[submit(chunk)] = len(chunk)
            if not pending:
                return results
            for handle in finished(list(pending)):
                size = pending.pop(handle)  # done, failed or not: nothing to cancel
                results.extend(fetch(handle))
                done += size
                if progress is not None:
                    progress(done, total)
    except BaseException:
        for handle in pending:
            cancel(handle)
        raise


# ------------------------------------------------------------ on a Ray cluster


def _run_on_ray(
    config: ArenaConfig, address: str, units: list[Unit], progress: Progress | None
) -> list[GameResult]:
    """Play the deals as Ray tasks (see :attr:`ArenaConfig.ray`).

    When this process is already connected to Ray (``ray.is_initialized()``)
    that connection is used and left open; otherwise the run connects to
    ``address`` (or starts a local instance) and disconnects at the end. When
    it connects to a cluster by address it sends this basra along with the job
    (Ray's ``py_modules``), so the nodes run the same code as this machine
    whatever they have installed. The ``BASRA_*`` environment variables (the
    external bots' time limits) go to the workers, and ``cmd:`` bots start on
    the workers from this process's directory, which must exist there.
    """
    ray, connected = _connect(address)
    from ray.exceptions import RayError, RayTaskError

    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        # Chunks of up to 16 deals keep the per-task overhead small for fast
        # bots while leaving at least four tasks a CPU to balance the load.
        size = max(1, min(16, len(units) // (4 * cpus)))
        chunks = [units[i : i + size] for i in range(0, len(units), size)]
        options: dict[str, Any] = {"num_cpus": 1}
        env_vars = {k: v for k, v in os.environ.items() if k.startswith("BASRA_")}
        if env_vars:
            options["runtime_env"] = {"env_vars": env_vars}
        task = ray.remote(play_deals).options(**options)
        shared = ray.put(config)
        cwd = os.getcwd() if any(spec.startswith("cmd:") for spec in config.bots) else None
        if progress is not None:
            progress(0, len(units))  # once connected: the wait for Ray is not a deal's

        def fetch(ref: Any) -> list[GameResult]:
            try:
                games: list[GameResult] = ray.get(ref)
            except RayTaskError as exc:
                if isinstance(exc.cause, BotError):
                    raise BotError(str(exc.cause)) from None
                raise
            except RayError as exc:
                raise ClusterError(f"the Ray cluster failed: {_first_line(exc)}") from None
            return games

        return _spread(
            chunks,
            2 * cpus,
            lambda chunk: task.remote(shared, chunk, cwd),
            lambda refs: ray.wait(refs, num_returns=1)[0],
            fetch,
            ray.cancel,
            progress,
        )
    finally:
        if connected:
            ray.shutdown()


def _bot_labels(bots: Sequence[str]) -> list[str]:
    """Unique names for results: a repeated spec gets ``#2``, ``#3`` ..."""
    labels: list[str] = []
    for spec in bots:
        label = spec
        count = 2
        while label in labels:
            label = f"{spec}#{count}"
            count += 1
        labels.append(label)
    return labels


def _openskill(config: ArenaConfig, games: Sequence[GameResult]) -> list[dict[str, float]] | None:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(len(config.bots))]
    for game in games:
        teams = [[ratings[index]] for index in game.side_bots]
        if len(set(game.side_bots)) != len(game.side_bots):
            continue  # a bot against itself teaches nothing
        scores = [float(p) for p in game.points]
        if config.matches:
            scores = list(game.wins)
        new = model.rate(teams, scores=scores)
        for index, team in zip(game.side_bots, new, strict=True):
            ratings[index] = team[0]
    return [
        {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)}
        for r in ratings
    ]


def summarize(config: ArenaConfig, games: Sequence[GameResult], seconds: float) -> dict[str, Any]:
    """The results.json document of a run (see docs/BOTS.md for every field)."""
    labels = _bot_labels(config.bots)
    n_bots = len(config.bots)
    tables = tables_for(n_bots, config.sides)
    # Per bot and deal (all tables and rotations of the deal): points per round and wins.
    points: list[dict[int, list[float]]] = [{} for _ in range(n_bots)]
    round_wins: list[dict[int, list[float]]] = [{} for _ in range(n_bots)]
    match_wins: list[dict[int, list[float]]] = [{} for _ in range(n_bots)]
    rounds = [0] * n_bots
    pairwise: dict[tuple[int, int], float] = {}
    times: list[list[float]] = [[] for _ in range(n_bots)]
    forced = [0] * n_bots
    for game in games:
        for side, index in enumerate(game.side_bots):
            points[index].setdefault(game.deal, []).append(game.points[side] / game.rounds)
            # Rounds won over rounds played (a match's rounds are the games then).
            won = game.round_wins[side] if game.round_wins else game.wins[side]
            round_wins[index].setdefault(game.deal, []).append(won / game.rounds)
            match_wins[index].setdefault(game.deal, []).append(game.wins[side])
            rounds[index] += game.rounds
        for a, b in combinations(range(len(game.side_bots)), 2):
            i, j = game.side_bots[a], game.side_bots[b]
            if i == j:
                continue
            wa, wb = game.wins[a], game.wins[b]
            share = 0.5 if wa == wb else (1.0 if wa > wb else 0.0)
            pairwise[i, j] = pairwise.get((i, j), 0.0) + share
            pairwise[j, i] = pairwise.get((j, i), 0.0) + 1.0 - share
        for index, values in game.times.items():
            times[index].extend(values)
        for index, count in game.forced.items():
            forced[index] += count
    elo = bradley_terry(pairwise, n_bots) if n_bots > 1 else [0.0]
    skill = _openskill(config, games)
    rotations = config.sides
    bots_out: dict[str, Any] = {}
    for index, label in enumerate(labels):
        per_deal_points = [statistics.fmean(v) for _, v in sorted(points[index].items())]
        per_deal_wins = [statistics.fmean(v) for _, v in sorted(round_wins[index].items())]
        per_deal_matches = [statistics.fmean(v) for _, v in sorted(match_wins[index].items())]
        n_matches = sum(len(v) for v in match_wins[index].values())
        deals = max(1, len(per_deal_points))
        entry: dict[str, Any] = {
            "spec": config.bots[index],
            "deals": len(per_deal_points),
            "rounds": rounds[index],
            "points_per_round": mean_interval(per_deal_points).to_json(),
            "round_win_rate": rate_interval(
                per_deal_wins, max(1, round(rounds[index] / deals))
            ).to_json(),
        }
        if config.matches:
            entry["matches"] = n_matches
            entry["match_win_rate"] = rate_interval(
                per_deal_matches, max(1, round(n_matches / deals))
            ).to_json()
        entry["elo"] = round(elo[index], 1)
        if skill is not None:
            entry["rating"] = skill[index]
        decisions = sorted(times[index])
        entry["decision_seconds"] = _time_summary(decisions, forced[index])
        bots_out[label] = entry
    out: dict[str, Any] = {
        "variant": config.variant,
        "rules": config.rules.to_dict(),
        "players": config.players,
        "teams": config.teams,
        "seed": config.seed,
        "deals": config.deals,
        "matches": config.matches,
        "rotations": rotations,
        "tables": [[labels[i] for i in table] for table in tables],
        "bots": bots_out,
    }
    if n_bots == 2 and labels[0] != labels[1]:
        out["margin"] = _margin(games, 0, 1, labels)
    elif n_bots > 2 and len(set(config.bots[1:])) == 1 and config.bots[0] != config.bots[1]:
        out["margin"] = _field_margin(games, labels)
    elif n_bots > 2 and config.sides == 2:
        out["pairs"] = [_margin(games, i, j, labels) for i, j in combinations(range(n_bots), 2)]
    out["seconds"] = round(seconds, 2)
    return out


def _margin(games: Sequence[GameResult], i: int, j: int, labels: list[str]) -> dict[str, Any]:
    """Bot ``i``'s points per round minus bot ``j``'s, paired by deal."""
    per_deal: dict[int, list[float]] = {}
    for game in games:
        if i in game.side_bots and j in game.side_bots:
            a = game.points[game.side_bots.index(i)] / game.rounds
            b = game.points[game.side_bots.index(j)] / game.rounds
            per_deal.setdefault(game.deal, []).append(a - b)
    values = [statistics.fmean(v) for _, v in sorted(per_deal.items())]
    return {
        "first": labels[i],
        "second": labels[j],
        "deals": len(values),
        **mean_interval(values).to_json(),
    }


def _field_margin(games: Sequence[GameResult], labels: list[str]) -> dict[str, Any]:
    """Bot 0's points per round minus the mean of the other sides' (copies of one bot),
    paired by deal: one bot against a field of the same other bot (3 or 4 players)."""
    per_deal: dict[int, list[float]] = {}
    for game in games:
        if 0 not in game.side_bots:
            continue
        mine = game.side_bots.index(0)
        others = [p for side, p in enumerate(game.points) if side != mine]
        value = (game.points[mine] - statistics.fmean(others)) / game.rounds
        per_deal.setdefault(game.deal, []).append(value)
    values = [statistics.fmean(v) for _, v in sorted(per_deal.items())]
    return {
        "first": labels[0],
        "second": labels[1].split("#")[0],
        "field": len(labels) - 1,
        "deals": len(values),
        **mean_interval(values).to_json(),
    }


def _time_summary(decisions: list[float], forced: int) -> dict[str, float | int]:
    if not decisions:
        return {"decisions": 0, "forced": forced}
    every = sorted(decisions + [0.0] * forced)
    return {
        "decisions": len(decisions),
        "forced": forced,
        "median": round(statistics.median(decisions), 7),
        "mean": round(statistics.fmean(decisions), 7),
        "p90": round(decisions[min(len(decisions) - 1, int(0.9 * len(decisions)))], 7),
        "max": round(decisions[-1], 7),
        "median_all": round(statistics.median(every), 7),
    }
