"""The kernels' stderr during `run`: relayed to this process's stderr line by line, and dropped once a signal has
stopped the run. A kernel stopped while it starts or runs a cell tells its own story of the stop on its stderr (a
kernel cut off while it started: ipykernel's "Parent appears to have exited, shutting down.", and in some tries a
20-line `zmq.error.ZMQError: Socket operation on non-socket` traceback from a socket closed under one of its
threads), which buried the run's one line "interrupted (Ctrl-C); marked as failed". After this process exits, what
a kernel still writes goes into a pipe nobody reads, never to the terminal. A kernel is shut down without the SIGINT
jupyter_client sends first, which ipykernel logged as "KeyboardInterrupt caught in kernel" in runs nobody interrupted.

The kernels talk to this process over IPC (Unix sockets in a private folder, `ipc_folder`), not over TCP on
localhost: ipykernel warns at every start that TCP carries the code and outputs unencrypted, a line in every run's
output that said nothing about the run; sockets in a folder only this user can enter carry nothing to the network."""
from __future__ import annotations

import atexit
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
import warnings

from .signals import stopped_since


def _relay(fd: int, started: float, out=None) -> None:
    """Copy the kernel's stderr (read end `fd`) to `out` (default: sys.stderr at each line) line by line until it
    closes; a line that comes after a signal stopped the run is dropped."""
    with os.fdopen(fd, "rb") as pipe:
        for line in pipe:
            if stopped_since(started):
                continue
            dest = out or sys.stderr
            try:
                dest.write(line.decode(errors="replace"))
                dest.flush()
            except (OSError, ValueError):      # our own stderr closed: nothing to tell
                pass


def relay_stderr() -> int:
    """A pipe whose read end a daemon thread relays (`_relay`); returns the write end, for the kernel's stderr
    (the caller closes its copy once the kernel holds it)."""
    r, w = os.pipe()
    threading.Thread(target=_relay, args=(r, time.monotonic()), daemon=True, name="kernel-stderr").start()
    return w


IPC_PATH_MAX = 100      # a Unix socket's path holds at most 107 bytes (Linux; 103 on macOS): the sockets' paths


def ipc_folder() -> str | None:
    """A new folder, readable by this user only (mkdtemp's 0700), for one kernel's IPC sockets (`<folder>/kernel-N`),
    in the temporary folder, or in /tmp where $TMPDIR is too deep for a socket's path; None where neither works (the
    kernel then talks over TCP, as Jupyter's default)."""
    for parent in (None, "/tmp"):
        try:
            folder = tempfile.mkdtemp(prefix="memlib-kernel-", dir=parent)
        except OSError:
            continue
        if len(os.path.join(folder, "kernel-99999").encode()) <= IPC_PATH_MAX:
            return folder
        shutil.rmtree(folder, ignore_errors=True)
    return None


def manager_class():
    """jupyter_client's AsyncKernelManager (nbclient's default), launching each kernel with its stderr relayed
    (`relay_stderr`) and its channels on IPC sockets in a private folder (`ipc_folder`) removed when the kernel is
    shut down (or, failing that, when this process exits); passed to papermill as `kernel_manager_class`."""
    from jupyter_client import AsyncKernelManager    # the Jupyter stack: only for the commands that start a kernel

    class RelayedStderr(AsyncKernelManager):
        ipc_dir: str | None = None

        async def _async_pre_start_kernel(self, **kw):
            if self.ipc_dir is None and os.name == "posix" and not self._connection_file_written:
                self.ipc_dir = ipc_folder()
                if self.ipc_dir is not None:
                    self.transport = "ipc"
                    self.ip = os.path.join(self.ipc_dir, "kernel")
                    atexit.register(shutil.rmtree, self.ipc_dir, True)
            return await super()._async_pre_start_kernel(**kw)

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            try:
                await super()._async_cleanup_resources(restart=restart)
            finally:
                if not restart and self.ipc_dir is not None:   # a restart keeps its sockets' names
                    shutil.rmtree(self.ipc_dir, ignore_errors=True)
                    self.ipc_dir = None                           # a new start: a new folder

        async def _async_interrupt_kernel(self) -> None:
            # jupyter_client sends every kernel SIGINT before its shutdown request; where that lands in ipykernel's
            # event loop, the kernel logs "ERROR | KeyboardInterrupt caught in kernel" after a run nobody
            # interrupted. A shutdown needs no interrupt: the control channel's request ends a busy kernel too, and
            # jupyter_client kills one that does not exit. An interrupt asked for (a cell's timeout) is sent.
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

        async def _async_launch_kernel(self, kernel_cmd, **kw):
            if kw.get("stderr") is not None:
                return await super()._async_launch_kernel(kernel_cmd, **kw)
            w = relay_stderr()
            try:
                return await super()._async_launch_kernel(kernel_cmd, **{**kw, "stderr": w})
            finally:
                os.close(w)                      # the kernel holds its own copy: its exit ends the relay

    return RelayedStderr


def quiet_after_stop() -> None:
    """After a stop, asyncio's account of the tasks papermill's event loop left pending ("Task was destroyed but it
    is pending!", "coroutine ... was never awaited", printed as this process exits) is noise too."""
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    warnings.filterwarnings("ignore", message=r"coroutine .* was never awaited", category=RuntimeWarning)
