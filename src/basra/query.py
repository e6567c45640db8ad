"""Position queries: the capture sets one card may take (``basra captures``).

RECORD.md "Position queries": no hands are modelled; a starting floor of one
card is a lone card; ``before`` plays are made from the floor first, through
the same engine as a game, so lone-card states can be reached.

>>> capture_query("egyptian", None, "2H AS 5S 4D".split(), [], "7C")
[{'take': ['AS', '2H', '4D'], 'basra': 0}]
>>> capture_query("lebanese", None, ["3S"], ["4H"], "7D")
[{'take': ['3S', '4H'], 'basra': 10}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from basra.captures import capture_options
from basra.cards import CARD_NAMES, Card, CardError, cards_of, pack_mask, parse_card
from basra.notation import MoveTextError, parse_move, parse_move_text
from basra.rules import Rules, RulesError, resolve_rules
from basra.state import GameError, GameState
from basra.transition import play_basra

__all__ = ["QueryError", "capture_query"]


class QueryError(ValueError):
    """A position query that cannot be answered, with the reason."""


def capture_query(
    variant: str | None,
    rules: str | Mapping[str, Any] | Rules | None,
    floor: Sequence[str],
    before: Sequence[str],
    card: str,
) -> list[dict[str, Any]]:
    """The options of playing ``card`` after ``before`` from ``floor``.

    Returns ``[{"take": [card texts], "basra": points}, ...]`` in canonical
    order; a card that captures nothing has the single option ``take: []``.
    """
    try:
        if isinstance(rules, Rules):
            name, full = variant or "egyptian", rules
        else:
            name, _, full = resolve_rules(variant, rules)
    except RulesError as exc:
        raise QueryError(str(exc)) from None
    in_pack = pack_mask(full.pack)
    used: set[Card] = set()

    def claim(card_value: Card, where: str) -> None:
        if not in_pack >> card_value & 1:
            raise QueryError(
                f"{CARD_NAMES[card_value]} ({where}) is not in the {full.pack}-card pack"
            )
        if card_value in used:
            raise QueryError(f"{CARD_NAMES[card_value]} ({where}) appears more than once")
        used.add(card_value)

    try:
        floor_cards = [parse_card(text) for text in floor]
        played = parse_card(card)
    except CardError as exc:
        raise QueryError(str(exc)) from None
    for c in floor_cards:
        claim(c, "on the floor")
    before_cards: list[Card] = []
    for index, text in enumerate(before):
        try:
            before_card, _ = parse_move_text(text)
        except MoveTextError as exc:
            raise QueryError(f"before-play {index + 1}: {exc}") from None
        claim(before_card, f"before-play {index + 1}")
        before_cards.append(before_card)
    claim(played, "the card played")

    # Seats 0 and 1 alternate; each gets the cards it plays, the last one the query card.
    hands: list[list[Card]] = [[], []]
    for index, c in enumerate([*before_cards, played]):
        hands[index % 2].append(c)
    try:
        state = GameState.from_position(name, 2, floor=floor_cards, hands=hands, rules=full)
        for index, text in enumerate(before):
            try:
                state.push(parse_move(state, text))
            except (MoveTextError, GameError) as exc:
                raise QueryError(f"before-play {index + 1} ({text}): {exc}") from None
    except GameError as exc:
        raise QueryError(str(exc)) from None
    now = state.floor
    options: list[dict[str, Any]] = []
    for take in capture_options(full, played, now):  # in canonical order
        # RECORD.md: a query is never the round's last play.
        basra = play_basra(full, played, take, now, lone_trail=state.lone_trail, last_play=False)
        options.append({"take": [CARD_NAMES[c] for c in cards_of(take)], "basra": basra})
    return options
