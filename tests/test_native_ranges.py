"""Options are checked against the native modules' ranges before any work starts
(issue 33, item 5).

``puzzle generate candy --max-plies 999`` searched for 25 s, then ended in a traceback
(``ValueError: plies: 0 to 250`` from ``_candy``); ``--max-plies 99999999999`` on
Carpniches never ended (a loop over every offset, then a C ``int`` overflow). Every
range a C module enforces (plies, depth, horizon, table bits, node limits, the df-pn
heuristic's scale) is now a constant of its binding, checked by the library with a
one-line InvalidOptionError naming the Python parameter, which the command line writes
as its flag (exit 2). The last tests pin each constant to what the C module itself does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from errors import one_error_line

from boardproof import models
from boardproof.models.base import InvalidOptionError
from boardproof.models.candy import native as candy_native
from boardproof.models.carpniches import native as carpniches_native
from boardproof.models.minefield import native as minefield_native
from boardproof.models.minefield.native import prover
from boardproof.models.minefield.research import openings, subtrees
from boardproof.puzzles import generate
from boardproof.solvers import api
from boardproof.solvers.native import MAX_NODES

CANDY_START = models.get("candy").start(players=2)
CARPNICHES_START = models.get("carpniches").start()
MINEFIELD_3 = models.get("minefield").parse_position("3/3/3 b -")

CANDY_WHY = "the longest win the native search of Candy Conquest takes"
CARPNICHES_WHY = "the longest win the native search of Carpniches takes"

needs_candy = pytest.mark.skipif(not candy_native.available(), reason="no _candy module")
needs_carpniches = pytest.mark.skipif(not carpniches_native.available(),
                                      reason="no _carpniches module")  # fmt: skip
needs_minefield = pytest.mark.skipif(not minefield_native.available(),
                                     reason="no _minefield module")  # fmt: skip


# ---------------------------------------------------------------------------
# the command line: exit 2, one line, before any work
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["candy", "--max-plies", "999"],
         f"error: invalid option --max-plies: expected 3 to 250 ({CANDY_WHY}), got 999"),
        (["candy", "--max-plies", "251"],
         f"error: invalid option --max-plies: expected 3 to 250 ({CANDY_WHY}), got 251"),
        (["candy-conquest", "--min-plies", "300", "--max-plies", "400"],
         f"error: invalid option --min-plies: expected 1 to 250 ({CANDY_WHY}), got 300"),
        (["carpniches", "--max-plies", "501"],
         f"error: invalid option --max-plies: expected 3 to 500 ({CARPNICHES_WHY}), got 501"),
        (["carpniches", "--max-plies", "99999999999"],
         "error: invalid option --max-plies: expected 3 to 500 "
         f"({CARPNICHES_WHY}), got 99999999999"),
    ],
)  # fmt: skip
def test_puzzle_generate_refuses_plies_beyond_the_native_search(cli_run, tmp_path, args, line):
    out = tmp_path / "puzzles.jsonl"
    status, stdout, err = cli_run("puzzle", "generate", *args, "--count", "1", "--out", str(out))
    assert (status, stdout) == (2, "")
    assert one_error_line(err) == line
    assert not out.exists() and not list(tmp_path.iterdir())  # nothing written, no checkpoint


def test_puzzle_generate_without_a_native_bound_takes_any_plies(cli_run):
    """Minefield's generator has no native win-within filter: a huge bound is no error,
    and the candidates stop at the playout's start (the loop over the offsets no longer
    runs to the bound)."""
    status, stdout, err = cli_run("puzzle", "generate", "minefield", "--count", "1",
                                  "--max-plies", "99999999999", "--timeout", "5")  # fmt: skip
    assert status == 0 and stdout.startswith('{"id":"minefield-0-'), err
    assert "Traceback" not in err


def test_openings_refuses_a_node_budget_beyond_64_bits(cli_run, tmp_path):
    """2**64 reached the df-pn as 0, its "no limit" (``K`` wraps silently)."""
    out = tmp_path / "out"
    status, stdout, err = cli_run("openings", "minefield", "--sizes", "3", "--budget",
                                  str(2**64), "--budget-from", "3", "--out", str(out))
    assert (status, stdout) == (2, "")
    assert one_error_line(err) == (
        f"error: invalid option --budget: expected 1 to {2**64 - 1} (the node limit of the "
        f"C df-pn), got {2**64}"
    )
    assert not out.exists()


# ---------------------------------------------------------------------------
# the library: InvalidOptionError naming the parameter
# ---------------------------------------------------------------------------


def _refused(name: str) -> Any:
    """``pytest.raises`` of InvalidOptionError naming option ``name``."""
    return pytest.raises(InvalidOptionError, match=rf"^invalid option {name}: expected ")


def test_puzzle_settings_are_checked_for_the_game() -> None:
    assert generate.settings_for("candy", max_plies=candy_native.MAX_PLIES).max_plies == 250
    assert generate.settings_for("carpniches", max_plies=carpniches_native.MAX_DEPTH)
    assert generate.settings_for("minefield", max_plies=10**12).max_plies == 10**12
    with _refused("max_plies"):
        generate.settings_for("candy", max_plies=candy_native.MAX_PLIES + 1)
    with _refused("max_plies"):
        generate.Settings(max_plies=carpniches_native.MAX_DEPTH + 1).validate("carpniches")
    with _refused("max_plies"):  # generate() itself, before any task
        generate.generate("candy", 1, settings=generate.Settings(max_plies=999),
                          progress=False)  # fmt: skip
    generate.Settings(max_plies=999).validate()  # no game: no native bound


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("plies", {"plies": candy_native.MAX_PLIES + 1}),
        ("plies", {"plies": -1}),
        ("tt_bits", {"tt_bits": candy_native.MAX_TT_BITS + 1}),
        ("tt_bits", {"tt_bits": candy_native.MIN_TT_BITS - 1}),
        ("node_limit", {"node_limit": -1}),
        ("node_limit", {"node_limit": MAX_NODES + 1}),
        ("player", {"player": 2}),
    ],
)  # fmt: skip
def test_candy_win_within_ranges(name: str, kwargs: dict) -> None:
    args = {"player": 0, "plies": 3, **kwargs}
    with _refused(name):
        candy_native.win_within(CANDY_START, args.pop("player"), args.pop("plies"), **args)


def test_candy_solve_and_oracle_ranges() -> None:
    with _refused("tt_bits"):
        candy_native.solve(CANDY_START, tt_bits=candy_native.MAX_TT_BITS + 1)
    with _refused("plies"):
        candy_native.win_oracle(0, candy_native.MAX_PLIES + 1)


@needs_carpniches
def test_carpniches_ranges() -> None:
    engine = models.info("carpniches").part("engine")
    with _refused("tt_bits"):
        carpniches_native.NativeAlphaBeta(CARPNICHES_START,
                                          tt_bits=carpniches_native.MAX_TT_BITS + 1)
    search = carpniches_native.NativeAlphaBeta(CARPNICHES_START, tt_bits=12)
    with _refused("depth"):
        search.search(carpniches_native.MAX_DEPTH + 1)
    with _refused("depth"):
        search.search(2**31)  # was an OverflowError of the C int
    with _refused("plies"):
        engine.win_within(CARPNICHES_START, 0, carpniches_native.MAX_DEPTH + 1, 1000, 12)
    with _refused("node_limit"):
        engine.win_within(CARPNICHES_START, 0, 3, -1, 12)
    assert engine.max_plies == carpniches_native.MAX_DEPTH


@needs_minefield
def test_minefield_ranges() -> None:
    with _refused("tt_bits"):
        minefield_native.NativeSearch(3, tt_bits=minefield_native.MAX_TT_BITS + 1)
    search = minefield_native.search_for(3, tt_bits=12)
    with _refused("horizon"):
        search.solve(MINEFIELD_3, horizon=minefield_native.MAX_HORIZON + 1)
    with _refused("node_limit"):
        search.solve(MINEFIELD_3, node_limit=-1)  # "K" made it 2**64 - 1: no limit
    with _refused("tt_bits"):
        search.proof(MINEFIELD_3, 0, tt_bits=minefield_native.MAX_TT_BITS + 1)
    with _refused("node_limit"):
        search.proof(MINEFIELD_3, 0, node_limit=MAX_NODES + 1)  # "K" made it 0: no limit
    with _refused("scale"), prover.rules(["heuristic"], scale=minefield_native.MAX_SCALE + 1):
        pass
    with _refused("node_limit"):
        minefield_native.solve_any(MINEFIELD_3, node_limit=2**64)


def test_solve_node_limit_range() -> None:
    with _refused("node_limit"):
        api.solve(MINEFIELD_3, node_limit=0)
    with _refused("node_limit"):
        api.solve(MINEFIELD_3, method="native", node_limit=2**64)
    assert api.solve(MINEFIELD_3, node_limit=MAX_NODES).value == "win"


def test_openings_budget_range(tmp_path: Path) -> None:
    assert subtrees.check_budget(MAX_NODES) == MAX_NODES
    with _refused("budget"):
        subtrees.check_budget(0)
    with _refused("budget"):
        openings.build_report([3], budget=MAX_NODES + 1, split_from=3, progress=False,
                              checkpoint=str(tmp_path / "cp.jsonl"))  # fmt: skip
    assert not (tmp_path / "cp.jsonl").exists()


# ---------------------------------------------------------------------------
# each binding's constant is the C module's own range
# ---------------------------------------------------------------------------


@needs_candy
def test_candy_constants_are_the_c_ranges() -> None:
    candy_native.install()
    c = candy_native._native
    cols = candy_native._columns(CANDY_START.cols)

    def ask(plies: int, bits: int) -> object:  # one node at most: the range is all it tests
        return c.win_within(cols, 0, 2, 0, plies, bits, 1, 0.0, False)

    ask(candy_native.MAX_PLIES, candy_native.MIN_TT_BITS)
    with pytest.raises(ValueError, match="plies"):
        ask(candy_native.MAX_PLIES + 1, candy_native.MIN_TT_BITS)
    with pytest.raises(ValueError, match="tt_bits"):
        ask(1, candy_native.MIN_TT_BITS - 1)
    with pytest.raises(ValueError, match="tt_bits"):  # (MAX_TT_BITS itself: 6 GiB)
        ask(1, candy_native.MAX_TT_BITS + 1)
    assert f"tt_bits: {candy_native.MIN_TT_BITS} to {candy_native.MAX_TT_BITS}" in _source(
        candy_native, "candy.c")


@needs_carpniches
def test_carpniches_constants_are_the_c_ranges() -> None:
    source = _source(carpniches_native, "carpniches.c")
    assert f"tt_bits: expected {carpniches_native.MIN_TT_BITS} to " \
           f"{carpniches_native.MAX_TT_BITS}" in source  # fmt: skip
    # the C search treats the end of its path array as a horizon: the deepest search
    # the binding allows stays inside it
    assert "#define MAXPLY 512" in source and carpniches_native.MAX_DEPTH < 512 - 1
    with pytest.raises(ValueError, match="tt_bits"):
        carpniches_native._native.setup(
            carpniches_native.model.EXACT, carpniches_native.model.FIRST_STEPS,
            carpniches_native.model._START_RIGHT, carpniches_native.model._START_LEFT,
            carpniches_native.model.SYMMETRY, carpniches_native.MAX_TT_BITS + 1, True)
    carpniches_native._installed = None  # (the module's table is set up again when used)


@needs_minefield
def test_minefield_constants_are_the_c_ranges() -> None:
    search = minefield_native.search_for(3, tt_bits=12)
    search.activate()
    me, op, black = search.boards(MINEFIELD_3)
    c = minefield_native._native

    def ask(horizon: int) -> object:
        return c.solve(me, op, black, -1, 1, 1, 0.0, None, 1 << 24, horizon)

    ask(minefield_native.MAX_HORIZON)
    with pytest.raises(ValueError, match="horizon"):
        ask(minefield_native.MAX_HORIZON + 1)
    with pytest.raises(ValueError, match="scale"):
        c.rules(1, minefield_native.MAX_SCALE + 1)
    c.rules(0)
    source = _source(minefield_native, "minefield.c")
    assert f"tt_bits must be {minefield_native.MIN_TT_BITS}..{minefield_native.MAX_TT_BITS}" \
        in source  # fmt: skip
    assert f"scale must be {minefield_native.MIN_SCALE}..{minefield_native.MAX_SCALE}" in source


def _source(binding: object, name: str) -> str:
    return (Path(binding.__file__).parent / name).read_text()  # type: ignore[attr-defined]
