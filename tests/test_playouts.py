"""Native Minefield and Carpniches playouts against their Python twin (the model's rules).

The twins share the generator (splitmix64) and the canonical move order, so a seeded
playout must give the identical move sequence and winner in both: on start positions,
on positions of seeded random games, on random (also unreachable) Minefield boards where
passes and dead positions occur, with and without the pie rule, for both win rules, on
Carpniches positions in and after the first turns; and the MCTS built on either is the
same tree.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from boardproof import models
from boardproof.models.carpniches import playouts as cp_playouts
from boardproof.models.minefield import playouts as mf_playouts
from boardproof.models.minefield.rules import from_cells
from boardproof.solvers import playouts
from boardproof.solvers.mcts import MCTS
from boardproof.testing.random_play import unfinished_positions

pytestmark = pytest.mark.skipif(
    mf_playouts._mf is None or cp_playouts._cp is None, reason="C modules not built"
)

MF = models.get("minefield")
CANDY_START = ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 2"


def random_game_positions(n: int, count: int, seed: int, pie: bool, win: str = "orthogonal"):
    """Positions after a seeded random number of seeded random moves."""
    game = models.get("minefield", win=win)
    return unfinished_positions(lambda: game.start(size=n, pie=pie), count, random.Random(seed),
                                plies=lambda rng: rng.randrange(n * n))


def random_boards(n: int, count: int, seed: int, win: str = "orthogonal"):
    """Random stone patterns (most not reachable in a game): passes and dead ends."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        fill = rng.choice((0.5, 0.7, 0.85))
        cells = tuple(rng.choice((1, 2)) if rng.random() < fill else 0 for _ in range(n * n))
        pos = from_cells(cells, n, rng.randrange(2), False, win)
        if pos.outcome() is None:
            found.append(pos)
    return found


def same(pos, seed: int, limit: int = 2000) -> tuple:
    python = playouts.reference_playout(pos, seed, limit, trace=True)
    if pos.game.name == "minefield":
        native = mf_playouts.native_minefield(pos, seed, limit, trace=True)
    else:
        native = cp_playouts.native_carpniches(pos, seed, limit, trace=True)
    assert native == python, (pos.fen(), seed)
    return python


def carpniches_positions(count: int, seed: int):
    """The start, the second player's first turn, and positions of seeded random games."""
    start = models.get("carpniches").start()
    found = [start] + [start.play(m) for m in start.legal_moves()[:5]]
    return found + unfinished_positions(lambda: start, count - len(found), random.Random(seed),
                                        plies=lambda rng: rng.randrange(40))


def test_native_carpniches_playouts_replay_the_python_twin() -> None:
    results = Counter()
    lengths = []
    for k, pos in enumerate(carpniches_positions(40, seed=3)):
        for seed in range(4):
            winner, line = same(pos, 100 * k + seed, limit=400)
            results[winner] += 1
            lengths.append(len(line))
    assert results[0] and results[1]
    # cut off: a long playout stopped early gives no winner and the same first moves
    pos = models.get("carpniches").start()
    seed = next(s for s in range(200) if len(same(pos, s, 400)[1]) > 20)
    winner, line = same(pos, seed, 400)
    assert same(pos, seed, limit=20) == (None, line[:20])


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 8, 9, 11, 13])
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_native_playouts_replay_the_python_twin(n: int, win: str) -> None:
    moves = Counter()
    results = Counter()
    positions = [models.get("minefield", win=win).start(size=n, pie=pie) for pie in (True, False)]
    positions += random_game_positions(n, 6, seed=n, pie=True, win=win)
    positions += random_game_positions(n, 6, seed=n + 100, pie=False, win=win)
    for k, pos in enumerate(positions):
        for seed in range(3):
            winner, line = same(pos, 1000 * k + seed)
            results[winner] += 1
            moves.update(m if m in ("swap", "pass") else "point" for m in line)
    assert results[0] and results[1]  # both colours win some playouts
    # a pending swap: for each first stone, a seed whose first draw takes the swap
    start = positions[0]
    for first in start.legal_moves()[:6]:
        pos = start.play(first)
        options = len(pos.legal_moves())
        seed = next(s for s in range(100 * options)
                    if playouts.splitmix64(s)[1] % options == options - 1)  # fmt: skip
        assert same(pos, seed)[1][0] == "swap"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7])
def test_passes_and_dead_positions_replay_too(n: int) -> None:
    ends = Counter()
    passes = 0
    for k, pos in enumerate(random_boards(n, 40, seed=n)):
        winner, line = same(pos, k)
        passes += line.count("pass")
        ends["win" if winner is not None else "draw"] += 1
    assert passes  # the lone pass is drawn the same way
    assert ends["draw"]  # dead positions (nobody can place) end as draws in both


def test_large_boards_and_the_ply_limit() -> None:
    for n in (19, 26):
        pos = random_game_positions(n, 1, seed=n, pie=False)[0]
        winner, line = same(pos, 5)
        assert winner is not None and len(line) <= mf_playouts.minefield_plies(pos)
        # cut off one ply before the win: no winner, the same moves
        assert same(pos, 5, limit=len(line) - 1) == (None, line[:-1])
    start = MF.start(size=26, pie=True)
    assert same(start, 9)[0] is not None


