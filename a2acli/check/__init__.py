"""`a2a check`: Agent Card validation (card.py, on the pydantic models of models.py) and the live
probe of what an agent speaks (probe.py, on the pipeline), reported for people and CI (report.py).

Nothing here loads at start-up: pydantic is imported on this path only (tests/test_architecture.py)."""

from __future__ import annotations
