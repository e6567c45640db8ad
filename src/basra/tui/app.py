"""The terminal app: the table screen and the flow of a game.

:class:`BasraApp` plays a :class:`~basra.tui.session.Session`. After every
change it calls :meth:`BasraApp.advance`, which does the one next thing: deal,
show the score sheet, let a bot move (after a pause, showing what it takes
before it takes it), ask the next person to take the keyboard, or wait for the
person to move. Whatever the screen shows comes from the view of the seat at
the keyboard, so a hand is only ever seen by its owner.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from basra.bots import BotError
from basra.cards import cards_of
from basra.coach.analysis import DEFAULT_SAMPLES
from basra.describe import rules_heading, rules_sections
from basra.moves import Move, Play
from basra.record import record_of
from basra.rules import preset
from basra.state import PHASE_OVER, PHASE_PLAY
from basra.tui.cards import CardRow
from basra.tui.dialogs import (
    ChoiceScreen,
    GameOverScreen,
    HelpScreen,
    LeaveScreen,
    PassScreen,
    RoundScreen,
    SaveScreen,
    choice_label,
)
from basra.tui.review import ReviewScreen
from basra.tui.session import Session, SessionError, free_path, same_file
from basra.tui.text import (
    card_label,
    describe_move,
    describe_play,
    point_cards_text,
    score_sheet,
    variant_title,
)
from basra.view import View

__all__ = ["BasraApp", "PlayLog", "TableScreen", "default_save_path"]

TAKES = "#a8e6a0"
"""The face colour of floor cards the selected card would take."""
BOT_TAKES = "#9fd3ff"
"""The face colour of floor cards a bot is about to take."""
BIG_SIZE = (100, 36)
"""From this terminal size (columns, lines) up, cards are drawn big."""


PERSON_ACTIONS = frozenset({"play", "trail", "move", "pick", "hint"})
"""The table's actions that make or suggest a person's move (hidden when only bots play)."""


def default_save_path() -> Path:
    """``basra-YYYYMMDD-HHMMSS.json`` in the current directory."""
    return Path(f"basra-{datetime.now():%Y%m%d-%H%M%S}.json")


class PlayLog(VerticalScroll, can_focus=False):
    """The plays of the round, all of them, scrolled to the newest.

    It never takes the focus (the arrow keys pick cards); the mouse wheel and
    Page Up / Page Down scroll it.
    """

    DEFAULT_CSS = """
    PlayLog { height: 1fr; min-height: 1; padding: 0 1; scrollbar-size-vertical: 1; }
    PlayLog > Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        """The text of the log."""
        yield Static(id="log-text")

    def show(self, text: Text, *, follow: bool) -> None:
        """Show ``text``; with ``follow``, scroll to its end (a new play came)."""
        self.query_one("#log-text", Static).update(text)
        if follow:
            self.call_after_refresh(self.scroll_end, animate=False)


