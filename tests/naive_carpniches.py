"""A deliberately naive Carpniches reference, written separately from the model.

Plain loops over a 6 x 6 grid of strings (each a stack bottom to top); it shares no code
with ``boardproof.models.carpniches``. Used to produce and check the perft files.
"""

from __future__ import annotations

N = 6
LETTERS = "abcdef"


def parse(text: str) -> tuple[list[list[str]], str, str]:
    """(grid[rank][file] of stacks, side, opening); grid[0] is rank 1."""
    rows_text, side, opening = text.split()
    grid: list[list[str]] = []
    for row in rows_text.split("/"):
        cells: list[str] = []
        i = 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                for _ in range(int(ch)):
                    cells.append("")
                i += 1
            elif ch == "(":
                j = row.index(")", i)
                cells.append(row[i + 1 : j])
                i = j + 1
            else:
                cells.append(ch)
                i += 1
        assert len(cells) == N
        grid.append(cells)
    grid.reverse()
    return grid, side, opening


def fen(grid: list[list[str]], side: str, opening: str) -> str:
    rows = []
    for rank in range(N - 1, -1, -1):
        out = ""
        gap = 0
        for file in range(N):
            cell = grid[rank][file]
            if cell == "":
                gap += 1
            else:
                if gap > 0:
                    out += str(gap)
                gap = 0
                out += cell if len(cell) == 1 else "(" + cell + ")"
        if gap > 0:
            out += str(gap)
        rows.append(out)
    return "/".join(rows) + " " + side + " " + opening


def name(rank: int, file: int) -> str:
    return LETTERS[file] + str(rank + 1)


def line_owners(grid: list[list[str]]) -> set[str]:
    """The animals that have 3 consecutive top pieces somewhere."""
    owners = set()
    for rank in range(N):
        for file in range(N):
            for dr, df in ((0, 1), (1, 0), (1, 1), (1, -1)):
                tops = []
                for k in range(3):
                    r = rank + dr * k
                    f = file + df * k
                    if 0 <= r < N and 0 <= f < N and grid[r][f] != "":
                        tops.append(grid[r][f][-1])
                if len(tops) == 3 and tops[0] == tops[1] == tops[2]:
                    owners.add(tops[0])
    return owners


def moves(grid: list[list[str]], side: str, opening: str) -> list[str]:
    """Legal moves (``a1-b2``) in canonical order; [] when the game is over by a line."""
    if line_owners(grid):
        return []
    result = []
    for rank in range(N):
        for file in range(N):
            cell = grid[rank][file]
            if cell == "" or cell[-1] != side:
                continue
            distances = [len(cell)] if opening == "-" else [1, 2, 3]
            targets = []
            for dr in (-1, 0, 1):
                for df in (-1, 0, 1):
                    if dr == 0 and df == 0:
                        continue
                    for dist in distances:
                        ok = True
                        path = []
                        for step in range(1, dist + 1):
                            r = rank + dr * step
                            f = file + df * step
                            if not (0 <= r < N and 0 <= f < N):
                                ok = False
                                break
                            path.append((r, f))
                        if not ok:
                            continue
                        for r, f in path[:-1]:
                            if grid[r][f] != "":
                                ok = False
                        tr, tf = path[-1]
                        if len(grid[tr][tf]) >= 3:
                            ok = False
                        if opening not in ("1", "-"):
                            for r, f in path:
                                if name(r, f) == opening:
                                    ok = False
                        if ok:
                            targets.append((tr, tf))
            targets.sort()
            for tr, tf in targets:
                result.append(name(rank, file) + "-" + name(tr, tf))
    return result


def play(
    grid: list[list[str]], side: str, opening: str, move: str
) -> tuple[list[list[str]], str, str]:
    a, b = move.split("-")
    fr, ff = int(a[1]) - 1, LETTERS.index(a[0])
    tr, tf = int(b[1]) - 1, LETTERS.index(b[0])
    new = [list(row) for row in grid]
    piece = new[fr][ff][-1]
    new[fr][ff] = new[fr][ff][:-1]
    new[tr][tf] = new[tr][tf] + piece
    next_opening = b if opening == "1" else "-"
    return new, ("p" if side == "c" else "c"), next_opening


def winner(grid: list[list[str]], side: str, opening: str) -> str | None:
    """'c', 'p' or None (game goes on); ``side`` is the side to move."""
    mover = "p" if side == "c" else "c"
    owners = line_owners(grid)
    if len(owners) == 2:
        return side
    if len(owners) == 1:
        return owners.pop()
    if not moves(grid, side, opening):
        return mover
    return None


def perft(text: str, depth: int) -> int:
    grid, side, opening = parse(text)
    return _perft(grid, side, opening, depth)


def _perft(grid: list[list[str]], side: str, opening: str, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in moves(grid, side, opening):
        g2, s2, o2 = play(grid, side, opening, move)
        total += _perft(g2, s2, o2, depth - 1)
    return total


START = "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"


def make_perft_file(path: str, seed: int = 5) -> None:
    """Write the perft file: fixed positions plus seeded random-playout positions."""
    import random

    rng = random.Random(seed)
    positions = [("start", START, 4)]
    grid, side, opening = play(*parse(START), "f1-e2")
    positions.append(("after-f1-e2", fen(grid, side, opening), 3))
    found = 0
    while found < 8:
        grid, side, opening = parse(START)
        plies = rng.randint(6, 30)
        alive = True
        for _ in range(plies):
            legal = moves(grid, side, opening)
            if not legal:
                alive = False
                break
            grid, side, opening = play(grid, side, opening, rng.choice(legal))
        if alive and moves(grid, side, opening):
            found += 1
            depth = 4 if found <= 2 else 3
            positions.append((f"random-{found}-ply{plies}", fen(grid, side, opening), depth))
    positions.append(("tall-stacks", "(ccp)(pp)4/(cp)5/6/6/5c/c(pcp)4 p -", 4))
    positions.append(("near-lines", "p2c1c/6/6/pp(pc)1p1/3c2/cc3p c -", 3))
    out = [
        "# Carpniches perft counts, produced by tests/naive_carpniches.py (naive reference):",
        "#   python tests/naive_carpniches.py tests/data/carpniches.perft",
        "# id NAME / epd POSITION / perft DEPTH COUNT",
    ]
    for label, text, depth in positions:
        out.append(f"id {label}")
        out.append(f"epd {text}")
        for d in range(1, depth + 1):
            out.append(f"perft {d} {perft(text, d)}")
        out.append("")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))


if __name__ == "__main__":
    import sys

    make_perft_file(sys.argv[1] if len(sys.argv) > 1 else "tests/data/carpniches.perft")
