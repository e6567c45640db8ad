"""Learning Basra: a course of short lessons for any rule set, in English and Arabic.

- :mod:`basra.learn.lessons`: the courses (:func:`~basra.learn.lessons.course_for`,
  :func:`~basra.learn.lessons.courses`), their steps and
  :func:`~basra.learn.lessons.check_step`.
- :mod:`basra.learn.board`: what each card of a hand would take, and why a typed move
  is not one.
- :mod:`basra.learn.words`: cards, numbers and moves in words, per language.

Standard library only (with the engine and the coach's account of a move): it runs
unchanged under Pyodide. The terminal course is :mod:`basra.tui.learn`.
"""
