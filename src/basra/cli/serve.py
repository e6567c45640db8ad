"""``basra serve``: the web app (play with friends and bots in the browser)."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from basra.cli import CliError

if TYPE_CHECKING:
    from basra.server.ops.config import HostConfig

__all__ = ["register"]

DEFAULT_DATABASE = "var/basra.db"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` command."""
    parser = subparsers.add_parser(
        "serve",
        help="start the web app",
        description="Start the web app: create tables, invite friends by link, add bots, "
        "play any variant in English or Arabic. Games are kept in a SQLite file by default.",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=os.environ.get("BASRA_CONFIG") or None,
        help="the operator's TOML file (docs/DEPLOY.md, deploy/basra.toml): every setting; "
        "--host and --port still apply, the other options are ignored with it",
    )
    parser.add_argument("--host", default=None, help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (8000)")
    parser.add_argument(
        "--database",
        metavar="URL",
        default=os.environ.get("BASRA_DATABASE", DEFAULT_DATABASE),
        help="a SQLite file path, sqlite:///PATH, postgresql://USER@HOST/DB, or 'memory' "
        f"(SQLite in this process's memory, gone when it stops; default {DEFAULT_DATABASE})",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get("BASRA_REDIS") or None,
        help="redis://HOST:PORT to share tables between several server processes",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=60.0,
        help="seconds before a bot plays for a person who left (60)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.9, help="seconds a bot waits before playing (0.9)"
    )
    parser.add_argument(
        "--round-pause",
        type=float,
        default=6.0,
        help="seconds the round's score sheet shows before the next deal (6)",
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=None,
        help="worker processes where bots and hints think, off the server's loop "
        "(default: the CPU count less one, 2 to 4; one is kept for people's bots; 0 for threads)",
    )
    parser.add_argument(
        "--message-rate",
        type=float,
        default=20.0,
        help="messages per second one connection may send on average (20)",
    )
    parser.add_argument(
        "--abandon-after",
        type=float,
        default=1800.0,
        help="seconds a table may have nobody connected before it ends as abandoned (1800; "
        "all-bot tables nobody watches: 120)",
    )
    parser.add_argument(
        "--pair-every",
        type=float,
        default=0.5,
        help="seconds between quick play's pairing passes (0.5)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="addresses of trusted proxies whose X-Forwarded-For names the client "
        "(uvicorn's option; default 127.0.0.1): quotas per address need the real one",
    )
    parser.add_argument(
        "--review-samples",
        type=int,
        default=None,
        metavar="K",
        help="deals a game review plays out per decision (default 8000, as basra review; "
        "fewer: quicker reviews)",
    )
    parser.add_argument(
        "--no-hindsight",
        action="store_true",
        help="reviews without the analysis with all cards seen (about a third of the work)",
    )
    parser.add_argument(
        "--tournaments",
        default=None,
        metavar="FILE",
        help="the server's own tournaments: a TOML file of [[tournaments]] entries "
        "(default: the schedule shipped with basra; 'none': no scheduled events)",
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn log level (warning)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start uvicorn with the app (from the configuration file, or the options)."""
    from basra.server.ops.config import ConfigError, load_config

    if args.config is not None:
        try:
            host = load_config(args.config)
        except ConfigError as error:
            raise CliError(str(error)) from None
    else:
        host = _from_options(args)
    if args.host is not None:
        host.host = args.host
    if args.port is not None:
        host.port = args.port
    return _serve(host)


def _from_options(args: argparse.Namespace) -> HostConfig:
    from basra.server.app import (
        AppConfig,
        Limits,
        QuickPlayConfig,
        Rate,
        ReviewConfig,
        ServiceConfig,
    )
    from basra.server.ops.config import HostConfig

    service = ServiceConfig(
        grace=args.grace,
        bot_delay=args.bot_delay,
        round_pause=args.round_pause,
        abandon_after=args.abandon_after,
        limits=Limits(messages_per_connection=Rate(args.message_rate * 3, 3.0)),
    )
    if args.bot_processes is not None:
        service.bot_processes = args.bot_processes
    if not 0.05 <= args.pair_every <= 60:
        raise CliError("--pair-every must be 0.05 to 60 seconds")
    reviews = ReviewConfig(hindsight=not args.no_hindsight)
    if args.review_samples is not None:
        if args.review_samples < 1:
            raise CliError("--review-samples must be 1 or more")
        reviews = replace(reviews, samples=args.review_samples)
    from basra.server.features.tournaments import (
        DEFAULT_SCHEDULE,
        ScheduleEntry,
        ScheduleError,
        TournamentConfig,
        load_schedule,
    )

    schedule: tuple[ScheduleEntry, ...] = ()
    if args.tournaments != "none":
        try:
            schedule = load_schedule(args.tournaments or DEFAULT_SCHEDULE)
        except ScheduleError as error:
            raise CliError(f"--tournaments: {error}") from None
    config = AppConfig(
        database=args.database,
        redis=args.redis,
        service=service,
        reviews=reviews,
        quickplay=QuickPlayConfig(pair_every=args.pair_every),
        tournaments=TournamentConfig(schedule=schedule),
    )
    forwarded = (args.forwarded_allow_ips or "127.0.0.1").split(",")
    return HostConfig(app=config, forwarded_allow_ips=forwarded, log_level=args.log_level)


def _serve(host: HostConfig) -> int:
    import uvicorn

    from basra.server import words
    from basra.server.app import create_app
    from basra.server.ops import logs
    from basra.server.ops.config import without_password
    from basra.server.ops.control import OpsConfig
    from basra.server.ops.drain import DrainingServer
    from basra.server.table.forms import configure_bounds

    logs.configure(host.log_format, host.log_level)
    if host.metrics_dir is not None:
        _metrics_folder(host.metrics_dir)
    words.configure(words.WordList.from_files(host.word_lists, host.shipped_words))
    configure_bounds(host.rule_bounds, host.card_points_max)
    config = host.app
    config.ops = OpsConfig(
        metrics_allow=host.metrics_allow,
        metrics_dir=host.metrics_dir,
        admin_token=host.admin_token,
        daily_secret=host.daily_secret,
    )
    app = create_app(config)
    where = "memory only" if config.database == "memory" else without_password(config.database)
    logs.announce(f"basra: serving on http://{host.host}:{host.port}/  (games in {where})")
    # No per-message compression: snapshots are small, and deflating every frame
    # costs more CPU than the bandwidth it saves on loopback or a LAN.
    server = DrainingServer(
        uvicorn.Config(
            app,
            host=host.host,
            port=host.port,
            log_level=host.log_level,
            log_config=None,
            access_log=False,
            ws_per_message_deflate=False,
            proxy_headers=True,
            forwarded_allow_ips=host.forwarded_allow_ips,
            timeout_graceful_shutdown=int(host.drain_timeout),
        ),
        app.state.env.drain,
    )
    server.run()
    return 0


def _metrics_folder(path: str) -> None:
    """Make ``[operations] metrics_dir`` (the systemd unit makes it under /run), or say
    in words why it cannot be."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".basra-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as error:
        raise CliError(
            f"[operations] metrics_dir: cannot write to {path}: {error.strerror}; the systemd "
            f"unit makes it, and a run by hand needs it made first (install -d -o basra "
            f"{path}) or another metrics_dir"
        ) from None
