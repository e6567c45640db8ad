"""A server process killed mid-game and started again loses no move."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

from tests.web.helpers import (
    Player,
    create_table,
    http,
    new_token,
    next_mover,
    play_to_end,
    server_process,
)


def test_kill_the_server_mid_game_and_no_move_is_lost(tmp_path: Path) -> None:
    database = str(tmp_path / "kill.db")
    options = ("--bot-delay", "0", "--round-pause", "0")
    seen: dict[int, dict[str, Any]] = {}
    with server_process(database, *options) as (proc, url):
        token = new_token(url)
        table = create_table(
            url, token, seats=[{"kind": "person"}, {"kind": "bot", "level": "medium"}]
        )
        amal = Player(url, table, token)
        for _ in range(15):
            player = next_mover([amal])
            assert player is not None
            version = player.version
            player.play_first_legal()
            player.wait(lambda m, v=version: m["type"] == "state" and m["version"] > v)
        amal.drain(0.2)
        for frame in amal.frames:
            if '"type": "state"' in frame:
                message = json.loads(frame)
                if message["event"]:
                    seen[message["version"]] = message["event"]
        last = amal.version
        hand = amal.view["hand"]
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert len(seen) >= 15
    with server_process(database, *options) as (_, url):
        back = Player(url, table, token)
        snapshot = back.wait_type("state")
        assert snapshot["version"] >= last
        if snapshot["version"] == last:
            assert snapshot["view"]["hand"] == hand
        play_to_end([back])
        status, replay = http(f"{url}/api/games/{table}/replay")
        assert status == 200
        events = [frame["event"] for frame in replay["frames"]]
        for version, event in seen.items():
            assert events[version - 1] == event, f"event {version} changed after the restart"
