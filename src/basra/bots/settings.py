"""The knobs of the search: :class:`SearchSettings`, read from bot options by
:func:`parse_settings` (``ismcts:iterations=500,c=0.7``).

Below every engine of the search (:mod:`basra.bots.pure`, the compiled
``basra._search`` through :func:`basra.bots.ismcts.run_problem`) and the
coach, which all take the same settings.
"""

from __future__ import annotations

from basra.bots.base import BotError

__all__ = ["DEFAULT_ITERATIONS", "SearchSettings", "parse_settings"]

DEFAULT_ITERATIONS = 1000


class SearchSettings:
    """The knobs of the search (bot options ``name=value``, comma separated)."""

    __slots__ = (
        "belief",
        "c",
        "depth",
        "eps",
        "exact",
        "flat",
        "floor",
        "forced",
        "horizon",
        "iterations",
        "kernel",
        "model",
        "mu",
        "near",
        "policy",
        "pool",
        "read",
        "reward",
        "samples",
        "seconds",
        "solve",
        "tail",
        "trees",
    )

    def __init__(
        self,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        c: float = 0.7,
        eps: float = 0.1,
        read: float = 0.15,
        pool: int = 200,
        mu: float = 0.5,
        horizon: int = 1,
        tail: int = 0,
        model: int = 0,
        kernel: int = 1,
        solve: int = 0,
        exact: int = 0,
        samples: int = 30,
        policy: int = 1,
        flat: int = 0,
        floor: float = 0.0,
        forced: int = 0,
        trees: int = 1,
        depth: int = 1,
        reward: int = 1,
        belief: float = 0.0,
        near: float = 0.0,
    ) -> None:
        self.iterations = iterations
        """Iterations per decision (``None``: only the time budget counts)."""
        self.seconds = seconds
        """Seconds per decision (``None``: only the iteration budget counts)."""
        self.c = c
        """UCB1 exploration constant (rewards are in [0, 1])."""
        self.eps = eps
        """Share of playout moves made at random."""
        self.read = read
        """How sharply opponents are assumed to pick the moves the playout policy likes
        when their hands are read from their plays (0: no hand reading)."""
        self.pool = pool
        """Deals of the hidden hands weighted once per decision when reading hands."""
        self.mu = mu
        """Weight of the match-win chance in the reward (the rest is the round margin)."""
        self.horizon = horizon
        """Deals to play out before the round is valued by :func:`expected_points`
        (0: play the round to its end)."""
        self.tail = tail
        """Plays made past the horizon's deal before valuing (a look into the next deal)."""
        self.model = model
        """1: the other sides play the playout policy in the tree instead of searching
        (they cannot exploit this seat's hand, which every determinization shares)."""
        self.kernel = kernel
        """1: search in the compiled kernel when it is active; 0: the pure-Python search
        (the same algorithm, slower; its random draws differ)."""
        self.solve = solve
        """1: when no card is hidden (a 2-player last deal), play the exactly solved move
        (compiled search only)."""
        self.exact = exact
        """When at most this many plays remain, solve ``samples`` determinizations exactly
        and play the best move on average (compiled search only; 0: never)."""
        self.samples = samples
        """Determinizations solved exactly when ``exact`` applies."""
        self.policy = policy
        """The playout policy: 1 the quick one (:func:`~basra.sim.policy_value`), 2 the
        one-reply look of ``greedy`` (compiled search only)."""
        self.floor = floor
        """Weight of the floor's value to the next deal's first player in the valuation at
        a deal's end (compiled search only; 0: off)."""
        self.depth = depth
        """Deals the tree covers (1: the rest of this one); later deals are dealt from each
        determinization's stock (compiled search only; ``horizon`` at least as large)."""
        self.trees = trees
        """Independent search trees whose root statistics are added up (compiled search)."""
        self.forced = forced
        """K > 0: value each root move by K searches of ``iterations`` that start with it,
        and play the best mean (the analyser's method; compiled search only)."""
        self.flat = flat
        """N > 0: no tree; each root move is played out to the round's end in N
        determinizations and the best mean margin is played (compiled search only)."""
        self.belief = belief
        """B > 0: deal the hidden cards from the learned belief (:mod:`basra.belief`), each
        card's chance of each place raised to the power B (1: as learned; 0: off, the
        hand reading of ``read`` instead)."""
        self.near = near
        """W > 0: when this round can end the match, the weight of the match's win chance
        in the reward is W instead of ``mu`` (0: off)."""
        self.reward = reward
        """The shape of the round margin's part of the reward
        (:class:`~basra.bots.reward.Reward`): 1 linear and never clipped (the default), 0
        clipped to [0, 1] at the scale (before issue 27; kept for measurements)."""

    def text(self) -> str:
        """The options that give these settings."""
        return ",".join(f"{name}={getattr(self, name)}" for name in self.__slots__)


def parse_settings(options: str) -> SearchSettings:
    """Settings from bot options: ``iterations=500``, ``seconds=0.2``, ``c=0.7`` ...

    ``seconds`` alone means a time budget only; ``iterations`` and ``seconds``
    together stop at whichever comes first.
    """
    settings = SearchSettings()
    if not options:
        return settings
    given: dict[str, str] = {}
    for item in options.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in SearchSettings.__slots__:
            raise BotError(
                f"search options are NAME=NUMBER separated by commas, with names "
                f"{', '.join(SearchSettings.__slots__)}; not {item!r}"
            )
        given[name] = value.strip()
    if "seconds" in given and "iterations" not in given:
        settings.iterations = None
    for name, value in given.items():
        try:
            number = float(value)
        except ValueError:
            raise BotError(f"search option {name} must be a number, not {value!r}") from None
        if number < 0 or (name in ("iterations", "seconds") and number <= 0):
            raise BotError(f"search option {name} must be positive, not {value!r}")
        if name in ("mu", "near") and number > 1:
            raise BotError(f"search option {name} is a weight from 0 to 1, not {value!r}")
        if name == "reward" and number not in (0, 1):
            raise BotError(f"reward is 0 (clipped, as before) or 1 (linear), not {value!r}")
        if name == "policy" and number not in (1, 2):
            raise BotError(f"policy is 1 (the quick one) or 2 (one-reply look), not {value!r}")
        if name in ("depth", "trees") and number < 1:
            raise BotError(f"search option {name} must be at least 1, not {value!r}")
        if name in (
            "iterations",
            "horizon",
            "tail",
            "pool",
            "model",
            "kernel",
            "solve",
            "exact",
            "samples",
            "policy",
            "flat",
            "forced",
            "trees",
            "depth",
            "reward",
        ):
            if number != int(number):
                raise BotError(f"{name} must be a whole number, not {value!r}")
            setattr(settings, name, int(number))
        else:
            setattr(settings, name, number)
    return settings
