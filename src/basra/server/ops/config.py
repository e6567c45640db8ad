"""The operator's one configuration file: ``basra serve --config FILE`` (TOML).

Every section is optional; a key left out keeps the default ``basra serve`` has
without a file (docs/DEPLOY.md lists them all, ``deploy/basra.toml`` is an example).
The file is read and checked whole before anything starts: a wrong key, a value of
the wrong type or out of range, a secret whose variable or file is missing, each is a
:class:`ConfigError` that names the file, the section and the key, e.g.::

    /etc/basra/basra.toml: [quotas] tables_per_identity.count: must be greater than 0

Secrets are never written in the file itself: each is ``{ env = "NAME" }`` (an
environment variable) or ``{ file = "/path" }`` (a file readable only by the service's
user), read once at start. The ``[tournaments]`` section is passed through unread (the
tournament schedule has its own format, checked by the tournaments feature); its
``include = "FILE"`` names a TOML file whose content takes its place.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from basra.server.env import AppConfig
from basra.server.features.challenges import ChallengeConfig
from basra.server.features.pairing import QuickPlayConfig
from basra.server.features.push import PushConfig, public_key_of
from basra.server.features.puzzles import PuzzleConfig
from basra.server.features.reviews import ReviewConfig
from basra.server.features.seasons import SeasonConfig
from basra.server.features.seasons.rules import parse_length
from basra.server.quotas import Limits, Rate
from basra.server.table.forms import RULE_BOUNDS
from basra.server.table.live import ServiceConfig

__all__ = [
    "ConfigError",
    "HostConfig",
    "Network",
    "load_config",
    "parse_config",
    "without_password",
]

DEFAULT_DATABASE = "var/basra.db"


def without_password(url: str) -> str:
    """A database or Redis URL fit for a log line or a message.

    >>> without_password("postgresql://basra:secret@db:5432/basra")
    'postgresql://basra:***@db:5432/basra'
    """
    if "://" in url and "@" in url.split("://", 1)[1]:
        scheme, rest = url.split("://", 1)
        credentials, where = rest.rsplit("@", 1)
        if ":" in credentials:
            credentials = credentials.split(":", 1)[0] + ":***"
        return f"{scheme}://{credentials}@{where}"
    return url


class ConfigError(ValueError):
    """A configuration file that cannot be used, said in words."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Secret(_Strict):
    """Where a secret is read from: an environment variable or a file."""

    env: str | None = None
    file: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> Secret:
        if (self.env is None) == (self.file is None):
            raise ValueError('give exactly one of env = "NAME" or file = "/path"')
        return self

    def read(self) -> str:
        """The secret's text, stripped (a :class:`ValueError` saying why it cannot be read)."""
        if self.env is not None:
            value = os.environ.get(self.env)
            if not value:
                raise ValueError(f"the environment variable {self.env} is not set")
            return value.strip()
        assert self.file is not None
        try:
            return Path(self.file).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise ValueError(f"cannot read {self.file}: {error.strerror}") from None


class Url(_Strict):
    """A URL given as is, from an environment variable, or from a file."""

    url: str | None = None
    url_env: str | None = None
    url_file: str | None = None

    def value(self) -> str | None:
        given = [v for v in (self.url, self.url_env, self.url_file) if v is not None]
        if len(given) > 1:
            raise ValueError("give one of url, url_env or url_file")
        if self.url is not None:
            return self.url
        if self.url_env is not None:
            return Secret(env=self.url_env).read()
        if self.url_file is not None:
            return Secret(file=self.url_file).read()
        return None


