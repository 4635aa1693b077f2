"""a2acli.recording.playback, the pure parts `a2a mock` and `a2a replay` share: what matching ignores, how
ids are paired and rewritten, the recorded timing, redacted credentials."""

from __future__ import annotations

from a2acli.recording.diff import DumpedExchange
from a2acli.recording.playback import Recorded, differences, id_pairs, mask, redacted_credentials, rewrite, same_ids

U1 = "6089e13f-b2f7-48d4-bb70-11ee6bc049d2"
U2 = "c4c074a9-3b6c-4990-b501-3241f0035faf"


def send(message_id: str, user: str, context: str | None = None) -> dict:
    message = {"messageId": message_id, "role": "ROLE_USER", "parts": [{"data": {"skill": "create-user", "projectUserId": user}}]}
    if context:
        message["contextId"] = context
    return {"message": message}


def test_matching_ignores_ids_uuids_and_timestamps_but_not_user_data():
    assert differences(send(U1, "u1"), send(U2, "u1", context="ctx-of-the-client")) == []
    assert differences({"id": "task-a"}, {"id": "task-b"}) == []
    assert differences({"statusTimestampAfter": "2026-01-01T00:00:00Z"}, {"statusTimestampAfter": "2027-01-01T00:00:00Z"}) == []
    # projectUserId ends with "Id" but is the user's data: it counts
    assert differences(send(U1, "u1"), send(U1, "u2")) == [("params.message.parts[0].data.projectUserId", "u1", "u2")]
    assert differences({"pageSize": 2}, {"pageSize": 3}) == [("params.pageSize", 2, 3)]
    assert mask({"data": {"at": U1}}) == {"data": {"at": "<id>"}}  # a UUID in data is generated all the same


def test_id_pairs_map_the_recorded_ids_to_the_given_ones_and_rewrite_applies_them_everywhere():
    pairs = id_pairs(send(U1, "u1", context="c-recorded"), send(U2, "u1", context="c-given"))
    assert pairs == {U1: U2, "c-recorded": "c-given"}
    answer = {"task": {"id": "t1", "contextId": "c-recorded", "history": [{"messageId": U1}], "name": f"tasks/{U1}"}}
    assert rewrite(answer, pairs) == {"task": {"id": "t1", "contextId": "c-given", "history": [{"messageId": U2}], "name": f"tasks/{U2}"}}
    assert id_pairs({"data": {"projectUserId": "u1"}}, {"data": {"projectUserId": "u2"}}) == {}  # user data is no id
    assert id_pairs({"status": {"timestamp": "2026-01-01T00:00:00Z"}}, {"status": {"timestamp": "2026-01-02T00:00:00Z"}}) == {}


def test_the_closer_recording_has_more_equal_ids():
    assert same_ids({"id": "t1"}, {"id": "t1"}) == 1
    assert same_ids({"id": "t1"}, {"id": "t2"}) == 0


def _exchange(*, events: tuple[str, ...] = (), headers: tuple[tuple[str, str], ...] = (), body: bytes = b"{}") -> DumpedExchange:
    return DumpedExchange(1, "001-SendStreamingMessage", "SendStreamingMessage", "1.0", "POST / HTTP/1.1", headers, body, "HTTP/1.1 200 OK", (), b"", events, bool(events))


def test_delays_follow_the_recorded_event_times_at_the_speed_asked():
    rec = Recorded(_exchange(events=("{}", "{}", "{}")), "d", "jsonrpc", "1.0", "SendStreamingMessage", {}, ms=1000.0, event_ms=(100.0, 400.0, 900.0))
    assert rec.delays(1) == [0.1, 0.3, 0.5]
    assert rec.delays(2) == [0.05, 0.15, 0.25]
    assert rec.delays(0) == [0.0, 0.0, 0.0]
    older = Recorded(_exchange(events=("{}", "{}")), "d", "jsonrpc", "1.0", "SendStreamingMessage", {}, ms=1000.0)  # a dump without eventMs
    assert older.delays(1) == [0.5, 0.5]


def test_redacted_credentials_are_named_by_header():
    ex = _exchange(headers=(("X-API-Key", "<redacted>"), ("Accept", "application/json")))
    assert redacted_credentials(ex) == ["X-API-Key"]
    assert redacted_credentials(_exchange(body=b'{"token": "<redacted>"}')) == ["body"]
    assert redacted_credentials(_exchange()) == []
