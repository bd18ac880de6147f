"""How many CPU threads llama.cpp gets, and how its idle threads wait.

llama.cpp splits every matrix multiply across ``n_threads`` and meets at a
barrier after each op. On a machine where another process is busy, one of our
threads is descheduled at each barrier and the others spin waiting for it:
with threads = cores and one competing process, decode on a 2-core machine was
measured 10x slower than with one thread (docs/BENCHMARKS.md, "Speed under
load"). Two things follow:

* idle OpenMP threads wait **passively** (``OMP_WAIT_POLICY=PASSIVE``, read by
  libgomp when llama.cpp's library loads — :func:`configure_environment` must
  run before the first ``import llama_cpp``);
* the thread count follows the machine: :class:`ThreadPolicy` measures how many
  cores *other* processes kept busy (``/proc/stat`` minus our own CPU time) and
  gives llama.cpp the cores that are left, re-checked while decoding.

A thread count the user sets (config ``model.threads``) is used as is.
"""

from __future__ import annotations

import os
import time

__all__ = ["configure_environment", "ThreadPolicy", "cpu_busy_sample", "threads_for"]


def configure_environment() -> None:
    """Set llama.cpp's OpenMP wait policy to passive unless the user chose one.

    Call before the first ``import llama_cpp`` in the process (later calls have no effect on
    an already loaded libgomp).
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def cpu_busy_sample() -> tuple[float, float, float] | None:
    """(wall seconds, whole-machine busy CPU seconds, this process's CPU seconds), or None off Linux.

    Busy time is ``/proc/stat``'s first line less idle and iowait, in seconds
    (USER_HZ ticks / ``SC_CLK_TCK``).
    """
    try:
        with open("/proc/stat") as fh:
            fields = fh.readline().split()[1:]
    except OSError:
        return None
    ticks = [int(x) for x in fields[:8]]
    busy = sum(ticks) - ticks[3] - (ticks[4] if len(ticks) > 4 else 0)
    hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    t = os.times()
    return time.monotonic(), busy / hz, t.user + t.system


def threads_for(cpus: int, others_busy: float, cap: int) -> int:
    """Threads to use: the cores other processes leave free, at least 1, at most ``cap``.

    Args:
        cpus: logical CPUs of the machine.
        others_busy: cores' worth of CPU time other processes used (0.0 .. cpus).
        cap: upper bound (physical cores).
    """
    free = cpus - others_busy
    return max(1, min(cap, int(free + 0.35)))


class ThreadPolicy:
    """Chooses llama.cpp's thread count from how busy the rest of the machine is.

    Args:
        physical: physical cores (the most threads ever used).
        fixed: a user-chosen thread count (then nothing is measured).
        cpus: logical CPUs (default ``os.cpu_count()``).

    Call :meth:`choose` before a generation and every few dozen decoded tokens;
    it returns the thread count for the interval since the previous call.
    """

    def __init__(self, physical: int, fixed: int | None = None, cpus: int | None = None) -> None:
        self.physical = max(1, physical)
        self.fixed = fixed
        self.cpus = cpus or os.cpu_count() or self.physical
        self._last = None if fixed else cpu_busy_sample()
        self.current = fixed or self.physical

    def choose(self, min_interval: float = 0.2) -> int:
        """The thread count to use now (unchanged when too little time passed to measure)."""
        if self.fixed:
            return self.fixed
        now = cpu_busy_sample()
        if now is None or self._last is None:
            return self.current
        wall = now[0] - self._last[0]
        if wall < min_interval:
            return self.current
        others = max(0.0, (now[1] - self._last[1]) - (now[2] - self._last[2])) / wall
        self._last = now
        self.current = threads_for(self.cpus, min(others, float(self.cpus)), self.physical)
        return self.current
