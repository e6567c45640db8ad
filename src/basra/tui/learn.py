"""``basra learn`` in the terminal: a course's steps, one position after another.

Each step shows its goal, the position and what the chosen card would take;
the move played is checked by :func:`basra.learn.lessons.check_step`, which
accepts only the taught move and explains any other. ``n`` and ``p`` go to
the next and previous step (``n`` once the step is done: before, it says so).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from basra.learn.lessons import Course, StepResult, check_step
from basra.learn.words import words
from basra.moves import Move
from basra.tui.position import PositionApp

__all__ = ["LearnApp"]


class LearnApp(PositionApp):
    """A course in the terminal."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("p", "previous", "Previous")]

    def __init__(self, course: Course, *, lang: str = "en", start: int = 0) -> None:
        super().__init__(lang=lang)
        self.course = course
        self.index = start
        self.result: StepResult | None = None
        self.done: set[int] = set()
        self.view = course.steps[start].view()

    @property
    def step_count(self) -> int:
        """How many steps the course has."""
        return len(self.course.steps)

    def title_text(self) -> str:
        """The course, and the step."""
        step = self.course.steps[self.index]
        where = self.word("tui_step_of", n=self.index + 1, m=self.step_count)
        return f"{self.say(self.course.title)} · {where}: {self.say(step.title)}"

    def goal_text(self) -> str:
        """The step's goal."""
        return self.say(self.course.steps[self.index].goal)

    def info_text(self) -> Text:
        """The rule the step teaches."""
        return Text(self.say(self.course.steps[self.index].rule))

    def submit(self, move: Move) -> None:
        """Check the move against the step."""
        step = self.course.steps[self.index]
        self.result = check_step(step, move.text())
        if self.result.correct:
            self.done.add(self.index)
            self.locked = True
        self.on_language()

    def on_language(self) -> None:
        """Write the last result in the chosen language."""
        if self.result is None:
            self.message = Text()
            return
        style = "bold green" if self.result.correct else "bold dark_orange"
        self.message = Text(self.say(self.result.words), style=style)
        if self.result.correct:
            last = self.index + 1 == self.step_count
            follow = self.word("tui_course_done" if last else "tui_next_step")
            self.message.append("\n" + follow, style="")

    def go(self, index: int) -> None:
        """Show step ``index``."""
        self.index = index
        self.result = None
        self.show(self.course.steps[index].view())

    def action_next(self) -> None:
        """The next step (once this one is done)."""
        if self.index + 1 >= self.step_count:
            self.not_yet(words("tui_last_step"))
        elif self.index in self.done:
            self.go(self.index + 1)
        else:
            self.not_yet(words("tui_step_first"))

    def action_previous(self) -> None:
        """The previous step."""
        if self.index > 0:
            self.go(self.index - 1)
