"""Ctrl-C at random moments of SAT solves: the stress harness of the tests and benchmark.

:func:`stress` starts a child Python process that solves one formula over and over
(the Minefield no-draw fill step of size ``n``); the parent sends it SIGINT at seeded
random moments, one per round, and requires each to come back as a plain
:class:`KeyboardInterrupt` in the child, which then says so and goes on. A round is
*clean* when that happens; a *crash* is the child dying (``free(): invalid size``,
SIGSEGV...) or saying anything else, a *hang* no answer within the timeout. A crashed
or hung child is replaced and the rounds go on.

The child's ``mode`` says how it solves:

- ``library``: :func:`boardproof.models.minefield.proofs.sat.solve`, the project's code;
- ``second``: :func:`boardproof.solvers.sat.second.resolve` with ``cryptominisat``;
- ``inprocess``: python-sat in the main thread with its own SIGINT handler, as the
  project did before session 6 (kept to measure the crash it had).

:func:`cli_stress` does the same through the command line (``verify --method fill``,
one process per try, exit 130 and ``interrupted`` required). Run this module for the
figures (``python -m boardproof.models.minefield.research.sigint_stress --help``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

MODES = ("library", "second", "inprocess")


@dataclass
class StressResult:
    """What the rounds gave: clean interrupts, crashes, hangs (``failures``: the evidence)."""

    mode: str
    rounds: int = 0
    clean: int = 0
    crashes: int = 0
    hangs: int = 0
    failures: list[str] = field(default_factory=list)
    solves: int = 0  # solves that finished between the interrupts
    seconds: float = 0.0

    def line(self) -> str:
        return (f"{self.mode}: {self.rounds} rounds, {self.clean} clean, "
                f"{self.crashes} crashes, {self.hangs} hangs "
                f"({self.solves} solves finished, {self.seconds:.0f} s)")


# ---------------------------------------------------------------------------
# the child
# ---------------------------------------------------------------------------


def _inprocess_solve(clauses: list[list[int]]) -> bool:
    """python-sat in this (main) thread, Ctrl-C as python-sat gives it: the code before
    session 6 (``run_solver``), which could corrupt the heap."""
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        try:
            return bool(s.solve())
        except Exception as error:
            if "keyboard interrupt" in str(error).lower():
                # it returns by longjmp from its handler: that handler stays installed
                # and SIGINT stays blocked in this thread (a later one would go to
                # another thread); a fresh process would have neither
                signal.signal(signal.SIGINT, signal.default_int_handler)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                raise KeyboardInterrupt from None
            raise


def _child(mode: str, n: int) -> None:
    from boardproof.models.minefield.proofs import sat
    from boardproof.models.minefield.research import claims
    from boardproof.solvers.sat import second

    enc = sat.encode(n, dict(claims._step_options(n, "fill"))["fill"])
    solved = 0
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    while True:
        try:
            while True:
                if mode == "library":
                    result = sat.solve(enc, "cadical195").result
                elif mode == "second":
                    result = second.resolve(enc.clauses, "cryptominisat")["result"]
                else:
                    result = "sat" if _inprocess_solve(enc.clauses) else "unsat"
                if result != "unsat":  # an interrupted solve taken for an answer
                    out.write(f"wrong {result}\n")
                    out.flush()
                solved += 1
        except KeyboardInterrupt:
            pass
        try:  # the solver's process must be gone (killed and reaped)
            os.waitpid(-1, os.WNOHANG)  # running (0, 0), or a zombie: one is left
            left = True
        except ChildProcessError:
            left = False
        out.write(f"interrupted {solved}{' leftover' if left else ''}\n")
        out.flush()
        if not sys.stdin.readline():
            return
        out.write("ready\n")
        out.flush()


# ---------------------------------------------------------------------------
# the parent
# ---------------------------------------------------------------------------


class _Child:
    def __init__(self, mode: str, n: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardproof.models.minefield.research.sigint_stress",
             "--child", mode,
             "--size", str(n)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""
        self.solves = 0  # solves it finished so far

    def line(self, timeout: float) -> str | None:
        """The child's next output line; None at its end or after ``timeout``."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return None
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    return None
                self.buffer += chunk
        text, _, self.buffer = self.buffer.partition(b"\n")
        return text.decode()

    def stop(self) -> tuple[int | None, str]:
        """Kill the child if it still runs; its exit status and stderr."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()
        return self.proc.returncode, err

    def finish(self, timeout: float) -> tuple[int | None, str]:
        """Close its stdin (it exits); its exit status and stderr."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=timeout)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            pass
        return self.stop()


