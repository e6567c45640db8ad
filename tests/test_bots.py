"""Bots play only legal moves, see only their view, and are deterministic for a seed."""

from __future__ import annotations

import random

import pytest

from basra.bots import (
    BOTS,
    LEVELS,
    BotError,
    CheaterBot,
    OmniscientBot,
    make_bot,
    play_game,
    play_round,
)
from basra.bots.heuristic import evaluate_moves, majority_chance, parse_weights
from basra.bots.ismcts import Reward, parse_settings
from basra.cards import cards_of
from basra.kernel import search_module
from basra.rules import VARIANT_NAMES, preset
from basra.state import GameState
from basra.view import view_of

from .conftest import TABLES, random_game, with_hidden

pytestmark = pytest.mark.engine

# Small budgets: the tests check behaviour, the arena measures strength.
SPECS = [
    "random",
    "greedy",
    "greedy:blunder=0.5",
    "heuristic",
    "ismcts:iterations=12",
    "ismcts:iterations=12,horizon=0",
    "cheater:iterations=12",
]


@pytest.mark.parametrize(("players", "teams"), TABLES)
def test_bots_play_only_legal_moves_in_every_preset_and_table(
    variant: str, players: int, teams: bool
) -> None:
    rng = random.Random(f"legal/{variant}/{players}/{teams}")
    offset = rng.randrange(len(SPECS))
    for start in range(offset, offset + len(SPECS), 2):
        # every bot plays in every preset and table; play_round checks each move
        lineup = [SPECS[(start + seat) % len(SPECS)] for seat in range(players)]
        bots = [make_bot(spec, seed=rng.getrandbits(32)) for spec in lineup]
        state = GameState(variant, players, teams=teams, first_dealer=rng.randrange(players))
        play_round(state, bots, rng)
        assert state.phase in ("deal", "over")


def test_whole_games_between_bots_end_legally() -> None:
    rng = random.Random(9)
    for variant in ("egyptian", "lebanese", "palestinian", "ethiopian"):
        state = GameState(variant, 2)
        bots = [make_bot("heuristic", 1), make_bot("ismcts:iterations=8", 2)]
        play_game(state, bots, rng)
        assert state.is_over


