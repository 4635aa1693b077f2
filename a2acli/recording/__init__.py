"""Record, mock, replay and diff: what `--dump` writes and what reads it back.

- `record`: the `--dump DIR` tap and the dump's private files (the pipeline loads it only when
  `--dump` is given; it imports nothing above transport/).
- `dumps`: the one reader of a dump; `diff`: the one notion of "the same" (`a2a diff`, `replay`);
  `playback`: the matching `mock` and `replay` share (what matching ignores, how ids are rewritten).
- `mock` (HTTP: JSON-RPC and REST) with `mock_grpc` (gRPC) serves dumps; `forms` writes a recorded
  answer, or an A2A error, in the asked version and binding.
- `replay`: sends a dump's requests again and compares the answers.

This file stays empty of imports: `recording.record` is loaded without the rest."""