class ServerSection(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    forwarded_allow_ips: list[str] = Field(default_factory=lambda: ["127.0.0.1"])
    """The proxies whose ``X-Forwarded-For`` names the client (never ``*`` on a public host)."""
    log_format: Literal["json", "text"] = "json"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    drain_timeout: float = Field(default=30.0, ge=1, le=600)
    """Seconds a draining process waits for its work to finish before it exits."""


class TablesSection(_Strict):
    grace: float = Field(default=60.0, ge=0, le=3600)
    bot_delay: float = Field(default=0.9, ge=0, le=30)
    round_pause: float = Field(default=6.0, ge=0, le=120)
    abandon_after: float = Field(default=1800.0, ge=30, le=7 * 86400)
    abandon_bots_after: float = Field(default=120.0, ge=10, le=86400)
    hint_samples: int = Field(default=600, ge=10, le=100_000)
    stand_in_level: Literal["easy", "medium", "hard", "expert"] = "medium"
    vacation_days: int = Field(default=7, ge=0, le=31)


class WorkersSection(_Strict):
    bot_processes: int | None = Field(default=None, ge=0, le=64)
    """Worker processes for bots and hints (default: the CPU count less one, 2 to 4)."""
    review_samples: int = Field(default=1500, ge=1, le=100_000)
    review_hindsight: bool = True
    review_concurrency: int = Field(default=2, ge=1, le=64)


class QuickPlaySection(_Strict):
    pair_every: float = Field(default=0.5, ge=0.05, le=60)
    window_start: float = Field(default=2.0, ge=0, le=50)
    window_growth: float = Field(default=0.5, ge=0, le=50)
    window_full_after: float = Field(default=30.0, ge=1, le=3600)


class PushSection(_Strict):
    subject: str | None = None
    """Who the push services may write to (``mailto:`` or ``https:``); needed with a key."""
    tries: int = Field(default=5, ge=1, le=50)
    backoff: float = Field(default=5.0, ge=0.1, le=3600)
    most_backoff: float = Field(default=900.0, ge=1, le=86400)
    ttl: int = Field(default=86400, ge=0, le=28 * 86400)
    timeout: float = Field(default=10.0, ge=1, le=120)
    concurrency: int = Field(default=16, ge=1, le=256)
    most_subscriptions: int = Field(default=10, ge=1, le=100)


class RateValue(_Strict):
    count: float = Field(gt=0)
    per: float = Field(gt=0)


class RulesSection(_Strict):
    target: list[int] | None = None
    basra_points: list[int] | None = None
    jack_on_lone_jack: list[int] | None = None
    majority_bonus: list[int] | None = None
    card_points_max: int | None = Field(default=None, ge=1, le=10_000)

    @model_validator(mode="after")
    def _ordered(self) -> RulesSection:
        for name in RULE_BOUNDS:
            bound = getattr(self, name)
            if bound is not None and (len(bound) != 2 or not 0 <= bound[0] <= bound[1] <= 100_000):
                raise ValueError(f"{name}: [least, most] with 0 <= least <= most <= 100000")
        if self.target is not None and self.target[0] < 1:
            raise ValueError("target: the least target is 1 or more")
        return self


class OperationsSection(_Strict):
    metrics_allow: list[str] = Field(default_factory=lambda: ["127.0.0.1/32", "::1/128"])
    """Networks that may read ``/metrics`` and call ``/admin`` (the client's address)."""
    metrics_dir: str | None = None
    """A directory shared by this host's processes (prometheus-client's multiprocess mode)."""


class ModerationSection(_Strict):
    word_lists: list[str] = Field(default_factory=list)
    """Files of words refused in names (one a line, ``#`` comments), on top of the shipped list."""
    shipped_words: bool = True


class PuzzlesSection(_Strict):
    rated_sets: list[str] = Field(default_factory=list)
    """Files of puzzles made privately (``basra puzzles make``, never published), added to
    the rated pool; relative to the configuration file."""


class SeasonsSection(_Strict):
    length: str = "3 months"
    """How long a season lasts: N months (calendar months), days, hours, minutes or seconds."""
    first: str = "2026-01-01"
    """When season 1 starts: an ISO date or date and time, UTC unless it says otherwise."""
    divisions: int = Field(default=5, ge=2, le=5)
    promoted: int = Field(default=3, ge=0, le=1000)
    relegated: int = Field(default=3, ge=0, le=1000)


class ChallengesSection(_Strict):
    expire_after: float = Field(default=600.0, ge=10, le=86_400)
    """Seconds a challenge waits for its answers (:mod:`basra.server.features.challenges`)."""
    sweep_every: float = Field(default=2.0, gt=0, le=60)
    """Seconds between a process's looks for challenges whose time is up."""


class SecretsSection(_Strict):
    daily_deal: Secret | None = None
    """The daily deal's secret (at least 32 characters); else one made once and kept in
    the store."""
    admin_token: Secret | None = None
    """The bearer token of ``basra admin`` (at least 32 characters); without it the admin
    API is off."""
    vapid_private_key: Secret | None = None
    """Web Push's VAPID private key (``basra admin vapid``); without it push is off."""


class FileModel(_Strict):
    server: ServerSection = ServerSection()
    database: Url = Url()
    redis: Url = Url()
    secrets: SecretsSection = SecretsSection()
    tables: TablesSection = TablesSection()
    workers: WorkersSection = WorkersSection()
    quickplay: QuickPlaySection = QuickPlaySection()
    quotas: dict[str, int | RateValue] = Field(default_factory=dict)
    rules: RulesSection = RulesSection()
    operations: OperationsSection = OperationsSection()
    moderation: ModerationSection = ModerationSection()
    puzzles: PuzzlesSection = PuzzlesSection()
    push: PushSection = PushSection()
    seasons: SeasonsSection = SeasonsSection()
    challenges: ChallengesSection = ChallengesSection()
    tournaments: dict[str, Any] = Field(default_factory=dict)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass
class HostConfig:
    """Everything ``basra serve`` needs from the operator, checked."""

    app: AppConfig = field(default_factory=AppConfig)
    host: str = "127.0.0.1"
    port: int = 8000
    forwarded_allow_ips: list[str] = field(default_factory=lambda: ["127.0.0.1"])
    log_format: str = "text"
    log_level: str = "warning"
    drain_timeout: float = 30.0
    metrics_allow: list[Network] = field(
        default_factory=lambda: [ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("::1")]
    )
    metrics_dir: str | None = None
    admin_token: str | None = None
    daily_secret: bytes | None = None
    word_lists: list[str] = field(default_factory=list)
    shipped_words: bool = True
    rule_bounds: dict[str, tuple[int, int]] = field(default_factory=dict)
    card_points_max: int | None = None
    tournaments: dict[str, Any] = field(default_factory=dict)
    """The ``[tournaments]`` section (or its ``include`` file's content), unread here."""
    source: str | None = None
    """The file it came from."""


def _where(location: tuple[int | str, ...]) -> str:
    parts = [str(p) for p in location]
    if not parts:
        return ""
    if len(parts) == 1:
        return f"{parts[0]}"
    return f"[{parts[0]}] " + ".".join(parts[1:])


def _problem(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        location = tuple(p for p in item["loc"] if not str(p).startswith("function-after"))
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "is not a setting here (misspelt?)"
        elif message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        lines.append(f"{_where(location)}: {message[0].lower()}{message[1:]}")
    return "; ".join(lines)


def _limits(quotas: Mapping[str, int | RateValue]) -> Limits:
    known = {f.name: f for f in fields(Limits)}
    changes: dict[str, Any] = {}
    for name, value in quotas.items():
        if name not in known:
            raise ConfigError(f"[quotas] {name}: is not a quota (see docs/WEB.md's table)")
        default = getattr(Limits(), name)
        if isinstance(default, Rate):
            if not isinstance(value, RateValue):
                raise ConfigError(f"[quotas] {name}: give {{ count = N, per = SECONDS }}")
            changes[name] = Rate(value.count, value.per)
        else:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"[quotas] {name}: give a whole number, 0 or more")
            changes[name] = type(default)(value)
    return replace(Limits(), **changes)


def _networks(values: list[str], section: str, key: str) -> list[Network]:
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value, strict=False))
        except ValueError:
            raise ConfigError(
                f"[{section}] {key}: {value!r} is not an address or network"
            ) from None
    return networks


