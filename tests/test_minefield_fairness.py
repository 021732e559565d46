"""Minefield's fairness maps (``boardproof fairness``): symmetry pooling, reproducibility
whatever runs the games, resume from the journal, agreement with the proved opening tables,
and one-line errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from boardproof import models
from boardproof.models.minefield.board import symmetry_point
from boardproof.models.minefield.research import fairness
from boardproof.models.minefield.research.openings import point_classes

ROOT = Path(__file__).resolve().parent.parent
OPENINGS = ROOT / "reports" / "minefield-openings.json"
TINY = ["--sizes", "3,4", "--games", "8,4=5", "--iterations", "40", "--quiet"]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("minefield-fairness*"))
            if not p.name.endswith(".jsonl")}  # fmt: skip


def _point(name: str) -> tuple[int, int]:
    return fairness.FILES.index(name[0]), int(name[1:]) - 1


def test_classes_are_the_colour_keeping_orbits() -> None:
    """Each class is one orbit of the half turn and the two mirrors: the same classes as
    the opening tables' (found from the positions themselves, where a transpose gives a
    white stone with Black to move), and never a transpose's image."""
    for n in range(2, 10):
        classes = fairness.first_point_classes(n)
        assert sorted(p for _, members in classes for p in members) == sorted(
            fairness.point_name(f, r) for f in range(n) for r in range(n))
        by_position = sorted(sorted(p for p, _ in members) for _, members in point_classes(n))
        assert sorted(sorted(members) for _, members in classes) == by_position
        start = models.get("minefield").start(size=n, pie=False)
        for rep, members in classes:
            assert rep == members[0]
            before = start.play(start.parse_move(rep))
            for point in members:
                after = start.play(start.parse_move(point))
                assert any(before.transform(s) == after for s in fairness.COLOUR_KEEPING)
                assert all(before.transform(s) != after for s in range(4, 8))
    four = {rep: members for rep, members in fairness.first_point_classes(4)}
    assert "a2" not in four["b1"] and four["a2"] == ["a2", "d2", "a3", "d3"]


def test_pooled_points_share_their_proved_value_and_a_transpose_would_not() -> None:
    """In the proved tables (pie off) every class has one winner, while a transpose maps
    some first point to one with the other winner: pooling by a transpose (or by any of the
    colour-exchanging symmetries) would mix a Black win with a White win."""
    proved = fairness.load_proved([str(OPENINGS)])["standard"]
    mixed = set()
    for n in (3, 4, 5, 6):
        table = proved[n]
        for _rep, members in fairness.first_point_classes(n):
            assert len({table[p] for p in members if p in table}) <= 1, (n, members)
        for s in range(4, 8):
            for point, winner in table.items():
                image = fairness.point_name(*symmetry_point(s, *_point(point), n))
                if image in table and table[image] != winner:
                    mixed.add(s)
    assert mixed == {4, 5, 6, 7}


@pytest.mark.parametrize("variant", ["standard", "pinwheel"])
def test_pooled_points_play_the_same_game(variant: str) -> None:
    """Random games from a class's points, mapped by the symmetry between them: the same
    legal moves (mapped) and the same outcome at every ply, under both variants' glyphs."""
    game = models.get("minefield", variant=variant)
    rng = random.Random(5)
    for n in (4, 5):
        start = game.start(size=n, pie=False)
        for rep, members in fairness.first_point_classes(n):
            base = start.play(start.parse_move(rep))
            for point in members[1:]:
                other = start.play(start.parse_move(point))
                s = next(s for s in fairness.COLOUR_KEEPING if base.transform(s) == other)
                a, b = base, other
                while a.outcome() is None:
                    mapped = sorted(str(a.transform_move(m, s)) for m in a.legal_moves())
                    assert mapped == sorted(str(m) for m in b.legal_moves())
                    move = rng.choice(list(a.legal_moves()))
                    a, b = a.play(move), b.play(a.transform_move(move, s))
                assert a.outcome() == b.outcome() and a.transform(s) == b


def test_blocks_are_seeded_by_game_not_by_block() -> None:
    """A class's games go round its points; the tasks are blocks of at most BLOCK games."""
    tasks = fairness.blocks("standard", 3, 10, 40, 0)
    assert [t.count for t in tasks if t.representative == "a1"] == [8, 2]
    result = fairness.play_block(tasks[0])
    assert [g[0] for g in result["games"]] == ["a1", "c1", "a3", "c3"] * 2
    again = fairness.play_block(tasks[0])
    assert again["games"] == result["games"]


