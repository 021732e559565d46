"""Every parser fuzzed: nothing escapes but a BoardproofError (issue 33).

The parsers of bad input, as the command line meets them: the positions, moves and
options of the four games, game records, proofs, certificates, puzzle files and
checkpoints. Each one is fed mutations of valid inputs (characters inserted, deleted,
replaced by look-alikes, fields swapped; JSON fields replaced by arbitrary JSON values;
bytes flipped and files cut short; JSON nested too deeply, numbers of 5000 digits) and
random input; it must either read it or raise a
:class:`~boardproof.models.base.BoardproofError` with a one-line message (the proof and
certificate checkers' ProofError and NotAProofError are ones: the command line says
"rejected" for the first, "not a proof" for the second); ``check_puzzle`` never raises,
a bad puzzle is a verdict. Anything else (KeyError, TypeError, RecursionError,
OverflowError, ...) is an escape: each escape found is pinned below, in :data:`ESCAPES`
and :data:`PUZZLE_ESCAPES`, with the error or verdict it now gives.

The default run is short and derandomized (the same examples every time);
``BOARDPROOF_FUZZ_SCALE=20 pytest tests/test_fuzz_parsers.py`` runs 20 times as many
examples, drawn at random, to look for new escapes.
"""

from __future__ import annotations

import copy
import json
import lzma
import math
import os
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardproof import models
from boardproof.jobs.checkpoints import Checkpoint, JournalCheckpoint
from boardproof.models.base import (
    BoardproofError,
    InvalidNotationError,
    InvalidOptionError,
    play_line,
)
from boardproof.models.minefield.proofs.certificate import (
    MAGIC,
    Certificate,
    check_certificate,
    parse_certificate,
)
from boardproof.puzzles import PuzzleError, daily
from boardproof.puzzles.check import CheckResult, check_puzzle
from boardproof.puzzles.store import dumps, read_puzzles
from boardproof.review.record import RecordError, parse_record
from boardproof.solvers.proof import (
    NotAProofError,
    ProofError,
    build_proof,
    check_proof,
    load_proof,
)
from boardproof.testing.random_play import play_randomly

