"""The worker pool: tasks run in worker processes that die with the main one, Ctrl-C stops them at
once (`worker_pool`, `in_task_order`; `run_tasks` on the pool or a cluster). Used by the series,
the game review, the puzzles and the Congo class grader."""
import contextlib
import multiprocessing
import signal
import threading
from typing import Iterator

from ..core.interrupts import CtrlC, die_with_parent
from ..isolation.sandbox import kill_tree


PARENT_POLL_SECONDS = 0.5


def _pool_init() -> None:
    """Pool workers leave Ctrl-C to the main process and die with it if it is killed; SIGTERM
    (the pool stopped) ends a worker at once, never as the main process's run_folder handler
    (harness.isolation.exchange) would, by an exception and its traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(PARENT_POLL_SECONDS, 1)


def _stop_pool(pool) -> None:
    """Stop a pool at once: kill its workers and every process below them (`kill_tree`: the
    boxes they run, one still starting included), then reap them. A second Ctrl-C meanwhile is
    ignored, so the shutdown cannot be interrupted half-way."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        workers = list(getattr(pool, "_pool", []))
        for worker in workers:
            if worker.pid is not None:
                kill_tree(worker.pid)       # the worker and the boxes it runs, even one starting
        for worker in workers:
            worker.join(1)
        _free_task_lock(pool)
        stopper = threading.Thread(target=_terminate_quietly, args=(pool,), daemon=True)
        stopper.start()
        stopper.join(5)
    finally:
        signal.signal(signal.SIGINT, previous)


def _results(pool, ctrl_c: CtrlC, function, items) -> Iterator:
    """pool.imap_unordered(function, items), waiting in short steps so that a Ctrl-C Python
    dropped still stops the run."""
    results = pool.imap_unordered(function, items)
    while True:
        if ctrl_c.seen:
            raise KeyboardInterrupt
        try:
            result = results.next(timeout=0.25)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return
        yield result


def _terminate_quietly(pool) -> None:
    """pool.terminate, its errors dropped: its workers are dead already, and the task queue a
    killed worker left half-read can make its draining fail (EOFError)."""
    try:
        pool.terminate()
    except Exception:
        pass


def _free_task_lock(pool) -> None:
    """A worker killed while it waited for a task dies holding the lock of the pool's task queue,
    and pool.terminate would wait for that lock for ever (it takes it to drain the queue): once
    the workers are dead, a lock still held is theirs, so it is released here."""
    lock = getattr(getattr(pool, "_inqueue", None), "_rlock", None)
    if lock is None:
        return
    if lock.acquire(False):
        lock.release()
    else:
        try:
            lock.release()
        except ValueError:          # released meanwhile
            pass


@contextlib.contextmanager
def worker_pool(jobs: int, tasks: int):
    """`run(function, tasks)`, which yields function(task) for every task as each is done: in a
    pool of `jobs` processes, or here when one process is enough. The pool's workers leave Ctrl-C
    to this process and die with it; when the block raises (Ctrl-C included) the pool is stopped
    at once, else it is closed and joined."""
    if not (jobs > 1 and tasks > 1):
        yield map
        return
    with CtrlC() as ctrl_c:
        pool = None
        try:
            pool = multiprocessing.get_context("fork").Pool(min(jobs, tasks), initializer=_pool_init)
            yield lambda function, items: _results(pool, ctrl_c, function, items)
            pool.close()
            pool.join()
        except BaseException:
            if pool is not None:
                _stop_pool(pool)
            raise


def run_tasks(function, tasks: list, jobs: int, executor=None) -> Iterator:
    """function(task) for every task, as each ends: on `executor` when given (harness.runs.cluster's
    Dask runner), else in `worker_pool` of `jobs` processes. Closing the generator before the end
    (a decision, Ctrl-C, an error in the caller) stops the pool at once and cancels the
    executor's queued tasks."""
    if not tasks:
        return
    if executor is None:
        with worker_pool(jobs, len(tasks)) as run:
            yield from run(function, tasks)
        return
    finished = False
    try:
        yield from executor.run(function, tasks)
        finished = True
    finally:
        if not finished:
            executor.cancel()


def _numbered(item):
    function, i, task = item
    return i, function(task)


def in_task_order(run, function, tasks: list) -> list:
    """[function(task) for task in tasks], computed by `run` (a `worker_pool`'s), whose results
    come as each task ends."""
    done = sorted(run(_numbered, [(function, i, task) for i, task in enumerate(tasks)]),
                  key=lambda numbered: numbered[0])
    return [result for _, result in done]