def test_the_same_files_whatever_runs_the_games(cli_run, tmp_path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    status, text, _ = cli_run("fairness", *TINY, "--out", str(one))
    assert status == 0 and "3x3 standard: 32 of 32 games" in text, text
    status, _, _ = cli_run("fairness", *TINY, "--out", str(two), "--workers", "2")
    assert status == 0
    first, second = _files(one), _files(two)
    maps = [f"minefield-fairness-{n}-{v}.svg" for n in (3, 4) for v in ("pinwheel", "standard")]
    assert sorted(first) == [*maps, "minefield-fairness.json", "minefield-fairness.md"]
    # the recorded command names the folder: the rest is byte for byte the same
    for name in first:
        assert first[name].replace(b"/one", b"/two") == second[name], name
    data = json.loads(first["minefield-fairness.json"])
    assert data["estimates"] and data["complete"] and data["settings"]["games_per_class"] == {
        "3": 8, "4": 5}
    size = data["sizes"][0]
    assert (size["n"], size["variant"], size["games"]) == (3, "standard", 32)
    assert sum(c["black_wins"] + c["white_wins"] + c["draws"] for c in size["classes"]) == 32
    assert "estimate" in first["minefield-fairness.md"].decode()
    assert b"ESTIMATES" in first["minefield-fairness-3-standard.svg"]


def test_interrupted_run_resumes_from_its_journal(cli_run, tmp_path, ctrl_c_after_saves) -> None:
    plain, resumed = tmp_path / "plain", tmp_path / "resumed"
    assert cli_run("fairness", *TINY, "--out", str(plain))[0] == 0
    with ctrl_c_after_saves(3):
        status, _, err = cli_run("fairness", *TINY, "--out", str(resumed))
    assert status == 130 and err.strip().endswith("interrupted")
    journal = resumed / "minefield-fairness.checkpoint.jsonl"
    assert len(journal.read_text().splitlines()) == 1 + 3
    status, _, err = cli_run("fairness", *TINY[:-1], "--out", str(resumed))
    assert status == 0 and err.count("from checkpoint") == 3
    first, second = _files(plain), _files(resumed)
    assert {k: v.replace(b"/plain", b"/resumed") for k, v in first.items()} == second
    # a run stopped by --stop-after says it is partial, and the same command finishes it
    part = tmp_path / "part"
    status, text, _ = cli_run("fairness", *TINY, "--out", str(part), "--stop-after", "1e-9")
    assert status == 0 and "partial: resume with the same command" in text
    assert not json.loads((part / "minefield-fairness.json").read_text())["complete"]
    assert "Partial run" in (part / "minefield-fairness.md").read_text()
    assert cli_run("fairness", *TINY, "--out", str(part))[0] == 0
    assert {k: v.replace(b"/plain", b"/part") for k, v in first.items()} == _files(part)


def test_estimates_point_to_the_proved_winners_on_4x4(cli_run, tmp_path) -> None:
    """At 2000 iterations a move the engine's self-play finds the proved winner of every
    4x4 first point (two of the four classes are Black wins), each interval clear of 50 %."""
    out = tmp_path / "out"
    status, _, _ = cli_run("fairness", "--sizes", "4", "--variants", "standard", "--games",
                           "8", "--iterations", "2000", "--proved", str(OPENINGS), "--quiet",
                           "--out", str(out))  # fmt: skip
    assert status == 0
    size = json.loads((out / "minefield-fairness.json").read_text())["sizes"][0]
    proved = fairness.load_proved([str(OPENINGS)])["standard"][4]
    for cls in size["classes"]:
        winners = set(cls["proved"].values())
        assert winners == {proved[cls["representative"]]}
        assert cls["certain"] and cls["swap"] == (winners == {"b"}), cls
    assert "16 proved cells: the estimate points to the proved winner at 16." in (
        out / "minefield-fairness.md").read_text()


def test_a_variant_table_marks_the_maps_of_its_variant(cli_run, tmp_path) -> None:
    table = {"pie": False, "win_rule": "orthogonal", "variant": "pinwheel",
             "sizes": [{"n": 3, "openings": [{"point": "b2", "winner": "w"},
                                             {"point": "a1", "winner": None}]}]}  # fmt: skip
    path = tmp_path / "pinwheel.json"
    path.write_text(json.dumps(table))
    out = tmp_path / "out"
    status, _, _ = cli_run("fairness", "--sizes", "3", "--games", "2", "--iterations", "10",
                           "--proved", str(path), "--proved", str(OPENINGS), "--quiet",
                           "--out", str(out))  # fmt: skip
    assert status == 0
    data = json.loads((out / "minefield-fairness.json").read_text())
    marks = {size["variant"]: {p: w for c in size["classes"]
                               for p, w in (c["proved"] or {}).items()}
             for size in data["sizes"]}  # fmt: skip
    assert marks["pinwheel"] == {"b2": "w"}
    assert marks["standard"]["b2"] == "w" and marks["standard"]["a2"] == "b"
    assert f"--proved {path} --proved {OPENINGS}" in data["command"]
    table["variant"], table["sizes"][0]["openings"][0]["winner"] = "standard", "b"
    path.write_text(json.dumps(table))
    status, _, err = cli_run("fairness", "--sizes", "3", "--proved", str(OPENINGS), "--proved",
                             str(path), "--out", str(out))  # fmt: skip
    assert status == 2 and "3x3 b2 disagrees with an earlier file" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "invalid option --games: expected >= 1, got '0'"),
        (["--games", "9=4"], "invalid option --games: no value for 3x3 (give N or N,SIZE=M)"),
        (["--games", "4,9=4"], "invalid option --games: size 9 is not in --sizes"),
        (["--iterations", "many"], "invalid option --iterations: expected N or N,SIZE=M"),
        (["--variants", "wheel"], "invalid option --variants: expected standard and/or "
                                  "pinwheel and/or cartwheel"),
        (["--sizes", "30"], "invalid option --sizes: expected sizes 2 to 26"),
        (["--proved", "no-such.json"], "invalid option --proved: not a Minefield opening "
                                       "report"),
        (["--workers", "0"], "invalid option --workers: expected 1 to 256, got 0"),
    ],
)  # fmt: skip
def test_bad_options_exit_2_with_one_line(cli_run, tmp_path, args, message) -> None:
    status, out, err = cli_run("fairness", "--sizes", "3", *args, "--out", str(tmp_path / "o"))
    assert status == 2 and not out and len(err.strip().splitlines()) == 1, err
    assert message in err and "Traceback" not in err


