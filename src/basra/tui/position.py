"""One position on screen, to find a move in: the base of lessons and puzzles.

:class:`PositionApp` shows a seat's view (the floor, the hand, and what the
chosen card would take), lets the person pick a card (1-6, the arrows, or a
click) and play it with Enter (choosing the set when it can take several),
and hands the move to :meth:`PositionApp.submit`. ``l`` switches between
English and Arabic (the footer's keys too), ``q`` leaves; ``n`` before the position
is done says why it does not go on yet. Only the view of the seat to move is ever
drawn: the other hands are not known to this screen.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from basra.cards import cards_of
from basra.kernel import generate_moves
from basra.learn.words import LANGUAGES, Words, in_lang, plain, words
from basra.locales import message
from basra.moves import Move
from basra.transition import play_basra
from basra.tui.cards import CardRow
from basra.tui.dialogs import ChoiceScreen
from basra.tui.text import cards_chips, describe_move
from basra.view import View

__all__ = ["TAKES", "PositionApp"]

TAKES = "#a8e6a0"
"""The face colour of floor cards the chosen card would take."""

LABELS: dict[str, Words] = {
    name: words(f"tui_{name}") for name in ("floor", "hand", "empty", "takes", "trail", "basra")
}
KEYS: dict[str, Words] = {
    name: words(f"tui_key_{name}") for name in ("play", "next", "previous", "language", "quit")
}
"""The footer's words for each action, in every language."""


