"""``basra learn``: the lesson course of a variant (or custom rules), in the terminal."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from basra.cli import CliError
from basra.cli.common import add_rules_options, rules_from_args
from basra.locales import default_language, languages

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add the command of this module."""
    p = subparsers.add_parser(
        "learn",
        help="learn a variant step by step: short positions with one move to find",
        description="A short interactive course for a variant (or custom --rules), built from "
        "its settings: capturing by pairing and adding up, the jack, the 7♦ where it is "
        "special, what a basra is in these rules, point cards, the most-cards bonus and the "
        "target. Each step is a position with a goal; only the taught move is accepted, and "
        "any other is explained. Keys: 1-6 or arrows pick a card (what it would take is "
        "shown), Enter plays it, n/p next/previous step, l switches language, q quits. "
        "docs/LEARN.md describes the courses.",
    )
    add_rules_options(p)
    p.add_argument(
        "--lang",
        choices=tuple(languages()),
        default=default_language(),
        help="language (default: the terminal's locale, else en)",
    )
    p.add_argument("--list", action="store_true", help="print the course's steps in words and exit")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the course as JSON (every step's position and texts) and exit",
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="with --list or --json: every preset's course (as GET /api/lessons lists them)",
    )
    p.set_defaults(run=run_learn)


def run_learn(args: argparse.Namespace) -> int:
    from basra.learn.lessons import course_for, courses, courses_json
    from basra.learn.words import plain

    if args.all and not (args.list or args.json):
        raise CliError("--all goes with --list or --json")
    if args.all:
        if args.json:
            print(json.dumps(courses_json(), ensure_ascii=False))
        else:
            for course in courses():
                steps = ", ".join(plain(s.title[args.lang]) for s in course.steps)
                print(f"{course.variant}: {plain(course.title[args.lang])}: {steps}")
        return 0
    variant, _, rules = rules_from_args(args)
    course = course_for(variant, rules)
    if args.json:
        print(json.dumps(course.to_json(steps=True), ensure_ascii=False))
        return 0
    if args.list:
        print(plain(course.title[args.lang]))
        for number, step in enumerate(course.steps, start=1):
            print(f"{number:>2}. {plain(step.title[args.lang])}: {plain(step.goal[args.lang])}")
        return 0
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError(
            "the course needs a terminal (its input or output is redirected); "
            "--list or --json print it instead"
        )
    try:
        from basra.tui.learn import LearnApp
    except ImportError:
        raise CliError("the terminal course needs Textual: pip install 'basra[tui]'") from None
    LearnApp(course, lang=args.lang).run()
    return 0
