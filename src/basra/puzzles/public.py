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
from basra.describe import variant_title
from basra.learn.board import hand_options, move_error_words
from basra.learn.lessons import VARIANT_TITLES_AR
from basra.learn.words import Words, both, card_words, cards_words, facts_words, num, signed
from basra.notation import MoveTextError, parse_move
from basra.puzzles.format import CLEAR_MARGIN, Puzzle
from basra.puzzles.themes import OTHER, THEMES
from basra.view import view_of

__all__ = ["PUZZLE_VIEW_FORMAT", "THEME_TITLES", "attempt", "puzzle_view", "solution"]

PUZZLE_VIEW_FORMAT = "basra-puzzle-view/1"

THEME_TITLES: dict[str, Words] = {
    "basra": both("Basra", "بصرة"),
    "deny_basra": both("Deny a basra", "امنع البصرة"),
    "seven_diamonds": both("The 7♦", "الـ\u20667♦\u2069"),
    "jack": both("The jack", "الولد"),
    "big_cards": both("Big point cards", "أوراق النقاط الكبيرة"),
    "lone_card": both("The lone card", "الورقة الوحيدة"),
    "clear_floor": both("Clear the floor", "كنس الأرض"),
    "majority": both("The race for most cards", "سباق أكثر الأوراق"),
    OTHER: both("The best move", "أفضل حركة"),
}
"""Each theme's name for people."""
assert set(THEME_TITLES) == {*THEMES, OTHER}


def _title(variant: str) -> Words:
    return both(variant_title(variant), VARIANT_TITLES_AR.get(variant, variant))


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
        "goal": both(
            "Find the best move: it beats every other by at least "
            f"{num(CLEAR_MARGIN, 'en')} points of expected round margin.",
            "جد أفضل حركة: تتفوّق على كل حركة أخرى بـ"
            f"{num(CLEAR_MARGIN, 'ar')} نقاط على الأقل من الفارق المتوقّع في الجولة.",
        ),
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
    shown = {lang: _move_words(move.card, move.take, lang) for lang in ("en", "ar")}
    if move.text() == puzzle.answer:
        words = both(
            f"Right: {shown['en']} is the best move.", f"صحيح: {shown['ar']} هي أفضل حركة."
        )
    else:
        words = both(
            f"{shown['en']} is not the best: it gives away {num(loss, 'en')} points of "
            "expected round margin.",
            f"{shown['ar']} ليست الأفضل: تخسر {num(loss, 'ar')} نقطة من الفارق المتوقّع في الجولة.",
        )
    return {
        "legal": True,
        "correct": move.text() == puzzle.answer,
        "move": move.text(),
        "loss": loss,
        "words": words,
    }


def _move_words(card: int, take: int, lang: str) -> str:
    """A move as people write it: ``5♥`` or ``5♥×5♦``."""
    text = card_words(card, lang)
    return text + ("×" + cards_words(take, lang) if take else "")


def _proof_words(puzzle: Puzzle) -> Words:
    if puzzle.proof == "solved":
        return both(
            "Proven exactly: every card left was known, and the rest of the round was solved.",
            "مُثبت تمامًا: كل الأوراق الباقية كانت معروفة، وحُلّت بقية الجولة كلها.",
        )
    if puzzle.proof == "arrangements":
        count = puzzle.arrangements
        return both(
            f"Proven exactly: it is best in every one of the {count} ways the hidden cards "
            "could lie (the values are their average).",
            f"مُثبت تمامًا: هي الأفضل في كل واحدة من الطرق الـ{num(count, 'ar')} التي يمكن أن "
            "تكون بها الأوراق المخفية (والقيم متوسطها).",
        )
    return both(
        "Found by a search ten times the expert bot's, ahead of every other move by more "
        "than four standard errors.",
        "وجدها بحث أقوى بعشر مرات من بحث الروبوت الخبير، متقدّمة على كل حركة أخرى بأكثر من "
        "أربعة أخطاء معيارية.",
    )


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
                "words": both(
                    facts_words(facts[value.move], "en"), facts_words(facts[value.move], "ar")
                ),
            }
        )
    best, rival = puzzle.moves[0], puzzle.moves[1]
    lead = round(best.points - rival.points, 2)
    answer_facts, rival_facts = facts[best.move], facts[rival.move]
    rival_card = rival_facts.move.card
    why = both(
        f"{facts_words(answer_facts, 'en')}: {signed(best.points, 'en')} points of expected "
        f"round margin, {num(lead, 'en')} more than {card_words(rival_card, 'en')} "
        f"({facts_words(rival_facts, 'en')}).",
        f"{facts_words(answer_facts, 'ar')}: {signed(best.points, 'ar')} من الفارق المتوقّع في "
        f"الجولة، أي {num(lead, 'ar')} أكثر من {card_words(rival_card, 'ar')} "
        f"({facts_words(rival_facts, 'ar')}).",
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
        "why": both(f"{why['en']} {proof['en']}", f"{why['ar']} {proof['ar']}"),
        "position": {
            "hands": [[CARD_NAMES[c] for c in cards_of(hand)] for hand in state.hands],
            "stock": [CARD_NAMES[c] for c in state.stock[state.stock_pos :]],
            "floor": [CARD_NAMES[c] for c in cards_of(state.floor)],
        },
    }
