"""Running a study's independent tasks on worker processes, in order, with progress lines; reading back the
lines a (possibly stopped) run stored, so that it can go on."""
from __future__ import annotations

import json
import time
from pathlib import Path


def read_stored(path, row_key) -> tuple[list[dict], set[str]]:
    """(rows, keys of every finished task) of a study's interventions.jsonl, a stopped run's included: each task
    leaves its rows, or one line marked "none" when it had no intervention point; `row_key(row)` names its task."""
    rows, done = [], set()
    for line in Path(path).read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            done.add(row_key(r))
            if not r.get("none"):
                rows.append(r)
    return rows, done


def map_tasks(fn, tasks: list, workers: int, echo=print, what: str = "tasks", every: float = 30.0,
              each=None) -> list:
    """[fn(t) for t in tasks], on `workers` processes (1: in this one); the results do not depend on it.

    A progress line (done/total, rate, time left) at most every `every` seconds; `each(task, result)` is
    called as each result arrives, in order (to store it at once: a stopped run keeps what it finished).
    """
    out, t0, last = [], time.time(), time.time()
    total = len(tasks)

    def tick(i):
        nonlocal last
        now = time.time()
        if now - last >= every or i == total:
            rate = i / (now - t0) if now > t0 else 0.0
            left = (total - i) / rate if rate else 0.0
            echo(f"  {i}/{total} {what}, {rate * 60:.1f}/min, ~{left / 60:.1f} min left")
            last = now

    if workers <= 1:
        for i, t in enumerate(tasks, 1):
            out.append(fn(t))
            if each:
                each(t, out[-1])
            tick(i)
        return out
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(workers) as pool:
        for i, r in enumerate(pool.imap(fn, tasks, chunksize=1), 1):
            out.append(r)
            if each:
                each(tasks[i - 1], r)
            tick(i)
    return out
