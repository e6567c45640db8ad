"""The review of a round or a game in the terminal (``r`` on the score sheet or at the end).

:class:`ReviewScreen` reviews the game's record (:func:`basra.coach.review.review_record`)
in a worker thread, showing its progress, then lets the person browse every
decision: the move played, its label and loss, and below, the selected
decision's floor, hand and options with their expected points. A round is
reviewed once it is over: every card dealt in it has then been played face up,
so nothing hidden is shown.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from basra.coach.analysis import DEFAULT_SAMPLES
from basra.coach.review import MARGIN_WORDS, Decision, GameReview, review_record, seat_words
from basra.record import Record
from basra.tui.dialogs import DIALOG_CSS, Dialog
from basra.tui.text import card_label, cards_chips

__all__ = ["LABEL_STYLES", "ReviewScreen", "decision_line"]

LABEL_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "bold dark_orange",
    "blunder": "bold red",
    "forced": "dim",
}
"""How each label is drawn."""


class CancelledError(Exception):
    """The screen closed before the review was done."""


def _move_text(decision: Decision) -> str:
    move = decision.spot.played
    text = card_label(move.card)
    if move.take:
        text += " × " + " ".join(card_label(c) for c in move.taken())
    return text


def decision_line(review: GameReview, decision: Decision) -> Text:
    """One line of the list: round and play (from 1), who, the move, its label and loss."""
    spot = decision.spot
    names = review.record.names
    who = names[spot.seat] if names else f"seat {spot.seat + 1}"
    line = Text(f"{spot.round + 1}.{spot.play + 1:<3} {who[:12]:<12} {_move_text(decision):<18} ")
    line.append(decision.label, style=LABEL_STYLES[decision.label])
    if decision.graded and decision.label != "best":
        line.append(f"  −{decision.loss:.1f}")
    return line


class ReviewScreen(Dialog[None]):
    """A round's or the whole game's review: worked out with a progress bar, then browsed."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ReviewScreen")
        + """
    ReviewScreen > Vertical { width: 110; max-width: 100%; max-height: 100%; }
    ReviewScreen Static { max-width: 100%; }
    ReviewScreen OptionList { height: 12; max-height: 40%; width: 100%; }
    ReviewScreen #detail { height: auto; min-height: 6; }
    ReviewScreen ProgressBar { width: 100%; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("r", "close", show=False),
    ]

    def __init__(
        self,
        record: Record,
        rounds: Collection[int] | None,
        title: str,
        samples: int = DEFAULT_SAMPLES,
    ) -> None:
        super().__init__()
        self.record = record
        self.rounds = rounds
        self.title_text = title
        self.samples = samples
        self.review: GameReview | None = None
        self.error: str | None = None
        self._cancel = threading.Event()

    def compose(self) -> ComposeResult:
        """The widgets of this screen."""
        with Vertical():
            yield Static(self.title_text, classes="title")
            yield Static("Reviewing every decision…", id="progress-text")
            yield ProgressBar(id="progress", show_eta=False)
            yield Static("", id="summary")
            yield OptionList(id="decisions")
            yield Static("", id="detail")
            yield Static("↑↓ browse the decisions · Esc back", classes="note")

    def on_mount(self) -> None:
        """Start the review in a worker thread."""
        self.query_one("#decisions", OptionList).display = False
        self.run_worker(self._work, thread=True, exit_on_error=False)

    def _work(self) -> None:
        def progress(done: int, total: int) -> None:
            if self._cancel.is_set():
                raise CancelledError
            self.app.call_from_thread(self._progress, done, total)

        try:
            review = review_record(
                self.record, rounds=self.rounds, samples=self.samples, progress=progress
            )
        except CancelledError:
            return
        except Exception as exc:  # the review failed: say so, the game goes on
            if not self._cancel.is_set():
                self.app.call_from_thread(self._failed, str(exc))
            return
        if not self._cancel.is_set():
            self.app.call_from_thread(self._show, review)

    def _progress(self, done: int, total: int) -> None:
        if not self.is_mounted:
            return
        self.query_one("#progress", ProgressBar).update(total=max(total, 1), progress=done)
        self.query_one("#progress-text", Static).update(
            f"Reviewing every decision… {done} of {total}"
        )

    def _failed(self, message: str) -> None:
        self.error = message
        if self.is_mounted:
            self.query_one("#progress-text", Static).update(f"No review: {message}")

    def _show(self, review: GameReview) -> None:
        self.review = review
        if not self.is_mounted:
            return
        self.query_one("#progress", ProgressBar).display = False
        self.query_one("#progress-text", Static).update(
            f"{review.samples} deals a decision; {MARGIN_WORDS}."
        )
        self.query_one("#summary", Static).update(_summary(review))
        options = self.query_one("#decisions", OptionList)
        options.add_options(
            [Option(decision_line(review, d), id=str(i)) for i, d in enumerate(review.decisions)]
        )
        options.display = True
        first = next((i for i, d in enumerate(review.decisions) if d in review.key_moments), 0)
        if review.decisions:
            options.highlighted = first
        options.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the highlighted decision's table and options."""
        if self.review is None or event.option_index >= len(self.review.decisions):
            return
        decision = self.review.decisions[event.option_index]
        self.query_one("#detail", Static).update(_detail(self.review, decision))

    def action_close(self) -> None:
        """Back to the score sheet (a review still being worked out is dropped)."""
        self._cancel.set()
        self.dismiss(None)