def stress(mode: str = "library", rounds: int = 20, seed: int = 1, n: int = 8,
           max_delay: float = 0.3, timeout: float = 15.0) -> StressResult:
    """Interrupt ``rounds`` times at ``uniform(0, max_delay)`` s into the solving."""
    if mode not in MODES:
        raise ValueError(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
    rng = random.Random(seed)
    result = StressResult(mode)
    began = time.monotonic()
    child: _Child | None = None
    for number in range(rounds):
        if child is None:
            child = _Child(mode, n)
            if child.line(timeout) != "ready":
                status, err = child.stop()
                result.crashes += 1
                result.failures.append(f"round {number}: no start (exit {status}): {err[-300:]}")
                child = None
                continue
        time.sleep(rng.uniform(0.0, max_delay))
        os.kill(child.proc.pid, signal.SIGINT)
        result.rounds += 1
        answer = child.line(timeout)
        if answer is not None and answer.startswith("interrupted ") and "leftover" not in answer:
            result.clean += 1
            result.solves += int(answer.split()[1]) - child.solves
            child.solves = int(answer.split()[1])
            if number == rounds - 1:
                break  # the child waits for a word: it ends below
            assert child.proc.stdin is not None
            try:
                child.proc.stdin.write(b"go\n")
                child.proc.stdin.flush()
            except BrokenPipeError:
                pass
            if child.line(timeout) == "ready":
                continue
            answer = "no ready"
        where = _waiting_in(child.proc.pid) if answer is None else ""
        status, err = child.stop()
        if answer is None and status == -signal.SIGKILL:
            result.hangs += 1
            # its stderr too: a lost interrupt says "Exception ignored in: ..." there
            said = f": {err[-300:]!r}" if err.strip() else ""
            result.failures.append(f"round {number}: hang ({where}){said}")
        else:
            result.crashes += 1
            result.failures.append(f"round {number}: {answer!r}, exit {status}: {err[-300:]!r}")
        child = None
    if child is not None:
        status, err = child.finish(timeout)
        if status != 0 or err.strip():
            if status == -signal.SIGKILL:
                result.hangs += 1
            else:
                result.crashes += 1
            result.failures.append(f"at exit: exit {status}: {err[-300:]!r}")
    result.seconds = time.monotonic() - began
    return result


def _verify_command(checkpoint: Path, sizes: str) -> list[str]:
    return [sys.executable, "-c", "from boardproof.cli import main; main()",
            "verify", "minefield-no-draw", "--sizes", sizes, "--method", "fill",
            "--exhaustive-max", "0", "--quiet", "--workers", "1",
            "--checkpoint", str(checkpoint)]


def _waiting_in(pid: int) -> str:
    """Where the threads of a hung process wait (Linux: their ``wchan``)."""
    try:
        tasks = sorted(os.listdir(f"/proc/{pid}/task"))
        return ", ".join(Path(f"/proc/{pid}/task/{t}/wchan").read_text() or "?" for t in tasks)
    except OSError:
        return "?"


def cli_try(delay: float, sizes: str = "2,12", first: str = "n=2/fill",
            timeout: float = 30.0, again: float | None = None) -> str:
    """One ``verify`` run, SIGINT to its process group ``delay`` s after the ``first``
    task is in the checkpoint (and once more ``again`` s later: an impatient user):
    ``"clean"``, ``"early"`` (it had ended) or what went wrong."""
    with tempfile.TemporaryDirectory() as tmp:
        checkpoint = Path(tmp) / "run.checkpoint.json"
        proc = subprocess.Popen(_verify_command(checkpoint, sizes), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and proc.poll() is None:
                if checkpoint.exists() and first in checkpoint.read_text(encoding="utf-8"):
                    break
                time.sleep(0.01)
            time.sleep(delay)
            if proc.poll() is not None:
                proc.communicate()
                return "early"
            os.killpg(proc.pid, signal.SIGINT)
            if again is not None:
                time.sleep(again)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGINT)
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            where = _waiting_in(proc.pid)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return f"hang ({where})"
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        done = json.loads(checkpoint.read_text(encoding="utf-8")) if checkpoint.exists() else {}
        lines = err.strip().splitlines()
        if (proc.returncode == 130 and lines[-1:] == ["interrupted"]
                and "Traceback" not in err and first in str(done)):
            return "clean"
        return f"exit {proc.returncode}: {err[-300:]!r}"


def cli_stress(tries: int = 10, seed: int = 1, sizes: str = "2,12",
               max_delay: float = 1.0, again: float | None = None,
               ) -> tuple[dict[str, int], list[str]]:
    """``tries`` runs of :func:`cli_try`: counts by outcome, and the failures."""
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    failures: list[str] = []
    for _ in range(tries):
        outcome = cli_try(rng.uniform(0.0, max_delay), sizes,
                          again=None if again is None else rng.uniform(0.0, again))
        kind = outcome.split()[0] if outcome.split()[0] in ("clean", "early", "hang") else "crash"
        counts[kind] = counts.get(kind, 0) + 1
        if kind not in ("clean", "early"):
            failures.append(outcome)
    return counts, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=MODES, default="library")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--max-delay", type=float, default=0.3)
    parser.add_argument("--cli", type=int, default=0, metavar="TRIES",
                        help="instead: TRIES runs of the verify command")
    parser.add_argument("--sizes", default="2,12", help="with --cli: the verify sizes")
    parser.add_argument("--again", type=float, default=None, metavar="SECONDS",
                        help="with --cli: a second SIGINT up to SECONDS after the first")
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.size)
        return 0
    if args.cli:
        counts, failures = cli_stress(args.cli, args.seed, args.sizes, args.max_delay,
                                      args.again)
        print(f"cli: {args.cli} tries, {counts}")
        for failure in failures:
            print("  " + failure)
        return 1 if failures else 0
    found = stress(args.mode, args.rounds, args.seed, args.size, args.max_delay)
    print(found.line())
    for failure in found.failures:
        print("  " + failure)
    return 1 if found.failures else 0


if __name__ == "__main__":
    sys.exit(main())
