"""What a person is shown of a puzzle: before it is solved, an attempt, and afterwards.

The three functions a front end calls (the terminal's ``basra puzzles play``,
and the web pages and APIs):

- :func:`puzzle_view`: the puzzle as its seat saw the game, **the one place a
  puzzle's public view is made**. It is the seat's view of the position
  (:func:`basra.view.view_of`: its own hand, the floor, the plays, the
  captured piles, the scores) and what each of its cards would take. It never
  holds the answer, the values, the themes, another hand or the stock.
- :func:`attempt`: whether a move typed is the answer (text that is not a legal
  move is no attempt, and says why).
- :func:`solution`: everything about the position, once the puzzle is solved
  or failed: the answer and why, every move's value and what it does, the
  themes, every hand and the stock; never the game's record or source, which
  would lead back to the game it comes from (a server's puzzles never say).

All three return JSON values, with every text in English and Arabic.

>>> from basra.puzzles.format import shipped_puzzles
>>> puzzle = shipped_puzzles()[0]
>>> shown = puzzle_view(puzzle)
>>> "answer" in shown or "moves" in shown, shown["view"]["seat"] == puzzle.seat
(False, True)
>>> attempt(puzzle, puzzle.answer)["correct"], solution(puzzle)["answer"] == puzzle.answer
(True, True)
"""

from __future__ import annotations

from typing import Any

from basra.cards import CARD_NAMES, cards_of
from basra.coach.hints import move_facts
from basra.learn.board import hand_options, move_error_words
from basra.learn.lessons import variant_words
from basra.learn.words import LANGUAGES, Words, card_words, cards_words, facts_words, signed, words
from basra.notation import MoveTextError, parse_move
from basra.puzzles.format import CLEAR_MARGIN, Puzzle
from basra.puzzles.themes import OTHER, THEMES
from basra.view import view_of

__all__ = ["PUZZLE_VIEW_FORMAT", "THEME_TITLES", "attempt", "puzzle_view", "solution"]

PUZZLE_VIEW_FORMAT = "basra-puzzle-view/1"

THEME_TITLES: dict[str, Words] = {
    theme: words(f"puzzle_theme_{theme}") for theme in (*THEMES, OTHER)
}
"""Each theme's name for people."""
assert set(THEME_TITLES) == {*THEMES, OTHER}


def _title(variant: str) -> Words:
    return variant_words(variant)


def puzzle_view(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle before it is solved: only what its seat saw (see the module docstring)."""
    view = view_of(puzzle.state(), puzzle.seat)
    return {
        "format": PUZZLE_VIEW_FORMAT,
        "id": puzzle.id,
        "variant": puzzle.variant,
        "title": _title(puzzle.variant),
        "players": view.players,
        "teams": view.teams,
        "seat": puzzle.seat,
        "rating": puzzle.rating,
        "exact": puzzle.exact,
        "goal": words("puzzle_goal_words", n=CLEAR_MARGIN),
        "view": view.to_json(),
        "hand_options": hand_options(view),
    }


def attempt(puzzle: Puzzle, text: str) -> dict[str, Any]:
    """A move typed for the puzzle: ``legal`` (is it a move of the position), ``correct``
    (is it the answer), ``move`` (canonical text), ``loss`` (points of expected round
    margin below the answer) and ``words``."""
    state = puzzle.state()
    try:
        move = parse_move(state, text)
    except MoveTextError:
        return {
            "legal": False,
            "correct": False,
            "move": None,
            "loss": None,
            "words": move_error_words(state, text),
        }
    values = {m.move: m.points for m in puzzle.moves}
    loss = round(values[puzzle.answer] - values[move.text()], 2)
    shown = lambda lang: _move_words(move.card, move.take, lang)  # noqa: E731
    if move.text() == puzzle.answer:
        said = words("puzzle_attempt_right", move=shown)
    else:
        said = words("puzzle_attempt_wrong", move=shown, n=loss)
    return {
        "legal": True,
        "correct": move.text() == puzzle.answer,
        "move": move.text(),
        "loss": loss,
        "words": said,
    }


def _move_words(card: int, take: int, lang: str) -> str:
    """A move as people write it: ``5♥`` or ``5♥×5♦``."""
    text = card_words(card, lang)
    return text + ("×" + cards_words(take, lang) if take else "")


def _proof_words(puzzle: Puzzle) -> Words:
    if puzzle.proof == "solved":
        return words("puzzle_proof_solved")
    if puzzle.proof == "arrangements":
        return words("puzzle_proof_arrangements", count=puzzle.arrangements)
    return words("puzzle_proof_search")


def solution(puzzle: Puzzle) -> dict[str, Any]:
    """Everything about the puzzle, for after it is solved or failed: the answer and why,
    every move's value and what it does, the themes, and the whole position (every hand and
    the stock, hidden during the puzzle). Not the game's record or its source: nothing
    that leads back to the game.

    >>> from basra.puzzles.format import shipped_puzzles
    >>> sorted({"record", "source", "table"} & set(solution(shipped_puzzles()[0])))
    []
    """
    state = puzzle.state()
    view = view_of(state, puzzle.seat)
    moves = []
    facts = {}
    for value in puzzle.moves:
        move = parse_move(state, value.move)
        facts[value.move] = move_facts(view, move)
        moves.append(
            {
                "move": value.move,
                "points": value.points,
                "stderr": value.stderr,
                "words": {lang: facts_words(facts[value.move], lang) for lang in LANGUAGES},
            }
        )
    best, rival = puzzle.moves[0], puzzle.moves[1]
    lead = round(best.points - rival.points, 2)
    answer_facts, rival_facts = facts[best.move], facts[rival.move]
    rival_card = rival_facts.move.card
    why = words(
        "puzzle_why_words",
        answer=lambda lang: facts_words(answer_facts, lang),
        points=lambda lang: signed(best.points, lang),
        lead=lead,
        rival=lambda lang: card_words(rival_card, lang),
        rival_does=lambda lang: facts_words(rival_facts, lang),
    )
    proof = _proof_words(puzzle)
    return {
        "id": puzzle.id,
        "answer": puzzle.answer,
        "theme": puzzle.theme,
        "themes": [{"id": t, "title": THEME_TITLES[t]} for t in puzzle.themes],
        "exact": puzzle.exact,
        "proof": puzzle.proof,
        "arrangements": puzzle.arrangements,
        "samples": puzzle.samples,
        "margin": round(puzzle.margin, 2),
        "rating": puzzle.rating,
        "moves": moves,
        "why": {lang: f"{why[lang]} {proof[lang]}" for lang in LANGUAGES},
        "position": {
            "hands": [[CARD_NAMES[c] for c in cards_of(hand)] for hand in state.hands],
            "stock": [CARD_NAMES[c] for c in state.stock[state.stock_pos :]],
            "floor": [CARD_NAMES[c] for c in cards_of(state.floor)],
        },
    }
