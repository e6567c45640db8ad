"""Type stubs of the compiled search (``_search.pyx``); see :mod:`basra.bots.ismcts`."""

from typing import Any

class Search:
    def __init__(
        self,
        kr: Any,
        players: int,
        side_of: tuple[int, ...],
        me: int,
        hands: list[int],
        floor: int,
        unseen: list[int],
        needs: list[int],
        bottom: list[int],
        piles: list[int],
        basras: list[int],
        basra_points: list[int],
        lone_last: int,
        turn: int,
        first: int,
        scores: list[int],
        carry: int,
        decisions: list[tuple[int, int, bool, int, int, int]],
        read: float,
        pool: int,
        seed: int,
    ) -> None: ...
    def weights(self) -> list[float]: ...
    def sample_hands(self) -> tuple[list[int], list[int]]: ...
    def run(
        self,
        iterations: int | None,
        seconds: float | None,
        c: float = ...,
        eps: float = ...,
        mu: float = ...,
        horizon: int = ...,
        tail: int = ...,
        model: int = ...,
        policy: int = ...,
        floor: float = ...,
        forced_card: int = ...,
        forced_take: int = ...,
        depth: int = ...,
        shape: int = ...,
    ) -> tuple[list[tuple[int, int, int, float, float]], int]: ...
    def hidden(self) -> int: ...
    def remaining(self) -> int: ...
    def exact(
        self,
        samples: int,
        mu: float = ...,
        node_limit: int = ...,
        margins: bool = ...,
        shape: int = ...,
    ) -> tuple[list[tuple[int, int, int, float]], int] | None: ...
    def evaluate(
        self, samples: int, eps: float = ..., policy: int = ..., seconds: float | None = ...
    ) -> tuple[list[tuple[int, int]], list[float], list[float], list[float], int]: ...
