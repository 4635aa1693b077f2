"""Output: stdout carries the payload only; hints, warnings and progress go to stderr."""