def _summary(review: GameReview) -> Table:
    table = Table(box=None, padding=(0, 1), show_header=True, header_style="bold")
    headings = ("", "decisions", "mean loss", "accuracy", "mistakes", "blunders", "basras")
    for heading in headings:
        table.add_column(heading, justify="left" if not heading else "right", no_wrap=True)
    for seat in review.seats:
        if not seat.decisions:
            continue
        table.add_row(
            seat_words(review, seat.seat),
            str(seat.decisions),
            f"{seat.mean_loss:.2f}",
            f"{seat.accuracy:.0f}%",
            str(seat.labels["mistake"]),
            str(seat.labels["blunder"]),
            f"{seat.basras_given} given, {seat.basras_missed} missed",
        )
    return table


def _detail(review: GameReview, decision: Decision) -> Text:
    spot = decision.spot
    view = spot.view
    out = Text()
    out.append(f"Round {spot.round + 1}, play {spot.play + 1}: ", style="bold")
    out.append(f"{seat_words(review, spot.seat)} played {_move_text(decision)}\n")
    out.append("Floor ")
    out.append_text(cards_chips(view.floor) if view.floor else Text("empty", style="dim"))
    out.append("   Hand ")
    out.append_text(cards_chips(view.hand))
    out.append("\n")
    if not decision.graded:
        out.append("Only one legal move: not graded.", style="dim")
        return out
    out.append(f"  {'move':<22} {'expected round margin':>21}\n", style="dim")
    for option in decision.options[:6]:
        move = option.move
        text = card_label(move.card)
        if move.take:
            text += " × " + " ".join(card_label(c) for c in move.taken())
        mark = "played" if move == spot.played else ""
        if move == decision.best:
            mark = "best" + (", played" if mark else "")
        style = "bold" if move == spot.played else ""
        out.append(f"  {text:<22} {option.points:+7.1f} ± {option.stderr:.1f}  {mark}\n", style)
    if len(decision.options) > 6:
        out.append(f"  … {len(decision.options) - 6} more\n", style="dim")
    label = Text(decision.label, style=LABEL_STYLES[decision.label])
    out.append("Label: ")
    out.append_text(label)
    if decision.label != "best":
        out.append(f" (loss {decision.loss:.1f} ± {decision.loss_stderr:.1f})")
    if spot.basra_given:
        out.append(" · the next player made a basra")
    if spot.basra_missed:
        out.append(" · a basra was there to take")
    return out
