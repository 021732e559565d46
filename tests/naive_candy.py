"""A deliberately plain, separately written Candy Conquest reference (for perft checks).

It shares no code with ``boardproof.models.candy``: the board is a dict from square
name to a list of candies ``(colour, bottom letter, top letter)``, everything is
recomputed from scratch with plain loops, straight from the rules text.
"""

from __future__ import annotations

FILES = "abcde"
LETTERS = "oOsSxX"


def square_names() -> list[str]:
    """Rank 1 first, file a first (the canonical move order)."""
    return [f + str(r) for r in range(1, 6) for f in FILES]


def all_codes() -> list[str]:
    codes = []
    for b in LETTERS:
        for t in LETTERS:
            if b.lower() != t.lower() and b.isupper() != t.isupper():
                codes.append(b + t)
    return sorted(codes)


def is_large_socket(name: str) -> bool:
    return (FILES.index(name[0]) + int(name[1]) - 1) % 2 == 0


def parse(text: str) -> tuple[dict[str, list[tuple[int, str, str]]], int, int]:
    rows, mover, players = text.split()
    board: dict[str, list[tuple[int, str, str]]] = {}
    row_list = rows.split("/")
    for i in range(5):
        rank = 5 - i
        squares = row_list[i].split(",")
        for j in range(5):
            name = FILES[j] + str(rank)
            cell = squares[j]
            column = []
            if cell != ".":
                for k in range(0, len(cell), 3):
                    column.append((int(cell[k]), cell[k + 1], cell[k + 2]))
            board[name] = column
    return board, int(mover), int(players)


def kind(bottom: str, top: str) -> str:
    return bottom + top if bottom.isupper() else top + bottom


def hidden_flags(column: list[tuple[int, str, str]]) -> list[list[bool]]:
    """For each candy, [bottom hidden, top hidden]."""
    flags = [[False, False] for _ in column]
    for i in range(len(column)):
        if i == 0:
            flags[0][0] = True
        else:
            below_top = column[i - 1][2]
            my_bottom = column[i][1]
            if below_top.islower():
                flags[i - 1][1] = True
            if my_bottom.islower():
                flags[i][0] = True
    return flags


def visible_count(board: dict, name: str, floor: int) -> int:
    column = board[name]
    flags = hidden_flags(column)
    return (not flags[floor][0]) + (not flags[floor][1])


def has_line(board: dict, colour: int) -> bool:
    # columns
    for name in board:
        column = board[name]
        flags = hidden_flags(column)
        seen = []
        for i in range(len(column)):
            if not flags[i][0]:
                seen.append(column[i][0])
            if not flags[i][1]:
                seen.append(column[i][0])
        for i in range(len(seen) - 3):
            if seen[i : i + 4] == [colour, colour, colour, colour]:
                return True
    # flat lines and staircases, in all 8 directions (ascending along each)
    directions = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]

    def good(f: int, r: int, floor: int) -> bool:
        if f < 0 or f > 4 or r < 0 or r > 4 or floor < 0:
            return False
        name = FILES[f] + str(r + 1)
        column = board[name]
        if floor >= len(column):
            return False
        if column[floor][0] != colour:
            return False
        return visible_count(board, name, floor) > 0

    highest = max(len(column) for column in board.values())
    for f in range(5):
        for r in range(5):
            for df, dr in directions:
                for floor in range(highest):
                    flat = True
                    stairs = True
                    for i in range(4):
                        if not good(f + i * df, r + i * dr, floor):
                            flat = False
                        if not good(f + i * df, r + i * dr, floor + i):
                            stairs = False
                    if flat or stairs:
                        return True
    return False


def placements(board: dict, colour: int) -> list[str]:
    used: dict[str, int] = {}
    for name in board:
        for c, b, t in board[name]:
            if c == colour:
                used[kind(b, t)] = used.get(kind(b, t), 0) + 1
    moves = []
    for name in square_names():
        column = board[name]
        for code in all_codes():
            b = code[0]
            if used.get(kind(code[0], code[1]), 0) >= 4:
                continue
            if not column:
                ok = b.isupper() == is_large_socket(name)
            else:
                top = column[-1][2]
                ok = b.lower() == top.lower() and b.isupper() != top.isupper()
            if ok:
                moves.append(code + "@" + name)
    return moves


def game_over(board: dict, players: int) -> bool:
    for colour in range(1, players + 1):
        if has_line(board, colour):
            return True
    return all(not placements(board, colour) for colour in range(1, players + 1))


def legal_moves(board: dict, mover: int, players: int) -> list[str]:
    if game_over(board, players):
        return []
    mine = placements(board, mover)
    if mine:
        return mine
    return ["pass"]  # not over, so someone else can place


def play(board: dict, mover: int, players: int, move: str) -> tuple[dict, int]:
    new = {name: list(column) for name, column in board.items()}
    if move != "pass":
        code, name = move.split("@")
        new[name].append((mover, code[0], code[1]))
    return new, mover % players + 1


def perft(board: dict, mover: int, players: int, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in legal_moves(board, mover, players):
        child, nxt = play(board, mover, players, move)
        total += perft(child, nxt, players, depth - 1)
    return total


def perft_text(text: str, depth: int) -> int:
    board, mover, players = parse(text)
    return perft(board, mover, players, depth)
