"""A fifth game is a plug-in, native engine included.

An out-of-tree game package, ``tests/data/plugin_native/tictac_native`` (tic-tac-toe),
brings everything a game adds: its descriptor (``__init__.py``, ``INFO``), its rules
(``rules.py``), its picture (``drawing.py``), its engine module (``engine.py``, the
``ENGINE`` that ``GameInfo.engine`` names) and the engine's C source (``_ttt.c``). The
test copies it to a temporary folder, compiles the C extension there, imports the package
from there and makes it a game with one ``boardproof.register(INFO)`` call: nothing in
boardproof changes, and ``solve`` (native method), ``analyse`` and ``show --svg`` work on
it from the command line like on the built-in games.
"""

from __future__ import annotations

import importlib
import json
import pickle
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import boardproof
from boardproof import models
from boardproof.models.base import GameInfo
from boardproof.solvers.analyse import leaf_solver
from boardproof.solvers.api import solve
from boardproof.testing import check_game

SOURCE = Path(__file__).parent / "data" / "plugin_native" / "tictac_native"
PACKAGE = SOURCE.name
NAME = "tictac"


def _compiler() -> list[str] | None:
    """The C compiler Python was built with (``CC``), else ``cc``, ``gcc`` or ``clang``;
    None when none is found."""
    for command in (sysconfig.get_config_var("CC") or "", "cc", "gcc", "clang"):
        words = shlex.split(command)
        if words and shutil.which(words[0]):
            return words
    return None


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a copy of the plug-in package with its C engine compiled in it."""
    compiler = _compiler()
    if compiler is None:
        pytest.skip("no C compiler (sysconfig CC, cc, gcc, clang) to build the plug-in engine")
    root = tmp_path_factory.mktemp("plugins")
    package = root / PACKAGE
    shutil.copytree(SOURCE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    target = package / ("_ttt" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    command = [*compiler, "-shared", "-fPIC", "-O2", f"-I{sysconfig.get_paths()['include']}",
               str(package / "_ttt.c"), "-o", str(target)]  # fmt: skip
    built = subprocess.run(command, capture_output=True, text=True, check=False)
    assert built.returncode == 0, f"compiling the plug-in engine failed:\n{built.stderr}"
    return root


@pytest.fixture(scope="module")
def plugin(plugin_dir: Path) -> Iterator[ModuleType]:
    """The plug-in package imported from the temporary folder and registered (then
    removed again, with its modules)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(plugin_dir))
        package = importlib.import_module(PACKAGE)
        boardproof.register(package.INFO)
        try:
            yield package
        finally:
            models.unregister(package.INFO.name)
            for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
                del sys.modules[name]


@pytest.fixture(scope="module")
def ttt(plugin: ModuleType) -> Any:
    """The compiled C module of the plug-in's engine."""
    return importlib.import_module(f"{PACKAGE}._ttt")


def _solve_json(cli_run: Any, position: str, *options: str) -> dict[str, Any]:
    status, out, err = cli_run("solve", NAME, position, "--json", *options)
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_the_plugin_is_out_of_tree_and_conforms(
    plugin: ModuleType, ttt: Any, plugin_dir: Path, cli_run: Any
) -> None:
    info: GameInfo = plugin.INFO
    assert info.problems() == []
    assert models.names()[-1] == NAME
    status, out, _ = cli_run("games")
    assert status == 0 and out.splitlines()[-1].split()[0] == NAME
    assert check_game(NAME, playouts=3, max_plies=9) > 0
    # the package, its engine and the compiled module come from the temporary folder,
    # and boardproof's sources know nothing of them
    engine = info.part("engine")
    assert engine is sys.modules[f"{PACKAGE}.engine"].ENGINE
    for module in (plugin, sys.modules[f"{PACKAGE}.engine"], ttt):
        assert Path(module.__file__).is_relative_to(plugin_dir), module
    mention = re.compile(rf"\b(import|from)\s+{PACKAGE}\b|[\"']{NAME}[\"']")
    for path in Path(boardproof.__file__).parent.rglob("*.py"):
        assert not mention.search(path.read_text(encoding="utf-8")), path
    position = models.get(NAME).parse_position("x...o.... o")
    assert pickle.loads(pickle.dumps(position)) == position