class TableScreen(Screen[None]):
    """The table: seats and scores, the floor, the round's plays, your hand, what to do."""

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #title { height: 1; background: $primary-muted; color: $text; text-style: bold; padding: 0 1; }
    #seats { height: auto; padding: 0 1; }
    .label { height: 1; padding: 0 1; color: $text-muted; }
    #floor-label { max-width: 82; }
    #floor, #hand { padding: 0 1; }
    #status { height: 2; padding: 0 1; background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play"),
        Binding("space", "play", show=False),
        Binding("t", "trail", "Lay down"),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("h", "hint", "Hint"),
        Binding("s", "save", "Save"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "leave", "Quit"),
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)],
    ]

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        yield Static(id="title")
        yield Static(id="seats")
        yield Static(id="floor-label", classes="label")
        yield CardRow(id="floor")
        yield PlayLog(id="log")
        yield Static(id="hand-label", classes="label")
        yield CardRow(numbered=True, id="hand")
        yield Static(id="status")
        yield Footer()

    @property
    def basra_app(self) -> BasraApp:
        """The app, typed."""
        app = self.app
        assert isinstance(app, BasraApp)
        return app

    def on_mount(self) -> None:
        """Draw the table once it exists."""
        self.basra_app.refresh_table()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """With nobody but bots at the table, the keys for a person's move are hidden."""
        return bool(self.basra_app.session.people) or action not in PERSON_ACTIONS

    def on_resize(self, event: events.Resize) -> None:
        """Big cards on big terminals; redraw the seats' columns for the new width."""
        big = event.size.width >= BIG_SIZE[0] and event.size.height >= BIG_SIZE[1]
        for row in self.query(CardRow):
            row.set_big(big)
        self.call_after_refresh(self.basra_app.refresh_table)

    def on_card_row_picked(self, event: CardRow.Picked) -> None:
        """A click on a card of the hand picks it; a click on the picked card plays it."""
        if event.row.id == "hand":
            self.basra_app.click_card(event.index)

    def action_play(self) -> None:
        """Play the selected card."""
        self.basra_app.play_selected()

    def action_trail(self) -> None:
        """Lay the selected card on the floor (or say why it cannot be)."""
        self.basra_app.trail_selected()

    def action_move(self, delta: int) -> None:
        """Select the card left or right of the selected one."""
        self.basra_app.move_selection(delta)

    def action_pick(self, number: int) -> None:
        """Select the card with this number."""
        self.basra_app.select(number - 1)

    async def action_hint(self) -> None:
        """Ask for a hint (the search runs in a thread; the screen stays live)."""
        await self.basra_app.ask_hint()

    def action_save(self) -> None:
        """Save the game."""
        self.basra_app.open_save()

    def action_help(self) -> None:
        """Show the keys and rules."""
        self.basra_app.open_help()

    def action_leave(self) -> None:
        """Leave, offering to save."""
        self.basra_app.action_leave()

    def action_scroll_log(self, pages: int) -> None:
        """Scroll the play log a page up (-1) or down (1)."""
        log = self.query_one(PlayLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)


