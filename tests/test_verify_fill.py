"""``verify --method fill`` (SAT fill step + Lemma H) and ``--merge`` of earlier reports."""

from __future__ import annotations

import json

from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.research import claims
from boardproof.models.minefield.research import claims_report as nodraw


def test_fill_method_plans_only_the_fill_step() -> None:
    tasks = claims.plan_tasks("minefield-no-draw", [5, 6], method="fill", exhaustive_max=0)
    assert [key for key, _ in tasks] == ["n=5/fill", "n=6/fill"]
    split = dict(claims.plan_tasks("minefield-no-draw", [5], exhaustive_max=0))
    fill = dict(tasks)
    # the same formula as the split method's fill step
    assert {**fill["n=5/fill"], "method": "split"} == split["n=5/fill"]


def test_fill_and_split_agree_and_fill_rows_say_how() -> None:
    sizes = [2, 3, 4, 5, 6, 7]
    split = claims.verify("minefield-no-draw", sizes, progress=False, exhaustive_max=3)
    fill = claims.verify("minefield-no-draw", sizes, method="fill", progress=False,
                         exhaustive_max=3)
    assert split["holds"] is True and fill["holds"] is True
    assert [r["holds"] for r in fill["sizes"]] == [r["holds"] for r in split["sizes"]]
    for a, b in zip(split["sizes"], fill["sizes"], strict=True):
        assert a["method"] == "sat-split" and a["full_step"] == "sat"
        assert b["method"] == "sat-fill+lemma-hex" and b["full_step"] == "lemma-hex"
        assert [s["step"] for s in b["steps"]] == ["fill"]
        # the fill step is the same formula in both methods
        assert (b["steps"][0]["variables"], b["steps"][0]["clauses"]) == \
            (a["steps"][0]["variables"], a["steps"][0]["clauses"])
        assert nodraw.steps_text(b) == "fill:unsat (SAT) + full: Lemma H"
        assert nodraw.steps_text(a) == "fill:unsat + full:unsat"
    # exhaustive enumeration agrees on the small sizes
    assert all(r["agree"] for r in fill["sizes"] if r["n"] <= 3)
    assert sat.FULL_BOARD_LEMMA_NAME in fill["lemmas"]
    assert sat.FULL_BOARD_LEMMA_NAME not in split["lemmas"]


def test_fill_method_cli_table(cli_run, tmp_path) -> None:
    status, out, err = cli_run("verify", "minefield-no-draw", "--sizes", "4-5", "--method",
                               "fill", "--exhaustive-max", "0", "--quiet", "--checkpoint",
                               str(tmp_path / "cp.json"))
    assert status == 0, err
    assert out.count("fill:unsat (SAT) + full: Lemma H") == 2
    assert "holds for n = 4..5 (n = 4..5 by the SAT fill step and Lemma H)" in out


def test_merge_keeps_earlier_rows(cli_run, tmp_path) -> None:
    out_dir = tmp_path / "reports"
    status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "2-4", "--out",
                             str(out_dir), "--quiet", "--note", "first run")
    assert status == 0, err
    report = out_dir / "minefield-no-draw.json"
    first = json.loads(report.read_text())
    status, out, err = cli_run("verify", "minefield-no-draw", "--sizes", "4-6", "--method",
                               "fill", "--exhaustive-max", "0", "--workers", "2", "--merge",
                               str(report), "--out", str(out_dir), "--quiet")
    assert status == 0, err
    data = json.loads(report.read_text())
    assert [r["n"] for r in data["sizes"]] == [2, 3, 4, 5, 6]
    # rows 2-3 kept as they were (not recomputed); 4 comes from the new run
    assert data["sizes"][:2] == first["sizes"][:2]
    # n = 4: the new fill step joined with the earlier row's SAT full step (pure SAT again)
    assert [r["method"] for r in data["sizes"]] == ["sat-split"] * 3 + ["sat-fill+lemma-hex"] * 2
    four = data["sizes"][2]
    assert [s["step"] for s in four["steps"]] == ["fill", "full"]
    assert "kept_from" not in four["steps"][0]
    assert four["steps"][1] == {**first["sizes"][2]["steps"][1], "kept_from": str(report)}
    assert four.get("exhaustive") == first["sizes"][2].get("exhaustive")
    assert data["kept_full_steps"] == {"from": str(report), "sizes": [4], "notes": ["first run"]}
    assert data["holds"] is True
    assert data["merged"] == [{"from": str(report), "sizes": [2, 3], "method": "split",
                               "solver": "cadical195", "workers": 1, "cubes": 0,
                               "note": "first run"}]
    assert len(data["commands"]) == 2 and "--merge" in data["commands"][1]
    assert "--method fill" in data["commands"][1] and "--workers 2" in data["commands"][1]
    md = (out_dir / "minefield-no-draw.md").read_text()
    assert "n = 2..4 by SAT alone; n = 5..6 by the SAT fill step and Lemma H" in md
    assert "For n = 4 the SAT *full* step" in md and "cadical195 (kept)" in md
    assert "Note (n = 2..3): first run" in md
    assert sat.FULL_BOARD_LEMMA in md and "Gale" in md
    for command in data["commands"]:
        assert command in md
    assert "Lemma H for n = 5..6" in (out_dir / "minefield-no-draw.svg").read_text()
    # merging again (the merged report into a new run) keeps the provenance
    status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "7", "--method", "fill",
                             "--exhaustive-max", "0", "--merge", str(report), "--out",
                             str(out_dir), "--quiet")
    assert status == 0, err
    again = json.loads(report.read_text())
    assert [r["n"] for r in again["sizes"]] == [2, 3, 4, 5, 6, 7]
    assert again["sizes"][:5] == data["sizes"]
    assert [m["sizes"] for m in again["merged"]] == [[2, 3], [4, 5, 6]]
    assert len(again["commands"]) == 3
    # and once more with n = 4 again: the note of the full step kept from the first run
    # stays with it (the report it comes from had kept it itself)
    status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "4", "--method",
                             "fill", "--exhaustive-max", "0", "--merge", str(report),
                             "--out", str(out_dir), "--quiet", "--note", "fourth run")
    assert status == 0, err
    assert json.loads(report.read_text())["kept_full_steps"]["notes"] == ["first run"]


def test_merge_rejects_bad_files(cli_run, tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    for path in (str(bad), str(tmp_path / "missing.json")):
        status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "2", "--merge", path,
                                 "--checkpoint", str(tmp_path / "cp.json"))
        assert status == 2 and "--merge" in err and len(err.strip().splitlines()) == 1
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"claim": "minefield-orthodiagonal", "sizes": []}))
    status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "2", "--merge",
                             str(other), "--checkpoint", str(tmp_path / "cp.json"))
    assert status == 2 and "--merge" in err


def test_resumed_run_has_no_wall_time(tmp_path) -> None:
    cp = tmp_path / "cp.json"
    first = claims.verify("minefield-no-draw", [3, 4], method="fill", progress=False,
                          exhaustive_max=0, checkpoint=cp)
    assert first["wall_seconds"] is not None and first["resumed_tasks"] == 0
    again = claims.verify("minefield-no-draw", [3, 4], method="fill", progress=False,
                          exhaustive_max=0, checkpoint=cp)
    assert again["wall_seconds"] is None and again["resumed_tasks"] == again["tasks"] == 2
    assert "2 of 2 tasks resumed" in nodraw.render_markdown(again)
    part = claims.verify("minefield-no-draw", [3, 4, 5], method="fill", progress=False,
                         exhaustive_max=0, checkpoint=cp)
    assert part["wall_seconds"] is not None and part["resumed_tasks"] == 2
