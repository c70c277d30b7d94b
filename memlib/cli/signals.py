"""Signals during a run: Ctrl-C (SIGINT), SIGTERM and SIGHUP raise KeyboardInterrupt wherever the run is, and
are deferred while a results folder is swapped in; the name and exit status of the signal that stopped a run."""
from __future__ import annotations

import contextlib
import signal
import threading
import time


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (kill, timeout, a batch scheduler, a closed terminal), handled as Ctrl-C is: a
    KeyboardInterrupt (which asyncio and papermill let through) that remembers its signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


_deferred: list | None = None     # not None: signals are noted here, not raised (a swap, or a stop under way)
_stopped_at: float | None = None  # time.monotonic() when a signal last stopped a run (cli.kernels reads it)


def _interruption(signum: int) -> KeyboardInterrupt:
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


def signal_name(e: KeyboardInterrupt) -> str:
    return signal.Signals(e.signum).name if isinstance(e, Terminated) else "Ctrl-C"


def signal_status(e: KeyboardInterrupt) -> int:
    """The shell's exit status for a run stopped by a signal: 128 + its number (130 Ctrl-C, 143 SIGTERM)."""
    return 128 + (e.signum if isinstance(e, Terminated) else signal.SIGINT)


def _raise_keyboard_interrupt(signum, frame):
    global _deferred
    if _deferred is not None:
        _deferred.append(signum)
        return
    _deferred = []     # a stop is under way: `timeout` sends SIGTERM to the run and again to its process group,
    raise _stopping(signum)        # and the second must not cut the clean-up short (signals_resume ends this)


def stopped_since(t: float) -> bool:
    """Whether a signal has stopped a run since `t` (time.monotonic()): what a kernel says after that is noise."""
    return _stopped_at is not None and _stopped_at >= t


def _stopping(signum: int) -> KeyboardInterrupt:
    global _stopped_at
    _stopped_at = time.monotonic()
    return _interruption(signum)


def signals_resume() -> None:
    """After an interruption was handled: signals raise again (those noted meanwhile are dropped)."""
    global _deferred
    _deferred = None


def interrupt_on_signals() -> None:
    """Ctrl-C (SIGINT), SIGTERM and SIGHUP raise KeyboardInterrupt wherever the run is, always: the notebook
    is marked failed, its staging folder swapped in, the kernel stopped (papermill's clean-up at exit), as for
    Ctrl-C. Python's default for SIGTERM and SIGHUP is to die at once, leaving the old results reported as
    current and the staging folder behind. With Python's default SIGINT handler in place, asyncio (which
    papermill's executor runs) swaps in its own that cancels a task instead, and a cancel that lands while a
    cell runs can be absorbed: the notebook then went on to the end (seen in the fault test). A handler of our
    own is left alone by asyncio. Main thread only (signal's rule)."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if sig is not None:
                signal.signal(sig, _raise_keyboard_interrupt)


@contextlib.contextmanager
def signals_deferred():
    """Signals that arrive inside are noted and raised (as KeyboardInterrupt) when it ends, so a swap is never
    left half done. The handlers run in the main thread (Python's rule), so a flag is enough."""
    global _deferred
    if _deferred is not None:               # nested: the outer one raises
        yield
        return
    _deferred = []
    try:
        yield
    finally:
        pending, _deferred = _deferred, None
    if pending:
        _deferred = []                      # a stop under way, as in the handler
        raise _stopping(pending[0])
