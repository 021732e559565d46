"""Solving Candy Conquest with the shared solvers: pinned forced wins for 2, 3 and 4 players.

Every pinned win is also checked by a plain brute-force search written here (the whole
tree, no table, no ordering), so the solver and the positions check each other.
"""

from __future__ import annotations

import json

import pytest

from boardproof.models import candy
from boardproof.models.candy.bound import prune

api = pytest.importorskip("boardproof.solvers.api")

GAME = candy.make_game()

#: (name, position, plies of the forced win for the side to move)
WIN_CASES = [
    (
        "2p-a",
        "1Xs1Sx2Xs,2sO2oX,1Xo,2xS,1Os/2xO,1Os,2sX,1Xs,1sO2oX2xS/2Sx,1oS,2Os1Sx2Xs,1xS,2Xo/"
        "1xO,1Sx,2sX,2Os,2sO1oX/.,2oS1sO1oX2xS,1Ox1Xo,2oX,1Xs 1 2",
        3,
    ),
    (
        "2p-b",
        "2Xo,1sO,2So,1xO,2Os/2sO1oX,1Xs1So,1sO,1Ox,2xO/1Sx,2xS,1Os,.,1Sx/1sO,1So2Os,2oS,"
        "2Xs2So,2xS/2Os2Sx1Xs,.,1Sx,1xO,2Sx2Xs1So 2 2",
        3,
    ),
    (
        "2p-c",
        "2Os,2xO,1Xo,2sO2oS,1Xo1Os/1oS1sX2xO,2Xo,2oX1xO,1Xs,1xS2sX2xO/2Os,1oX,1Os,2oX2xS,"
        "1So1Os/1xO,2So,1oS1sX2xS,2So,1sO/2Xo,1oX,2Xs,2sO2oS,1Xs1Sx 1 2",
        3,
    ),
    (
        "2p-d",
        "1So1Ox,1oS,1Os2Sx1Xo,1xS,./2sX,1Os,2sO,1Os2So,1sX2xS/1Sx,1oS2sO,2Os,1oS,2Os/1sX,"
        "2Ox,2sX,2Ox2Xo,2xS/1Xs,2xO,1Os,1sX,2Xo 2 2",
        3,
    ),
]


def forced_win(pos: candy.CandyPosition, player: int, plies: int) -> bool:
    """Brute force: ``player`` completes a line within ``plies`` plies whatever the others
    (one coalition) play."""
    if plies <= 0 or pos.outcome() is not None:
        return False
    results = []
    for move in pos.legal_moves():
        child = pos.play(move)
        outcome = child.outcome()
        if outcome is not None:
            value = player in outcome.winners
        else:
            value = forced_win(child, player, plies - 1)
        if pos.to_move == player and value:
            return True
        if pos.to_move != player and not value:
            return False
        results.append(value)
    return pos.to_move != player


@pytest.mark.parametrize("name, text, plies", WIN_CASES, ids=[c[0] for c in WIN_CASES])
def test_pinned_wins(name: str, text: str, plies: int) -> None:
    pos = GAME.parse_position(text)
    assert pos.status() == []
    result = api.solve(pos, max_plies=plies + 2, timeout=120)
    assert result.value == "win" and result.winner == pos.to_move
    assert result.plies == plies
    # independent check: a win in exactly `plies`, not fewer
    assert forced_win(pos, pos.to_move, plies)
    assert not forced_win(pos, pos.to_move, plies - 2)
    # the first move of the principal variation keeps the forced win
    child = pos.play(result.best_move)
    assert forced_win(child, pos.to_move, plies - 1)
    # the placement bound never cuts a node on the winning line
    assert not prune(pos, plies, pos.to_move)


#: (name, position, plies): player 1 to move against the coalition of the others. The
#: move So@c3 makes two open threes on floor 1 (b3-c3-d3 and c2-c3-c4) that no shape
#: can hide; a3, e3, c1 and c5 complete them, and the others can only block one each.
COALITION_CASES = [
    (
        "3p",
        "1Os,.,2Ox,1sX,3Os/2sO,1So,2sX1xS,1Sx,2xO/2Xo,2xO1oS,3Os,3xO1oX,2Sx/"
        "3xO,3Os,3sX1xO,2Ox,2sX/3Os,.,3Xs,1oS,3Xo 1 3",
        4,
    ),
]


def immediate_win(pos: candy.CandyPosition, player: int) -> bool:
    """Whether the side to move, ``player``, completes a line with one placement."""
    assert pos.to_move == player
    for move in pos.legal_moves():
        outcome = pos.play(move).outcome()
        if outcome is not None and player in outcome.winners:
            return True
    return False


@pytest.mark.parametrize("name, text, plies", COALITION_CASES, ids=[c[0] for c in COALITION_CASES])
def test_coalition_wins(name: str, text: str, plies: int) -> None:
    pos = GAME.parse_position(text)
    assert pos.status() == [] and pos.to_move == 0
    assert not immediate_win(pos, 0)
    result = api.solve(pos, max_plies=plies, timeout=300)
    assert (result.value, result.winner, result.plies) == ("win", 0, plies)
    assert str(result.best_move) == "So@c3"
    # whatever the two others block among the four completing squares, 1 wins next
    after = pos.play(result.best_move)
    squares = ("a3", "e3", "c1", "c5")
    firsts = [m for m in after.legal_moves() if str(m)[-2:] in squares]
    assert len(firsts) >= 4
    for first in firsts:
        middle = after.play(first)
        for second in [m for m in middle.legal_moves() if str(m)[-2:] in squares]:
            assert immediate_win(middle.play(second), 0)


