"""ColleXion: pinned rules positions, the naive cross-check, conformance, heap determinism."""

from __future__ import annotations

import hashlib
import random

import naive_collexion as naive
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardproof.models import get
from boardproof.models.base import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    generic_perft,
)
from boardproof.models.collexion import make_game
from boardproof.models.collexion.heap import HEAP_SPECS, drop
from boardproof.testing.conformance import check_playouts

GAME = make_game()
EMPTY2 = "-:-:-/-:-:-"
FULL = "234/234/234/234"


def pos(text: str):  # noqa: ANN201 - test helper
    return GAME.parse_position(text)


def moves(text: str) -> list[str]:
    return [str(m) for m in pos(text).legal_moves()]


def after(text: str, move: str) -> str:
    return pos(text).play(pos(text).parse_move(move)).fen()


# ---------------------------------------------------------------------------
# pinned positions
# ---------------------------------------------------------------------------


def test_piece_becomes_accessible_mid_turn() -> None:
    text = f"base 1:g3<3,2:g4,3:y3 {EMPTY2} {FULL} 1"
    assert moves(text) == ["2", "3", "3.1", "3.1.2"]
    assert after(text, "3.1") == f"base 2:g4 g3.y3:-:-/-:-:- {FULL} 2"
    with pytest.raises(IllegalMoveError, match="piece 1 is not accessible"):
        pos(text).play(pos(text).parse_move("1"))


def test_chain_rule() -> None:
    text = f"base 2:g4,3:y3,4:y8,5:p8 {EMPTY2} {FULL} 1"
    assert "2.3" not in moves(text)  # g4 then y3: nothing in common
    assert "3.4.5" in moves(text)  # y3 -> y8 (colour) -> p8 (shape)
    with pytest.raises(IllegalMoveError, match="y3 shares neither colour nor shape with g4"):
        pos(text).play(pos(text).parse_move("2.3"))
    with pytest.raises(InvalidNotationError):
        pos(text).parse_move("2.3.4.5.2")  # five ids


def test_two_overlapping_sets_and_the_choice() -> None:
    text = f"base 1:g8 g3.g4.g5.y8.b8.p8:-:-/-:-:- {FULL} 1"
    assert moves(text) == ["1/g", "1/8g", "1/8y", "1/8b", "1/8p"]
    assert after(text, "1/g") == "base - y8.b8.p8:2:-/-:-:- 34/234/234/234 2!"
    assert after(text, "1/8b") == "base - g3.g4.g5:2:-/-:-:- 234/234/34/234 2!"
    with pytest.raises(IllegalMoveError, match="must hand in every complete set"):
        pos(text).play(pos(text).parse_move("1"))


def test_two_disjoint_sets_in_either_order() -> None:
    text = f"base 1:g8,2:y8 g3.g4.g5.y3.y4.y5:-:-/-:-:- {FULL} 1"
    assert "1.2/g.y" in moves(text) and "1.2/y.g" in moves(text)
    assert after(text, "1.2/g.y") == after(text, "1.2/y.g")


def test_set_with_an_empty_pile_earns_nothing() -> None:
    text = "base 1:g8,2:b3 g3.g4.g5:-:-/-:2.3.4:- -/234/234/234 1"
    assert moves(text)[:2] == ["1/g", "2"]
    assert after(text, "1/g") == "base 2:b3 -:-:-/-:2.3.4:- -/234/234/234 2"


def test_shape_set_with_every_pile_empty() -> None:
    # no token left: the final round; player 2 still has to hand the set in
    final = "base 1:p3 -:2.2.3.3:-/g3.y3.b3:2.2.3.3.4.4.4.4:- -/-/-/- 2!"
    assert moves(final) == ["pass", "1/3-"]
    assert after(final, "1/3-") == "base - -:2.2.3.3:-/-:2.2.3.3.4.4.4.4:- -/-/-/- 1"


def test_smallest_pile_tie() -> None:
    text = "base 1:p3 g3.y3.b3:2.2.3:-/-:2.3.2:- 34/4/234/4 1"
    assert moves(text) == ["1/3y", "1/3p"]
    assert after(text, "1/3p") == "base - -:2.2.3.4:-/-:2.2.3:- 34/4/234/- 2!"
    with pytest.raises(IllegalMoveError, match="smallest non-empty pile"):
        pos(text).play(pos(text).parse_move("1/3g"))