def test_solve_by_the_native_engine_from_the_command_line(ttt: Any, cli_run: Any) -> None:
    calls, nodes = ttt.counters()
    data = _solve_json(cli_run, "xx.oo.... x", "--method", "native")
    assert (data["result"], data["winner"], data["best_move"], data["plies"], data["pv"]) == (
        "win", "x", "2", 1, ["2"])  # fmt: skip
    assert data["method"] == "native"
    # the C search ran: its counters moved by the nodes the answer reports
    after_calls, after_nodes = ttt.counters()
    assert after_calls > calls and data["nodes"] == after_nodes - nodes > 0
    assert ttt.solve("xx.oo....", 0)[:3] == (1, 2, 1)

    empty = _solve_json(cli_run, "......... x", "--method", "native")
    assert (empty["result"], empty["method"], len(empty["pv"])) == ("draw", "native", 9)
    # auto tries the game's engine first
    assert _solve_json(cli_run, "......... x")["method"] == "auto:native"


@pytest.mark.parametrize("position", [
    "xx.oo.... x", "......... x", "x...o.... x", "xo....... x", "x........ o",
    "xo..x.... o", "x.o.x.... o", "xxxoo.... o", "xoxxoxoxo o",
])  # fmt: skip
def test_the_native_engine_agrees_with_alphabeta(
    plugin: ModuleType, position: str, cli_run: Any
) -> None:
    native = _solve_json(cli_run, position, "--method", "native")
    generic = _solve_json(cli_run, position, "--method", "alphabeta")
    assert native["method"] == "native" and generic["method"] == "alphabeta"
    for field in ("result", "winner", "plies"):
        assert native[field] == generic[field], (field, native, generic)
    if native["best_move"] is None:
        assert generic["best_move"] is None
        return
    # the native best move is as good as alpha-beta's: the child has the opposite value,
    # one ply shorter
    game = models.get(NAME)
    child = game.parse_position(position).play(int(native["best_move"]))
    after = solve(child, method="alphabeta")
    opposite = {"win": "loss", "loss": "win", "draw": "draw"}[native["result"]]
    assert after.value == opposite
    if native["plies"] is not None:
        assert after.plies == native["plies"] - 1
    assert native["pv"][0] == native["best_move"] and len(native["pv"]) >= 1


def test_native_max_plies_and_refusal(plugin: ModuleType, cli_run: Any) -> None:
    data = _solve_json(cli_run, "xo....... x", "--method", "native", "--max-plies", "3")
    assert (data["result"], data["stopped"]) == ("unknown", "plies")
    data = _solve_json(cli_run, "xo....... x", "--method", "native", "--max-plies", "5")
    assert (data["result"], data["plies"]) == ("win", 5)
    # a game without an engine: the refusal names every engine's scope, the plug-in's too
    status, _, err = cli_run("solve", "collexion", models.get("collexion").start().fen(),
                             "--method", "native")  # fmt: skip
    assert status == 2 and "the plug-in tic-tac-toe" in err


def test_analyse_uses_the_native_engine(ttt: Any, cli_run: Any) -> None:
    # what the exact first step costs alone: one solve by the engine (and its line)
    calls = ttt.counters()[0]
    _solve_json(cli_run, "xx.oo.... x", "--method", "native")
    exact_calls = ttt.counters()[0] - calls

    calls = ttt.counters()[0]
    status, out, err = cli_run("analyse", NAME, "xx.oo.... x", "--iterations", "200",
                               "--seed", "1", "--json", "--quiet")  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert (data["result"], data["winner"], data["best_move"]) == ("win", "x", "2")
    assert data["method"] == "exact:auto:native+mcts"
    # more C calls than the exact step: the tree's new leaves went to the engine's leaf search
    assert ttt.counters()[0] - calls > exact_calls

    position = models.get(NAME).parse_position("x...o.... x")
    leaf = leaf_solver(position)
    assert leaf is not None and leaf(position) == "draw"
    assert leaf(models.get(NAME).parse_position("xo..x.... o")) == "loss"


def test_show_writes_the_plugins_svg(plugin: ModuleType, cli_run: Any, tmp_path: Path) -> None:
    picture = tmp_path / "tictac.svg"
    status, out, err = cli_run("show", NAME, "xx.oo.... x", "--svg", str(picture))
    assert status == 0, err
    assert f"wrote {picture}" in out and "to move: x" in out
    root = ElementTree.parse(picture).getroot()
    assert root.tag.rsplit("}", 1)[-1] == "svg"
    marks = [e.text for e in root.iter() if e.tag.rsplit("}", 1)[-1] == "text"]
    assert sorted(marks) == ["o", "o", "x", "x"]
