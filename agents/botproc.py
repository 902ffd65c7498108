"""An outside bot's process: started with optional resource limits, lines written and read against
deadlines, killed (with its process group) on a fault. The protocol itself is in `agents/cmd.py`.

Every failure surfaces as `Forfeit` (agents/base.py) with its kind: `timeout` (no whole line by the
deadline), `crash` (the process could not start, exited, or closed its output), `garbage` (a line
that is too long or not UTF-8; the protocol layer adds lines that are not the expected JSON).

Resource limits (`memory_mb`, `cpu_seconds`) are set with `resource.setrlimit` in the child before
it runs the command: RLIMIT_AS (address space, so a runtime that reserves much more than it uses,
such as the JVM or Node, needs a generous figure) and RLIMIT_CPU (seconds of CPU over the process's
whole life, all the games it played: a backstop against a runaway loop, not a per-game clock; the
wall-clock limits are). This is not a sandbox: the bot runs as the runner's user, with its files,
network and other processes in reach. Run bots you do not trust inside a container or a VM.
"""
from __future__ import annotations

import json
import math
import os
import select
import signal
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass

from .base import Forfeit

__all__ = ["BotLimits", "BotProcess", "MAX_LINE"]

#: the longest line a bot may send (bytes); a longer one is garbage
MAX_LINE = 1 << 20

try:  # Linux: the bot is killed when the thread that started it dies (a killed tournament leaves no bot behind)
    import ctypes

    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
    _PR_SET_PDEATHSIG = 1
except (OSError, AttributeError):  # pragma: no cover - not Linux
    _PRCTL = None


@dataclass(frozen=True)
class BotLimits:
    """Time and resource limits of an outside bot (a tournament's `limits`; 0 = no limit for the last two).

    decision_seconds: wall time from writing a decision to reading the whole answer line;
    game_seconds: the sum of those times over one game (a chess clock: each decision may use at most
    what is left); hello_seconds: time to answer a game's hello (the first one includes starting the
    process), not counted in the game's clock; memory_mb, cpu_seconds: RLIMIT_AS and RLIMIT_CPU of the
    bot's process (0 = not set)."""

    decision_seconds: float = 10.0
    game_seconds: float = 600.0
    hello_seconds: float = 30.0
    memory_mb: int = 0
    cpu_seconds: int = 0

    def __post_init__(self):
        for key in ("decision_seconds", "game_seconds", "hello_seconds"):
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
                raise ValueError(f"limit {key!r} must be a positive number of seconds, got {v!r}")
        for key in ("memory_mb", "cpu_seconds"):
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"limit {key!r} must be a non-negative integer (0 = none), got {v!r}")

    @classmethod
    def from_dict(cls, d: dict | None) -> "BotLimits":
        """From a mapping of some of the keys; ValueError naming an unknown key."""
        d = dict(d or {})
        known = list(asdict(cls()))
        for k in d:
            if k not in known:
                raise ValueError(f"unknown limit {k!r}; known: {', '.join(known)}")
        return cls(**d)

    def to_dict(self) -> dict:
        return asdict(self)


def _child_setup(limits: BotLimits, parent: int):
    """What the child does between fork and exec: resource limits, no core files, die with the parent."""
    mem, cpu = limits.memory_mb, limits.cpu_seconds

    def setup():  # runs in the child: only async-signal-safe work (C calls), nothing that imports
        import resource

        if mem:
            resource.setrlimit(resource.RLIMIT_AS, (mem << 20, mem << 20))
        if cpu:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))   # SIGXCPU at cpu s, SIGKILL one later
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:      # the parent died before prctl: nobody to play for
                os._exit(1)

    return setup


