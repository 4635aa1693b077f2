"""The REST-only fixture (`rest_only_server.py`): a card with only HTTP+JSON, REST routes, no JSON-RPC."""

from __future__ import annotations

import uuid

import httpx
import pytest

pytestmark = pytest.mark.integration


def test_rest_only_agent_serves_its_card_and_message_send(rest_only_agent):
    with httpx.Client(timeout=15.0, trust_env=False) as http:
        v1_card = http.get(rest_only_agent.card_url, headers={"A2A-Version": "1.0"}).json()
        assert v1_card["supportedInterfaces"] == [
            {"url": rest_only_agent.url, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            {"url": rest_only_agent.url, "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
        ]
        v0_card = http.get(rest_only_agent.card_url, headers={"A2A-Version": "0.3"}).json()
        assert v0_card["url"] == rest_only_agent.url
        assert v0_card["preferredTransport"] == "HTTP+JSON"
        assert v0_card["protocolVersion"] == "0.3.0"
        assert "additionalInterfaces" not in v0_card

        message = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": "hi"}]}
        sent = http.post(rest_only_agent.url + "/message:send", json={"message": message},
                         headers={"A2A-Version": "1.0"})
        assert sent.status_code == 200, sent.text
        assert sent.headers["content-type"].startswith("application/a2a+json")
        task = sent.json()["task"]
        assert task["status"]["state"] == "TASK_STATE_COMPLETED"
        assert task["artifacts"][0]["parts"] == [{"text": "echo: hi"}]

        v0_message = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "content": [{"text": "hi"}]}
        sent = http.post(rest_only_agent.url + "/v1/message:send", json={"message": v0_message})
        assert sent.status_code == 200, sent.text
        assert sent.json()["task"]["status"]["state"] == "TASK_STATE_COMPLETED"

        # no JSON-RPC here
        rpc = http.post(rest_only_agent.url + "/", headers={"A2A-Version": "1.0"}, json={
            "jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}})
        assert rpc.status_code in (404, 405)
