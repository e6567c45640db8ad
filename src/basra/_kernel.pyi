"""Type stubs of the compiled kernel (``_kernel.pyx``); see :mod:`basra.kernel`."""

from collections.abc import Iterable

from basra import transition
from basra.cards import Card
from basra.moves import Move
from basra.rules import Rules

class KRules:
    rules: Rules
    big: bool

def krules(rules: Rules) -> KRules: ...
def generate_moves(rules: Rules, cards: Iterable[Card], floor: int) -> list[Move]: ...
def capture_options(rules: Rules, card: Card, floor: int) -> tuple[int, ...]: ...
def play_basra(
    rules: Rules, card: Card, take: int, floor: int, *, lone_trail: bool, last_play: bool
) -> int: ...

class Round(transition.Round): ...