def _secret(secret: Secret | None, name: str, least: int) -> str | None:
    if secret is None:
        return None
    try:
        text = secret.read()
    except ValueError as error:
        raise ConfigError(f"[secrets] {name}: {error}") from None
    if len(text) < least:
        raise ConfigError(
            f"[secrets] {name}: must be at least {least} characters (openssl rand -hex 32)"
        )
    return text


def parse_config(
    text: str, source: str = "the configuration", base: Path | None = None
) -> HostConfig:
    """Check a configuration file's text; a :class:`ConfigError` naming what is wrong."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    try:
        return _build(raw, base or Path.cwd())
    except ValidationError as error:
        raise ConfigError(f"{source}: {_problem(error)}") from None
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None


def load_config(path: str | Path) -> HostConfig:
    """Read and check a configuration file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read the configuration {path}: {error.strerror}") from None
    config = parse_config(text, str(path), path.parent)
    config.source = str(path)
    return config


def _build(raw: dict[str, Any], base: Path) -> HostConfig:
    model = FileModel.model_validate(raw)
    try:
        database = model.database.value() or DEFAULT_DATABASE
    except ValueError as error:
        raise ConfigError(f"[database] {error}") from None
    try:
        redis = model.redis.value()
    except ValueError as error:
        raise ConfigError(f"[redis] {error}") from None
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError("[redis] url: must start with redis://, rediss:// or unix://")
    if "://" in database and not database.startswith(("sqlite", "postgres")):
        raise ConfigError("[database] url: a SQLite path, sqlite:///PATH or postgresql://...")
    tables, workers = model.tables, model.workers
    service = ServiceConfig(
        grace=tables.grace,
        bot_delay=tables.bot_delay,
        round_pause=tables.round_pause,
        abandon_after=tables.abandon_after,
        abandon_bots_after=tables.abandon_bots_after,
        hint_samples=tables.hint_samples,
        stand_in_level=tables.stand_in_level,
        vacation_days=tables.vacation_days,
        limits=_limits(model.quotas),
    )
    if workers.bot_processes is not None:
        service.bot_processes = workers.bot_processes
    quick = model.quickplay
    app = AppConfig(
        database=database,
        redis=redis,
        service=service,
        quickplay=QuickPlayConfig(
            pair_every=quick.pair_every,
            window_start=quick.window_start,
            window_growth=quick.window_growth,
            window_full_after=quick.window_full_after,
        ),
        reviews=ReviewConfig(
            samples=workers.review_samples,
            hindsight=workers.review_hindsight,
            concurrency=workers.review_concurrency,
        ),
    )
    server, operations = model.server, model.operations
    for address in server.forwarded_allow_ips:
        if address != "*":
            _networks([address], "server", "forwarded_allow_ips")
    daily = _secret(model.secrets.daily_deal, "daily_deal", 32)
    rated_sets = []
    for path in model.puzzles.rated_sets:
        if not (base / path).is_file():
            raise ConfigError(f"[puzzles] rated_sets: cannot read {path}")
        rated_sets.append(str(base / path))
    app.puzzles = PuzzleConfig(rated_sets=tuple(rated_sets))
    app.push = _push(model.push, _secret(model.secrets.vapid_private_key, "vapid_private_key", 40))
    app.seasons = _seasons(model.seasons)
    app.challenges = ChallengeConfig(
        expire_after=model.challenges.expire_after, sweep_every=model.challenges.sweep_every
    )
    for path in model.moderation.word_lists:
        if not (base / path).is_file():
            raise ConfigError(f"[moderation] word_lists: cannot read {path}")
    bounds = {
        name: (bound[0], bound[1])
        for name in RULE_BOUNDS
        if (bound := getattr(model.rules, name)) is not None
    }
    return HostConfig(
        app=app,
        host=server.host,
        port=server.port,
        forwarded_allow_ips=server.forwarded_allow_ips,
        log_format=server.log_format,
        log_level=server.log_level,
        drain_timeout=server.drain_timeout,
        metrics_allow=_networks(operations.metrics_allow, "operations", "metrics_allow"),
        metrics_dir=operations.metrics_dir,
        admin_token=_secret(model.secrets.admin_token, "admin_token", 32),
        daily_secret=daily.encode() if daily is not None else None,
        word_lists=[str(base / p) for p in model.moderation.word_lists],
        shipped_words=model.moderation.shipped_words,
        rule_bounds=bounds,
        card_points_max=model.rules.card_points_max,
        tournaments=_tournaments(model.tournaments, base),
    )