def test_power_remove() -> None:
    text = f"powers 1:g3<2,2:p8 -:-:rsx/-:-:rsx {FULL} 1"
    listed = moves(text)
    assert "r2:1" in listed and "2.1" not in listed  # p8 then g3: no chain
    assert after(text, "r2:1") == f"powers - g3:-:sx/-:-:rsx {FULL} 2!"
    with pytest.raises(IllegalMoveError, match="remove: piece 1 is not accessible"):
        pos(text).play(pos(text).parse_move("r1:2"))


def test_power_steal_completes_a_set() -> None:
    text = f"powers 1:g8 g3.g4:-:rsx/g5.p4:-:rsx {FULL} 1"
    assert "s2g5:1/g" in moves(text)
    assert after(text, "s2g5:1/g") == "powers - -:2:rx/p4:-:rsx 34/234/234/234 2!"
    with pytest.raises(IllegalMoveError, match="player 2 has no y5"):
        pos(text).play(pos(text).parse_move("s2y5:1"))


def test_power_swap_and_used_tokens() -> None:
    text = f"powers 1:g8 g3:-:x/p4:-:rsx {FULL} 1"
    assert moves(text) == ["1", "xg3=2p4:1"]
    assert after(text, "xg3=2p4:1") == f"powers - g8.p4:-:-/g3:-:rsx {FULL} 2!"
    with pytest.raises(IllegalMoveError, match="no r power left"):
        pos(text).play(pos(text).parse_move("r1:1"))
    with pytest.raises(IllegalMoveError, match="only used in variant powers"):
        pos(text.replace("powers", "base").replace(":x/", ":-/").replace(":rsx", ":-")).play(
            pos(text).parse_move("xg3=2p4:1")
        )


def test_expert_trigger() -> None:
    text = f"expert 1:g3,2:g3,3:y4 -:-:-/y5:-:- {FULL} 1"
    listed = moves(text)
    assert "1.2+s2y5" in listed and "1.2+r3" in listed and "1.2+xg3=2y5" in listed
    assert "1" in listed and not any(m.startswith("1+") for m in listed)
    assert after(text, "1.2+s2y5") == f"expert 3:y4 g3.g3.y5:-:-/-:-:- {FULL} 2"
    with pytest.raises(IllegalMoveError, match="two identical polygons"):
        pos(text).play(pos(text).parse_move("1+r3"))
    # the free power is optional and used at most once: exactly 1 + 1 + 1 + 1 options
    assert sum(1 for m in listed if m.startswith("1.2")) == 4


def test_team_gift_completes_partner_set() -> None:
    players = "-:-:-/-:-:-/g3.g4.g5:-:-/-:-:-"
    text = f"teams 1:y3,2:g8 {players} {FULL} 1"
    listed = moves(text)
    assert "1" in listed and "1>" in listed and "2>g" in listed and "2>" not in listed
    assert after(text, "2>g") == "teams 1:y3 -:-:-/-:-:-/-:2:-/-:-:- 34/234/234/234 2"
    with pytest.raises(IllegalMoveError, match="gifts are the teams variant's"):
        pos(f"base 1:y3 {EMPTY2} {FULL} 1").play(pos(text).parse_move("1>"))


def test_final_round_and_pass() -> None:
    text = f"base 1:g3 {EMPTY2} {FULL} 1"
    assert after(text, "1") == f"base - g3:-:-/-:-:- {FULL} 2!"
    final = pos(after(text, "1"))
    assert [str(m) for m in final.legal_moves()] == ["pass"]
    end = final.play(final.parse_move("pass"))
    assert end.fen() == f"base - g3:-:-/-:-:- {FULL} 1"
    assert end.outcome() is not None and end.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="pass is only allowed in the final round"):
        pos(text).play(pos(text).parse_move("pass"))


