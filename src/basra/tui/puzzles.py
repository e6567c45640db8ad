"""``basra puzzles play`` in the terminal: find the best move, then see why.

Before a move the screen holds only :func:`basra.puzzles.public.puzzle_view`'s
view (the seat's hand, the floor, the plays and scores); after it, the attempt
(:func:`~basra.puzzles.public.attempt`) and the solution
(:func:`~basra.puzzles.public.solution`): the answer, why, every move's value,
and the hands that were hidden. ``n`` goes to the next puzzle (once this one is
answered: before, it says so). The scores and piles name whose they are (yours, your
partner's side, each other seat's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from basra.cards import parse_card
from basra.learn.words import words
from basra.moves import Move
from basra.puzzles.format import Puzzle
from basra.puzzles.public import attempt, puzzle_view, solution
from basra.tui.position import PositionApp
from basra.tui.text import cards_chips
from basra.view import view_of

__all__ = ["PuzzleApp"]


class PuzzleApp(PositionApp):
    """Puzzles one after another in the terminal."""

    def __init__(self, puzzles: Sequence[Puzzle], *, lang: str = "en") -> None:
        super().__init__(lang=lang)
        self.puzzles = list(puzzles)
        self.index = 0
        self.public: dict[str, Any] = {}
        self.tried: dict[str, Any] | None = None
        self.solved: dict[str, Any] | None = None
        self.right = 0
        self.played = 0
        self.load()

    def load(self) -> None:
        """Show the current puzzle (its public view only)."""
        puzzle = self.puzzles[self.index]
        self.public = puzzle_view(puzzle)
        self.tried = self.solved = None
        # The screen draws the seat's view: the same one the public view was made from.
        self.show(view_of(puzzle.state(), puzzle.seat))

    def title_text(self) -> str:
        """Which puzzle, the variant and the rating."""
        shown = self.public
        where = self.word("tui_puzzle_of", n=self.index + 1, m=len(self.puzzles))
        rating = self.word("tui_rating", n=shown["rating"])
        return f"{where} · {self.say(shown['title'])} · {rating}"

    def goal_text(self) -> str:
        """The puzzle's goal."""
        return self.say(self.public["goal"])

    def info_text(self) -> Text:
        """Scores, piles and the round's last plays, as the seat saw them."""
        shown = self.public["view"]
        say = self.word
        out = Text()
        seat = shown["seat"]
        partner = say("tui_partner", n=str((seat + 2) % 4 + 1)) if shown["teams"] else ""
        out.append(
            say(
                "tui_you_are_seat",
                seat=str(seat + 1),
                partner=partner,
                scores=self._per_side(shown["scores"]),
                piles=self._per_side(shown["pile_sizes"]),
                stock=str(shown["stock"]),
            )
        )
        plays = shown["plays"][-6:]
        if plays:
            out.append("\n" + say("tui_last_plays"))
            for index, play in enumerate(plays):
                if index:
                    out.append("  ")
                out.append(f"{play['seat'] + 1}:")
                out.append_text(cards_chips([parse_card(play["move"].partition("x")[0])]))
                if "x" in play["move"]:
                    taken = [parse_card(c) for c in play["move"].partition("x")[2].split(",")]
                    out.append("×")
                    out.append_text(cards_chips(taken))
        return out

    def _per_side(self, values: Sequence[int]) -> str:
        """One number per side, each named: ``you 52, seat 1 88``; yours first."""
        shown = self.public["view"]
        mine = shown["side"]

        def name(side: int) -> str:
            if side == mine:
                return self.word("tui_side_you_team" if shown["teams"] else "tui_side_you")
            seats = [s for s in range(shown["players"]) if (s % 2 if shown["teams"] else s) == side]
            label = "+".join(str(s + 1) for s in seats)
            return self.word("tui_side_seats" if len(seats) > 1 else "tui_side_seat", seats=label)

        order = [mine, *[s for s in range(len(values)) if s != mine]]
        return ", ".join(f"{name(side)} {values[side]}" for side in order)

    def submit(self, move: Move) -> None:
        """Judge the move, then show the solution."""
        puzzle = self.puzzles[self.index]
        self.tried = attempt(puzzle, move.text())
        self.solved = solution(puzzle)
        self.played += 1
        self.right += bool(self.tried["correct"])
        self.locked = True
        self.on_language()

    def on_language(self) -> None:
        """Write the attempt and the solution in the chosen language."""
        if self.tried is None or self.solved is None:
            self.message = Text()
            return
        ok = self.tried["correct"]
        text = Text(self.say(self.tried["words"]), style="bold green" if ok else "bold dark_orange")
        solved = self.solved
        text.append("\n" + self.say(solved["why"]))
        themes = ", ".join(self.say(t["title"]) for t in solved["themes"])
        text.append("\n" + self.word("tui_themes") + themes)
        for move in solved["moves"]:
            error = f" ± {move['stderr']:.1f}" if move["stderr"] else ""
            mark = "→ " if move["move"] == solved["answer"] else "  "
            text.append(f"\n{mark}{move['points']:+7.1f}{error}  {self.say(move['words'])}")
        hands = solved["position"]["hands"]
        text.append("\n" + self.word("tui_hands_were"))
        for seat, hand in enumerate(hands):
            text.append(f" {seat + 1}:")
            text.append_text(cards_chips([parse_card(c) for c in hand]))
        more = self.index + 1 < len(self.puzzles)
        text.append("\n" + self.word("tui_next_puzzle" if more else "tui_last_puzzle"))
        self.message = text

    def action_next(self) -> None:
        """The next puzzle (once this one is answered)."""
        if not self.locked:
            self.not_yet(words("tui_puzzle_first"))
        elif self.index + 1 < len(self.puzzles):
            self.index += 1
            self.load()

    def tally_text(self) -> str:
        """How the session went, for the command line after the app closes."""
        return f"{self.right} of {self.played} puzzles solved"
