"""The dialogs over the table: pass the keyboard, capture choice, score sheets, save, leave."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, TypeVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from basra.describe import Section
from basra.moves import Move
from basra.tui.session import SaveExistsError, Session, SessionError, same_file
from basra.tui.text import card_label, cards_chips

__all__ = [
    "ChoiceScreen",
    "GameOverScreen",
    "HelpScreen",
    "LeaveScreen",
    "PassScreen",
    "RoundScreen",
    "SaveScreen",
]

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: auto; max-width: 76; min-width: 40; height: auto; max-height: 100%;
    border: thick $accent; background: $panel; padding: 0 2;
}}
{name}.-narrow > Vertical {{ max-width: 100%; min-width: 0; padding: 0 1; }}
{name} Static {{ width: auto; max-width: 72; }}
{name}.-narrow Static {{ max-width: 100%; }}
{name} .title {{ text-style: bold; margin-bottom: 1; }}
{name} .note {{ color: $text-muted; width: auto; }}
{name} Horizontal {{ height: auto; width: auto; margin-top: 1; }}
{name} Button {{ margin-right: 1; }}
"""


Result = TypeVar("Result")

NARROW = 80
"""Below this width (columns) dialogs may take the whole width of the terminal."""


class Dialog(ModalScreen[Result]):
    """A dialog over the table; on a narrow terminal it may use the whole width."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-normal")]  # noqa: RUF012


class PassScreen(Dialog[None]):
    """Covers the table until the next person at the keyboard says they are ready.

    Keys pressed before it showed (a second Enter typed with the move that
    ended the last person's turn) and in its first ``READY_DELAY`` seconds do
    nothing, so nobody skips it by accident and sees the next person's hand. ``q``
    leaves the game (offering to save it), as at the table.
    """

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="PassScreen") + "PassScreen { background: $background 100%; }"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "I'm ready"),
        Binding("space", "ready", show=False),
        Binding("q", "app.quit", "Quit"),
    ]
    READY_DELAY = 0.8
    """Seconds after it shows before it can be dismissed."""

    def __init__(self, name: str, previous: str | None) -> None:
        super().__init__()
        self.person = name
        self.previous = previous
        self.shown_at = time.monotonic()

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        with Vertical():
            yield Static(f"Pass the keyboard to {self.person}", classes="title")
            before = f"{self.previous}, look away now. " if self.previous else ""
            yield Static(f"{before}{self.person}, press Enter when you are ready to see your hand.")
            with Horizontal():
                label = f"I'm {self.person}: show my hand"
                yield Button(label, id="ready", variant="primary", disabled=True)

    def on_mount(self) -> None:
        """Enable the ready button once the delay has passed."""
        self.set_timer(self.READY_DELAY, self._enable)

    def _enable(self) -> None:
        button = self.query_one("#ready", Button)
        button.disabled = False
        button.focus()

    @property
    def is_ready(self) -> bool:
        """True once a key or a click may dismiss this screen."""
        return time.monotonic() - self.shown_at >= self.READY_DELAY

    def on_key(self, event: events.Key) -> None:
        """Swallow keys typed before this screen was shown (the focused button sees none)."""
        if event.time < self.shown_at:
            event.stop()
            event.prevent_default()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The ready button."""
        self.action_ready()

    def action_ready(self) -> None:
        """Show the hand (not in the first moments: see the class docstring)."""
        if self.is_ready:
            self.dismiss(None)


class ChoiceScreen(Dialog["Move | None"]):
    """Choose which cards a card takes when the rules allow several sets."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ChoiceScreen")
        + """
    ChoiceScreen { align: center bottom; background: $background 30%; }
    ChoiceScreen OptionList { height: auto; max-height: 12; width: auto; min-width: 36; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Pick another card"),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)],
    ]

    def __init__(
        self,
        moves: Sequence[Move],
        labels: Sequence[Text],
        first: int = 0,
        on_highlight: Callable[[Move], None] | None = None,
    ) -> None:
        super().__init__()
        self.moves = list(moves)
        self.labels = list(labels)
        self.first = first
        self.on_highlight = on_highlight

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        card = card_label(self.moves[0].card)
        with Vertical():
            yield Static(f"{card} can take different cards. Which set?", classes="title")
            options = []
            for index, label in enumerate(self.labels):
                prompt = Text(f"{index + 1}  ")
                prompt.append_text(label)
                options.append(Option(prompt, id=str(index)))
            yield OptionList(*options)
            yield Static("↑↓ and Enter, or the number · Esc to pick another card", classes="note")

    def on_mount(self) -> None:
        """Highlight the first (or hinted) option."""
        options = self.query_one(OptionList)
        options.highlighted = self.first
        options.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Tell the table which set is highlighted, so the floor shows just its cards."""
        if self.on_highlight is not None:
            self.on_highlight(self.moves[event.option_index])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Play the chosen set."""
        self.dismiss(self.moves[event.option_index])

    def action_pick(self, number: int) -> None:
        """Play the set with this number."""
        if 1 <= number <= len(self.moves):
            self.dismiss(self.moves[number - 1])

    def action_cancel(self) -> None:
        """Back to the hand."""
        self.dismiss(None)


class Reviewable:
    """A dialog whose ``r`` shows a review over it, when ``on_review`` is given."""

    on_review: Callable[[], None] | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``r`` only where a review can be made."""
        return action != "review" or self.on_review is not None

    def action_review(self) -> None:
        """Show the review over this dialog (Esc comes back here)."""
        if self.on_review is not None:
            self.on_review()


class RoundScreen(Reviewable, Dialog[None]):
    """The score sheet at the end of a round (``r``: its review, when ``on_review`` is given)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="RoundScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Continue"),
        Binding("space", "close", show=False),
        Binding("escape", "close", show=False),
        Binding("r", "review", "Review the round"),
    ]

    def __init__(
        self,
        title: str,
        sheet: RenderableType,
        notes: Sequence[str],
        go_on: str,
        on_review: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.sheet = sheet
        self.notes = list(notes)
        self.go_on = go_on
        self.on_review = on_review

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        with Vertical():
            yield Static(self.title_text, classes="title")
            yield Static(self.sheet, id="sheet")
            for note in self.notes:
                yield Static(note, classes="note")
            with Horizontal():
                yield Button(self.go_on, id="continue", variant="primary")
                if self.on_review is not None:
                    yield Button("Review (r)", id="review")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The continue button, or the review."""
        if event.button.id == "review":
            self.action_review()
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        """Go on."""
        self.dismiss(None)


class GameOverScreen(Reviewable, Dialog[str]):
    """The end of the game: who won, and what next (``again``, ``save`` or ``quit``;
    ``r`` shows the game's review when ``on_review`` is given)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="GameOverScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('again')", "New game"),
        Binding("s", "choose('save')", "Save"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("r", "review", "Review the game"),
        Binding("escape", "choose('quit')", show=False),
    ]

    def __init__(
        self,
        headline: str,
        lines: Sequence[str],
        saved: Path | None,
        on_review: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.headline = headline
        self.lines = list(lines)
        self.saved = saved
        self.on_review = on_review

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        with Vertical():
            yield Static("Game over", classes="title")
            yield Static(Text(self.headline, style="bold"))
            yield Static("\n".join(self.lines))
            if self.saved is not None:
                yield Static(f"Saved to {self.saved}", classes="note")
            yield Static("Play again?", classes="note")
            with Horizontal():
                yield Button("New game (n)", id="again", variant="primary")
                yield Button("Save (s)", id="save")
                if self.on_review is not None:
                    yield Button("Review (r)", id="review")
                yield Button("Quit (q)", id="quit")

    def on_mount(self) -> None:
        """Focus the new game button."""
        self.query_one("#again", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """One of the buttons."""
        if event.button.id == "review":
            self.action_review()
        else:
            self.dismiss(event.button.id or "quit")

    def action_choose(self, what: str) -> None:
        """Answer with ``what``."""
        self.dismiss(what)


class LeaveScreen(Dialog[str]):
    """Ctrl+C or q: leave the game, offering to save it (``save``, ``quit`` or ``stay``).

    ``taken`` is the file name wanted first when something else is already
    there: the game then goes to ``path``, a new name, and the screen says so.
    """

    DEFAULT_CSS = DIALOG_CSS.format(name="LeaveScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('save')", "Save and quit"),
        Binding("q", "choose('quit')", "Quit without saving"),
        Binding("escape", "choose('stay')", "Keep playing"),
        Binding("k", "choose('stay')", show=False),
    ]

    def __init__(self, path: Path, taken: Path | None = None) -> None:
        super().__init__()
        self.path = path
        self.taken = taken

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        with Vertical():
            yield Static("Leave the game?", classes="title")
            if self.taken is not None:
                yield Static(f"{self.taken} already holds another file, which stays as it is.")
            yield Static(f"Save it to {self.path} and continue later with")
            yield Static(f"  basra play --resume {self.path}", classes="note")
            with Horizontal():
                yield Button("Save and quit (s)", id="save", variant="primary")
                yield Button("Quit without saving (q)", id="quit", variant="error")
                yield Button("Keep playing (Esc)", id="stay")

    def on_mount(self) -> None:
        """Focus saving, the safe choice."""
        self.query_one("#save", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """One of the three buttons."""
        self.dismiss(event.button.id or "stay")

    def action_choose(self, what: str) -> None:
        """Answer with ``what``."""
        self.dismiss(what)


class SaveScreen(Dialog["Path | None"]):
    """Ask where to save the game, save it, and answer with the path (``None``: cancelled).

    A file already there is replaced only after the person confirms it (Enter
    again on the same name), unless it is ``replaceable``: the file this game
    was resumed from or saved to before.
    """

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="SaveScreen")
        + """
    SaveScreen Input { width: 60; max-width: 100%; }
    SaveScreen #error { color: $error; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, session: Session, path: Path, replaceable: Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.path = path
        self.replaceable = replaceable
        self.confirmed: Path | None = None

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        with Vertical():
            yield Static("Save the game", classes="title")
            yield Static("File name (Enter to save, Esc to cancel):")
            yield Input(str(self.path), id="path")
            yield Static("", id="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Save to the file named, or say why not."""
        text = event.value.strip()
        if not text:
            self.query_one("#error", Static).update("Give a file name.")
            return
        path = Path(text)
        replace = path == self.confirmed or (
            self.replaceable is not None and same_file(path, self.replaceable)
        )
        try:
            saved = self.session.save(path, replace=replace)
        except SaveExistsError:
            self.confirmed = path
            self.query_one("#error", Static).update(
                f"{path} already exists. Enter again replaces it; or type another name."
            )
            return
        except SessionError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        self.dismiss(saved)

    def action_cancel(self) -> None:
        """Do not save."""
        self.dismiss(None)


class HelpScreen(Dialog[None]):
    """The keys, and the rules being played in words (written from their settings)."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="HelpScreen")
        + """
    HelpScreen > VerticalScroll {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $panel; padding: 0 2;
    }
    HelpScreen Static { width: 100%; max-width: 100%; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("enter", "close", show=False),
        Binding("question_mark", "close", show=False),
    ]

    def __init__(
        self, heading: str, sections: Sequence[Section], *, hot_seat: bool = False
    ) -> None:
        super().__init__()
        self.heading = heading
        self.sections = list(sections)
        self.hot_seat = hot_seat

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        keys = Text.assemble(
            ("1-6 ", "bold"),
            "or ",
            ("← →", "bold"),
            " pick a card (or click it)\n",
            ("Enter ", "bold"),
            "play it (click it again)\n",
            ("t ", "bold"),
            "lay it on the floor, if it takes nothing\n",
            ("h ", "bold"),
            "hint: the coach's move, and why (what it takes and leaves, its points)\n",
            ("r ", "bold"),
            "on a round's score sheet or at the end: the review of every decision\n",
            ("PgUp PgDn ", "bold"),
            "scroll the plays of the round (or the mouse wheel)\n",
            ("s ", "bold"),
            "save the game · ",
            ("q ", "bold"),
            "or ",
            ("Ctrl+C ", "bold"),
            "leave (you can save first)",
        )
        if self.hot_seat:
            keys.append(
                "\nPeople take turns at the keyboard: a pass screen hides every hand until "
                "its owner presses Enter."
            )
        rules: list[RenderableType] = [Text(""), Text(self.heading, style="bold underline")]
        for section in self.sections:
            rules.append(Text(f"\n{section.title}", style="bold"))
            items = Table.grid(padding=(0, 1))
            items.add_column(no_wrap=True)
            items.add_column()
            for item in section.items:
                items.add_row("•", item)
            rules.append(items)
        with VerticalScroll():
            yield Static("How to play (Esc to close)", classes="title")
            yield Static(Group(keys, *rules))

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


def choice_label(move: Move, basra: int, points: str) -> Text:
    """One capture set for :class:`ChoiceScreen`: its cards as chips, basra and points."""
    label = Text("takes ")
    label.append_text(cards_chips(move.taken()))
    if basra:
        label.append(f"  basra +{basra}", style="bold")
    if points:
        label.append(f"  ({points})", style="dim")
    return label