def test_a_report_of_other_settings_is_never_overwritten_unasked(cli_run, tmp_path) -> None:
    out = tmp_path / "out"
    base = ["fairness", "--sizes", "3", "--variants", "standard", "--iterations", "20",
            "--quiet", "--out", str(out)]  # fmt: skip
    assert cli_run(*base, "--games", "4")[0] == 0
    before = (out / "minefield-fairness.json").read_bytes()
    status, _, err = cli_run(*base, "--games", "8")
    assert status == 2 and "pass --replace to overwrite it" in err
    assert (out / "minefield-fairness.json").read_bytes() == before
    assert cli_run(*base, "--games", "4")[0] == 0  # the same run: resumed, rewritten
    assert cli_run(*base, "--games", "8", "--replace")[0] == 0
    assert json.loads((out / "minefield-fairness.json").read_text())["sizes"][0]["games"] == 32


@pytest.mark.long
def test_on_a_local_dask_cluster(cli_run, tmp_path) -> None:
    pytest.importorskip("distributed")
    plain, dask = tmp_path / "plain", tmp_path / "dask"
    assert cli_run("fairness", *TINY, "--out", str(plain))[0] == 0
    status, text, _ = cli_run("fairness", *TINY, "--out", str(dask), "--scheduler", "local:2")
    assert status == 0 and "dask local:2, 2 workers" in text
    assert {k: v.replace(b"/plain", b"/dask") for k, v in _files(plain).items()} == _files(dask)


def test_ctrl_c_exits_130_and_keeps_the_journal(tmp_path) -> None:
    """A real SIGINT: exit 130, ``interrupted``, the journal kept, no report. (In process:
    with --workers 2 a SIGINT that lands while the pool forks its workers is swallowed by
    an at-fork hook of ``logging``: a race of the executor's, not of this command.)"""
    from interrupt import interrupt_after_progress

    out = tmp_path / "out"
    status, stdout, err, seconds = interrupt_after_progress(
        ["fairness", "--sizes", "5", "--games", "16", "--iterations", "300",
         "--out", str(out)], "[")  # fmt: skip
    assert status == 130, (stdout, err[-500:])
    assert err.strip().splitlines()[-1] == "interrupted" and not stdout
    assert (out / "minefield-fairness.checkpoint.jsonl").exists()
    assert not (out / "minefield-fairness.json").exists() and seconds < 30