def _push(section: PushSection, key: str | None) -> PushConfig:
    """Web Push's configuration: the key checked, and a subject with it."""
    subject = section.subject or ""
    if key is not None:
        try:
            public_key_of(key)
        except ValueError as error:
            raise ConfigError(f"[secrets] vapid_private_key: {error}") from None
        if not subject:
            raise ConfigError(
                '[push] subject: give "mailto:ADDRESS" or "https://SITE" with a VAPID key '
                "(push services write there when something goes wrong)"
            )
    if subject and not subject.startswith(("mailto:", "https:")):
        raise ConfigError('[push] subject: must start with "mailto:" or "https:"')
    return PushConfig(
        vapid_private_key=key,
        subject=subject,
        tries=section.tries,
        backoff=section.backoff,
        most_backoff=section.most_backoff,
        ttl=section.ttl,
        timeout=section.timeout,
        concurrency=section.concurrency,
        most_subscriptions=section.most_subscriptions,
    )


def _seasons(section: SeasonsSection) -> SeasonConfig:
    """The ``[seasons]`` section, its length and first day checked."""
    try:
        parse_length(section.length)
    except ValueError as error:
        raise ConfigError(f"[seasons] length: {error}") from None
    try:
        first = datetime.fromisoformat(section.first)
    except ValueError:
        raise ConfigError(
            f'[seasons] first: {section.first!r} is not a date (write e.g. "2026-01-01")'
        ) from None
    if first.tzinfo is None:
        first = first.replace(tzinfo=UTC)
    return SeasonConfig(
        length=section.length,
        first=first.timestamp(),
        divisions=section.divisions,
        promoted=section.promoted,
        relegated=section.relegated,
    )


def _tournaments(section: dict[str, Any], base: Path) -> dict[str, Any]:
    """The ``[tournaments]`` section as it is, or the TOML file its ``include`` names."""
    include = section.get("include")
    if include is None:
        return section
    if not isinstance(include, str) or len(section) != 1:
        raise ConfigError('[tournaments] include: give only include = "FILE" (a TOML file)')
    path = base / include
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"[tournaments] include: cannot read {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"[tournaments] include: {path} is not valid TOML: {error}") from None
