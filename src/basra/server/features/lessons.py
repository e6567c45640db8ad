"""Lessons on the web (``/learn``): every preset's course, a custom rule set's, and each
person's progress.

The courses are the core's (:mod:`basra.learn.lessons`): built from the rule
settings, each step a position with one move to find. This feature serves them
(``GET /api/lessons``, ``GET /api/lessons/{variant}``), checks a move played in a
step (:func:`basra.learn.lessons.check_step`: only the taught move is right; any
other is explained in words, English and Arabic, by the core) and keeps the steps
each identity has done (:class:`~basra.server.features.learn_store.LessonStore`), guests
included: an identity is made for every browser.

A course is named by its key (:func:`course_key`): the preset's name, or, for
custom rules, the preset's name and a hash of the settings that differ, so the same
custom rules keep the same progress.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from basra.learn.lessons import Course, check_step, course_for, courses
from basra.server.errors import ProtocolError
from basra.server.features.learn_store import LessonStore
from basra.server.identity import Caller
from basra.server.table.forms import check_rules

__all__ = ["MAX_MOVE_TEXT", "Lessons", "course_key", "custom_course"]

MAX_MOVE_TEXT = 48
"""The longest move text read (a capture of many cards fits)."""


def course_key(variant: str, overrides: dict[str, Any]) -> str:
    """The name progress is kept under: the preset's, or with a hash of custom settings.

    >>> course_key("lebanese", {})
    'lebanese'
    >>> course_key("lebanese", {"target": 61})
    'lebanese+bd95cbc717e2'
    """
    if not overrides:
        return variant
    text = json.dumps(overrides, sort_keys=True, separators=(",", ":"))
    return f"{variant}+{hashlib.sha256(text.encode()).hexdigest()[:12]}"


@lru_cache(maxsize=128)
def _custom(variant: str, settings: str) -> Course:
    rules, _ = check_rules(variant, json.loads(settings))
    return course_for(variant, rules)


def custom_course(variant: str, overrides: dict[str, Any]) -> Course:
    """The course of a preset with custom settings (already checked), made once."""
    return _custom(variant, json.dumps(overrides, sort_keys=True))


class Lessons:
    """Serves the courses, checks moves in their steps, and keeps who did which step."""

    def __init__(self, steps: LessonStore, clock: Callable[[], float] = time.time) -> None:
        self.steps = steps
        self.clock = clock

    @staticmethod
    def course_of(variant: str, overrides: Any) -> tuple[Course, str]:
        """The course of a preset (with custom settings, checked: ``bad_settings`` naming
        the field) and its key."""
        _, changed = check_rules(variant, overrides)
        if not changed:
            found = next(c for c in courses() if c.variant == variant)
            return found, variant
        return custom_course(variant, changed), course_key(variant, changed)

    async def _done(self, caller: Caller | None) -> dict[str, list[str]]:
        """The caller's steps done, per course key (none without a caller)."""
        out: dict[str, list[str]] = {}
        if caller is None:
            return out
        for row in await self.steps.done(caller.identity):
            out.setdefault(row.course, []).append(row.step)
        return out

    async def listing(self, caller: Caller | None) -> dict[str, Any]:
        """``GET /api/lessons``: every preset's course (variant, title, steps' ids and
        titles) and the caller's steps done in each."""
        done = await self._done(caller)
        listed = []
        for course in courses():
            entry = course.to_json()
            entry["key"] = course.variant
            entry["done"] = _in_order(course, done.get(course.variant, []))
            listed.append(entry)
        return {"courses": listed}

    async def course(self, caller: Caller | None, variant: str, overrides: Any) -> dict[str, Any]:
        """One course with every step's position (the learner's view only: the taught move
        and the other hand are never in it), and the caller's steps done."""
        course, key = self.course_of(variant, overrides)
        out = course.to_json(steps=True)
        for step, shown in zip(course.steps, out["steps"], strict=True):
            # The table draws a position from a seat's view and who is on which side.
            shown["sides"] = [list(side) for side in step.state().sides]
        out["key"] = key
        out["overrides"] = check_rules(variant, overrides)[1]
        out["done"] = _in_order(course, (await self._done(caller)).get(key, []))
        return out

    async def check(
        self, caller: Caller, variant: str, overrides: Any, step_id: str, move: str
    ) -> dict[str, Any]:
        """A move played in a step: right (the step is kept as done) or not, and why."""
        course, key = self.course_of(variant, overrides)
        try:
            step = course.step(step_id)
        except KeyError:
            raise ProtocolError(
                "no_such_step",
                f"the course {key!r} has no step {step_id[:40]!r}; its steps are: "
                + ", ".join(s.id for s in course.steps),
            ) from None
        if len(move) > MAX_MOVE_TEXT:
            raise ProtocolError(
                "bad_request",
                f"move: at most {MAX_MOVE_TEXT} characters",
                {"field": "move"},
            )
        result = check_step(step, move)
        if result.correct:
            await self.steps.mark(caller.identity, key, step.id, self.clock())
        done = _in_order(course, (await self._done(caller)).get(key, []))
        ids = [s.id for s in course.steps]
        after = ids[ids.index(step.id) + 1 :]
        return {
            "correct": result.correct,
            "move": result.move,
            "words": result.words,
            "step": step.id,
            "next": after[0] if after else None,
            "done": done,
            "complete": len(done) == len(ids),
        }


def _in_order(course: Course, done: list[str]) -> list[str]:
    """The steps done, in the course's order (steps no longer in the course left out)."""
    kept = set(done)
    return [step.id for step in course.steps if step.id in kept]
