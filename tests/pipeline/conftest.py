"""Fixtures of the pipeline tests: a session (`Call`) built without a terminal or a CliRunner, and
what it said to the user recorded instead of written.

Every test that reads what a Call says goes through `Recorder` and `make_call` below: when the
session's user messages change their carrier (typed events to a sink, a2acli.events, which
render.events.Presenter hands to an Output's note/warn/command), this file is the one place to adapt."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import respx

from a2acli.pipeline.options import CallOptions
from a2acli.pipeline.session import Call
from a2acli.render.events import Presenter
from a2acli.render.output import JsonOutput


class Recorder(JsonOutput):
    """The session's `out` under -o json (no terminal, nothing animated), with every line it
    would say on stderr recorded as (kind, text): kind is note, warn or command. stdout (-o json's
    documents) goes to a buffer, `stdout`."""

    def __init__(self) -> None:
        super().__init__("json", stdout=io.StringIO(), stderr=io.StringIO())
        self.said: list[tuple[str, str]] = []

    def note(self, msg: str, *, aside: str = "", always: bool = False) -> None:
        self.said.append(("note", msg))

    def warn(self, msg: str) -> None:
        self.said.append(("warn", msg))

    def command(self, cmd: str, *, always: bool = False) -> None:
        self.said.append(("command", cmd))

    @property
    def notes(self) -> list[str]:
        return [text for kind, text in self.said if kind == "note"]

    @property
    def warnings(self) -> list[str]:
        return [text for kind, text in self.said if kind == "warn"]

    @property
    def stdout(self) -> str:
        return self.out.getvalue()

    def saying(self, part: str) -> list[str]:
        """The lines (of any kind) that contain `part`."""
        return [text for _, text in self.said if part in text]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def make_call(recorder: Recorder) -> Iterator[Callable[..., Call]]:
    """`make_call(**options)`: a Call over CallOptions(**options) that says everything to
    `recorder`; every Call made is closed at the end of the test."""
    made: list[Call] = []

    def make(**opts: Any) -> Call:
        c = Call(CallOptions(**opts), Presenter(recorder))  # the sink that writes to an Output, as commands do
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


@pytest.fixture
def mock() -> Iterator[respx.MockRouter]:
    """respx, with nothing reaching the network; routes need not all be called."""
    with respx.mock(assert_all_called=False) as router:
        yield router


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits asked for (time.sleep), recorded instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr("time.sleep", slept.append)
    return slept
