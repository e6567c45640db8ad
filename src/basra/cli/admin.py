"""``basra admin``: the operator's tool (docs/DEPLOY.md).

Against the database (the server may run): ``backup``, ``restore``, ``check``.
On its own: ``vapid`` (a Web Push key pair, and the configuration's lines for it).
Against a running server process (its ``/admin`` API, from an allowed address, with the
admin token: ``--token-file``, ``$BASRA_ADMIN_TOKEN`` or ``--config``'s
``[secrets] admin_token``): ``drain``, ``reports``, ``close-report``, ``close-table``,
``suspend``, ``ban``, ``lift``, ``rename``, ``silence``, ``unsilence`` (table talk),
``cancel-event``, ``rename-event``, ``club remove SLUG --reason WHY`` and ``club
clear-description SLUG``. An identity is named by its id or ``@username``; an event by its
id (``/tournaments/ID``); a club by its slug (``/club/SLUG``).

``--config FILE`` (or ``$BASRA_CONFIG``) may come before the action or after it, and is
enough on its own: the database actions use its ``[database]``, the server actions its
``[server]`` port (``--url`` names another process) and its ``[secrets] admin_token``.
Every failure is one ``error:`` line: a database that is not there is said so, and
nothing is created.
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from basra.cli import CliError

__all__ = ["register"]

DEFAULT_URL = "http://127.0.0.1:8000"
CONFIG_HELP = (
    "the site's configuration (docs/DEPLOY.md; default $BASRA_CONFIG): its database, "
    "its port and its admin token"
)
WHO_HELP = "an identity's id, or @username"
REASON_HELP = "why, in words (kept with the sanction)"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``admin`` command and its subcommands."""
    parser = subparsers.add_parser(
        "admin",
        help="operate a site: backups, draining, moderation",
        description="Operate a basra site (docs/DEPLOY.md).",
    )
    parser.add_argument("--config", metavar="FILE", dest="admin_config", help=CONFIG_HELP)
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def database(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--database",
            metavar="URL",
            help="a SQLite file, sqlite:///PATH or postgresql://USER@HOST/DB "
            "(default: the configuration's [database])",
        )
        sub.add_argument("--config", metavar="FILE", help=CONFIG_HELP)

    sub = actions.add_parser("backup", help="a consistent dump, checked by replaying every game")
    database(sub)
    sub.add_argument("out", type=Path, help="the dump file to write (a new file)")
    sub = actions.add_parser("restore", help="restore a dump (into an empty database), then check")
    database(sub)
    sub.add_argument("dump", type=Path, help="a file written by basra admin backup")
    sub.add_argument("--force", action="store_true", help="replace what the database holds")
    sub = actions.add_parser("check", help="replay every stored game")
    database(sub)

    sub = actions.add_parser(
        "vapid", help="make a Web Push (VAPID) key pair and print the configuration's lines"
    )
    sub.add_argument(
        "--out",
        type=Path,
        help="write the private key to this new file (mode 0600) and name it in the lines "
        "(default: print it, for an environment variable)",
    )
    sub.add_argument(
        "--subject", default="mailto:operator@example.org", help="the [push] subject to print"
    )

    def server(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--url",
            help="the process to call (default: the configuration's [server] host and port, "
            f"else {DEFAULT_URL})",
        )
        sub.add_argument(
            "--token-file",
            type=Path,
            help="the admin token's file (default: $BASRA_ADMIN_TOKEN, else the "
            "configuration's [secrets] admin_token)",
        )
        sub.add_argument("--config", metavar="FILE", help=CONFIG_HELP)

    server(actions.add_parser("drain", help="drain the process (it exits; systemd restarts it)"))
    sub = actions.add_parser("reports", help="list reports of players (open ones)")
    server(sub)
    sub.add_argument("--all", action="store_true", help="closed ones too")
    sub = actions.add_parser("close-report", help="close a report")
    server(sub)
    sub.add_argument("report", help="the report's id (basra admin reports lists them)")
    sub.add_argument("--resolution", default="closed", help="what was done")
    sub = actions.add_parser("close-table", help="end a table as abandoned")
    server(sub)
    sub.add_argument("table", help="the table's id (in its link: /t/TABLE_ID)")
    sub = actions.add_parser("suspend", help="suspend an identity for some hours")
    server(sub)
    sub.add_argument("who", help=WHO_HELP)
    sub.add_argument("--hours", type=float, required=True, help="how long, in hours (0.5, 24)")
    sub.add_argument("--reason", default="", help=REASON_HELP)
    sub = actions.add_parser("ban", help="ban an identity")
    server(sub)
    sub.add_argument("who", help=WHO_HELP)
    sub.add_argument("--reason", default="", help=REASON_HELP)
    sub = actions.add_parser("lift", help="end a suspension or a ban")
    server(sub)
    sub.add_argument("who", help=WHO_HELP)
    sub = actions.add_parser("rename", help="give an identity a new display name everywhere")
    server(sub)
    sub.add_argument("who", help=WHO_HELP)
    sub.add_argument("name", help="the new display name (checked like a player's own)")
    sub = actions.add_parser("silence", help="stop an identity's table talk")
    server(sub)
    sub.add_argument("who", help=WHO_HELP)
    sub.add_argument("--hours", type=float, help="how long, in hours (default: until unsilenced)")
    sub.add_argument("--reason", default="", help=REASON_HELP)
    sub = actions.add_parser("unsilence", help="let a silenced identity talk again")
    server(sub)
    sub.add_argument("who", help=WHO_HELP)
    sub = actions.add_parser("cancel-event", help="end a tournament not finished, as cancelled")
    server(sub)
    sub.add_argument("event", help="the event's id (in its link: /tournaments/ID)")
    sub = actions.add_parser("rename-event", help="give a tournament a new title")
    server(sub)
    sub.add_argument("event", help="the event's id (in its link: /tournaments/ID)")
    sub.add_argument("name", help="the new title (checked like a maker's)")
    sub = actions.add_parser("club", help="remove a club, or clear its description")
    club = sub.add_subparsers(
        dest="club_action", required=True, metavar="CLUB_ACTION", help="remove, clear-description"
    )
    sub = club.add_parser("remove", help="remove a club (shown nowhere, joined by nobody)")
    server(sub)
    sub.add_argument("slug", help="the club's slug (in its link: /club/SLUG)")
    sub.add_argument("--reason", default="", help="why, in words (kept with the club)")
    sub = club.add_parser("clear-description", help="clear a club's description")
    server(sub)
    sub.add_argument("slug", help="the club's slug (in its link: /club/SLUG)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Carry out one action."""
    if args.action in ("backup", "restore", "check"):
        return _database_action(args)
    if args.action == "vapid":
        print(_vapid(args.out, args.subject))
        return 0
    return _server_action(args)


def _config_path(args: argparse.Namespace) -> str | None:
    """The configuration file: ``--config`` after the action, before it, or ``$BASRA_CONFIG``."""
    given: str | None = (
        getattr(args, "config", None)
        or getattr(args, "admin_config", None)
        or os.environ.get("BASRA_CONFIG")
        or None
    )
    return given


def _host_config(args: argparse.Namespace) -> Any:
    from basra.server.ops.config import ConfigError, load_config

    path = _config_path(args)
    if path is None:
        return None
    try:
        return load_config(path)
    except ConfigError as error:
        raise CliError(str(error)) from None


def _database_action(args: argparse.Namespace) -> int:
    from basra.server.ops import backup

    url = args.database
    if url is None:
        host = _host_config(args)
        if host is None:
            raise CliError("give --database URL or --config FILE")
        url = host.app.database
    try:
        if args.action == "backup":
            checked = backup.backup(url, args.out)
            print(f"backup written to {args.out}; {checked}")
        elif args.action == "restore":
            checked = backup.restore(args.dump, url, args.force)
            print(f"restored {args.dump}; {checked}")
        else:
            import asyncio

            checked = asyncio.run(backup.check_games(url))
            print(checked)
    except backup.BackupError as error:
        raise CliError(str(error)) from None
    for failure in checked.failures[:50]:
        print("  " + failure)
    return 1 if checked.failures else 0


def _vapid(out: Path | None, subject: str) -> str:
    """A new VAPID key pair: the private key written to ``out`` (or shown), and the lines
    of the configuration that use it."""
    from basra.server.features.push import make_keys

    private, public = make_keys()
    if out is not None:
        try:
            with os.fdopen(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
                f.write(private + "\n")
        except OSError as error:
            raise CliError(f"cannot write {out}: {error.strerror}") from None
        secret = f'{{ file = "{out}" }}'
        intro = (
            f"# The private key is in {out} (mode 0600): let the service's user read it, "
            "as the other secrets."
        )
    else:
        secret = '{ env = "BASRA_VAPID_KEY" }'
        intro = f"# Set BASRA_VAPID_KEY={private} in the service's environment (a secret)."
    return "\n".join(
        [
            intro,
            "# Paste into the configuration (docs/DEPLOY.md), then restart:",
            "[secrets]",
            f"vapid_private_key = {secret}",
            "[push]",
            f'subject = "{subject}"',
            f"# The public key pages subscribe with (served by GET /api/push): {public}",
        ]
    )


def _token(args: argparse.Namespace) -> str:
    if args.token_file is not None:
        try:
            return str(args.token_file.read_text(encoding="utf-8").strip())
        except OSError as error:
            raise CliError(f"cannot read {args.token_file}: {error.strerror}") from None
    if os.environ.get("BASRA_ADMIN_TOKEN"):
        return os.environ["BASRA_ADMIN_TOKEN"].strip()
    host = _host_config(args)
    if host is None or host.admin_token is None:
        raise CliError("give --token-file, $BASRA_ADMIN_TOKEN, or --config with an admin_token")
    return str(host.admin_token)


def _url(args: argparse.Namespace) -> str:
    """The process to call: ``--url``, else the configuration's host and port."""
    if args.url:
        return str(args.url).rstrip("/")
    host = _host_config(args)
    if host is None:
        return DEFAULT_URL
    address = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host.host, host.host)
    return f"http://{f'[{address}]' if ':' in address else address}:{host.port}"


def _call(args: argparse.Namespace, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    url = _url(args)
    request = urllib.request.Request(url + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {_token(args)}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        try:
            refusal = json.loads(error.read())
        except ValueError:
            refusal = None
        if isinstance(refusal, dict) and refusal.get("draining") is False:
            message = "this process cannot drain (it was not started by basra serve)"
        elif isinstance(refusal, dict) and "error" in refusal:
            message = f"{refusal.get('error')}: {refusal.get('message')}"
        else:
            message = f"HTTP {error.code} {error.reason}"
        raise CliError(f"the server refused: {message}") from None
    except OSError as error:
        raise CliError(f"cannot reach {url}: {getattr(error, 'reason', error)}") from None


def _server_action(args: argparse.Namespace) -> int:
    action = args.action
    if action == "drain":
        answer = _call(args, "POST", "/admin/drain", {})
    elif action == "reports":
        shown, cursor = 0, None
        while True:  # every page, newest first, each naming the next one's cursor
            query = {"all": "1" if args.all else "0", **({"after": cursor} if cursor else {})}
            answer = _call(args, "GET", "/admin/reports?" + urllib.parse.urlencode(query))
            for report in answer["reports"]:
                print(
                    f"{report['id']}  {report['reason']:<8}  about {_person(report['target'])}"
                    f"  by {_person(report['reporter'])}  table {report['table']}"
                    + (f"  {report['note']!r}" if report["note"] else "")
                    + (f"  said {report['quote']!r}" if report.get("quote") else "")
                    + (f"  CLOSED: {report['resolution']}" if report["closed_at"] else "")
                )
            shown += len(answer["reports"])
            cursor = answer.get("next")
            if not cursor:
                break
        print(_count(shown, "report"))
        return 0
    elif action == "close-report":
        answer = _call(
            args, "POST", f"/admin/reports/{args.report}/close", {"resolution": args.resolution}
        )
    elif action == "close-table":
        answer = _call(args, "POST", f"/admin/tables/{args.table}/close", {})
    elif action == "suspend":
        body = {"hours": args.hours, "reason": args.reason}
        answer = _call(args, "POST", f"/admin/identities/{args.who}/suspend", body)
    elif action == "ban":
        answer = _call(args, "POST", f"/admin/identities/{args.who}/ban", {"reason": args.reason})
    elif action == "lift":
        answer = _call(args, "POST", f"/admin/identities/{args.who}/lift", {})
    elif action == "silence":
        body = {"hours": args.hours, "reason": args.reason}
        answer = _call(args, "POST", f"/admin/identities/{args.who}/silence", body)
    elif action == "unsilence":
        answer = _call(args, "POST", f"/admin/identities/{args.who}/unsilence", {})
    elif action in ("cancel-event", "rename-event"):
        verb, body = action.removesuffix("-event"), {"name": getattr(args, "name", None)}
        answer = _call(args, "POST", f"/admin/tournaments/{args.event}/{verb}", body)
    elif action == "club":
        body = {"reason": getattr(args, "reason", "")}
        answer = _call(args, "POST", f"/admin/clubs/{args.slug}/{args.club_action}", body)
    else:
        answer = _call(args, "POST", f"/admin/identities/{args.who}/rename", {"name": args.name})
    print(_said(args, answer))
    return 0


def _person(who: dict[str, Any]) -> str:
    """A reported or reporting identity: its display name and id, or the id alone."""
    return f"{who['name']!r} ({who['identity']})" if who.get("name") else str(who["identity"])


def _count(number: int, thing: str) -> str:
    """``1 table``, ``2 tables`` (the operator's words are English).

    >>> _count(1, "report"), _count(0, "report")
    ('1 report', '0 reports')
    """
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _moment(seconds: float) -> str:
    """A time the server gave (Unix seconds) as a person reads it, in UTC.

    >>> _moment(1796000000.25)
    '2026-11-30 00:53 UTC'
    """
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _said(args: argparse.Namespace, answer: Any) -> str:
    """What a server action did, in words."""
    action = args.action
    if action == "drain":
        return (
            f"{_url(args)} is draining: it finishes its work, sends its pages to the other "
            "processes and exits (systemd starts it again)"
        )
    if action == "close-report":
        return f"report {answer['closed']} closed: {args.resolution}"
    if action == "close-table":
        return f"table {answer['table']}: {answer['status']}"
    if action in ("suspend", "ban"):
        until = f" until {_moment(answer['until'])}" if answer.get("until") else ""
        why = f" ({answer['reason']})" if answer.get("reason") else ""
        return f"{args.who} ({answer['identity']}) {answer['kind']}{until}{why}"
    if action == "lift":
        return f"{args.who}: " + ("lifted" if answer["lifted"] else "was not suspended or banned")
    if action == "silence":
        until = f" until {_moment(answer['until'])}" if answer.get("until") else " until unsilenced"
        return f"{args.who} ({answer['identity']}) silenced{until} ({answer['reason']})"
    if action == "unsilence":
        return f"{args.who}: " + ("may talk again" if answer["lifted"] else "was not silenced")
    if action == "rename":
        return f"{args.who} is now {args.name!r} (at {_count(answer['renamed'], 'table')})"
    if action == "cancel-event":
        closed = len(answer.get("tables_closed", []))
        return f"tournament {args.event} cancelled ({_count(closed, 'table')} in play ended)"
    if action == "rename-event":
        return f"tournament {args.event} is now {answer.get('name', args.name)!r}"
    if action == "club":
        done = "removed" if args.club_action == "remove" else "has no description now"
        return f"club {answer.get('club', args.slug)} {done}"
    return json.dumps(answer, ensure_ascii=False)