@pytest.mark.long
@pytest.mark.parametrize("name, text, plies", COALITION_CASES, ids=[c[0] for c in COALITION_CASES])
def test_coalition_wins_brute_force(name: str, text: str, plies: int) -> None:
    pos = GAME.parse_position(text)
    assert forced_win(pos.play(pos.parse_move("So@c3")), 0, plies - 1)
    assert not forced_win(pos, 0, plies - 1)


#: the same two open threes with four players: three blockers for four squares.
COALITION_4P = (
    "4Ox,1xS,2Ox,3oX,3Os/2sO,4Xo,2sX1xS,2Os,3oS/2Xo,2xO1oS,3Os,3xO1oX,4Sx/"
    "4oS,.,3sX1xO,2Os,3sO/4Os,1sX,4Xs,1sX,4Xo 1 4"
)


def test_coalition_four_players_blocks_fail() -> None:
    # the three others block three of the four completing squares: 1 still wins
    pos = GAME.parse_position(COALITION_4P)
    assert pos.status() == [] and not immediate_win(pos, 0)
    after = pos.play(pos.parse_move("So@c3"))
    squares = ("a3", "e3", "c1", "c5")
    checked = 0
    for first in [m for m in after.legal_moves() if str(m)[-2:] == "a3"]:
        one = after.play(first)
        for second in [m for m in one.legal_moves() if str(m)[-2:] in squares[1:]]:
            two = one.play(second)
            for third in [m for m in two.legal_moves() if str(m)[-2:] in squares[1:]]:
                assert immediate_win(two.play(third), 0)
                checked += 1
    assert checked > 4


@pytest.mark.long
def test_coalition_win_four_players() -> None:
    # df-pn proves it in about 4 minutes on a loaded 2-core machine
    pos = GAME.parse_position(COALITION_4P)
    assert pos.status() == [] and not immediate_win(pos, 0)
    result = api.solve(pos, method="pns", max_plies=5, timeout=1200)
    assert (result.value, result.winner) == ("win", 0)
    assert str(result.best_move) == "So@c3"


#: player 1 to move cannot stop player 2: b1-c1-d1 on floor 1 (no shape there can be
#: hidden) is completed on a1 or on e1, and player 1 can only block one of them.
DOUBLE_THREAT = {
    3: "1Os,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./1Os,3sO2oS,3Os2Sx,1sX2xO,3Os 1 3",
    4: "1Os,.,4Sx,.,3Xo/.,.,.,.,./4Xs,.,.,.,./.,.,.,.,./1Os,3sO2oS,4Os2Sx,1sX2xO,3Os 1 4",
}


@pytest.mark.parametrize("players", [3, 4])
def test_another_player_wins_against_the_coalition(players: int) -> None:
    pos = GAME.parse_position(DOUBLE_THREAT[players])
    assert pos.status() == [] and pos.to_move == 0
    result = api.solve(pos, max_plies=3, timeout=120)
    assert (result.value, result.winner, result.plies) == ("loss", 1, 2)
    data = result.to_json()
    assert data["result"] == "loss" and data["winner"] == "2"
    assert forced_win(pos, 1, 2) and not forced_win(pos, 0, 3)


THREAT = "2Os,2sO,2Os,.,1Os"  # rank 1: player 2 threatens d1


def test_no_forced_win_within_the_horizon() -> None:
    # player 1 to move blocks d1; nobody wins within 2 plies
    pos = GAME.parse_position(f".,.,.,.,./1sO,.,.,.,./.,.,.,.,./.,.,.,.,1oS/{THREAT} 1 2")
    assert pos.status() == []
    result = api.solve(pos, max_plies=2, timeout=60)
    assert result.value in {"unknown", "draw"}
    assert not forced_win(pos, 0, 2) and not forced_win(pos, 1, 2)


def test_the_side_to_move_wins_at_once() -> None:
    pos = GAME.parse_position(f"1Os,.,.,.,./1sO,.,.,.,./.,.,.,.,./.,.,.,.,1oS/{THREAT} 2 2")
    assert pos.status() == []
    result = api.solve(pos, max_plies=3, timeout=60)
    assert (result.value, result.winner, result.plies) == ("win", 1, 1)
    assert str(result.best_move) in {"oX@d1", "oS@d1", "xO@d1", "xS@d1", "sO@d1", "sX@d1"}


def test_cli_solve_json(cli_run) -> None:
    status, out, err = cli_run("solve", "candy", WIN_CASES[0][1], "--json", "--max-plies", "5")
    if status == 2 and "No such command" in err:
        pytest.skip("boardproof solve is not there yet")
    assert status == 0, err
    data = json.loads(out)
    assert data["game"] == "candy" and data["result"] == "win" and data["winner"] == "1"
    assert data["plies"] == 3 and len(data["pv"]) == 3


def test_cli_proof_is_checked(cli_run, tmp_path) -> None:
    proof = tmp_path / "proof.json"
    status, out, err = cli_run(
        "solve", "candy", WIN_CASES[0][1], "--max-plies", "3", "--proof", str(proof)
    )
    if status == 2 and "No such command" in err:
        pytest.skip("boardproof solve is not there yet")
    assert status == 0, err
    status, out, err = cli_run("check-proof", str(proof))
    assert status == 0, err
    assert out.startswith("proof OK: 1 wins candy")