def test_last_player_ends_the_game_at_once() -> None:
    text = "base 1:g3 -:2:-/-:-:- 34/234/234/234 2"
    end = pos(text).play(pos(text).parse_move("1"))
    assert end.fen() == "base - -:2:-/g3:-:- 34/234/234/234 1"
    assert end.outcome() is not None


def test_scoring_and_shared_win() -> None:
    end = pos("base - g3.y3:2.3.4:-/-:3:- 34/4/34/234 1")
    outcome = end.outcome()
    assert outcome is not None
    assert outcome.scores == (7, 3) and outcome.winners == frozenset({0})
    tie = pos("powers - g3:2:rs/-:3:- 34/34/234/234 1").outcome()
    assert tie is not None and tie.scores == (3, 3) and tie.winners == frozenset({0, 1})
    teams = pos("teams - g3:4:-/-:2:-/-:-:-/y5:3:- 234/34/-/234 1").outcome()
    assert teams is not None and teams.scores == (3, 4, 3, 4)
    assert teams.winners == frozenset({1, 3})


def test_status_problems() -> None:
    assert pos(f"base 1:g3 {EMPTY2} {FULL} 1").status() == []
    problems = pos("base 1:g3<2,2:g3<1 g3.g3.g3.g3:2:rs/-:-:- 234/234/234/243 1").status()
    text = " | ".join(problems)
    assert "6 copies of g3" in text
    assert "pile p is not a top part of 234" in text
    assert "token values held" in text
    assert "power tokens in variant base" in text
    assert "cycle" in text
    assert "complete set" in pos(f"base - g3.g4.g5.g8:-:-/-:-:- {FULL} 1").status()[0]
    assert "played by 4 players" in pos(f"teams - {EMPTY2} {FULL} 1").status()[0]
    assert "final round marked" in pos(f"base 1:g3 {EMPTY2} {FULL} 2!").status()[0]


def test_bad_notation() -> None:
    for text, field in [
        ("base", "position"),
        (f"chess - {EMPTY2} {FULL} 1", "variant"),
        (f"base 1:q3 {EMPTY2} {FULL} 1", "box"),
        (f"base 1:g3,1:g4 {EMPTY2} {FULL} 1", "box"),
        (f"base - g9:-:-/-:-:- {FULL} 1", "collection"),
        (f"base - -:5:-/-:-:- {FULL} 1", "tokens"),
        (f"base - -:-:rr/-:-:- {FULL} 1", "powers"),
        (f"base - {EMPTY2} 234/234/234 1", "piles"),
        (f"base - {EMPTY2} {FULL} 3", "turn"),
        (f"base - -:-:- {FULL} 1", "players"),
    ]:
        with pytest.raises(InvalidNotationError, match=f"^invalid {field}"):
            pos(text)


# ---------------------------------------------------------------------------
# the naive reference: same turns, same order, same positions after
# ---------------------------------------------------------------------------

HAND_MADE = [
    f"base 1:g3<3,2:g4,3:y3 {EMPTY2} {FULL} 1",
    "base 1:g3<3.4,2:g4<4,3:y3,4:g3,5:p3<1,6:p4 g5.g8.y8:2:-/b3.p5:-:- 34/234/234/234 2",
    f"base 1:g8,2:y8,3:b8<1,4:p8<2 g3.g4.g5.y3.y4.y5.b3.b4.b5:-:-/-:-:-/-:-:- {FULL} 1",
    f"powers 1:g3<2,2:p8,3:p3<2,4:y3 g4:-:rsx/p4.y3:-:sx/g8:-:r/-:-:x {FULL} 3",
    f"expert 1:g3,2:g3,3:y4,4:y4<1 g4.g5:-:-/y5.g8:-:- {FULL} 1",
    "teams 1:y3,2:g8,3:g8<1,4:b8 y8.p8:-:-/-:-:-/g3.g4.g5:-:-/b3:-:- 34/234/234/4 1",
    "base 1:p3 g3.y3.b3:2.2.3:-/-:2.3.2:- 34/4/234/4 2!",
]


