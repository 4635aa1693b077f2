#!/usr/bin/env sh
# The main job on the built-in demo agent: start it, fetch its card, create a user, stream a
# slow task, list the tasks, call it over HTTP+JSON and gRPC too, then stop it. Run from the repo
# root after installing a2acli[server,grpc]. The demo agent's log goes to a file, not into the tour's
# output: A2ACLI_DEMO_LOG_FILE chooses the file, as for `a2a demo-server` (the older A2ACLI_DEMO_LOG
# too; A2ACLI_DEMO_LOG_FILE=/dev/stderr shows it here). A2ACLI_DEMO_PORT chooses the port.
set -eu
PORT="${A2ACLI_DEMO_PORT:-41241}"
LOG="${A2ACLI_DEMO_LOG_FILE:-${A2ACLI_DEMO_LOG:-${TMPDIR:-/tmp}/a2a-tour-demo.log}}"
export A2ACLI_URL="http://127.0.0.1:$PORT"
if a2a card fetch -o json >/dev/null 2>&1; then  # never tour another agent that holds the port
  echo "an agent already answers on $A2ACLI_URL: stop it, or pick another port (A2ACLI_DEMO_PORT=41250 sh $0)" >&2
  exit 3
fi
a2a demo-server --port "$PORT" --log-file "$LOG" 2>>"$LOG" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || :' EXIT INT TERM  # (|| : keeps the exit code set -e would replace)
i=0
until a2a card fetch -o json >/dev/null 2>&1; do
  kill -0 "$SERVER" 2>/dev/null || { echo "the demo agent exited before it answered (its log: $LOG)" >&2; exit 3; }
  i=$((i + 1)); [ "$i" -lt 60 ] || { echo "the demo agent did not start (its log: $LOG)" >&2; exit 3; }
  sleep 0.25
done
kill -0 "$SERVER" 2>/dev/null || { echo "the demo agent exited (its log: $LOG)" >&2; exit 3; }
echo "the demo agent is on $A2ACLI_URL (its log: $LOG)" >&2
set -x
a2a card fetch
a2a send --skill create-user -f projectUserId=user_123 -f name="Ada Lovelace"
a2a stream --skill slow -f steps:=3
a2a tasks list --page-size 5
a2a send "hello over HTTP+JSON" --transport rest
a2a tasks list --page-size 2 --transport rest
a2a send "hello over gRPC" --transport grpc
