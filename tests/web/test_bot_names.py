"""The server's bots' names (basra.bot_names, the one place that makes them): written in
English in records, sent to the page as a number (and a level) that the page words in
its language; a tournament's bot keeps the event's number at its tables, so the pairing
and the table name it alike."""

from __future__ import annotations

from basra.bot_names import bot_name, bot_number, bots_name, partner_bot_name
from basra.offline import OfflineTable
from basra.server.store.rows import SeatKind, SeatRow, TableRow
from basra.server.table.frames import describe_table
from basra.server.table.queries import seat_names


def test_a_record_name_and_its_number_go_both_ways() -> None:
    for number in (1, 2, 9, 16, 1234):
        assert bot_number(bot_name(number, "hard"), 0) == number
        assert bot_number(bot_name(number), 0) == number
        assert bot_number(bots_name(number, "easy")) == number
    assert bot_number(bot_name("3a", "easy")) == "3a" and bot_number(bot_name("3b")) == "3b"
    # No number of its own: counted by its seat (none without one).
    assert bot_number(partner_bot_name("easy"), 2) == 3
    assert bot_number(None, 0) == 1 and bot_number(None) is None
    # A name that merely looks like a bot's is not read as one.
    for name in ("Bot 0 (easy)", "Bot 3 (easy) ", "bot 3", "Bot 3c", "Robot 3", "Bot 12345"):
        assert bot_number(name) is None, name


def table(seats: list[SeatRow]) -> TableRow:
    return TableRow("t1", "egyptian", {}, len(seats), False, 0, True, seats)


def test_a_tournaments_bot_keeps_its_number_at_the_table() -> None:
    row = table(
        [
            SeatRow(0, SeatKind.PERSON, identity="p1", name="Amal"),
            SeatRow(1, SeatKind.BOT, "easy", name="Bot 3 (easy)"),
        ]
    )
    seats = describe_table(row, {})["seats"]
    assert "number" not in seats[0] and seats[1]["number"] == 3
    assert seat_names(row.seats) == ["Amal", "Bot 3 (easy)"]


def test_an_ordinary_tables_bots_are_counted_by_their_seats() -> None:
    row = table(
        [
            SeatRow(0, SeatKind.BOT, "expert"),
            SeatRow(1, SeatKind.PERSON, identity="p1", name="Amal"),
            SeatRow(2, SeatKind.BOT, "easy", name=partner_bot_name("easy")),
            SeatRow(3, SeatKind.BOT, "hard", name="Bot 4a (hard)"),
        ]
    )
    seats = describe_table(row, {})["seats"]
    assert [s.get("number") for s in seats] == [1, None, 3, "4a"]
    assert seat_names(row.seats) == ["Bot 1 (expert)", "Amal", "Bot 3 (easy)", "Bot 4a (hard)"]


def test_an_offline_tables_bots_are_numbered_as_the_servers() -> None:
    game = OfflineTable.new(
        {"id": "g1", "seats": ["easy", "person", "hard"], "names": [None, "Amal", None], "seed": 1}
    )
    seats = game.table_message(1)["table"]["seats"]
    assert [s.get("number") for s in seats] == [1, None, 3]
