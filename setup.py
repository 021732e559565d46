"""Build the optional native code (C): Minefield and Carpniches searches; native playouts;
the DRUP proof checker.

Everything else is in pyproject.toml.

``optional=True``: without a C compiler the package still installs, and
:mod:`boardproof.solvers.native` (and :mod:`boardproof.solvers.native.carpniches`) report
that the native search is unavailable.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "boardproof.solvers.native._minefield",
            ["boardproof/solvers/native/minefield.c"],
            depends=["boardproof/solvers/native/minefield_wide.h",
                     "boardproof/solvers/native/minefield_wide_impl.h",
                     "boardproof/solvers/native/table_memory.h",
                     "boardproof/solvers/native/progress_hook.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
        Extension(
            "boardproof.solvers.native._carpniches",
            ["boardproof/solvers/native/carpniches.c"],
            depends=["boardproof/solvers/native/table_memory.h",
                     "boardproof/solvers/native/progress_hook.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
        Extension(
            "boardproof.solvers.native._candy",
            ["boardproof/solvers/native/candy.c"],
            depends=["boardproof/solvers/native/table_memory.h",
                     "boardproof/solvers/native/progress_hook.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
        Extension(  # random playouts for the MCTS (boardproof/solvers/playouts.py)
            "boardproof.solvers.native._playout_minefield",
            ["boardproof/solvers/native/playout_minefield.c"],
            depends=["boardproof/solvers/native/playout_common.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
        Extension(
            "boardproof.solvers.native._playout_carpniches",
            ["boardproof/solvers/native/playout_carpniches.c"],
            depends=["boardproof/solvers/native/playout_common.h"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
        Extension(  # the own backward DRUP checker (boardproof/solvers/sat/backward.py)
            "boardproof.solvers.native._drup",
            ["boardproof/solvers/native/drup.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
    ]
)
