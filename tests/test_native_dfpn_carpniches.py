"""The native (C) Carpniches df-pn agrees with the native alpha-beta and the Python df-pn,
keeps only sound knowledge in its table, and writes proofs the rules-only checker accepts.

A mutation check: the C module's deliberately broken variants (``set_mutation``) are
each caught by one of these comparisons.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_native_carpniches import (
    REPETITION_TRAP,
    WIN_IN_3,
    random_game_position,
    random_sparse_position,
    random_stacked_position,
)

from boardproof.models.base import InvalidOptionError
from boardproof.models.carpniches import (
    POODLE,
    START_POSITION,
    CarpnichesPosition,
    native,
    parse_position,
)
from boardproof.models.carpniches.native import dfpn
from boardproof.solvers.pns import DFPN
from boardproof.solvers.proof import ProofError, check_proof
from boardproof.solvers.search import WIN, WIN_MIN

needs_native = pytest.mark.skipif(not dfpn.available(), reason="C module not built")


@pytest.fixture(autouse=True)
def _plain_search() -> Iterator[None]:
    yield
    if dfpn.available():
        dfpn.set_mutation(0)


def alphabeta_wins(pos: CarpnichesPosition, player: int, plies: int) -> bool:
    """Whether the native alpha-beta finds a win of ``player`` within ``plies`` (its
    table may hand it a proved win found deeper than asked: the distance decides)."""
    outcome = pos.outcome()
    if outcome is not None:
        return outcome.winners == frozenset((player,))
    value = native.NativeAlphaBeta(pos, tt_bits=16).search(plies)
    assert value is not None
    if pos.to_move != player:
        value = -value
    return value >= WIN_MIN and WIN - value <= plies


def dfpn_wins(pos: CarpnichesPosition, player: int, plies: int) -> bool | None:
    return dfpn.NativeDFPN(pos, player=player, max_plies=plies, tt_bits=16).solve().proved


def random_position(rng: random.Random, k: int) -> CarpnichesPosition:
    if k % 3 == 0:
        return random_game_position(rng)
    if k % 3 == 1:
        return random_sparse_position(rng, 2 + k % 3)
    return random_stacked_position(rng)


def disagreements(seed: int, count: int) -> tuple[int, int]:
    """(answers that differ from the alpha-beta's, wins among them) on ``count`` random
    positions, bounds 1 to 5, both attackers."""
    rng = random.Random(seed)
    bad = wins = done = 0
    while done < count:
        pos = random_position(rng, done)
        if pos.outcome() is not None:
            continue
        for plies in range(1, 6):
            for player in (0, 1):
                want = alphabeta_wins(pos, player, plies)
                wins += want
                bad += dfpn_wins(pos, player, plies) != want
        done += 1
    return bad, wins


def unsound_entries(seed: int, roots: int, mutation: int = 0) -> tuple[int, int]:
    """(table entries the alpha-beta contradicts, entries checked): df-pn proves a random
    position's win with 6 plies to spare (so cycles are explored), then every position
    within 3 plies of it is probed and its exact knowledge re-searched."""
    rng = random.Random(seed)
    bad = checked = done = 0
    while done < roots:
        pos = random_sparse_position(rng, 3) if rng.randrange(2) else random_stacked_position(rng)
        if pos.outcome() is not None:
            continue
        player = pos.to_move
        first = dfpn.NativeDFPN(pos, player=player, max_plies=5, tt_bits=16)
        if not first.solve().proved:
            continue
        assert first.plies is not None
        done += 1
        dfpn.set_mutation(mutation)
        dfpn.NativeDFPN(pos, player=player, max_plies=first.plies + 6, tt_bits=16,
                        keep_table=True).solve()  # fmt: skip
        frontier, seen = [pos], {pos}
        for _ in range(3):
            following = []
            for x in frontier:
                for move in x.legal_moves() if x.outcome() is None else ():
                    y = x.play(move)
                    if y in seen or y.outcome() is not None:
                        continue
                    seen.add(y)
                    following.append(y)
                    entry = dfpn._native.probe(tuple(y), player)
                    if entry is None:
                        continue
                    plen, dis = entry[0], entry[1]
                    if plen < 255:
                        checked += 1
                        bad += not alphabeta_wins(y, player, plen)
                    if 0 < dis <= 12:
                        checked += 1
                        bad += alphabeta_wins(y, player, dis - 1)
            frontier = following
        dfpn.set_mutation(0)
    return bad, checked


def test_the_module_is_built_on_this_machine() -> None:
    import os

    assert dfpn.available() or os.environ.get("BOARDPROOF_NO_NATIVE") == "1"


@needs_native
def test_answers_equal_the_native_alphabeta_on_random_positions() -> None:
    bad, wins = disagreements(11, 120)
    assert bad == 0
    assert wins > 150  # wins for both sides, not only "no win"


@needs_native
def test_answers_equal_the_native_alphabeta_deeper_with_cycles() -> None:
    """Bounds 6 to 8 on positions of few pieces or tall stacks, where repetitions abound."""
    rng = random.Random(8)
    done = wins = 0
    while done < 60:
        pos = random_stacked_position(rng) if done % 3 == 0 else random_sparse_position(rng, 3)
        if pos.outcome() is not None:
            continue
        for plies in (6, 7, 8):
            for player in (0, 1):
                want = alphabeta_wins(pos, player, plies)
                assert dfpn_wins(pos, player, plies) == want, (pos.fen(), player, plies)
                wins += want
        done += 1
    assert wins >= 20


@needs_native
def test_answers_equal_the_python_dfpn() -> None:
    rng = random.Random(3)
    done = proved = 0
    while done < 24:
        pos = random_position(rng, done)
        if pos.outcome() is not None:
            continue
        for plies in (2, 3, 4):
            for player in (0, 1):
                want = DFPN(pos, player=player, max_plies=plies).solve().proved
                assert dfpn_wins(pos, player, plies) == want, (pos.fen(), player, plies)
                proved += bool(want)
        done += 1
    assert proved >= 10


@needs_native
def test_a_deeper_win_of_the_alphabeta_is_not_within_the_bound() -> None:
    """Found by comparing on random positions: the alpha-beta's depth-7 search returns
    the poodles' win in 8 plies (a true win, one ply longer than asked); df-pn and a
    plain bounded minimax (no table, no repetition test) both say: not within 7."""
    pos = parse_position("p2(cpc)2/p5/2(pcc)3/2p3/6/(cpc)5 c -")
    assert not alphabeta_wins(pos, POODLE, 7) and alphabeta_wins(pos, POODLE, 8)
    assert dfpn_wins(pos, POODLE, 7) is False and dfpn_wins(pos, POODLE, 8) is True

    def wins(p: CarpnichesPosition, plies: int) -> bool:
        outcome = p.outcome()
        if outcome is not None:
            return outcome.winners == frozenset((POODLE,))
        if plies == 0:
            return False
        found = (wins(p.play(m), plies - 1) for m in p.legal_moves())
        return any(found) if p.to_move == POODLE else all(found)

    assert not wins(pos, 7)


@needs_native
def test_the_table_holds_only_sound_knowledge() -> None:
    bad, checked = unsound_entries(1, 150)
    assert bad == 0 and checked >= 40


@needs_native
def test_a_win_through_a_repetition_is_no_win() -> None:
    pos = parse_position(REPETITION_TRAP)
    assert dfpn_wins(pos, 0, 6) is False
    search = dfpn.NativeDFPN(pos, player=0, max_plies=9, tt_bits=16)
    assert search.solve().proved and search.reps > 0
    assert search.shortest() == 7
    assert check_proof(search.proof()).winner == "c"


@needs_native
def test_mutants_are_caught() -> None:
    dfpn.set_mutation(1)  # a repetition counts as a win
    assert dfpn_wins(parse_position(REPETITION_TRAP), 0, 6) is True
    dfpn.set_mutation(2)  # one ply more than asked
    assert disagreements(11, 12)[0] > 0
    dfpn.set_mutation(0)
    assert unsound_entries(1, 150, mutation=3)[0] > 0  # path-dependent disproofs stored


@needs_native
def test_proofs_pass_the_checker_and_a_broken_one_does_not() -> None:
    search = dfpn.NativeDFPN(parse_position(WIN_IN_3), player=0, max_plies=5, tt_bits=16)
    assert search.solve().proved and search.plies == 3
    proof = search.proof()
    assert check_proof(proof).nodes == len(proof["nodes"])
    root = proof["nodes"][0]
    (move,) = root["moves"]
    pos = parse_position(WIN_IN_3)
    other = next(str(m) for m in pos.legal_moves() if str(m) != move)
    root["moves"] = {other: root["moves"][move]}
    with pytest.raises(ProofError):
        check_proof(proof)


@needs_native
def test_the_poodles_refute_f1_e1_within_7_plies_not_6() -> None:
    pos = START_POSITION.play(START_POSITION.parse_move("f1-e1"))
    assert dfpn_wins(pos, POODLE, 6) is False
    search = dfpn.NativeDFPN(pos, player=POODLE, max_plies=7, tt_bits=18)
    assert search.solve().proved and search.plies == 7
    assert check_proof(search.proof()).winner == "p"


@needs_native
@pytest.mark.parametrize(("move", "plies"), [("f1-d1", 11), ("f1-c1", 13)])
def test_the_report_s_proved_classes(move: str, plies: int) -> None:
    """The opening report's alpha-beta wins (exact lengths): df-pn proves them within
    those plies, not one less, and the rules-only checker accepts the proofs."""
    pos = START_POSITION.play(START_POSITION.parse_move(move))
    search = dfpn.NativeDFPN(pos, player=POODLE, max_plies=plies, tt_bits=22)
    assert search.solve().proved and search.plies == plies
    assert check_proof(search.proof()).winner == "p"
    assert search.shortest() == plies


@needs_native
def test_bad_options_name_the_field() -> None:
    with pytest.raises(InvalidOptionError, match="max_plies"):
        dfpn.NativeDFPN(parse_position(WIN_IN_3), max_plies=0)
    with pytest.raises(InvalidOptionError, match="tt_bits"):
        dfpn.NativeDFPN(parse_position(WIN_IN_3), max_plies=3, tt_bits=40)
    from boardproof import models

    with pytest.raises(InvalidOptionError, match="Carpniches only"):
        dfpn.NativeDFPN(models.get("candy").start(), max_plies=3)  # type: ignore[arg-type]


@needs_native
def test_openings_command_with_the_native_dfpn(cli_run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = cli_run("openings", "carpniches", "--max-plies", "7", "--method", "dfpn",
                             "--out", str(tmp_path))  # fmt: skip
    assert status == 0
    lines = out.splitlines()
    assert lines[2].startswith("f1-e1  p wins in 7 plies")
    assert sum("no forced win within 7 plies" in line for line in lines) == 5
    proof_file = tmp_path / "carpniches-opening-f1-e1.proof.json"
    status, out, _ = cli_run("check-proof", str(proof_file))
    assert status == 0 and out.startswith("proof OK: p wins carpniches")
    page = (tmp_path / "carpniches-opening.md").read_text()
    assert "--method dfpn" in page and "passes the rules-only checker" in page
    status, _, err = cli_run("openings", "carpniches", "--method", "pn")
    assert status == 2 and "--method" in err and err.count("\n") == 1


@needs_native
def test_win_within_gives_no_win_longer_than_asked() -> None:
    """The engine's ``win_within`` (the puzzle generator's filter) keeps its contract on the
    position where the alpha-beta's table hands it the 8-ply win at depth 7."""
    from boardproof.models.carpniches.engine import win_within

    pos = parse_position("p2(cpc)2/p5/2(pcc)3/2p3/6/(cpc)5 c -")
    assert win_within(pos, POODLE, 7, 10**7, 16) is None
    assert win_within(pos, POODLE, 8, 10**7, 16) == 8
