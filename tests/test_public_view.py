"""The public view: what everyone at the table sees, from which each seat's view is built."""

from __future__ import annotations

import json
import random

import pytest

from basra.cards import CARD_NAMES, cards_of
from basra.state import GameState
from basra.view import PublicView, View, public_view_of, view_of

from .conftest import TABLES

pytestmark = pytest.mark.engine

SEAT_KEYS = {"seat", "side", "hand", "legal"}


def hidden_from_everyone(state: GameState) -> set[str]:
    """Cards in hands (unless publicly known) and in the stock (unless re-buried)."""
    public = public_view_of(state)
    hidden = 0
    for seat, hand in enumerate(state.hands):
        hidden |= hand & ~public.known[seat]
    for card in state.stock[state.stock_pos :]:
        if card not in public.stock_bottom:
            hidden |= 1 << card
    return {CARD_NAMES[c] for c in cards_of(hidden)}


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_the_public_view_shows_no_hidden_card_and_seats_add_only_their_hand(
    variant: str, players: int, teams: bool
) -> None:
    rng = random.Random(f"public{variant}{players}{teams}")
    state = GameState(variant, players, teams=teams)
    for _ in range(120):
        if state.is_over:
            break
        if state.phase == "deal":
            state.deal(rng=rng)
            continue
        public = public_view_of(state)
        assert type(public) is PublicView and not hasattr(public, "hand")
        for brief in (False, True):
            data = public.to_json(brief=brief)
            assert not SEAT_KEYS & set(data)
            data.pop("rules", None)  # point_cards names cards without dealing them
            text = json.dumps(data)
            for card in hidden_from_everyone(state):
                assert f'"{card}"' not in text
        for seat in range(players):
            view = view_of(state, seat)
            assert isinstance(view, View)
            mine = view.to_json()
            assert {k: v for k, v in mine.items() if k not in SEAT_KEYS | {"known"}} == {
                k: v for k, v in public.to_json().items() if k != "known"
            }
            # The seat knows its whole hand; of the others, only what everyone knows.
            for other in range(players):
                expected = state.hands[seat] if other == seat else public.known[other]
                assert view.known[other] == expected
        moves = state.legal_moves()
        state.push(moves[rng.randrange(len(moves))])


def test_the_brief_form_keeps_the_latest_plays_and_says_where_they_start() -> None:
    rng = random.Random(3)
    state = GameState("egyptian", 2)
    state.deal(rng=rng)
    while len(state.rounds[-1].plays) < 15 and state.phase == "play":
        state.push(state.legal_moves()[0])
    full = public_view_of(state).to_json()
    brief = public_view_of(state).to_json(brief=True)
    assert "rules" not in brief and "captured" not in brief
    assert brief["plays"] == full["plays"][brief["plays_from"] :]
    assert len(brief["plays"]) == 12 and brief["plays_from"] == len(full["plays"]) - 12
