"""The ``heuristic`` bot: the Strategy section of the Bastra seed, as weighted terms.

Every legal move gets a value in points, the sum of terms a player weighs
(``seeds/003``, Strategy; the weights are :class:`Weights`, documented in
``docs/BOTS.md`` and tuned with ``basra arena``):

- **now**: basra points, point cards and the cards themselves, a card being
  worth its share of the majority bonus (the chance of winning the majority,
  from the piles and the cards still to come, before and after the move; an
  abeyance carry makes it bigger);
- **reply**: what the next player can expect to take from the floor we leave,
  given the cards we have not seen (remembering played cards), their chance of
  holding each, and the best capture each makes: a lone card they may match, a
  small floor a 7♦ or a sum clears, a 10 the 10♦ takes. This is "never leave a
  lone card the opponent can likely match", "drop Q/K to avoid setting up a
  basra", "watch for 10♦ and 2♣ setups" and "trail where the opponent's likely
  captures are worth least" in one term;
- **follow-up**: what we could take from that floor on our next turn, if it
  survives ("throw the other 10 and collect it with the 10♦ later");
- **hold**: jacks (and a sweeping 7♦) are worth keeping: playing one costs
  ``jack_hold``, half of it when we hold two, and less and less as the last deal
  ends so the jack is not lost;
- **low first**: among trails, lower numerals go first (they combine later),
  and point cards are kept back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

from basra.bots.base import Bot, BotError, register_bot
from basra.cards import cards_of
from basra.kernel import generate_moves
from basra.moves import Move
from basra.scoring import pile_points
from basra.transition import lone_after, play_basra
from basra.view import View

__all__ = [
    "HeuristicBot",
    "MoveValue",
    "Weights",
    "evaluate_moves",
    "majority_chance",
    "parse_weights",
]


@dataclass(frozen=True)
class Weights:
    """How much each term of a move's value counts (see the module docstring)."""

    basra: float = 1.0
    """Multiplies basra points taken now."""
    points: float = 1.0
    """Multiplies point-card points taken now."""
    cards: float = 1.0
    """Multiplies the change in the expected majority bonus."""
    reply: float = 0.9
    """Multiplies the next player's expected best take from the floor we leave."""
    follow: float = 0.25
    """Multiplies our own best take from that floor on our next turn."""
    jack_hold: float = 4.0
    """Points a jack (or sweeping 7♦) is worth kept in hand for later."""
    low_first: float = 0.5
    """Preference, in points, for trailing an ace rather than a 10 (linear between)."""


DEFAULT_WEIGHTS = Weights()


def parse_weights(options: str, base: Weights = DEFAULT_WEIGHTS) -> Weights:
    """Weights from bot options ``reply=0.8,jack_hold=3`` (see :class:`Weights`)."""
    if not options:
        return base
    names = {f.name for f in fields(Weights)}
    changes: dict[str, float] = {}
    for item in options.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in names:
            raise BotError(
                f"heuristic options are NAME=NUMBER separated by commas, with names "
                f"{', '.join(sorted(names))}; not {item!r}"
            )
        try:
            changes[name] = float(value)
        except ValueError:
            raise BotError(f"heuristic option {name} must be a number, not {value!r}") from None
    return replace(base, **changes)


def majority_chance(lead: float, remaining: int) -> float:
    """The chance of ending a round with strictly the most cards.

    ``lead`` is our pile minus the largest other pile, ``remaining`` the cards
    not yet in any pile. The final lead spreads around the current one with a
    standard deviation of about 1.8 * sqrt(remaining + 4) cards (measured over
    greedy self-play, Egyptian rules); a tie counts half.
    """
    spread = 1.8 * math.sqrt(remaining + 4)
    return 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2.0))))


@dataclass(frozen=True)
class MoveValue:
    """A move's value and its terms, in points (see the module docstring)."""

    move: Move
    value: float
    basra: int
    points: int
    cards: float
    reply: float
    follow: float
    hold: float
    low: float


