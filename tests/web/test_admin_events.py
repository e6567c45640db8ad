"""The operator's actions on a tournament (``/admin/tournaments``, ``basra admin
cancel-event`` / ``rename-event``), and an event's title checked by the words policy
when it is made: before, no admin action touched an event and titles were never
checked against the word list."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.web.helpers import ServerThread, http
from tests.web.test_services import postgres  # noqa: F401 (a fixture)
from tests.web.tourney import config, detail, join, make_event, organiser, wait_for

from basra.server.ops.control import OpsConfig

ADMIN = "b" * 40


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = str(tmp_path_factory.mktemp("admin_events") / "basra.db")
    with ServerThread(replace(config(database), ops=OpsConfig(admin_token=ADMIN))) as running:
        yield running.url


def admin(site: str, event: str, action: str, body: dict[str, Any] | None = None) -> Any:
    return http(f"{site}/admin/tournaments/{event}/{action}", body or {}, token=ADMIN)


def test_a_title_with_a_disguised_word_is_refused_when_made(site: str) -> None:
    amal = organiser(site)
    form = {"name": "H\u0456tler Cup", "format": "swiss", "rounds": 1}
    status, body = http(f"{site}/api/tournaments", form, token=amal)
    assert (status, body["error"], body["field"]) == (422, "name_not_allowed", "name")
    status, body = http(f"{site}/api/tournaments", {**form, "name": "\u3164\u3164"}, token=amal)
    assert (status, body["error"], body["field"]) == (400, "bad_settings", "name")


def test_the_operator_renames_and_cancels_an_event(site: str) -> None:
    amal = organiser(site)
    event = make_event(site, amal, format="swiss", rounds=2, starts_at=time.time() + 3600)["id"]
    status, body = admin(site, event, "rename", {"name": "fu\u0441k this"})
    assert (status, body["error"], body["field"]) == (422, "name_not_allowed", "name")
    status, body = admin(site, event, "rename", {"name": " Friday\u202e Cup "})
    assert (status, body) == (200, {"tournament": event, "name": "Friday Cup"})
    assert detail(site, event)["name"] == "Friday Cup"
    # Without the admin token: refused, and nothing changes.
    status, _ = http(f"{site}/admin/tournaments/{event}/cancel", {}, token=amal)
    assert status in (401, 403)
    assert detail(site, event)["status"] == "created"
    status, body = admin(site, event, "cancel")
    assert (status, body["cancelled"], body["tables_closed"]) == (200, True, [])
    shown = detail(site, event)
    assert (shown["status"], shown["ended"]) == ("finished", "cancelled")
    assert admin(site, event, "cancel")[1]["error"] == "too_late"
    assert admin(site, "nope", "cancel")[0] == 404
    assert admin(site, event, "explode")[1]["error"] == "bad_request"


def test_cancelling_a_running_arena_ends_its_tables(site: str) -> None:
    amal = organiser(site)
    # It starts once its bots are in (an arena that starts with nobody entered is over at
    # once, and a busy machine may take seconds between the two requests).
    starts = time.time() + 6
    event = make_event(site, amal, format="arena", minutes=30, bots=True, starts_at=starts)["id"]
    join(site, event, amal, bot="easy", count=4)
    wait_for(lambda: detail(site, event)["playing"], "a pairing")
    status, body = admin(site, event, "cancel")
    assert status == 200 and body["tables_closed"], body
    for table in body["tables_closed"]:
        assert http(f"{site}/api/tables/{table}")[1]["status"] == "abandoned"

    def paired() -> int:
        shown = detail(site, event)
        return len(shown["playing"]) + int(shown["games"])

    before = paired()
    time.sleep(1.0)  # the event's clock passes: nothing more is paired
    assert paired() == before and detail(site, event)["ended"] == "cancelled"


def test_basra_admin_cancel_event_and_rename_event(site: str) -> None:
    amal = organiser(site)
    event = make_event(site, amal, format="swiss", rounds=2, starts_at=time.time() + 3600)["id"]

    def basra_admin(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "basra", "admin", *args, "--url", site],
            capture_output=True,
            text=True,
            env={"BASRA_ADMIN_TOKEN": ADMIN, "PATH": "", "PYTHONPATH": ":".join(sys.path)},
            timeout=60,
        )

    done = basra_admin("rename-event", event, "Night Cup")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"tournament {event} is now 'Night Cup'\n"
    done = basra_admin("rename-event", event, "H\u0456tler")
    assert done.returncode != 0 and "name_not_allowed" in done.stderr
    done = basra_admin("cancel-event", event)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"tournament {event} cancelled (0 tables in play ended)\n"
    assert detail(site, event)["ended"] == "cancelled"


@pytest.mark.services
def test_the_operator_renames_and_cancels_an_event_on_postgresql(
    postgres: str,  # noqa: F811
) -> None:
    with ServerThread(replace(config(postgres), ops=OpsConfig(admin_token=ADMIN))) as running:
        test_the_operator_renames_and_cancels_an_event(running.url)