def test_the_mcts_tree_is_the_same_with_either_kernel() -> None:
    cases = (("minefield", "5/5/5/5/5 b p", 400), ("minefield", "7/7/2b4/7/3w3/7/7 b -", 300),
             ("carpniches", "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1", 300))  # fmt: skip
    for game, fen, iterations in cases:
        pos = models.get(game).parse_position(fen)
        stats = []
        for mode in ("native", "python"):
            tree = MCTS(pos, seed=3, playout=mode)
            assert tree.kernel is not None and tree.kernel.name == mode
            tree.run(iterations=iterations)
            stats.append([(str(s.move), s.visits, round(s.value, 9)) for s in tree.moves()])
        assert stats[0] == stats[1]
        assert sum(v for _, v, _ in stats[0]) == iterations  # every iteration below the root


def test_kernel_choice_and_refusals() -> None:
    pos = MF.start(size=5)
    assert playouts.kernel_for(pos, "auto") is mf_playouts.NATIVE_MINEFIELD
    assert playouts.kernel_for(pos, "python") is mf_playouts.PYTHON_MINEFIELD
    carp = models.get("carpniches").start()
    assert playouts.kernel_for(carp, "auto") is cp_playouts.NATIVE_CARPNICHES
    assert playouts.kernel_for(carp, "python") is cp_playouts.PYTHON_CARPNICHES
    candy = models.get("candy").start(players=3)
    assert playouts.kernel_for(candy, "auto") is None
    assert playouts.kernel_for(candy, "python") is None
    with pytest.raises(ValueError, match="no native playouts for candy"):
        playouts.kernel_for(candy, "native")
    with pytest.raises(ValueError, match="invalid playout mode"):
        playouts.kernel_for(pos, "fast")


def test_the_c_module_refuses_bad_tables_and_boards() -> None:
    mf = mf_playouts._mf
    with pytest.raises(ValueError, match="board size"):
        mf.setup(27, b"", b"")
    with pytest.raises(ValueError, match="role_start"):
        mf.setup(3, b"\0" * 4, b"")
    starts, roles = mf_playouts._role_tables(3)
    bad = bytearray(roles)
    bad[0] = 99  # a cell off the 3x3 board
    with pytest.raises(ValueError, match="off the board"):
        mf.setup(3, starts, bytes(bad))
    mf_playouts._ready(3)
    with pytest.raises(ValueError, match="96 bytes"):
        mf.playout(3, False, b"", b"", 0, False, 1, 10)
    with pytest.raises(ValueError, match="to_move"):
        mf.playout(3, False, bytes(96), bytes(96), 2, False, 1, 10)
    assert mf.splitmix64(0) == playouts.splitmix64(0)
    cp = cp_playouts._cp
    with pytest.raises(ValueError, match="wrong length"):
        cp.setup(b"\0" * 5, 0, 0)
    with pytest.raises(ValueError, match="off the board"):
        cp.setup(cp_playouts._STEP.pack(0, 36, 0, 0), 0, 0)
    assert not cp.ready()
    cp_playouts._carpniches_ready()
    with pytest.raises(ValueError, match="off the 6x6 board"):
        cp.playout(1 << 36, 0, 0, 0, 0, 0, 0, -2, 1, 10)
    with pytest.raises(ValueError, match="opening"):
        cp.playout(0, 0, 0, 0, 0, 0, 0, 36, 1, 10)


def test_analyse_cli_playout_option(cli_run) -> None:
    runs = {}
    for mode in ("python", "native"):
        status, out, _ = cli_run("analyse", "minefield", "4/4/4/4 b -", "--iterations", "50",
                                 "--no-exact", "--playout", mode, "--quiet")  # fmt: skip
        assert status == 0, out
        runs[mode] = [line for line in out.splitlines() if not line.startswith("iterations")]
    assert runs["python"] == runs["native"]
    status, out, err = cli_run("analyse", "candy", CANDY_START, "--playout", "native",
                               "--iterations", "5")  # fmt: skip
    assert status == 2 and not out
    assert err.strip() == ("error: invalid option --playout: no native playouts for candy: "
                           "they play Minefield and Carpniches only")  # fmt: skip


@pytest.mark.long
@pytest.mark.parametrize("n", range(2, 27))
def test_every_size_replays_the_python_twin(n: int) -> None:
    for win in ("orthogonal", "orthodiagonal"):
        positions = [models.get("minefield", win=win).start(size=n, pie=True)]
        positions += random_game_positions(n, 10, seed=7 * n, pie=n % 2 == 0, win=win)
        positions += random_boards(n, 10, seed=n, win=win)
        for k, pos in enumerate(positions):
            for seed in range(4):
                same(pos, 31 * k + seed)


@pytest.mark.long
def test_many_carpniches_playouts_replay_the_python_twin() -> None:
    for k, pos in enumerate(carpniches_positions(400, seed=11)):
        for seed in range(5):
            same(pos, 7 * k + seed, limit=400)