@pytest.mark.parametrize("text", HAND_MADE)
def test_turns_match_the_naive_reference(text: str) -> None:
    position = pos(text)
    expected = naive.turns(text)
    assert len(position.legal_moves()) == len(expected)
    assert [(str(m), p.fen()) for m, p in position.successors()] == expected
    for move, fen in expected:
        assert position.play(position.parse_move(move)).fen() == fen


def _random_collections(rng: random.Random, players: int, variant: str) -> str:
    parts = []
    for _ in range(players):
        polys = sorted(rng.sample(range(16), rng.randrange(0, 7)))
        names = ".".join("gybp"[p // 4] + "3458"[p % 4] for p in polys) or "-"
        powers = "".join(c for c in "rsx" if rng.random() < 0.5) if variant == "powers" else ""
        parts.append(f"{names}:-:{powers or '-'}")
    return "/".join(parts)


@pytest.mark.parametrize(
    "variant,players",
    [("base", 2), ("base", 3), ("powers", 2), ("powers", 4), ("expert", 3), ("teams", 4)],
)
def test_random_small_games_match_the_naive_reference(variant: str, players: int) -> None:
    rng = random.Random(f"{variant}{players}")
    for seed in range(2):
        start = GAME.start(variant=variant, players=players, seed=seed, count=7)
        box = start.fen().split()[1]
        piles = "/".join(rng.choice(["234", "34", "4", "-"]) for _ in range(4))
        if piles == "-/-/-/-":
            piles = FULL
        text = f"{variant} {box} {_random_collections(rng, players, variant)} {piles} 1"
        position = pos(text)
        for _ in range(12):
            if position.outcome() is not None:
                break
            expected = naive.turns(position.fen())
            assert [(str(m), p.fen()) for m, p in position.successors()] == expected
            position = position.play(rng.choice(position.legal_moves()))


# ---------------------------------------------------------------------------
# conformance and perft
# ---------------------------------------------------------------------------

VARIANT_PLAYERS = [
    ("base", 2), ("base", 3),
    ("powers", 2), ("powers", 3), ("powers", 4),
    ("expert", 2), ("expert", 3), ("expert", 4),
    ("teams", 4),
]  # fmt: skip


@pytest.mark.parametrize("variant,players", VARIANT_PLAYERS)
def test_conformance(variant: str, players: int) -> None:
    starts = [GAME.start(variant=variant, players=players, seed=s, count=10) for s in range(2)]
    assert check_playouts(GAME, starts, playouts=3, seed=players) > 20


def test_registry_and_generic_perft() -> None:
    assert get("collexion") is GAME
    start = GAME.start(seed=3, count=6)
    assert generic_perft(start, 1) == len(start.legal_moves())
    assert generic_perft(start, 2) == sum(len(p.legal_moves()) for _, p in start.successors())


# ---------------------------------------------------------------------------
# the heap and start options
# ---------------------------------------------------------------------------

FINGERPRINTS = {
    0: "ae58d1f84e5697a09c60ebf76723fd7bc7064018aabaf450a3871d50975fe4ca",
    12345: "abf74ababc42196d7b0a8591bd588b8f3bfacf61ddb6cf4c296210f4ac42d094",
}


@pytest.mark.parametrize("seed", sorted(FINGERPRINTS))
def test_heap_fingerprint(seed: int) -> None:
    box = GAME.start(seed=seed).fen().split()[1]
    assert hashlib.sha256(box.encode()).hexdigest() == FINGERPRINTS[seed]


def test_heap_shape() -> None:
    assert HEAP_SPECS[1].radius == 18
    heap = drop(7)
    assert sorted(p.polygon for p in heap) == [c for c in range(16) for _ in range(5)]
    assert all(o > p.id for p in heap for o in p.over)  # later pieces lie on earlier ones
    accessible = [sum(p.accessible for p in drop(s)) for s in range(40)]
    assert min(accessible) >= 8 and max(accessible) <= 30
    assert drop(7) == drop(7) and drop(7) != drop(8)
    with pytest.raises(ValueError, match="heap version"):
        drop(7, version=99)
    with pytest.raises(InvalidOptionError, match="heap version"):
        GAME.start(seed=7, version=99)


def test_start_options() -> None:
    assert GAME.start().fen() == GAME.start(seed=0, players=2, variant="base").fen()
    assert GAME.start(variant="powers").fen().count(":rsx") == 4
    assert GAME.start(variant="powers", players=2).num_players == 2
    for kwargs in [
        {"size": 5},
        {"pie": False},
        {"variant": "teams", "players": 2},
        {"variant": "base", "players": 4},
        {"variant": "chaos"},
    ]:
        with pytest.raises(InvalidOptionError):
            GAME.start(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        make_game(win="x")


# ---------------------------------------------------------------------------
# fuzzing the parser
# ---------------------------------------------------------------------------

_TOKEN = st.sampled_from(
    ["base", "powers", "teams", "-", "1:g3", "2:p8<1", "1:g3<2", ":", "/", ",", ".", "<", "!",
     "234", "34", "g3", "rsx", "x", "1", "2", "0", " ", "a", "é", "\n"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKEN, max_size=20).map("".join) | st.text(max_size=40))
def test_parse_position_fuzz(text: str) -> None:
    try:
        position = GAME.parse_position(text)
    except InvalidNotationError as error:
        assert "\n" not in str(error)
        return
    again = GAME.parse_position(position.fen())
    assert again == position and again.fen() == position.fen()
    position.status()
    position.board_text()


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from(VARIANT_PLAYERS),
    st.integers(1, 8),
)
def test_generated_positions_round_trip(seed: int, vp: tuple[str, int], count: int) -> None:
    variant, players = vp
    start = GAME.start(variant=variant, players=players, seed=seed, count=count)
    assert GAME.parse_position(start.fen()) == start
    assert start.status() == []


def test_opening_position_conforms() -> None:
    from boardproof.testing.conformance import check_position

    start = GAME.start(seed=0)
    moves_ = check_position(GAME, start)
    assert len(moves_) == 6094 and len(set(moves_)) == 6094
    # piece 28 (p3) is the lowest accessible id; 34 (p8) and 37 (g8) chain after it
    assert [str(m) for m in moves_[:3]] == ["28", "28.34", "28.34.37"]


@pytest.mark.long
@pytest.mark.parametrize("variant,players", VARIANT_PLAYERS)
def test_conformance_long(variant: str, players: int) -> None:
    starts = [GAME.start(variant=variant, players=players, seed=s, count=30) for s in range(3)]
    assert check_playouts(GAME, starts, playouts=4, seed=100 + players) > 40


@pytest.mark.long
def test_random_games_match_the_naive_reference_long() -> None:
    rng = random.Random(99)
    for variant, players in VARIANT_PLAYERS:
        position = GAME.start(variant=variant, players=players, seed=rng.randrange(1000), count=12)
        while position.outcome() is None:
            expected = naive.turns(position.fen())
            assert [(str(m), p.fen()) for m, p in position.successors()] == expected
            position = position.play(rng.choice(position.legal_moves()))


def test_swap_completes_the_victims_set_handed_in_on_their_turn() -> None:
    text = f"powers 1:y3,2:b4 g8:-:x/g3.g4.g5.p4:-:rsx {FULL} 1"
    mid = after(text, "xg8=2p4:1")
    assert mid == f"powers 2:b4 y3.p4:-:-/g3.g4.g5.g8:-:rsx {FULL} 2"
    assert pos(mid).status() == []  # a swap victim may hold a set until its turn
    # r2 would empty the box and leave nothing to take: no remove here
    assert moves(mid)[:2] == ["2/g", "s1y3:2/g"]
    # every turn hands the set in, unless a swap gives one of its polygons away
    assert all("/g" in m or (m.startswith("xg") and "/" not in m) for m in moves(mid))
    assert pos(mid.replace("powers", "base").replace(":rsx", ":-")).status() != []


def test_svg_draws_every_piece_and_marks_the_accessible_ones() -> None:
    import xml.dom.minidom

    from boardproof.reports.svg import render

    start = GAME.start(seed=3)
    doc = xml.dom.minidom.parseString(render(start))
    shapes = doc.getElementsByTagName("polygon")
    assert len(shapes) == 80
    outlined = [s for s in shapes if s.getAttribute("stroke-width") == "3"]
    assert len(outlined) == len(start.accessible())
