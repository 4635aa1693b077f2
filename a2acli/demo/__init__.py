"""The built-in demo A2A agent behind `a2a demo-server` (needs the `server` extra)."""