SCALE = int(os.environ.get("BOARDPROOF_FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    """``examples`` examples (times the scale), reproducible unless scaled up."""
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much],
    )  # fmt: skip


def one_line(error: BaseException) -> None:
    """What every refusal looks like: one line of text."""
    text = str(error)
    assert len(text.splitlines()) == 1, repr(text)


def refused(call: Callable[[], Any]) -> Any:
    """``call()``, or None when it raises a BoardproofError (one line); anything else
    escapes and fails the test."""
    try:
        return call()
    except BoardproofError as error:
        one_line(error)
        return None


# ---------------------------------------------------------------------------
# strategies: mutated text, arbitrary and mutated JSON, mutated bytes
# ---------------------------------------------------------------------------

#: pieces of text that parsers trip on: huge numbers, non-ASCII digits and letters whose
#: case mapping changes them, separators, control characters
SPECIAL_TEXT = ["", " ", "\n", "\t", "\r", "\x00", "\x0b", "9" * 5000, "0", "00", "99999",
                "-1", "١", "٣", "²", "İ", "\u212a", "ſ", "\ud800", "é", "/", ",", ".", ":",
                "(", ")", "()", "@", ">", "+", "!", "<", "-", "#", "{", "[", "\"", "p", "b",
                "w", "c", "x", "pass", "swap", "NaN", "1e999"]  # fmt: skip
#: JSON values that readers trip on (deep-copied before use)
SPECIAL_VALUES: list[Any] = [None, True, False, 0, -1, 1, 2, 2**63, -(2**63), 10**400, 0.5,
                             float("inf"), float("-inf"), float("nan"), "", "9" * 5000, [],
                             {}, [0], {"": None}]  # fmt: skip

json_leaves = (st.none() | st.booleans() | st.integers() | st.floats()
               | st.text(max_size=12) | st.sampled_from(SPECIAL_VALUES).map(copy.deepcopy))
json_containers = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=10,
)  # fmt: skip
#: any JSON value: as often a plain value (``st.recursive`` alone mostly draws containers)
json_values = st.one_of(json_leaves, json_containers)

TEXT_OPS = ("insert", "delete", "replace", "duplicate", "special", "swap fields",
            "drop field", "cut", "upper", "lookalike", "lookalike", "lookalike")  # fmt: skip
#: what a digit of the notation is replaced by, or gets next to: other scripts' digits
#: (``isdigit`` takes them, ``int`` some of them), leading zeros, signs, huge numbers
DIGIT_LOOKALIKES = ["²", "١", "٣", "𝟙", "０", "0", "00", "9" * 5000, "10", "-1", "+1", "_1"]
#: what a letter is replaced by: letters whose case mapping is ASCII or two characters
LETTER_LOOKALIKES = ["İ", "\u212a", "ſ", "ｓ", "é", "ß", "ﬀ"]


def mutate_text(draw: st.DrawFn, text: str, alphabet: str) -> str:
    """``text`` after one to four random edits."""
    chars = st.sampled_from(alphabet) | st.characters()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(TEXT_OPS))
        i = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:i] + draw(chars) + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        elif op == "replace":
            text = text[:i] + draw(chars) + text[i + 1 :]
        elif op == "duplicate":
            j = draw(st.integers(i, min(len(text), i + 12)))
            text = text[:j] + text[i:j] * draw(st.integers(1, 3)) + text[j:]
        elif op == "special":
            text = text[:i] + draw(st.sampled_from(SPECIAL_TEXT)) + text[i:]
        elif op in ("swap fields", "drop field"):
            fields = text.split(" ")
            a = draw(st.integers(0, len(fields) - 1))
            b = draw(st.integers(0, len(fields) - 1))
            if op == "drop field":
                del fields[a]
            else:
                fields[a], fields[b] = fields[b], fields[a]
            text = " ".join(fields)
        elif op == "cut":
            text = text[:i]
        elif op == "upper":
            text = text[:i] + text[i:].upper()
        else:  # a digit or a letter of the text replaced by a look-alike, or one added to it
            spots = [k for k, c in enumerate(text) if c.isalnum()]
            if not spots:
                continue
            k = draw(st.sampled_from(spots))
            letters = [text[k].upper(), *LETTER_LOOKALIKES]
            choices = DIGIT_LOOKALIKES if text[k].isdigit() else letters
            new = draw(st.sampled_from(choices))
            start, end = draw(st.sampled_from([(k, k + 1), (k, k), (k + 1, k + 1)]))
            text = text[:start] + new + text[end:]
    return text


@st.composite
def mutated_text(draw: st.DrawFn, seeds: Sequence[str], alphabet: str) -> str:
    return mutate_text(draw, draw(st.sampled_from(seeds)), alphabet)


def texts(seeds: Sequence[str], alphabet: str) -> st.SearchStrategy[str]:
    """Mostly mutations of ``seeds``; some random text over ``alphabet`` and any text."""
    return st.one_of(
        mutated_text(seeds, alphabet),
        mutated_text(seeds, alphabet),
        mutated_text(seeds, alphabet),
        st.text(alphabet=st.sampled_from(alphabet) | st.characters(), max_size=40),
    )


def _get(value: Any, path: Sequence[Any]) -> Any:
    for key in path:
        value = value[key]
    return value


def _pick_path(draw: st.DrawFn, value: Any) -> list[Any]:
    """A path into ``value``, shallow ones more likely (the top-level fields are hit
    often, the nodes of a proof still reached)."""
    path: list[Any] = []
    while isinstance(value, (dict, list)) and value and draw(st.integers(0, 3)) > 0:
        key = draw(st.sampled_from(list(value) if isinstance(value, dict) else
                                   range(len(value))))  # fmt: skip
        path.append(key)
        value = value[key]
    return path


JSON_OPS = ("replace", "replace", "delete", "insert", "nudge", "nudge", "transplant",
            "duplicate", "retype", "retype")  # fmt: skip


def retyped(value: Any) -> list[Any]:
    """Values equal to ``value`` or close to it, of another JSON type (``1.0`` for ``1``)."""
    if isinstance(value, bool):
        return [int(value), float(value), str(value).lower()]
    if isinstance(value, int):
        near = float(value) if abs(value) < 2**1000 else float("inf")
        return [near, str(value), [value], value == 1, float("inf")]
    if isinstance(value, float):
        return [int(value)] if math.isfinite(value) else [str(value)]
    if isinstance(value, str):
        return [[value], {value: value}, value.split(), None]
    if isinstance(value, list):
        return [{str(i): item for i, item in enumerate(value)}, value[:1], [value], None]
    if isinstance(value, dict):
        return [list(value), list(value.values()), None]
    return [0, "", [], {}]


def mutate_json(draw: st.DrawFn, value: Any, keys: Sequence[str] = ()) -> Any:
    """A deep copy of ``value`` after one to three random edits: a field replaced by any
    JSON value, deleted, added (names from ``keys``), a number or string nudged, a subtree
    moved elsewhere."""
    value = copy.deepcopy(value)
    for _ in range(draw(st.integers(1, 3))):
        path = _pick_path(draw, value)
        target = _get(value, path)
        op = draw(st.sampled_from(JSON_OPS))
        new: Any
        if op == "delete" and path:
            parent = _get(value, path[:-1])
            del parent[path[-1]]
            continue
        if op == "insert" and isinstance(target, dict):
            key = draw(st.sampled_from(keys) | st.text(max_size=6)) if keys else \
                draw(st.text(max_size=6))
            target[key] = draw(json_values)
            continue
        if op == "insert" and isinstance(target, list):
            target.insert(draw(st.integers(0, len(target))), draw(json_values))
            continue
        if op == "duplicate" and isinstance(target, list) and target:
            target.append(copy.deepcopy(draw(st.sampled_from(target))))
            continue
        if op == "nudge" and isinstance(target, bool):
            new = not target
        elif op == "nudge" and isinstance(target, int):
            new = target + draw(st.integers(-3, 3) | st.sampled_from([10**6, -(10**6)]))
        elif op == "nudge" and isinstance(target, str):
            new = mutate_text(draw, target, target or "a")
        elif op == "transplant":
            new = copy.deepcopy(_get(value, _pick_path(draw, value)))
        elif op == "retype":
            new = draw(st.sampled_from(retyped(target)))
        else:
            new = draw(json_values)
        if path:
            _get(value, path[:-1])[path[-1]] = new
        else:
            value = new
    return value


@st.composite
def mutated_json(draw: st.DrawFn, seeds: Sequence[Any], keys: Sequence[str] = ()) -> Any:
    return mutate_json(draw, draw(st.sampled_from(seeds)), keys)


@st.composite
def field_replaced(draw: st.DrawFn, seeds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One field of an object, or a field of one of its fields, replaced by any JSON value
    or a value of another type (the rest left valid, so that the checks reach it)."""
    value = copy.deepcopy(draw(st.sampled_from(seeds)))
    parent, key = value, draw(st.sampled_from(sorted(value)))
    inner = value[key]
    if isinstance(inner, (dict, list)) and inner and draw(st.booleans()):
        parent, key = inner, draw(st.sampled_from(list(inner) if isinstance(inner, dict) else
                                                  range(len(inner))))  # fmt: skip
    parent[key] = draw(json_values | st.sampled_from(retyped(parent[key])))
    return value


def nested(depth: int, kind: str = "[") -> str:
    """JSON nested ``depth`` deep (a list of lists, or objects)."""
    if kind == "[":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "0" + "}" * depth


#: depths around and far beyond Python's recursion limit
DEPTHS = [50, 500, 900, 990, 1000, 1100, 5000, 100_000]
#: JSON numbers that are no ordinary numbers: past the 4300 digits ``int`` reads, infinite
NUMBERS = ["9" * 5000, "-" + "9" * 5000, "1" + "0" * 4300, "1e99999", "-1e99999", "NaN",
           "Infinity", "1.5e-99999"]  # fmt: skip


@st.composite
def awkward_json(draw: st.DrawFn) -> str:
    """JSON text that readers trip on: nested too deeply, or a number out of range."""
    if draw(st.booleans()):
        return draw(st.sampled_from(NUMBERS))
    return nested(draw(st.sampled_from(DEPTHS)), draw(st.sampled_from("[{")))


@st.composite
def mutated_bytes(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """Bytes flipped, replaced, inserted, deleted; cut short or grown."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "cut", "append"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        if op == "flip" and data:
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "set" and data:
            data[i] = draw(st.integers(0, 255))
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete":
            del data[i : i + draw(st.integers(1, 4))]
        elif op == "cut":
            del data[i:]
        else:
            data += draw(st.binary(min_size=1, max_size=8))
    return bytes(data)


# ---------------------------------------------------------------------------
# sample positions of every game: starts with options, random play, finished games
# ---------------------------------------------------------------------------

#: (game, game options, start options) of the samples
STARTS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("minefield", {}, {"size": 2}),
    ("minefield", {}, {"size": 3, "pie": False}),
    ("minefield", {}, {"size": 5}),
    ("minefield", {"win": "orthodiagonal"}, {"size": 6}),
    ("minefield", {}, {"size": 11}),
    ("carpniches", {}, {}),
    ("candy", {}, {"players": 2}),
    ("candy", {}, {"players": 3}),
    ("candy", {}, {"players": 4}),
    ("collexion", {}, {"count": 10}),
    ("collexion", {}, {"variant": "powers", "count": 16}),
    ("collexion", {}, {"variant": "expert", "count": 12}),
    ("collexion", {}, {"variant": "teams", "count": 20}),
    ("collexion", {}, {"variant": "base", "players": 3}),
]


def _samples() -> dict[str, list[Any]]:
    rng = random.Random(33)
    found: dict[str, list[Any]] = {name: [] for name in models.names()}
    for name, game_options, start_options in STARTS:
        start = models.get(name, **game_options).start(**start_options)
        found[name].append(start)
        for plies in (1, 3, 8, 20):
            found[name].append(play_randomly(start, rng, plies=plies))
        found[name].append(play_randomly(start, rng, plies=400))  # most often finished
    return found


SAMPLES = _samples()
#: the notation of every sample position, by game
FENS = {name: sorted({pos.fen() for pos in positions}) for name, positions in SAMPLES.items()}
#: the characters of each game's notation
ALPHABETS = {
    "minefield": "bw0123456789/ p-",
    "carpniches": "cp()123456/ -abcdef",
    "candy": ".,/ 1234oOsSxX@abcdeps",
    "collexion": "0123456789:<.,/- gybp3458rsx!+>abcdeimnotw",
}
#: hand-made move notations beyond the legal moves of the samples
MOVE_WORDS = {
    "minefield": ["a1", "z26", "k11", "swap", "pass", "b0", "a27"],
    "carpniches": ["a1-a2", "f6-a1", "a1-a1", "a1a2", "g1-a1"],
    "candy": ["Os@a1", "oS@e5", "pass", "Oo@a1", "xS@f1"],
    "collexion": ["pass", "1", "12.7", "r14:12.7+s2g3/g.3y>4b", "x4g3=2b5:3", "1/3-.g>",
                  "1.2.3.4.5", "s9p8:1"],
}  # fmt: skip


def _move_seeds(name: str) -> list[str]:
    seeds = set(MOVE_WORDS[name])
    for pos in SAMPLES[name]:
        seeds.update(str(move) for move in list(pos.legal_moves())[:40])
    return sorted(seeds)


MOVE_SEEDS = {name: _move_seeds(name) for name in models.names()}


def _check_position(pos: Any) -> None:
    """A parsed position is usable: its notation reads back, it has moves and status."""
    again = pos.game.parse_position(pos.fen())
    assert again == pos and again.fen() == pos.fen()
    pos.outcome()
    pos.legal_moves()
    pos.status()


# ---------------------------------------------------------------------------
# positions, moves and options of the four games
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", models.names())
@fuzz(500)
@given(data=st.data())
def test_fuzz_positions(name: str, data: st.DataObject) -> None:
    text = data.draw(texts(FENS[name], ALPHABETS[name]), label="text")
    for win in ("orthogonal", "orthodiagonal") if name == "minefield" else (None,):
        game = models.get(name) if win is None else models.get(name, win=win)
        pos = refused(lambda: game.parse_position(text))  # noqa: B023 - called at once
        if pos is not None:
            _check_position(pos)


@pytest.mark.parametrize("name", models.names())
@fuzz(300)
@given(data=st.data())
def test_fuzz_moves(name: str, data: st.DataObject) -> None:
    pos = data.draw(st.sampled_from(SAMPLES[name]), label="position")
    one_move = st.sampled_from(MOVE_SEEDS[name]) | texts(MOVE_SEEDS[name], ALPHABETS[name])
    words = data.draw(st.lists(one_move, min_size=1, max_size=3), label="moves")
    for word in words:
        move = refused(lambda: pos.parse_move(word))  # noqa: B023 - called at once
        if move is not None:
            assert pos.parse_move(str(move)) == move
    end = refused(lambda: play_line(pos, words))
    if end is not None:
        _check_position(end)


#: every option name of every game, and a few no game has
OPTION_NAMES = sorted({spec.name for name in models.names() for spec in models.info(name).options}
                      | {"name", "options", "x"})  # fmt: skip
OPTION_VALUES = ["orthogonal", "orthodiagonal", "ORTHOGONAL", "base", "powers", "expert",
                 "teams", "Teams", 2, 3, 4, 26, 27, 1, 0, -1, 80, 81, True, False, None,
                 2**64, "2", 1.0]  # fmt: skip
option_values = st.sampled_from(OPTION_VALUES) | json_values
option_sets = st.dictionaries(st.sampled_from(OPTION_NAMES), option_values, max_size=3)


@fuzz(400)
@given(
    name=st.sampled_from(models.names()) | texts(list(models.names()), "abcdefghilmnoprstxy-"),
    game_options=option_sets,
    start_options=option_sets,
)
def test_fuzz_game_options(name: str, game_options: dict[str, Any],
                           start_options: dict[str, Any]) -> None:  # fmt: skip
    game = refused(lambda: models.get(name, **game_options))
    if game is None:
        return
    pos = refused(lambda: game.start(**start_options))
    if pos is not None:
        _check_position(pos)


# ---------------------------------------------------------------------------
# game records
# ---------------------------------------------------------------------------


def _line(pos: Any, plies: int, seed: int) -> tuple[str, list[str]]:
    rng = random.Random(seed)
    start, moves = pos.fen(), []
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        move = rng.choice(pos.legal_moves())
        moves.append(str(move))
        pos = pos.play(move)
    return start, moves


#: (game, start, moves) of real games
LINES = [(name, *_line(pos, 6, index)) for name in models.names()
         for index, pos in enumerate(SAMPLES[name][:3])]  # fmt: skip
RECORD_TEXTS = [f"# a game\n{start}\n{' '.join(moves[:3])}  # opening\n" + "\n".join(moves[3:])
                for _, start, moves in LINES]  # fmt: skip
RECORD_JSON = [{"game": name, "start": start, "moves": moves} for name, start, moves in LINES]
RECORD_ALPHABET = "".join(sorted(set("".join(ALPHABETS.values())) | set("#\n {}[]\":")))


@st.composite
def record_cases(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(models.names()))
    form = draw(st.sampled_from(["text", "json", "json text", "deep"]))
    if form == "text":
        text = draw(texts(RECORD_TEXTS, RECORD_ALPHABET))
    elif form == "json":
        text = json.dumps(draw(mutated_json(RECORD_JSON, ["game", "start", "moves"])))
    elif form == "json text":
        text = draw(mutated_text([json.dumps(r) for r in RECORD_JSON], RECORD_ALPHABET))
    else:
        record = {"game": name, "start": FENS[name][0], "moves": "@"}
        text = draw(st.sampled_from(["@", json.dumps(record)])).replace('"@"', "@")
        text = text.replace("@", draw(awkward_json()))
    return name, text


@fuzz(500)
@given(record_cases())
def test_fuzz_records(case: tuple[str, str]) -> None:
    name, text = case
    record = refused(lambda: parse_record(models.get(name), text))
    if record is not None:
        assert len(record.positions) == len(record.moves) + 1


# ---------------------------------------------------------------------------
# proofs
# ---------------------------------------------------------------------------

#: a proof of 38 nodes: White wins 3x3 Minefield from the position after b1
PROOF = build_proof(models.get("minefield").parse_position("3/3/1b1 w -"))
PROOF_KEYS = ["format", "version", "game", "options", "root", "winner", "nodes", "id",
              "position", "moves", "win", "name", "size"]  # fmt: skip


def _check_proof_data(data: Any) -> None:
    report = refused(lambda: check_proof(data))
    if report is not None:  # a mutation that still proves the same: the same claim
        assert (report.root, report.winner) == (PROOF["root"], PROOF["winner"])


@fuzz(600)
@given(mutated_json([PROOF], PROOF_KEYS) | json_values)
def test_fuzz_proofs(data: Any) -> None:
    _check_proof_data(data)


@st.composite
def proof_files(draw: st.DrawFn) -> bytes:
    form = draw(st.sampled_from(["bytes", "text", "deep", "random"]))
    whole = json.dumps(PROOF).encode()
    if form == "bytes":
        return draw(mutated_bytes([whole, b"\xef\xbb\xbf" + whole]))
    if form == "text":
        return draw(mutated_text([json.dumps(PROOF)], "{}[]\":,0123456789")).encode(
            "utf-8", "surrogatepass")
    if form == "deep":
        field = draw(st.sampled_from(["format", "version", "game", "options", "root", "nodes"]))
        return json.dumps({**PROOF, field: "@"}).replace('"@"', draw(awkward_json())).encode()
    return draw(st.binary(max_size=64))


@fuzz(200)
@given(proof_files())
def test_fuzz_proof_files(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    path = _scratch(tmp_path_factory) / "proof.json"
    path.write_bytes(raw)
    data = refused(lambda: load_proof(str(path)))
    if data is not None:
        _check_proof_data(data)


# ---------------------------------------------------------------------------
# certificates
# ---------------------------------------------------------------------------

#: the certificate of Black's win from the empty 3x3 board (made by the native df-pn;
#: written out here so that no C module is needed)
CERT = Certificate.build(
    {"size": 3, "win": "orthogonal", "rule": "orthogonal", "root": "3/3/3 b -", "lemmas": []},
    "b",
    [4098, 8194, 32770, 65538, 524288, 2164739, 2228834, 2753090, 3146242, 3805766, 3818054,
     4196930, 4198978, 4200451, 4211266, 4215366, 4229123],
    132, 0.0,
)  # fmt: skip
CERT_BYTES = CERT.to_bytes()
CERT_PAYLOAD = lzma.decompress(CERT_BYTES)
CERT_KEYS = ["format", "version", "size", "win", "rule", "root", "winner", "lemmas",
             "positions", "record_bytes"]  # fmt: skip


@st.composite
def certificate_bytes(draw: st.DrawFn) -> bytes:
    form = draw(st.sampled_from(["raw", "xz", "payload", "header", "header", "records",
                                 "awkward"]))  # fmt: skip
    if form == "raw":
        return draw(st.binary(max_size=64) | st.binary(max_size=64).map(lambda b: MAGIC + b))
    if form == "xz":  # the compressed stream damaged
        return draw(mutated_bytes([CERT_BYTES]))
    head, _, body = CERT_PAYLOAD.partition(b"\n")
    if form == "payload":  # a sound xz stream of damaged contents
        payload = draw(mutated_bytes([CERT_PAYLOAD]))
    elif form == "header":
        header = draw(mutated_json([json.loads(head)], CERT_KEYS))
        payload = json.dumps(header).encode() + b"\n" + body
    elif form == "awkward":  # the header line nested too deeply, or a field a huge number
        field = draw(st.sampled_from([*CERT_KEYS, "x"]))
        header = json.dumps({**json.loads(head), field: "@"}).replace('"@"', "@")
        line = draw(st.sampled_from(["@", header])).replace("@", draw(awkward_json()))
        payload = line.encode() + b"\n" + body
    else:  # records replaced by any number of the width
        records = list(CERT.records)
        for _ in range(draw(st.integers(1, 3))):
            records[draw(st.integers(0, len(records) - 1))] = draw(st.integers(0, 2**24 - 1))
        payload = head + b"\n" + b"".join(r.to_bytes(3, "little") for r in records)
    return lzma.compress(payload, preset=0)


@fuzz(500)
@given(certificate_bytes())
def test_fuzz_certificates(raw: bytes) -> None:
    cert = refused(lambda: parse_certificate(raw))
    if cert is not None:
        report = refused(lambda: check_certificate(cert))
        if report is not None:  # whatever was changed, the claim is a true one
            assert report.winner == "b" or cert.header["root"] != "3/3/3 b -"


# ---------------------------------------------------------------------------
# puzzle files and puzzles
# ---------------------------------------------------------------------------


def _puzzles() -> list[dict[str, Any]]:
    from boardproof.puzzles.generate import generate

    return [generate("minefield", 1, seed=3, progress=False).puzzles[0],
            generate("collexion", 1, seed=1, progress=False).puzzles[0]]  # fmt: skip


PUZZLES = _puzzles()
PUZZLE_KEYS = sorted({key for puzzle in PUZZLES for key in puzzle} | {"line", "start"})


def _check_one(puzzle: Any) -> None:
    """check_puzzle never raises: a bad puzzle is a verdict."""
    result = check_puzzle(puzzle)
    assert isinstance(result, CheckResult)
    one_line(ValueError(result.message))


@fuzz(600)
@given(mutated_json(PUZZLES, PUZZLE_KEYS) | field_replaced(PUZZLES))
def test_fuzz_puzzles(puzzle: Any) -> None:
    if isinstance(puzzle, dict):  # read_puzzles gives objects only
        _check_one(puzzle)


@st.composite
def puzzle_files(draw: st.DrawFn) -> bytes:
    form = draw(st.sampled_from(["lines", "array", "bytes", "deep"]))
    lines = "".join(dumps(p) + "\n" for p in PUZZLES)
    if form == "lines":
        return draw(mutated_text([lines], "{}[]\":,\n 0123456789")).encode("utf-8", "surrogatepass")
    if form == "array":
        return json.dumps(draw(mutated_json([PUZZLES]))).encode()
    if form == "bytes":
        return draw(mutated_bytes([lines.encode()]))
    line = dumps({**PUZZLES[0], draw(st.sampled_from(PUZZLE_KEYS)): "@"}).replace('"@"', "@")
    return draw(st.sampled_from(["@", "[@]", line])).replace("@", draw(awkward_json())).encode()


@fuzz(200)
@given(puzzle_files())
def test_fuzz_puzzle_files(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    path = _scratch(tmp_path_factory) / "puzzles.jsonl"
    path.write_bytes(raw)
    puzzles = refused(lambda: read_puzzles(path))
    for puzzle in (puzzles or [])[:3]:
        _check_one(puzzle)


# ---------------------------------------------------------------------------
# checkpoints
# ---------------------------------------------------------------------------

RUN = {"job": "fuzz", "seed": 1}
JOURNAL = [{"checkpoint": JournalCheckpoint.MAGIC, "run": RUN},
           {"key": "000000", "result": {"puzzle": None}},
           {"key": "000001", "result": [1, 2]}]  # fmt: skip
DAILY = [{"checkpoint": JournalCheckpoint.MAGIC, "run": daily.CHECKPOINT_RUN},
         {"key": "minefield 2026-01-01", "result": {"id": "minefield-2026-01-01", "rating": {}}}]
CHECKPOINT = {"n=3": {"holds": True}, "n=4": [1, 2.5, None]}


def _journal_text(entries: list[Any]) -> str:
    return "".join(json.dumps(entry) + "\n" for entry in entries)


@st.composite
def checkpoint_files(draw: st.DrawFn) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["checkpoint", "journal", "daily"]))
    form = draw(st.sampled_from(["json", "text", "bytes", "deep"]))
    seeds: Any = {"checkpoint": CHECKPOINT, "journal": JOURNAL, "daily": DAILY}[kind]
    if form == "deep":
        raw = draw(awkward_json())
        if kind == "checkpoint":
            raw = draw(st.sampled_from([raw, '{"n=3": @}'.replace("@", raw)]))
        else:
            line = draw(st.sampled_from([raw, '{"key": "x", "result": @}'.replace("@", raw)]))
            raw = json.dumps(seeds[0]) + "\n" + line + draw(st.sampled_from(["", "\n"]))
        return kind, raw.encode()
    if form == "json":
        data = draw(mutated_json([seeds], ["key", "result", "run", "checkpoint", "id",
                                           "rating"]))  # fmt: skip
        if kind == "checkpoint":
            return kind, json.dumps(data).encode()
        lines = data if isinstance(data, list) else [data]
        return kind, _journal_text(lines).encode()
    text = json.dumps(seeds) if kind == "checkpoint" else _journal_text(seeds)
    if form == "text":
        return kind, draw(mutated_text([text], "{}[]\":,\n 0123456789")).encode(
            "utf-8", "surrogatepass")
    return kind, draw(mutated_bytes([text.encode()]))


@fuzz(300)
@given(checkpoint_files())
def test_fuzz_checkpoints(tmp_path_factory: pytest.TempPathFactory,
                          case: tuple[str, bytes]) -> None:  # fmt: skip
    kind, raw = case
    path = _scratch(tmp_path_factory) / "run.checkpoint"
    path.write_bytes(raw)
    if kind == "checkpoint":
        store: Any = refused(lambda: Checkpoint(path))
    elif kind == "journal":
        store = refused(lambda: JournalCheckpoint(path, RUN))
    else:
        store = refused(lambda: daily.open_checkpoint(path))
    if store is not None:  # what was read can be written again
        store.save("fuzz", {"ok": True})
        assert store.done["fuzz"] == {"ok": True}


_SCRATCH: list[Path] = []


def _scratch(factory: pytest.TempPathFactory) -> Path:
    """One folder for the files of every example (each example overwrites them)."""
    if not _SCRATCH:
        _SCRATCH.append(factory.mktemp("fuzz"))
    return _SCRATCH[0]



# ---------------------------------------------------------------------------
# the escapes found, pinned: each input and the error it gives now
# ---------------------------------------------------------------------------

BIG = "9" * 5000  # a number past the 4300 digits that ``int`` reads (ValueError)
EMPTY_CANDY = ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,."
JOURNAL_HEAD = json.dumps({"checkpoint": JournalCheckpoint.MAGIC, "run": RUN}) + "\n"


def _file(folder: Path, content: str) -> str:
    path = folder / "input"
    path.write_text(content, encoding="utf-8")
    return str(path)


def _certificate_with(**header: Any) -> bytes:
    head, _, body = CERT_PAYLOAD.partition(b"\n")
    return lzma.compress(json.dumps({**json.loads(head), **header}).encode() + b"\n" + body)


def _collexion_move(text: str) -> Any:
    return models.get("collexion").start(count=10).parse_move(text)


#: (what it was, the call on a scratch folder, the error it raises now, its message):
#: each one escaped before as the exception named first
ESCAPES: list[tuple[str, Callable[[Path], Any], type[BoardproofError], str]] = [
    ("TypeError: an option called name",
     lambda tmp: models.get("minefield", name="candy"),
     InvalidOptionError, r"^invalid option name: minefield does not take it, got 'candy'$"),
    ("TypeError: a proof's option called name",
     lambda tmp: check_proof({**PROOF, "options": {"name": "candy"}}),
     InvalidOptionError, r"^invalid option name: minefield does not take it, got 'candy'$"),
    ("a message of two lines: a proof's option called newline",
     lambda tmp: check_proof({**PROOF, "options": {"\n": False}}),
     InvalidOptionError, r"^invalid option '\\n': minefield does not take it"),
    ("ValueError: candy to move ²",
     lambda tmp: models.get("candy").parse_position(f"{EMPTY_CANDY} ² 2"),
     InvalidNotationError, r"^invalid to-move: expected 1\.\.2, got '²'$"),
    ("ValueError: candy to move 9999...",
     lambda tmp: models.get("candy").parse_position(f"{EMPTY_CANDY} {BIG} 2"),
     InvalidNotationError, r"^invalid to-move: expected 1\.\.2, got '9999"),
    ("accepted: candy to move ١ (an Arabic-Indic 1)",
     lambda tmp: models.get("candy").parse_position(f"{EMPTY_CANDY} ١ 2"),
     InvalidNotationError, r"^invalid to-move: expected 1\.\.2, got '١'$"),
    ("ValueError: a candy of colour ²",
     lambda tmp: models.get("candy").parse_position(f"²Os{EMPTY_CANDY[1:]} 1 2"),
     InvalidNotationError, r"^invalid candy colour at a5: expected 1\.\.2, got '²Os'$"),
    ("ValueError: a collexion piece id of 5000 digits",
     lambda tmp: models.get("collexion").parse_position(
         f"base {BIG}:g3 -:-:-/-:-:- 234/234/234/234 1"),
     InvalidNotationError, r"^invalid box: expected id:polygon\[<ids\] like 7:g3<12\.15, "
                           r"got '9999"),
    ("ValueError: a collexion move taking a piece id of 5000 digits",
     lambda tmp: _collexion_move(BIG),
     InvalidNotationError, r"^invalid move: expected \[power:\]ids.*, got '9999"),
    ("ValueError: a collexion power removing a piece id of 5000 digits",
     lambda tmp: _collexion_move(f"r{BIG}:1"),
     InvalidNotationError, r"^invalid move: expected \[power:\]ids.*, got 'r9999"),
    ("accepted: a collexion piece id with an Arabic-Indic digit, as 13",
     lambda tmp: _collexion_move("1٣"),
     InvalidNotationError, r"^invalid move: expected \[power:\]ids.*, got '1٣'$"),
    ("RecursionError: a JSON record nested too deeply",
     lambda tmp: parse_record(models.get("minefield"), '{"a":' * 100_000),
     RecordError, r"^invalid record: not valid JSON \(nested too deeply\): '\{\"a\":"),
    ("ValueError: a JSON record with a number of 5000 digits",
     lambda tmp: parse_record(models.get("minefield"), f'{{"game": "minefield", "start": {BIG}}}'),
     RecordError, r"^invalid record: not valid JSON \(a number with too many digits\): "),
    ("ValueError: a proof file with a number of 5000 digits",
     lambda tmp: load_proof(_file(tmp, f'{{"format": "boardproof-proof", "version": {BIG}}}')),
     NotAProofError, r"^invalid proof: JSON number with too many digits: '.*input'$"),
    ("RecursionError: a certificate's header nested too deeply",
     lambda tmp: parse_certificate(lzma.compress(b"[" * 100_000 + b"\n")),
     NotAProofError, r"^invalid certificate: no boardproof-certificate header: 'certificate'$"),
    ("ValueError: a certificate's header with a number of 5000 digits",
     lambda tmp: parse_certificate(lzma.compress(f'{{"size": {BIG}}}\n'.encode())),
     NotAProofError, r"^invalid certificate: no boardproof-certificate header: 'certificate'$"),
    ("TypeError: a certificate's lemma that is a list (unhashable)",
     lambda tmp: check_certificate(parse_certificate(_certificate_with(lemmas=[[]]))),
     ProofError, r"^bad certificate: field 'lemmas': unknown lemma in \[\[\]\]$"),
    ("ValueError: a puzzle line with a number of 5000 digits",
     lambda tmp: read_puzzles(_file(tmp, f'{{"id": {BIG}}}\n')),
     PuzzleError, r"^invalid puzzle file: line 1 has a JSON number with too many digits: "),
    ("ValueError: a puzzle array with a number of 5000 digits",
     lambda tmp: read_puzzles(_file(tmp, f"[{BIG}]")),
     PuzzleError, r"^invalid puzzle file: JSON number with too many digits: "),
    ("RecursionError: a checkpoint nested too deeply",
     lambda tmp: Checkpoint(_file(tmp, "[" * 100_000)),
     InvalidOptionError, r"^invalid checkpoint: not a JSON file \(nested too deeply; "),
    ("ValueError: a checkpoint with a number of 5000 digits",
     lambda tmp: Checkpoint(_file(tmp, f'{{"n=3": {BIG}}}')),
     InvalidOptionError, r"^invalid checkpoint: not a JSON file \(a number with too many digits; "),
    ("RecursionError: a journal line nested too deeply",
     lambda tmp: JournalCheckpoint(_file(tmp, JOURNAL_HEAD + "[" * 100_000 + "\n"), RUN),
     InvalidOptionError, r"^invalid checkpoint: line 2 is not JSON \(nested too deeply\) "),
    ("ValueError: a journal line with a number of 5000 digits",
     lambda tmp: JournalCheckpoint(_file(tmp, JOURNAL_HEAD + f'{{"key": "a", "result": {BIG}}}\n'),
                                   RUN),
     InvalidOptionError, r"^invalid checkpoint: line 2 is not JSON \(a number with too many "),
    ("RecursionError: a daily puzzles checkpoint nested too deeply",
     lambda tmp: daily.open_checkpoint(_file(tmp, "[" * 100_000 + "\n")),
     InvalidOptionError, r"^invalid checkpoint: line 1 is not JSON \(nested too deeply\) "),
]  # fmt: skip


@pytest.mark.parametrize(("call", "error", "message"), [case[1:] for case in ESCAPES],
                         ids=[case[0] for case in ESCAPES])  # fmt: skip
def test_escapes_found_are_refused(tmp_path: Path, call: Callable[[Path], Any],
                                   error: type[BoardproofError], message: str) -> None:  # fmt: skip
    with pytest.raises(error, match=message) as info:
        call(tmp_path)
    one_line(info.value)


def _set(*path: Any, to: Any) -> Callable[[dict[str, Any]], None]:
    def change(puzzle: dict[str, Any]) -> None:
        _get(puzzle, path[:-1])[path[-1]] = to

    return change


#: (what it was, which puzzle, the change, the verdict's message now): check_puzzle raised
#: the exception named first instead of giving a verdict
PUZZLE_ESCAPES: list[tuple[str, int, Callable[[dict[str, Any]], None], str]] = [
    ("ValueError: a score of 7.0 (format code d)", 1, _set("score", to=7.0),
     r"^score: expected score 7 and margin 2, got 7\.0 and 2$"),
    ("ValueError: a margin of 2.0", 1, _set("margin", to=2.0),
     r"^score: expected score 7 and margin 2, got 7 and 2\.0$"),
    ("TypeError: a source line that is true", 0, _set("source", "line", to=True),
     r"^source: field 'line' is not a list of moves: True$"),
    ("TypeError: a source line that is a number", 0, _set("source", "line", to=5),
     r"^source: field 'line' is not a list of moves: 5$"),
    ("OverflowError: infinitely many decoys", 0, _set("rating", "decoys", to=float("inf")),
     r"^rating: missing inputs: .*'decoys': inf"),
    ("OverflowError: minus infinitely many nodes", 1, _set("rating", "nodes", to=float("-inf")),
     r"^rating: missing inputs: .*'nodes': -inf"),
    ("TypeError: an option called name", 0, _set("options", to={"name": "candy"}),
     r"^invalid option name: minefield does not take it, got 'candy'$"),
]  # fmt: skip


@pytest.mark.parametrize(("index", "change", "message"), [case[1:] for case in PUZZLE_ESCAPES],
                         ids=[case[0] for case in PUZZLE_ESCAPES])  # fmt: skip
def test_puzzle_escapes_found_are_verdicts(index: int, change: Callable[[dict[str, Any]], None],
                                           message: str) -> None:  # fmt: skip
    puzzle = copy.deepcopy(PUZZLES[index])
    assert check_puzzle(puzzle).ok
    change(puzzle)
    result = check_puzzle(puzzle)
    assert not result.ok and re.search(message, result.message), result.message


def test_a_certificate_that_expands_without_end_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by reading (a MemoryError, or the machine's memory filled): a small xz file
    whose contents are huge. The contents are decompressed within the input limit (512 MiB;
    here made 1 KiB, so that the test is fast)."""
    monkeypatch.setattr("boardproof.inputs.MAX_INPUT_BYTES", 1024)
    bomb = lzma.compress(CERT_PAYLOAD.partition(b"\n")[0] + b"\n" + b"\0" * 3000)
    assert len(bomb) < 1024
    with pytest.raises(ProofError, match=r"^bad certificate: larger than 1024 bytes once "):
        parse_certificate(bomb)
    assert parse_certificate(CERT_BYTES).records == CERT.records  # 1 KiB is enough for it


def test_a_verify_report_with_a_huge_number_is_refused_in_one_line(cli_run, tmp_path) -> None:
    """``verify --merge`` reads a report JSON: a number of 5000 digits is bad input."""
    report = tmp_path / "report.json"
    report.write_text('{"sizes": [' + "9" * 5000 + "]}")
    status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "2", "--merge",
                             str(report), "--out", str(tmp_path / "out"))  # fmt: skip
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        "error: invalid option --merge: cannot read a report JSON (a number with too many "
        f"digits): {str(report)!r}")
