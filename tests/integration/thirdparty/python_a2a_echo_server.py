"""A tiny echo agent on python-a2a 0.5.x (its own venv): `python python_a2a_echo_server.py PORT`.
python-a2a's default A2AServer echoes text; Flask serves the card at /.well-known/agent.json and
JSON-RPC at /a2a."""

import sys

from python_a2a import A2AServer, AgentCard, run_server

port = int(sys.argv[1])
card = AgentCard(name="python-a2a echo", description="echoes the text it is sent", url=f"http://127.0.0.1:{port}/a2a", version="1.0.0")
run_server(A2AServer(agent_card=card), host="127.0.0.1", port=port)
