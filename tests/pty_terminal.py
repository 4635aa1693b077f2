"""A terminal for tests: `Terminal` runs a command on a pseudo-terminal COLUMNS wide (its
controlling terminal, so Ctrl-C typed there is a SIGINT from the line discipline, echoed as a
terminal echoes it) and `Screen` works out what a terminal shows after that output: a small emulator
of the part of a VT100 that rich's live display uses (autowrap with xterm's pending wrap, CR, LF,
cursor up, erase line)."""

from __future__ import annotations

import os
import re
import time

COLUMNS = 80
CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


class Screen:
    """The lines a terminal COLUMNS wide shows after `feed(output)`, as tall as it needs to be (no
    scrolling off the top). Writing in the last column leaves the cursor there with a wrap pending:
    the next printable character goes on the next line (xterm), CR and cursor movement cancel it.
    C0 controls other than CR, LF and ESC are ignored, as terminals ignore them."""

    def __init__(self, width: int = COLUMNS) -> None:
        self.width = width
        self.lines: list[list[str]] = [[]]
        self.row = self.col = 0
        self.pending = False

    def _line(self) -> list[str]:
        while len(self.lines) <= self.row:
            self.lines.append([])
        return self.lines[self.row]

    def _put(self, ch: str) -> None:
        if self.pending:
            self.row, self.col, self.pending = self.row + 1, 0, False
        line = self._line()
        line.extend(" " * (self.col + 1 - len(line)))
        line[self.col] = ch
        if self.col == self.width - 1:
            self.pending = True
        else:
            self.col += 1

    def feed(self, text: str) -> None:
        i = 0
        while i < len(text):
            m = CSI.match(text, i)
            if m:
                n = int(m.group(1) or 1) if m.group(1).isdigit() else 1
                if m.group(2) == "A":
                    self.row, self.pending = max(self.row - n, 0), False
                elif m.group(2) == "K" and m.group(1) == "2":
                    self.lines[self.row:self.row + 1] = [[]] if self.row < len(self.lines) else []
                i = m.end()
                continue
            ch = text[i]
            if ch == "\r":
                self.col, self.pending = 0, False
            elif ch == "\n":
                self.row, self.pending = self.row + 1, False
                self._line()
            elif ch >= " ":
                self._put(ch)
            i += 1

    def text(self) -> list[str]:
        lines = ["".join(line).rstrip() for line in self.lines]
        while lines and not lines[-1]:
            lines.pop()
        return lines


class Terminal:
    """`a2a ARGS` on a pseudo-terminal COLUMNS wide (its controlling terminal)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        """`argv[0]`: a path (no PATH search); `env`: the child's whole environment."""
        import fcntl
        import pty
        import struct
        import termios

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes `a2a`
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, COLUMNS, 0, 0))
            os.execve(argv[0], argv, env)
        self.raw = b""

    def read_until(self, pattern: str, timeout: float = 30) -> None:
        import select

        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.raw.decode(errors="replace")):
            left = deadline - time.monotonic()
            assert left > 0, f"{pattern!r} not seen in:\n{self.raw!r}"
            if select.select([self.fd], [], [], left)[0]:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                assert chunk, f"{pattern!r} not seen before the end:\n{self.raw!r}"
                self.raw += chunk

    def finish(self, timeout: float = 30) -> int:
        import select

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.1)[0]:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                self.raw += chunk
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)

    def screen(self) -> list[str]:
        """The lines the terminal shows now."""
        screen = Screen()
        screen.feed(self.raw.decode(errors="replace"))
        return screen.text()

    def text(self) -> str:
        """Everything written, without control sequences and CRs (for what the lines wrap)."""
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", self.raw.decode(errors="replace"))