class PositionApp(App[None]):
    """A position to find a move in (subclasses give the positions and judge the moves)."""

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-muted; text-style: bold; padding: 0 1; }
    #goal { height: auto; padding: 0 1; text-style: bold; }
    #info { height: auto; padding: 0 1; color: $text-muted; }
    .label { height: 1; padding: 0 1; color: $text-muted; }
    #floor, #hand { padding: 0 1; }
    #takes { height: auto; padding: 0 1; }
    #message-box { height: 1fr; min-height: 3; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play"),
        Binding("space", "play", show=False),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("n", "next", "Next"),
        Binding("l", "language", "Language"),
        Binding("q", "quit", "Quit"),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)],
    ]

    def __init__(self, *, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        self.view: View | None = None
        self.selected = 0
        self.locked = False
        """True once the position is done with (solved or given up): no more moves."""
        self.message = Text()
        self.label_keys()

    def compose(self) -> ComposeResult:
        """The widgets of the screen."""
        yield Static(id="title")
        yield Static(id="goal")
        yield Static(id="info")
        yield Static(id="floor-label", classes="label")
        yield CardRow(id="floor")
        yield Static(id="hand-label", classes="label")
        yield CardRow(numbered=True, id="hand")
        yield Static(id="takes")
        with VerticalScroll(id="message-box"):
            yield Static(id="message")
        yield Footer()

    # ----------------------------------------------------------- for subclasses

    def title_text(self) -> str:
        """The top line."""
        return ""

    def goal_text(self) -> str:
        """What to do."""
        return ""

    def info_text(self) -> Text:
        """A line or two under the goal (scores, plays ...)."""
        return Text()

    def submit(self, move: Move) -> None:
        """Judge a move played (subclasses set :attr:`message`, maybe :attr:`locked`)."""

    def action_next(self) -> None:
        """Go to the next position."""

    def not_yet(self, words: Words) -> None:
        """Say why ``n`` does not go on (the position is not done with yet)."""
        self.message = Text(self.say(words), style="bold dark_orange")
        self.refresh_all()

    # ----------------------------------------------------------- helpers

    def label_keys(self) -> None:
        """Name the footer's keys in the chosen language."""
        for key, bindings in self._bindings.key_to_bindings.items():
            self._bindings.key_to_bindings[key] = [
                replace(b, description=self.say(KEYS[b.action])) if b.action in KEYS else b
                for b in bindings
            ]
        if self.is_running:
            self.refresh_bindings()

    def say(self, words: Words) -> str:
        """``words`` in the chosen language, for the terminal."""
        return plain(in_lang(words, self.lang))

    def word(self, key: str, **params: object) -> str:
        """A catalogue's message in the chosen language, for the terminal."""
        return plain(message(self.lang, key, **params))

    def show(self, view: View) -> None:
        """Show a new position (its seat to move is the person)."""
        self.view = view
        self.selected = 0
        self.locked = False
        self.message = Text()
        self.refresh_all()

    def on_mount(self) -> None:
        """Draw the first position."""
        self.refresh_all()

    def refresh_all(self) -> None:
        """Redraw every part from the view and the texts."""
        if not self.is_running or self.view is None:
            return
        view = self.view
        self.query_one("#title", Static).update(Text(self.title_text()))
        self.query_one("#goal", Static).update(Text(self.goal_text()))
        self.query_one("#info", Static).update(self.info_text())
        self.query_one("#floor-label", Static).update(self.say(LABELS["floor"]))
        self.query_one("#hand-label", Static).update(self.say(LABELS["hand"]))
        hand = cards_of(view.hand)
        moves = self.card_moves()
        faces: dict[int, str] = {}
        for move in moves:
            faces.update(dict.fromkeys(move.taken(), TAKES))
        self.query_one("#floor", CardRow).show(
            cards_of(view.floor), faces=faces, empty_text=self.say(LABELS["empty"])
        )
        self.query_one("#hand", CardRow).show(hand, selected=None if self.locked else self.selected)
        self.query_one("#takes", Static).update(self.takes_text(moves))
        self.query_one("#message", Static).update(self.message)

    def card_moves(self) -> list[Move]:
        """The legal moves of the chosen card."""
        view = self.view
        if view is None or self.locked or not view.hand:
            return []
        card = cards_of(view.hand)[self.selected]
        return generate_moves(view.rules, [card], view.floor)

    def takes_text(self, moves: list[Move]) -> Text:
        """What the chosen card would take, option by option, with its basra."""
        view = self.view
        out = Text()
        if view is None or not moves:
            return out
        for index, move in enumerate(moves):
            if index:
                out.append("\n")
            out.append_text(cards_chips([move.card]))
            if not move.take:
                out.append(" " + self.say(LABELS["trail"]))
                continue
            out.append(f" {self.say(LABELS['takes'])} ")
            out.append_text(cards_chips(move.take))
            basra = play_basra(
                view.rules,
                move.card,
                move.take,
                view.floor,
                lone_trail=view.lone_trail,
                last_play=view.is_last_play,
            )
            if basra:
                out.append(f"  {self.say(LABELS['basra'])} +{basra}", style="bold green")
        return out

    # ----------------------------------------------------------- actions

    def action_move(self, delta: int) -> None:
        """Choose the card to the left or right."""
        if self.view is None or self.locked or not self.view.hand:
            return
        count = self.view.hand.bit_count()
        self.selected = (self.selected + delta) % count
        self.refresh_all()

    def action_pick(self, number: int) -> None:
        """Choose the card with this number (a second press plays it)."""
        if self.view is None or self.locked or not 1 <= number <= self.view.hand.bit_count():
            return
        if self.selected == number - 1:
            self.action_play()
            return
        self.selected = number - 1
        self.refresh_all()

    def on_card_row_picked(self, event: CardRow.Picked) -> None:
        """A click on a card of the hand chooses it; a second click plays it."""
        if event.row.id == "hand":
            self.action_pick(event.index + 1)

    def action_play(self) -> None:
        """Play the chosen card (asking which set when it can take several)."""
        moves = self.card_moves()
        if not moves:
            return
        if len(moves) == 1:
            self.submit(moves[0])
            self.refresh_all()
            return
        labels = [Text(describe_move(m)) for m in moves]

        def chosen(move: Move | None) -> None:
            if move is not None:
                self.submit(move)
            self.refresh_all()

        self.push_screen(ChoiceScreen(moves, labels), chosen)

    def action_language(self) -> None:
        """Switch to the next language of the catalogues."""
        self.lang = LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)]
        self.label_keys()
        self.on_language()
        self.refresh_all()

    def on_language(self) -> None:
        """The language changed (subclasses rewrite their message)."""
