"""Files written whole or not at all, and the clean-up of those a dead writer left: `atomic_write_text` /
`atomic_write_bytes` / `atomic_write_files` (temporaries in the same folder, then renames; the writer's pid in
their names: `write_temporary`),
`remove_orphaned_temporaries` and `remove_dead_run_folders` (a writer judged dead by its pid, read from /proc; a run's
staging folder by its pid, start time and boot id: `mark_owner`, `alive_as`).
A failed write names the file it was writing, never its temporary (`write_problem` says why and what to do)."""
from __future__ import annotations

import errno
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path


def atomic_write_text(path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename, so a reader
    never sees half a file and a failed write (a full disk) leaves the old one intact and no stray file."""
    atomic_write_bytes(path, text.encode())


NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
NOT_ALLOWED = (errno.EACCES, errno.EPERM)


def write_problem(e: OSError, instead: str) -> str:
    """Why a write failed and what to do, in words for a one-line error: a full disk is told to free some space,
    a read-only folder or file system to be made writable; `instead` is the other way out (e.g. "choose another
    --results-dir")."""
    why = e.strerror or str(e)
    if e.errno in NO_SPACE:
        return f"{why}; free some space there or {instead}"
    if e.errno == errno.EROFS:
        return f"{why} (it is mounted read-only); {instead}"
    if e.errno in NOT_ALLOWED:
        return f"{why} (read-only for this user); make it writable or {instead}"
    return f"{why}; {instead}"


def _naming(e: OSError, path) -> OSError:
    """`e` as it would read had it been raised writing `path` itself (the file a user knows), not a temporary."""
    if e.errno is None:
        return e
    return OSError(e.errno, e.strerror or str(e), str(path))     # OSError(errno, ...) is the subclass of that errno


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_temporary(folder: Path, name: str, data: bytes, *, sync: bool = False) -> Path:
    """`data` in a new hidden file beside `folder / name`, with the usual permissions (not mkstemp's 0600); its
    path. `sync`: flushed to the disk before it is renamed (a download, written once; too slow for metrics.json,
    which a run rewrites at every `log`). The writer's pid is in the name (`.NAME.PID.RANDOM.tmp`): a writer killed
    mid-write (SIGKILL, or an interrupt inside mkstemp) leaves a file that `remove_orphaned_temporaries` can tell
    from one still being written. A failed write removes it, and its OSError names `folder / name`."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.{os.getpid()}.", suffix=".tmp", dir=folder)
    except OSError as e:                     # a read-only folder: named as the file that could not be written
        raise _naming(e, Path(folder) / name) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
    except OSError as e:                     # a full disk: a write error names no file
        Path(tmp).unlink(missing_ok=True)
        raise _naming(e, Path(folder) / name) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def atomic_write_bytes(path, data: bytes) -> None:
    """`atomic_write_text` for bytes."""
    atomic_write_files(Path(path).parent, {Path(path).name: data})


def atomic_write_files(folder, files: dict[str, bytes], *, sync: bool = False) -> None:
    """Write every file (name -> bytes) to a temporary in `folder` (`sync`: each flushed to the disk), then rename
    them all: an interruption or a full disk leaves no partial file under a final name (and the old files, if any,
    as they were)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:                  # a file where the folder should be: say which
        raise NotADirectoryError(errno.ENOTDIR, "a file, not a folder", str(folder)) from None
    temps = {}
    try:
        for name, data in files.items():
            temps[name] = write_temporary(folder, name, data, sync=sync)
        for name, tmp in temps.items():
            try:
                os.replace(tmp, folder / name)
            except OSError as e:
                raise _naming(e, folder / name) from None
    finally:
        for tmp in temps.values():
            tmp.unlink(missing_ok=True)                     # the ones not renamed (missing_ok: the others)


def _writer_pid(tmp) -> int | None:
    """The pid in an `atomic_write_bytes` temporary's name (`.NAME.PID.RANDOM.tmp`), or None."""
    parts = tmp.name.rsplit(".", 3)
    return int(parts[1]) if len(parts) == 4 and parts[1].isdigit() else None


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


OWNER = ".owner.json"   # in a run's staging folder: the process that writes it (`process_identity`)
BOOT_ID = "/proc/sys/kernel/random/boot_id"


def _start_time(pid: int) -> int | None:
    """When process `pid` started, in clock ticks after boot (/proc/PID/stat field 22, starttime); None where
    /proc does not say. A pid reused by another process (after a reboot, or a wrap-around) has another start."""
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _boot_id() -> str | None:
    try:
        return open(BOOT_ID).read().strip() or None
    except OSError:
        return None


def process_identity(pid: int | None = None) -> dict:
    """What tells process `pid` (default: this one) from a later process given the same pid: {"pid", "start" (its
    start time, /proc/PID/stat field 22), "boot_id" (this boot's, /proc/sys/kernel/random/boot_id)}."""
    pid = os.getpid() if pid is None else pid
    return {"pid": pid, "start": _start_time(pid), "boot_id": _boot_id()}


def alive_as(identity: dict) -> bool:
    """Whether the process `identity` (`process_identity`) names still runs: its pid runs, in the same boot, with
    the same start time. A part it lacks (recorded where /proc did not say) is not compared."""
    pid = identity.get("pid")
    if not isinstance(pid, int) or not _alive(pid):
        return False
    boot, start = identity.get("boot_id"), identity.get("start")
    if boot is not None and _boot_id() is not None and boot != _boot_id():
        return False                                 # a process of an earlier boot: this pid is another's now
    return start is None or _start_time(pid) in (None, start)


def mark_owner(folder) -> None:
    """Record this process as the writer of `folder` (a run's staging folder): its `OWNER` file, judged by
    `dead_run_folders` (by pid, start time and boot id, so a pid reused after a reboot does not pass for the run)."""
    atomic_write_text(Path(folder) / OWNER, json.dumps(process_identity()))


def _owner_alive(folder: Path, pid: int) -> bool:
    """Whether the run that staged `folder` (`.NAME.KIND-PID`) still runs: judged by its `OWNER` record where it
    has one whose pid is `pid`, else (a folder of older code, or one mid-swap) by the pid alone."""
    try:
        owner = json.loads((folder / OWNER).read_text())
    except (OSError, ValueError):
        owner = None
    if isinstance(owner, dict) and owner.get("pid") == pid:
        return alive_as(owner)
    return _alive(pid)


def _parent(pid: int) -> int | None:
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def remove_orphaned_temporaries(folder, wait_for_children_s: float = 0.0) -> int:
    """Delete the half-written temporaries in `folder` whose writer has died (a kernel killed while it wrote a
    cache entry); those of live writers (another run) stay. A writer that is a child of this process (the
    kernel a run just interrupted) is waited for up to `wait_for_children_s`. The number deleted."""
    deadline = time.monotonic() + wait_for_children_s
    removed = 0
    for tmp in sorted(Path(folder).glob(".*.tmp")):
        pid = _writer_pid(tmp)
        if pid is None or pid == os.getpid():
            continue
        while _alive(pid) and _parent(pid) == os.getpid() and time.monotonic() < deadline:
            time.sleep(0.1)
        if not _alive(pid):
            tmp.unlink(missing_ok=True)
            removed += 1
    return removed


RUN_FOLDER = re.compile(r"\.(.+)\.(running|old)-(\d+)")   # `.NAME.running-PID`, `.NAME.old-PID` (cli.notebooks)


def dead_run_folders(folder, kind: str | None = None) -> list[tuple[Path, str, int]]:
    """The folders `python -m memlib run` stages a notebook in (`.NAME.running-PID`, and `.NAME.old-PID` mid-swap)
    in a profile's results `folder` whose run has died (SIGKILL, a power cut, a full disk): (path, notebook NAME,
    pid), sorted; only `kind` ("running" or "old") when given. Those of live runs and of this process are not."""
    out = []
    folder = Path(folder)
    if not folder.is_dir():
        return out
    for d in sorted(folder.glob(".*")):
        m = RUN_FOLDER.fullmatch(d.name)
        if not m or (kind and m.group(2) != kind) or not d.is_dir():
            continue
        pid = int(m.group(3))
        if pid != os.getpid() and not _owner_alive(d, pid):
            out.append((d, m.group(1), pid))
    return out


def live_run_folders(folder) -> list[tuple[Path, str, int]]:
    """The staging folders (`.NAME.running-PID`) of the runs in progress in a profile's results `folder` (other
    processes', alive by pid, start time and boot id): (path, notebook NAME, pid), sorted."""
    dead = {d for d, _n, _p in dead_run_folders(folder, "running")}
    out = []
    for d in sorted(Path(folder).glob(".*")) if Path(folder).is_dir() else []:
        m = RUN_FOLDER.fullmatch(d.name)
        if m and m.group(2) == "running" and d.is_dir() and d not in dead and int(m.group(3)) != os.getpid():
            out.append((d, m.group(1), int(m.group(3))))
    return out


def remove_dead_run_folders(folder) -> list[str]:
    """Delete the folders `python -m memlib run` stages a notebook in (`.NAME.running-PID`, and `.NAME.old-PID`
    mid-swap) that a run which died left in a profile's results `folder` (SIGKILL, a power cut, a full disk);
    those of live runs stay. Judged by the pid, its start time and the boot id that the run recorded (`mark_owner`),
    so that a pid reused after a reboot does not keep a dead run's folder. The names
    deleted. (`cli.notebooks.withdraw_dead_runs` first marks a dead run's notebook failed.)"""
    removed = []
    for d, _name, _pid in dead_run_folders(folder):
        shutil.rmtree(d, ignore_errors=True)
        if not d.exists():
            removed.append(d.name)
    return removed