class BasraApp(App[str | None]):
    """Basra at one table in the terminal: people and bots, one game after another.

    ``pace`` is the time in seconds a bot's move takes to show (half before it
    is announced, half before it is made); 0 plays at once. The app's result is
    a message for the shell (where the game was saved), or ``None``.
    """

    TITLE = "Basra"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "leave", "Quit", show=False, priority=True),
        Binding("ctrl+q", "leave", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        session: Session,
        *,
        pace: float = 1.0,
        save_path: Path | None = None,
        resumed_from: Path | None = None,
        theme_name: str | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.pace = max(0.0, pace)
        self.save_path = save_path if save_path is not None else default_save_path()
        self.own_file = resumed_from
        """The file that holds this game as it was earlier (resumed from or saved to):
        saving there again replaces it without asking; any other file is never replaced
        silently."""
        self.theme_name = theme_name
        self.table = TableScreen()
        self.viewer: int | None = None
        self.selected: int | None = None
        self.message: Text | None = None
        self.thinking: int | None = None
        self.pending: Play | None = None
        self.hinted: Move | None = None
        self.choosing: Move | None = None
        self.saved_to: Path | None = None
        self.acknowledged = -1
        self.logged = (-1, -1)
        self.review_samples = DEFAULT_SAMPLES
        """Deals a review plays out per decision (``r`` on a score sheet)."""
        self._bot_task: asyncio.Task[None] | None = None
        self._reset_viewer()

    # ------------------------------------------------------------- the flow

    def on_mount(self) -> None:
        """Show the table and start the game."""
        if self.theme_name is not None:
            self.theme = self.theme_name
        self.push_screen(self.table)
        self.call_after_refresh(self.advance)

    def _reset_viewer(self) -> None:
        people = self.session.people
        self.viewer = people[0] if len(people) == 1 else None

    @property
    def at_table(self) -> bool:
        """True when no dialog covers the table."""
        return self.screen is self.table

    def advance(self) -> None:
        """Do the next thing the game needs (see the module docstring)."""
        if not self.at_table or self._bot_task is not None:
            return
        session = self.session
        state = session.state
        if state.phase == PHASE_PLAY:
            seat = state.turn
            if not session.seats[seat].is_person:
                self._bot_task = asyncio.create_task(self._bot_turn(session))
                return
            if self.viewer != seat:
                previous = self.viewer
                self.viewer = None
                self.selected = None
                self.refresh_table()
                self.push_screen(
                    PassScreen(
                        session.seats[seat].name,
                        session.seats[previous].name if previous is not None else None,
                    ),
                    callback=lambda _: self._take_keyboard(seat),
                )
                return
            if self.selected is None:
                self.selected = 0
            self.refresh_table()
            return
        last = len(state.rounds) - 1
        result = state.rounds[last].result if last >= 0 else None
        if result is not None and self.acknowledged < last:
            self.acknowledged = last
            self.refresh_table()
            self._show_round(last)
            return
        if state.phase == PHASE_OVER:
            self._show_game_over()
            return
        session.deal()
        self.selected = None
        self.hinted = None
        self.refresh_table()
        self.advance()

    def _take_keyboard(self, seat: int) -> None:
        self.viewer = seat
        self.selected = 0
        self.message = None
        self.refresh_table()
        self.advance()

    async def _wait(self, seconds: float) -> None:
        """Sleep, then wait while a dialog covers the table (a bot waits for people)."""
        if seconds > 0:
            await asyncio.sleep(seconds)
        while not self.at_table:
            await asyncio.sleep(0.05)

    async def _bot_turn(self, session: Session) -> None:
        """One bot move: think, show what it takes, then make it."""
        try:
            seat = session.state.turn
            view = session.view(seat)
            self.thinking = seat
            self.refresh_table()
            started = time.monotonic()
            move = await asyncio.to_thread(session.bot_move, view)
            await self._wait(self.pace / 2 - (time.monotonic() - started))
            if session is not self.session:
                return
            self.thinking = None
            self.pending = Play(seat, move, session.basra_of(move))
            self.refresh_table()
            await self._wait(self.pace / 2)
            if session is not self.session:
                return
            self.pending = None
            self.message = None
            session.play(move)
        except BotError as exc:
            name = session.seats[seat].name
            self.message = Text(f"{name}, a bot, failed to move: {exc}", style="bold red")
            self.thinking = self.pending = None
            self.refresh_table()
            return
        finally:
            if session is self.session:
                self._bot_task = None
        # No await between these two, so no frame shows the table half updated.
        self.refresh_table()
        self.advance()

    def _stop_bots(self) -> None:
        if self._bot_task is not None:
            self._bot_task.cancel()
            self._bot_task = None
        self.thinking = self.pending = None

    def new_game(self, session: Session) -> None:
        """Play ``session`` from where it is (a new game, or one just resumed)."""
        self._stop_bots()
        self.session.close()
        self.session = session
        self.save_path = default_save_path()
        self.own_file = self.saved_to = None
        self.acknowledged = -1
        self.selected = None
        self.message = None
        self.hinted = None
        self._reset_viewer()
        self.refresh_table()
        self.advance()

    # ------------------------------------------------------------ the person

    def my_view(self) -> View | None:
        """The view of the person to move, when they have the keyboard and may move."""
        state = self.session.state
        if (
            state.phase != PHASE_PLAY
            or self.viewer != state.turn
            or not self.session.seats[state.turn].is_person
            or self._bot_task is not None
            or not self.at_table
        ):
            return None
        return self.session.view(state.turn)

    def _say(self, text: str | Text, style: str = "") -> None:
        self.message = text if isinstance(text, Text) else Text(text, style=style)
        self.refresh_table()

    def _not_your_turn(self) -> None:
        if self.session.state.phase == PHASE_PLAY:
            name = self.session.seats[self.session.state.turn].name
            self._say(f"Wait: it is {name}'s turn.", "italic")

    def select(self, index: int) -> None:
        """Select the card at ``index`` of the hand."""
        view = self.my_view()
        if view is None:
            self._not_your_turn()
            return
        hand = cards_of(view.hand)
        if not 0 <= index < len(hand):
            self._say(f"There is no card {index + 1}: your hand has {len(hand)}.", "italic")
            return
        self.selected = index
        self.message = None
        self.refresh_table()

    def move_selection(self, delta: int) -> None:
        """Select the next card to the left (-1) or right (+1)."""
        view = self.my_view()
        if view is None:
            return
        size = view.hand.bit_count()
        current = self.selected if self.selected is not None else 0
        self.select((current + delta) % size)

    def click_card(self, index: int) -> None:
        """A click selects a card, and a click on the selected card plays it."""
        if index == self.selected and self.my_view() is not None:
            self.play_selected()
        else:
            self.select(index)

    def _selected_card(self, view: View) -> int | None:
        hand = cards_of(view.hand)
        if self.selected is None or not 0 <= self.selected < len(hand):
            return None
        return hand[self.selected]

    def play_selected(self) -> None:
        """Play the selected card; ask which set to take when there are several."""
        view = self.my_view()
        if view is None:
            self._not_your_turn()
            return
        card = self._selected_card(view)
        if card is None:
            self._say("Pick a card first: its number, ← →, or a click.", "italic")
            return
        moves = [m for m in view.legal_moves() if m.card == card]
        if len(moves) == 1:
            self.make_move(moves[0])
            return
        labels = [
            choice_label(m, self.session.basra_of(m), point_cards_text(view.rules, m.taken()))
            for m in moves
        ]
        first = moves.index(self.hinted) if self.hinted in moves else 0
        self.push_screen(
            ChoiceScreen(moves, labels, first, on_highlight=self._choice_highlighted),
            callback=self._chosen,
            wait_for_dismiss=False,
        )

    def _choice_highlighted(self, move: Move) -> None:
        """The floor shows what the highlighted capture set takes, and only that."""
        self.choosing = move
        self.refresh_table()

    def _chosen(self, move: Move | None) -> None:
        self.choosing = None
        if move is not None:
            self.make_move(move)
        else:
            self.refresh_table()

    def trail_selected(self) -> None:
        """Lay the selected card on the floor, or explain why it must take."""
        view = self.my_view()
        if view is None:
            self._not_your_turn()
            return
        card = self._selected_card(view)
        if card is None:
            return
        moves = [m for m in view.legal_moves() if m.card == card]
        if moves[0].take:
            takes = " or ".join(" ".join(card_label(c) for c in m.taken()) for m in moves)
            self._say(
                f"{card_label(card)} can take {takes}, so it must: in Basra a card that "
                "can take cards cannot be laid on the floor. Press Enter to take.",
                "bold",
            )
            return
        self.make_move(moves[0])

    def make_move(self, move: Move) -> None:
        """Play a legal move for the person to move."""
        if self.my_view() is None:
            return
        self.session.play(move)
        self.selected = None
        self.message = None
        self.hinted = None
        self.refresh_table()
        self.advance()

    async def ask_hint(self) -> None:
        """Show the coach's move here, and why (one analysis); select that card.

        The analysis takes a fraction of a second: it runs in a worker thread,
        and a hint that arrives after the position changed is dropped.
        """
        view = self.my_view()
        if view is None:
            self._say("Hints are for your turn.", "italic")
            return
        session = self.session
        plays = len(session.state.plays)
        self._say("Thinking about a hint…", "italic")
        try:
            suggestion = await asyncio.to_thread(session.hint, view.seat)
        except (BotError, ValueError) as exc:
            self._say(f"No hint: {exc}", "italic")
            return
        if session is not self.session or len(session.state.plays) != plays:
            return
        move = suggestion.move
        self.hinted = move
        self.selected = cards_of(view.hand).index(move.card)
        self._say(Text.assemble(("Hint: ", "bold"), f"{suggestion.reason}."))

    # ------------------------------------------------------------- dialogs

    def _show_round(self, index: int) -> None:
        session = self.session
        state = session.state
        result = state.rounds[index].result
        assert result is not None
        sides = [session.side_name(s) for s in range(len(state.sides))]
        notes = []
        left = session.leftovers(index)
        if result.last_capture_side is not None and left:
            cards = "the card" if left == 1 else f"the {left} cards"
            notes.append(
                f"{sides[result.last_capture_side]} took {cards} left on the floor "
                "(the last to take)."
            )
        if result.carry:
            notes.append(
                f"A tie for most cards: {result.carry} points wait for the next round's winner."
            )
        elif not any(result.majority) and max(result.cards) == sorted(result.cards)[-2]:
            notes.append("A tie for most cards: nobody gets those points.")
        go_on = "See who won (Enter)" if state.is_over else "Deal the next round (Enter)"
        sheet = score_sheet(result, sides, state.rules, state.rules.target)
        self.push_screen(
            RoundScreen(
                f"Round {index + 1} is over",
                sheet,
                notes,
                go_on,
                on_review=self._reviewer([index], f"Review of round {index + 1}"),
            ),
            callback=lambda _: self.advance(),
        )

    def _show_game_over(self) -> None:
        session = self.session
        state = session.state
        outcome = state.outcome()
        assert outcome is not None
        sides = [session.side_name(s) for s in range(len(state.sides))]
        order = sorted(range(len(sides)), key=lambda s: -state.scores[s])
        if outcome.winner is None:
            headline = f"It's a draw at {state.scores[0]} all."
        else:
            name = sides[outcome.winner]
            others = " and ".join(str(state.scores[s]) for s in order if s != outcome.winner)
            verb = "win" if name == "You" or " & " in name else "wins"
            headline = f"{name} {verb} with {state.scores[outcome.winner]} to {others}!"
        lines = [f"{sides[s]}: {state.scores[s]}" for s in order]
        lines.append(f"{len(state.rounds)} round{'s' if len(state.rounds) != 1 else ''} played.")
        self.push_screen(
            GameOverScreen(
                headline,
                lines,
                self.saved_to,
                on_review=self._reviewer(None, "Review of the game"),
            ),
            callback=self._after_game,
        )

    def _reviewer(self, rounds: list[int] | None, title: str) -> Callable[[], None] | None:
        """What ``r`` does on a dialog: review those rounds (None: every round), when the
        game has a record (a position set up for analysis has no packs to replay)."""
        if any(log.pack is None for log in self.session.state.rounds):
            return None
        return lambda: self.open_review(rounds, title)

    def open_review(self, rounds: list[int] | None, title: str) -> None:
        """Review the rounds played (all of them with ``None``) over the current dialog.

        Only rounds that are over: every card dealt in them has been played face up.
        """
        state = self.session.state
        done = [i for i, log in enumerate(state.rounds) if log.result is not None]
        wanted = done if rounds is None else [i for i in rounds if i in done]
        if not wanted:
            return
        record = record_of(state, self.session.names)
        self.push_screen(ReviewScreen(record, wanted, title, self.review_samples))

    def _after_game(self, choice: str | None) -> None:
        if choice == "again":
            self.new_game(self.session.again())
        elif choice == "save":
            self._open_save_screen(lambda _: self._show_game_over())
        else:
            self.exit(self._farewell())

    def _farewell(self) -> str | None:
        if self.saved_to is None:
            return None
        if self.session.state.is_over:
            return f"The finished game is saved to {self.saved_to}."
        return f"Game saved to {self.saved_to}. Continue with: basra play --resume {self.saved_to}"

    def _saved(self, path: Path) -> None:
        self.saved_to = self.save_path = self.own_file = path

    def _open_save_screen(self, then: Callable[[Path | None], None]) -> None:
        def saved(path: Path | None) -> None:
            if path is not None:
                self._saved(path)
            then(path)

        screen = SaveScreen(self.session, self.save_path, replaceable=self.own_file)
        self.push_screen(screen, callback=saved)

    def open_save(self) -> None:
        """Ask for a file name and save the game there."""
        if not self.at_table:
            return

        def then(path: Path | None) -> None:
            if path is not None:
                self._say(f"Saved to {path}. Continue it later with: basra play --resume {path}")
            self.advance()

        self._open_save_screen(then)

    def game_title(self) -> str:
        """The rules being played, for people: a rules file's name, or the variant's."""
        state = self.session.state
        if self.session.rules_name:
            return self.session.rules_name
        custom = state.rules != preset(state.variant)
        return variant_title(state.variant) + (" (custom)" if custom else "")

    def open_help(self) -> None:
        """Show the keys and the rules being played, written from their settings."""
        if not self.at_table:
            return
        state = self.session.state
        heading = rules_heading(state.variant, state.rules, self.session.rules_name)
        screen = HelpScreen(
            heading, rules_sections(state.rules), hot_seat=len(self.session.people) > 1
        )
        self.push_screen(screen, callback=lambda _: self.advance())

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The command palette's commands; its Quit offers to save, like q and Ctrl+C."""
        for command in super().get_system_commands(screen):
            if command.callback == self.action_quit:
                yield SystemCommand(
                    "Quit", "Leave the game (offering to save it)", self.action_leave
                )
            else:
                yield command

    async def action_quit(self) -> None:
        """Whatever asks to quit, the person is offered to save first."""
        self.action_leave()

    def action_leave(self) -> None:
        """Ctrl+C, Ctrl+Q, q or the palette's Quit: offer to save, then leave.

        The game is saved where it was saved before (or resumed from); a file
        that holds anything else is never replaced: the save goes to a new name. A
        finished game has nothing to continue: it ends at once.
        """
        if isinstance(self.screen, LeaveScreen):
            return
        if self.session.state.is_over:
            self.exit(self._farewell())
            return
        wanted = self.save_path
        mine = self.own_file is not None and same_file(wanted, self.own_file)
        target = wanted if mine else free_path(wanted)

        def chosen(choice: str | None) -> None:
            if choice == "save":
                try:
                    path = self.session.save(target, replace=mine)
                except SessionError as exc:
                    self._say(f"Could not save: {exc}", "bold red")
                    return
                self._saved(path)
                self.exit(self._farewell())
            elif choice == "quit":
                self.exit(None)
            else:
                self.advance()

        taken = wanted if target != wanted else None
        self.push_screen(LeaveScreen(target, taken=taken), callback=chosen)

    # ---------------------------------------------------------------- drawing

    def refresh_table(self) -> None:
        """Redraw the table from the view of the seat at the keyboard."""
        if not self.table.is_mounted:
            return
        session = self.session
        view = session.view(self.viewer if self.viewer is not None else 0)
        query = self.table.query_one
        query("#title", Static).update(self._title(view))
        query("#seats", Static).update(self._seats(view))
        query("#floor-label", Static).update(self._floor_label(view))
        floor_faces: dict[int, str] = {}
        my_view = self.my_view()
        preview: list[Move] = []
        if self.pending is not None:
            floor_faces = dict.fromkeys(self.pending.move.taken(), BOT_TAKES)
        elif self.choosing is not None:
            floor_faces = dict.fromkeys(self.choosing.taken(), TAKES)
        elif my_view is not None:
            card = self._selected_card(my_view)
            if card is not None:
                preview = [m for m in my_view.legal_moves() if m.card == card]
                for move in preview:
                    floor_faces.update(dict.fromkeys(move.taken(), TAKES))
        query("#floor", CardRow).show(
            cards_of(view.floor), faces=floor_faces, empty_text="The floor is empty."
        )
        logged = (view.round_index, len(view.plays))
        query("#log", PlayLog).show(self._log_text(view), follow=logged != self.logged)
        self.logged = logged
        query("#hand-label", Static).update(self._hand_label(view, my_view))
        hand = query("#hand", CardRow)
        if self.viewer is None:
            hidden = (
                "Every seat is a bot: you are watching."
                if not session.people
                else "Hands are hidden until the next player takes the keyboard."
            )
            hand.show([], empty_text=hidden)
        else:
            choosing = my_view is not None or self.choosing is not None
            hand.show(
                cards_of(view.hand),
                selected=self.selected if choosing else None,
                empty_text="No cards in hand.",
            )
        query("#status", Static).update(self._status(view, my_view, preview))

    def _title(self, view: View) -> Text:
        state = self.session.state
        table = f"{state.players} players" + (" in teams" if state.teams else "")
        text = Text(f"{self.game_title()} · {table} · to {view.rules.target}")
        if view.round_index >= 0:
            text.append(f" · round {view.round_index + 1}")
        return text

    def _seats(self, view: View) -> Table:
        """A row per seat (partners together): who, cards in hand, then the side's
        cards taken, basras and score, in columns that keep their place."""
        session = self.session
        width = self.table.query_one("#seats").content_size.width or 78
        numbers = (("Hand", 4), ("Taken", 5), ("Basras", 9), ("Score", 5))
        room = width - sum(w for _, w in numbers) - 2 * len(numbers)
        suffixes = [self._seat_suffix(seat, dealer=True) for seat in range(view.players)]
        longest = max(
            len(seat.name) + len(suffix)
            for seat, suffix in zip(session.seats, suffixes, strict=True)
        )
        partner = 2 if session.state.teams else 0
        player_width = max(8, min(2 + partner + longest, room))
        table = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, expand=False)
        table.add_column("Player", width=player_width, no_wrap=True, overflow="ellipsis")
        for header, minimum in numbers:
            table.add_column(header, justify="right", min_width=minimum, no_wrap=True)
        playing = view.phase == PHASE_PLAY
        for side, seats in enumerate(session.state.sides):
            for index, seat in enumerate(seats):
                to_move = playing and view.turn == seat
                who = Text("▶ " if to_move else "  ", style="bold yellow")
                if index:
                    who.append("& ", style="dim")
                suffix = self._seat_suffix(seat, dealer=seat == view.dealer)
                budget = player_width - len(who) - len(suffix.plain)
                name = session.seats[seat].name
                if len(name) > budget:
                    name = name[: max(1, budget - 1)] + "…"
                who.append(name, style="bold" if to_move else "")
                who.append_text(suffix)
                hand = str(view.hand_sizes[seat])
                if index:
                    table.add_row(who, hand, "", "", "")
                    continue
                basras = view.basras[side]
                table.add_row(
                    who,
                    hand,
                    str(view.captured[side].bit_count()),
                    f"{basras} (+{view.basra_points[side]})" if basras else "0",
                    Text(str(view.scores[side]), style="bold"),
                )
        return table

    def _seat_suffix(self, seat: int, *, dealer: bool) -> Text:
        """What follows a seat's name: the bot's level, and whether it deals."""
        suffix = Text()
        level = self.session.seats[seat].level
        if level is not None:
            short = level if len(level) <= 20 else level[:19] + "…"
            suffix.append(f" ({short})", style="dim")
        if dealer:
            suffix.append(" · deals", style="dim italic")
        return suffix

    def _floor_label(self, view: View) -> Table:
        grid = Table.grid(expand=True)
        grid.add_column()
        grid.add_column(justify="right")
        count = view.floor.bit_count()
        right = f"Stock: {view.stock_size} cards"
        if view.carry:
            right += f" · {view.carry} for most cards held over"
        grid.add_row(f"Floor · {count} card{'s' if count != 1 else ''}", right)
        return grid

    def _hand_label(self, view: View, my_view: View | None) -> Text:
        if self.viewer is None:
            return Text("Hand")
        name = self.session.seats[self.viewer].name
        label = "Your hand" if name == "You" else f"{name}'s hand"
        if my_view is None:
            return Text(label)
        return Text(f"{label} · {pick_keys(my_view.hand.bit_count())}")

    def _log_text(self, view: View) -> Text:
        """Every play of the round so far, the newest last and in bold."""
        names = self.session.names
        lines: list[Text] = []
        if view.round_index >= 0:
            dealer = names[view.dealer]
            first = names[(view.dealer + 1) % view.players]
            dealt = "you dealt" if dealer == "You" else f"{dealer} dealt"
            leads = "you play" if first == "You" else f"{first} plays"
            lines.append(
                Text(f"Round {view.round_index + 1}: {dealt}; {leads} first.", style="dim")
            )
        plays = view.plays
        for index, play in enumerate(plays):
            style = "bold" if index == len(plays) - 1 else ""
            if play.basra:
                style += " yellow"
            lines.append(Text(describe_play(play, names), style=style.strip()))
        return Text("\n").join(lines)

    def _status(self, view: View, my_view: View | None, preview: list[Move]) -> Text:
        session = self.session
        state = session.state
        if self.pending is not None:
            seat, move, basra = self.pending
            name = session.seats[seat].name
            if not move.take:
                return Text(f"{name} lays {card_label(move.card)} on the floor.", style="bold")
            return Text(
                f"{name} plays {card_label(move.card)} and {describe_move(move, basra)}.",
                style="bold",
            )
        if self.thinking is not None:
            return Text(f"{session.seats[self.thinking].name} is thinking…", style="italic")
        if self.message is not None:
            return self.message
        if state.phase == PHASE_OVER:
            return Text("The game is over.")
        if my_view is None:
            return Text("")
        name = session.seats[my_view.seat].name
        turn = "Your turn" if name == "You" else f"{name}, your turn"
        if not preview:
            return Text(f"{turn}: {pick_keys(my_view.hand.bit_count())}.")
        card = card_label(preview[0].card)
        if len(preview) > 1:
            return Text.assemble(
                (f"{turn}. ", "bold"),
                f"{card} can take {len(preview)} different sets of cards (green): "
                "Enter to choose one.",
            )
        move = preview[0]
        if not move.take:
            return Text.assemble(
                (f"{turn}. ", "bold"), f"{card} takes nothing here: Enter lays it on the floor."
            )
        basra = session.basra_of(move)
        points = point_cards_text(my_view.rules, [move.card, *move.taken()])
        text = Text.assemble((f"{turn}. ", "bold"), f"{card} {describe_move(move, basra)}")
        if points:
            text.append(f" ({points})")
        text.append(". Enter to play it.")
        return text


def pick_keys(cards: int) -> str:
    """How to pick and play a card from a hand of ``cards`` cards.

    >>> pick_keys(4), pick_keys(1)
    ('1-4 or ← → to pick, Enter to play', 'Enter to play your last card')
    """
    if cards == 1:
        return "Enter to play your last card"
    return f"1-{cards} or ← → to pick, Enter to play"
