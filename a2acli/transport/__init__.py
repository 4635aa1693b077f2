"""HTTP transport: one httpx client, card resolution, JSON-RPC posts and SSE streams.

Every exchange is reported to taps (debug printer, dump writer, X-Request-ID reporter) with the
bytes exactly as they crossed the wire."""
