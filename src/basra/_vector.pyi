"""Type stubs of the compiled vector environments (``_vector.pyx``); see :mod:`basra.env.vector`."""

import numpy as np
import numpy.typing as npt

from basra.rules import Rules
from basra.state import GameState

LAYOUT_BLOCKS: tuple[str, ...]

class VecCore:
    num_envs: int
    def __init__(
        self,
        rules: Rules,
        num_envs: int,
        players: int,
        teams: bool,
        *,
        seat: int | None,
        opponents: list[tuple[str, float]],
        episode_round: bool,
        reward: str,
        max_rounds: int,
        illegal_reward: float,
        autoreset: str,
        layout: dict[str, int],
        template: npt.NDArray[np.float32],
        obs: npt.NDArray[np.float32],
        final_obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.uint8],
        rewards: npt.NDArray[np.float64],
        terminations: npt.NDArray[np.uint8],
        truncations: npt.NDArray[np.uint8],
        illegal: npt.NDArray[np.uint8],
        seats: npt.NDArray[np.int64],
    ) -> None: ...
    def seed(self, i: int, seed: int) -> None: ...
    def record(self, i: int) -> tuple[int, list[list[int]], list[tuple[int, int]]]: ...
    def reset(self, which: npt.NDArray[np.uint8]) -> None: ...
    def step(self, actions: npt.NDArray[np.int64]) -> tuple[int, int]: ...
    def sample_actions(self, out: npt.NDArray[np.int64]) -> None: ...
    def is_done(self, i: int) -> bool: ...
    def encode_state(
        self,
        state: GameState,
        seat: int,
        out: npt.NDArray[np.float32],
        mask: npt.NDArray[np.uint8],
    ) -> None: ...
