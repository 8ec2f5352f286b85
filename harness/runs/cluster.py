"""Past one machine: games sent to an existing Dask distributed scheduler.

`DaskRunner(ADDRESS)` is the executor `harness.runs.series.run_plans` takes instead of its local
pool: each game stays one task (`series.run_game(task)`, a plain picklable function of a plain
dict), submitted in the same order as locally; records come back as games end and the series
appends them exactly as it does for its own pool. Each record names the Dask worker that played
it (field ``worker``, the worker's address); local records say ``local``. Seeds travel in the
task, so the same seeds give the same games wherever they are played.

The workers run the project's own code: start them from the project's root in its environment
(``dask worker tcp://HOST:8786`` after ``dask scheduler``); see docs/grading.md.
"""
import contextlib
import re
import uuid
from typing import Callable, Iterator, List, Optional, Tuple


class ClusterError(Exception):
    """The scheduler cannot be reached or used; one line of text."""


ADDRESS = re.compile(r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+)"
                     r":(?P<port>[0-9]+)")
PROBE_SECONDS = 3.0        # how long a scheduler has to answer before --cluster gives up


def check_address(address: str) -> str:
    """The address as Dask takes it (tcp://HOST:PORT); ClusterError for anything else."""
    match = ADDRESS.fullmatch(address.strip())
    if not match:
        raise ClusterError(f"--cluster '{address}' is not a scheduler address: expected tcp://HOST:PORT "
                           f"(e.g. tcp://127.0.0.1:8786)")
    if (match["scheme"] or "tcp").lower() != "tcp":
        raise ClusterError(f"--cluster '{address}': only tcp:// scheduler addresses are supported")
    if not 0 < int(match["port"]) < 65536:
        raise ClusterError(f"--cluster '{address}': port {match['port']} is not between 1 and 65535")
    return f"tcp://{match['host']}:{int(match['port'])}"


def probe(address: str, seconds: float = PROBE_SECONDS) -> None:
    """Ask the scheduler who it is, giving up after `seconds`: a wrong host or port, or a program
    there that is not a Dask scheduler, is a ClusterError within that time. (A Client itself can
    wait for ever on a port that accepts and never answers, and its clean-up then hangs.)"""
    import asyncio
    from distributed.core import rpc

    async def ask() -> dict:
        scheduler = rpc(address, timeout=seconds)
        try:
            return await scheduler.identity()
        finally:
            await scheduler.close_rpc()
    try:
        identity = asyncio.run(asyncio.wait_for(ask(), seconds))
    except (asyncio.TimeoutError, TimeoutError):
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: no answer within {seconds:g} s") from None
    except OSError as exc:
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {why}") from None
    except Exception:
        identity = None
    if not isinstance(identity, dict) or identity.get("type") != "Scheduler":
        raise ClusterError(f"what answers at {address} is not a Dask scheduler")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _on_worker(function: Callable[[dict], tuple], task: dict) -> Tuple[int, dict]:
    """Runs on a Dask worker: one game, its record marked with the worker's address."""
    from distributed import get_worker
    plan, record = function(task)
    record["worker"] = get_worker().address
    return plan, record


class DaskRunner:
    """Games on a Dask cluster, for `run_plans(..., executor=DaskRunner(address))`."""

    def __init__(self, address: str, timeout: float = 10.0):
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError("--cluster needs the dask and distributed packages (pip install -r "
                               "requirements.txt)") from None
        self.address = address
        probe(check_address(address), min(timeout, PROBE_SECONDS))
        try:
            self.client = Client(check_address(address), timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self.futures: List = []
        self._check_code()

    def _check_code(self) -> None:
        """The scheduler and every worker must be able to import the project (they unpickle its
        functions by name): say so in one line now rather than fail with a traceback later."""
        can_import = lambda: __import__("importlib.util").util.find_spec("harness") is not None  # noqa: E731
        try:
            where = {"the scheduler": self.client.run_on_scheduler(can_import),
                     **{f"worker {w}": ok for w, ok in self.client.run(can_import).items()}}
        except Exception as exc:
            self.client.close()
            raise ClusterError(f"the Dask cluster at {self.address} cannot be used: {_first_line(exc)}") from None
        missing = [name for name, ok in where.items() if not ok]
        if missing:
            self.client.close()
            raise ClusterError(f"{', '.join(missing)} at {self.address} cannot import the project's code "
                               f"(harness): start them from the project's root with PYTHONPATH=. "
                               f"(see docs/grading.md)")

    def workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1).get("workers", {}))

    def run(self, function: Callable[[dict], tuple], tasks: List[dict]) -> Iterator[tuple]:
        """(plan, record) for every task, in the order the games end."""
        from distributed import as_completed
        if not tasks:
            return
        self.futures = self.client.map(_on_worker, [function] * len(tasks), tasks, pure=False,
                                       key=[f"game-{uuid.uuid4().hex}" for _ in tasks])
        for future in as_completed(self.futures, loop=self.client.loop):
            try:
                result = future.result()
            except Exception as exc:
                raise ClusterError(f"a game failed on the Dask cluster at {self.address}: "
                                   f"{_first_line(exc)}") from None
            yield result
            future.release()

    def cancel(self) -> None:
        if self.futures:
            self.client.cancel(self.futures)
            self.futures = []

    def close(self) -> None:
        self.cancel()
        self.client.close()

    def __enter__(self) -> "DaskRunner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def runner(address: Optional[str]) -> Optional[DaskRunner]:
    """A DaskRunner for `--cluster ADDRESS`, or None (the local pool)."""
    return None if not address else DaskRunner(address)


@contextlib.contextmanager
def connect(address: Optional[str]):
    """`with connect(args.cluster) as executor:` a DaskRunner (closed afterwards) or None."""
    executor = runner(address)
    try:
        yield executor
    finally:
        if executor is not None:
            executor.close()