class _Context:
    """What the evaluation of every move of one view shares."""

    def __init__(self, view: View) -> None:
        rules = view.rules
        self.view = view
        self.rules = rules
        self.n = view.players
        self.side = view.side
        piles = [p.bit_count() for p in view.captured]
        self.piles = piles
        self.remaining = rules.pack - sum(piles) - view.gone.bit_count()
        self.bonus = rules.majority_bonus + view.carry
        self.next_seat = (view.seat + 1) % view.players
        self.next_side = view.side_of[self.next_seat]
        unseen = view.unseen()
        self.unseen = unseen
        hidden = unseen.bit_count()
        nxt = self.next_seat
        known = view.known[nxt]
        in_hand = view.hand_sizes[nxt]
        if in_hand == 0 and view.stock_size:
            in_hand = min(rules.hand_size, view.stock_size // view.players)
        need = max(in_hand - known.bit_count(), 0)
        self.next_known = known
        self.next_chance = min(need / hidden, 1.0) if hidden else 0.0
        self.next_plays = in_hand > 0
        self.last_deal = view.stock_size == 0
        sweepers = view.hand & rules.sweepers
        self.sweepers_held = sweepers.bit_count()
        self.hand_size = view.hand.bit_count()

    def card_gain(self, side: int, gained: int) -> float:
        """The change in ``side``'s expected majority bonus from capturing ``gained`` cards."""
        if not self.bonus or not gained:
            return 0.0
        piles = self.piles
        mine = piles[side]
        others = max(p for s, p in enumerate(piles) if s != side)
        lead = mine - others
        before = majority_chance(lead, self.remaining)
        after = majority_chance(lead + gained, self.remaining - gained)
        return self.bonus * (after - before)

    def best_take(self, card: int, floor: int, lone: bool, side: int, weights: Weights) -> float:
        """The most a card is worth played on ``floor`` now (0 for a trail)."""
        rules = self.rules
        best = 0.0
        for _, take in generate_moves(rules, (card,), floor):
            if not take:
                continue
            value = weights.points * pile_points(rules, take | 1 << card)
            value += weights.basra * play_basra(
                rules, card, take, floor, lone_trail=lone, last_play=False
            )
            value += weights.cards * self.card_gain(side, take.bit_count() + 1)
            if value > best:
                best = value
        return best


def _expected_best(values: list[float], chance: float) -> float:
    """E[max] of values each present independently with probability ``chance``."""
    values.sort(reverse=True)
    total = 0.0
    miss = 1.0
    for value in values:
        if value <= 0.0:
            break
        total += value * chance * miss
        miss *= 1.0 - chance
        if miss < 1e-3:
            break
    return total


def evaluate_moves(view: View, weights: Weights = DEFAULT_WEIGHTS) -> list[MoveValue]:
    """Every legal move of the view with its value and terms, best first."""
    context = _Context(view)
    rules = view.rules
    floor = view.floor
    lone = view.lone_trail
    last_play = view.is_last_play
    out: list[MoveValue] = []
    hand_after_base = view.hand
    for move in view.legal_moves():
        card, take = move
        basra = 0
        gained_points = 0
        cards_value = 0.0
        if take:
            gained_points = pile_points(rules, take | 1 << card)
            basra = play_basra(rules, card, take, floor, lone_trail=lone, last_play=last_play)
            cards_value = context.card_gain(context.side, take.bit_count() + 1)
        new_floor = floor ^ take if take else floor | 1 << card
        new_lone = lone_after(floor, take)
        # The next player's best reply, over the cards they may hold.
        reply = 0.0
        if context.next_plays and not last_play and new_floor:
            chance = context.next_chance
            sure = [
                context.best_take(c, new_floor, new_lone, context.next_side, weights)
                for c in cards_of(context.next_known)
            ]
            values = [
                context.best_take(c, new_floor, new_lone, context.next_side, weights)
                for c in cards_of(context.unseen)
            ]
            reply = max(max(sure, default=0.0), _expected_best(values, chance))
        # Our own best take from what we leave, if it is still there next turn.
        follow = 0.0
        if new_floor and not last_play:
            rest = hand_after_base & ~(1 << card)
            follow = max(
                (
                    context.best_take(c, new_floor, False, context.side, weights)
                    for c in cards_of(rest)
                ),
                default=0.0,
            )
        # Keeping jacks (and a sweeping 7♦) for later.
        hold = 0.0
        if rules.sweepers >> card & 1:
            share = 0.5 if context.sweepers_held > 1 else 1.0
            if context.last_deal:
                share *= (context.hand_size - 1) / max(rules.hand_size - 1, 1)
            hold = -weights.jack_hold * share
        low = 0.0
        if not take and card < 40:
            low = weights.low_first * (9 - (card >> 2)) / 9
        value = (
            weights.basra * basra
            + weights.points * gained_points
            + weights.cards * cards_value
            - weights.reply * reply
            + weights.follow * follow
            + hold
            + low
        )
        out.append(
            MoveValue(move, value, basra, gained_points, cards_value, reply, follow, hold, low)
        )
    out.sort(key=lambda m: -m.value)
    return out


class HeuristicBot(Bot):
    """Plays the move of highest :func:`evaluate_moves` value; ties by its seed."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: Weights = DEFAULT_WEIGHTS) -> None:
        super().__init__(seed)
        self.weights = weights

    def choose(self, view: View) -> Move:
        values = evaluate_moves(view, self.weights)
        best = values[0].value
        choices = [m.move for m in values if m.value >= best - 1e-9]
        return choices[int(self.rng.random() * len(choices))]


def _factory(options: str, seed: int | None) -> Bot:
    return HeuristicBot(seed, parse_weights(options))


register_bot(
    "heuristic",
    _factory,
    "the seed's strategy as weighted terms: points now, the opponent's likely reply, "
    "jacks kept, low cards first; options: weights, e.g. heuristic:reply=0.8",
)