def swapped_twin(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` where hidden cards from ``seat``'s point of view are exchanged."""
    twin = state.copy()
    view = view_of(state, seat)
    others = [s for s in range(state.players) if s != seat]
    hands = list(twin.hands)
    stock = twin.stock[twin.stock_pos :]
    # exchange one hidden card of another hand with a hidden card of the stock or another hand
    hidden_stock = [i for i, card in enumerate(stock) if card not in view.stock_bottom]
    other = rng.choice(others)
    hand_cards = cards_of(hands[other] & ~view.known[other])
    if not hand_cards:
        return twin
    card = rng.choice(hand_cards)
    if hidden_stock:
        index = rng.choice(hidden_stock)
        stock[index], new = card, stock[index]
    else:
        third = [s for s in others if s != other and hands[s] & ~view.known[s]]
        if not third:
            return twin
        s = third[0]
        new = cards_of(hands[s] & ~view.known[s])[0]
        hands[s] ^= 1 << new | 1 << card
    hands[other] ^= 1 << card | 1 << new
    return with_hidden(state, hands, stock)


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "heuristic", "ismcts:iterations=40", "hard", "expert"]
)
def test_a_choice_does_not_change_when_hidden_cards_are_swapped(spec: str) -> None:
    rng = random.Random(f"swap/{spec}")
    changed = 0
    cases = 6 if spec == "expert" else 12
    if spec == "expert" and search_module() is None:
        # the same options on the pure-Python engine, with a budget it plays in seconds
        spec = "ismcts:" + ",".join(
            "iterations=60" if o.startswith("iterations=") else o
            for o in LEVELS["expert"].split(":", 1)[1].split(",")
        )
    for case in range(cases):
        variant = rng.choice(VARIANT_NAMES)
        players = rng.choice((2, 3, 4))
        state = random_game(variant, players, seed=case, stop_after=rng.randrange(1, 25))
        if state.phase != "play":
            continue
        seat = state.turn
        twin = swapped_twin(state, seat, rng)
        if twin.fingerprint() != state.fingerprint():
            changed += 1
        assert view_of(twin, seat).key() == view_of(state, seat).key()
        first = make_bot(spec, seed=case).choose(view_of(state, seat))
        second = make_bot(spec, seed=case).choose(view_of(twin, seat))
        assert first == second
    assert changed >= cases // 2  # the swaps really changed the hidden cards


def test_the_cheater_does_see_hidden_cards() -> None:
    bot = make_bot("cheater:iterations=10", seed=1)
    assert isinstance(bot, OmniscientBot) and isinstance(bot, CheaterBot)
    state = random_game("egyptian", 2, seed=3, stop_after=5)
    with pytest.raises(BotError, match="measuring stick"):
        bot.choose(view_of(state, state.turn))
    assert "cheater" not in " ".join(LEVELS.values())


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "ismcts:iterations=30"])
def test_bots_are_deterministic_for_a_seed(spec: str) -> None:
    def game(seed: int) -> list[str]:
        state = GameState("yemeni", 3)
        bots = [make_bot(spec, seed=seed + i) for i in range(3)]
        rng = random.Random(11)
        for _ in range(2):
            play_round(state, bots, rng)
            if state.is_over:
                break
        return [p.move.text() for r in state.rounds for p in r.plays]

    assert game(5) == game(5)


def test_an_ismcts_choice_depends_only_on_seed_and_view() -> None:
    state = random_game("egyptian", 2, seed=21, stop_after=3)
    view = view_of(state, state.turn)
    bot = make_bot("ismcts:iterations=60", seed=7)
    other = make_bot("ismcts:iterations=60", seed=7)
    other.choose(view_of(random_game("lebanese", 2, seed=2, stop_after=4), 0 if False else 1))
    assert bot.choose(view) == other.choose(view)


def test_levels_make_bots() -> None:
    state = random_game("egyptian", 2, seed=5, stop_after=6)
    view = view_of(state, state.turn)
    for level in LEVELS:
        bot = make_bot(level, seed=1)
        assert bot.name == level
        assert bot.choose(view) in state.legal_moves()
    with pytest.raises(BotError):
        make_bot("expert:iterations=3")


def test_bot_options_are_checked() -> None:
    with pytest.raises(BotError, match="names"):
        make_bot("ismcts:width=3")
    with pytest.raises(BotError, match="positive"):
        make_bot("ismcts:iterations=0")
    with pytest.raises(BotError, match="number"):
        make_bot("heuristic:reply=lots")
    with pytest.raises(BotError, match="blunder"):
        make_bot("greedy:blunder=2")
    with pytest.raises(BotError, match="takes no options"):
        make_bot("random:x=1")
    settings = parse_settings("seconds=0.5")
    assert settings.iterations is None and settings.seconds == 0.5
    assert parse_weights("reply=0.5").reply == 0.5
    assert {"random", "greedy", "heuristic", "ismcts", "cheater", "cmd"} <= set(BOTS)


def test_a_time_budget_stops_the_search() -> None:
    import time

    state = random_game("egyptian", 2, seed=8, stop_after=2)
    view = view_of(state, state.turn)
    bot = make_bot("ismcts:seconds=0.05", seed=1)
    started = time.perf_counter()
    bot.choose(view)
    assert time.perf_counter() - started < 1.0


def test_heuristic_values_explain_the_seed_strategy() -> None:
    # A lone 5 on the floor: trailing the 3 would leave 3+5 for an 8, the king is safe.
    state = GameState.from_position(
        "egyptian",
        floor=["5S"],
        hands=[["3H", "KD", "9C"], ["2S", "4S", "8D"]],
        turn=0,
        stock=["AH", "6D", "8C", "8H"],
    )
    values = {v.move.text(): v for v in evaluate_moves(view_of(state, 0))}
    assert values["KD"].value > values["3H"].value
    assert values["KD"].reply < values["3H"].reply


def test_majority_chance_and_reward() -> None:
    assert majority_chance(0, 40) == pytest.approx(0.5)
    assert majority_chance(5, 10) > 0.75 > majority_chance(1, 40)
    reward = Reward(preset("egyptian"), 2, mu=0.5)
    ahead, behind = reward([40, 10], [95, 70])
    assert ahead > 0.5 > behind
    won, lost = reward([40, 10], [120, 90])  # the round ends the game
    assert won > ahead and lost < behind
    assert reward([20, 20], [20, 20]) == pytest.approx([0.5, 0.5])


def test_the_bots_command_lists_bots_and_levels(capsys: pytest.CaptureFixture[str]) -> None:
    from basra.cli import main

    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    assert "MEASURING STICK" in out and "cmd:PROGRAM ARGS" in out
    assert "expert" in out.split("levels")[1]
    assert main(["bots", "--json"]) == 0
    assert '"levels"' in capsys.readouterr().out