class BotProcess:
    """One running bot: `send(obj, deadline)`, `readline(deadline, what)`, `kill()`, `close()`."""

    def __init__(self, argv: list[str], limits: BotLimits, cwd: str | None = None):
        self.argv = list(argv)
        self._err = tempfile.TemporaryFile()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err, bufsize=0,
                cwd=cwd, env=env, close_fds=True, start_new_session=True,
                preexec_fn=_child_setup(limits, os.getpid()))
        except (OSError, subprocess.SubprocessError) as e:
            self._err.close()
            raise Forfeit("crash", f"cannot start {self.argv[0]!r}: {e}") from None
        self.pid = self.proc.pid
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buf = bytearray()
        self._rpoll = select.poll()
        self._rpoll.register(self._out, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._wpoll = select.poll()
        self._wpoll.register(self._in, select.POLLOUT | select.POLLERR)

    # -- I/O against a deadline (time.monotonic) -------------------------------------------------
    def send(self, obj: dict, deadline: float, what: str, limit_text: str = "the limit") -> None:
        """Write obj as one JSON line; Forfeit(timeout) if the bot does not take it by the deadline, crash if
        it has gone."""
        data = memoryview((json.dumps(obj, separators=(",", ":"), default=_jsonable) + "\n").encode())
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not self._wpoll.poll(max(0, math.ceil(left * 1000))):
                raise Forfeit("timeout", f"did not read {what} within {limit_text}")
            try:
                n = os.write(self._in, data)
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise Forfeit("crash", self.exit_text(f"before reading {what}")) from None
            data = data[n:]

    def readline(self, deadline: float, what: str, limit_text: str) -> str:
        """The next non-blank line the bot writes; Forfeit(timeout) when it is not whole by the deadline,
        crash when the output closes, garbage for a line too long or not UTF-8."""
        while True:
            nl = self._buf.find(b"\n")
            while nl >= 0:
                raw = bytes(self._buf[:nl])
                del self._buf[:nl + 1]
                if raw.strip():
                    try:
                        return raw.decode("utf-8")
                    except UnicodeDecodeError:
                        raise Forfeit("garbage", f"answered {what} with a line that is not UTF-8: "
                                                 f"{_show(raw)}") from None
                nl = self._buf.find(b"\n")
            if len(self._buf) > MAX_LINE:
                raise Forfeit("garbage", f"answered {what} with a line longer than {MAX_LINE:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not self._rpoll.poll(max(0, math.ceil(left * 1000))):
                if left <= 0 or time.monotonic() >= deadline:
                    raise Forfeit("timeout", f"no answer to {what} within {limit_text}")
                continue
            chunk = os.read(self._out, 65536)
            if not chunk:
                raise Forfeit("crash", self.exit_text(f"before answering {what}" + (
                    f" (it wrote {_show(bytes(self._buf))} without an end of line)" if self._buf.strip() else "")))
            self._buf += chunk

    # -- life and death ----------------------------------------------------------------------------
    def alive(self) -> bool:
        return self.proc.poll() is None

    def exit_text(self, when: str, wait: float = 0.5) -> str:
        """'exited with code 3 <when>; its stderr ends: <last line>' (or 'was killed by SIGXCPU', 'closed its
        output')."""
        try:
            code = self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return f"closed its output {when}" + self._stderr_tail()
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            hint = " (its cpu_seconds limit)" if name == "SIGXCPU" else ""
            return f"was killed by {name}{hint} {when}" + self._stderr_tail()
        return f"exited with code {code} {when}" + self._stderr_tail()

    def _stderr_tail(self) -> str:
        try:
            self._err.flush()
            size = self._err.seek(0, os.SEEK_END)
            self._err.seek(max(0, size - 2000))
            lines = [ln for ln in self._err.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        except (OSError, ValueError):
            return ""
        return f"; its stderr ends: {lines[-1].strip()[:300]!r}" if lines else ""

    def kill(self) -> None:
        """SIGKILL to the bot's whole process group, then reap it and release the pipes."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process SIGKILL cannot stop
            pass
        self._release()

    def close(self, grace: float = 1.0) -> None:
        """`quit`, end of input, a moment to exit by itself, then kill whatever is left of its group."""
        if self.proc.returncode is None:
            try:
                self.send({"type": "quit"}, time.monotonic() + 0.2, "quit")
            except Forfeit:
                pass
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def _release(self) -> None:
        for f in (self.proc.stdin, self.proc.stdout, self._err):
            try:
                f.close()
            except (OSError, ValueError):
                pass


def _show(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")
    return repr(text[:80] + ("..." if len(text) > 80 else ""))


def _jsonable(x):
    """numpy scalars and arrays in a view, as JSON numbers and lists."""
    import numpy as np

    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not JSON-safe")
