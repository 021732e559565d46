"""Build the optional native code (C): each game's searches and playouts, found by a loop
over the game packages, and the DRUP proof checker.

Every ``boardproof/models/<game>/native/<name>.c`` becomes the extension
``boardproof.models.<game>.native._<name>``; it may include the headers of its own folder
and the shared ones of ``boardproof/solvers/native/`` (the table memory, the progress hook,
the playout generator). A new game with a native engine adds its C files and nothing here.
Everything else is in pyproject.toml.

``optional=True``: without a C compiler the package still installs, and each game's
``native`` module reports that its native search is unavailable.
"""

from pathlib import Path

from setuptools import Extension, setup

FLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"]
SHARED = Path("boardproof/solvers/native")


def game_extensions() -> list[Extension]:
    """One extension per C file of a game package's ``native/`` folder, in sorted order."""
    found = []
    for source in sorted(Path("boardproof/models").glob("*/native/*.c")):
        folder = source.parent
        headers = sorted(folder.glob("*.h")) + sorted(SHARED.glob("*.h"))
        found.append(Extension(
            ".".join(folder.parts) + "._" + source.stem,
            [str(source)],
            depends=[str(h) for h in headers],
            include_dirs=[str(folder), str(SHARED)],
            extra_compile_args=FLAGS,
            optional=True,
        ))  # fmt: skip
    return found


setup(
    ext_modules=[
        *game_extensions(),
        Extension(  # the own backward DRUP checker (boardproof/solvers/sat/backward.py)
            "boardproof.solvers.sat._drup",
            ["boardproof/solvers/sat/drup.c"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
    ]
)
