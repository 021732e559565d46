"""``boardproof verify``: JSON shape, report files, checkpoints and resume, bad input."""

from __future__ import annotations

import json

import pytest

from boardproof.models.minefield.research import claims


def test_verify_json_shape(cli_run, tmp_path) -> None:
    status, out, err = cli_run("verify", "minefield-no-draw", "--sizes", "2-5", "--json",
                               "--checkpoint", str(tmp_path / "cp.json"))
    assert status == 0, err
    data = json.loads(out)
    assert data["claim"] == "minefield-no-draw" and data["holds"] is True
    assert [s["n"] for s in data["sizes"]] == [2, 3, 4, 5]
    for size in data["sizes"]:
        assert set(size) >= {"n", "holds", "method", "seconds", "counterexample"}
        assert size["holds"] is True and size["counterexample"] is None
        assert size["method"] == "sat-split"
        assert [s["result"] for s in size["steps"]] == ["unsat", "unsat"]
    # sizes up to 3 are also enumerated, and agree
    assert data["sizes"][1]["exhaustive"]["dead"] == 0 and data["sizes"][1]["agree"]


def test_verify_writes_report_and_certificates(cli_run, tmp_path) -> None:
    out_dir = tmp_path / "out"
    status, out, err = cli_run("verify", "minefield-no-draw", "--sizes", "2-4", "--out",
                               str(out_dir), "--quiet")
    assert status == 0, err
    assert "dratify+fwd+bwd ok" in out and "holds for n = 2..4" in out
    md = (out_dir / "minefield-no-draw.md").read_text()
    assert "| 4 | holds |" in md and "crosscut" in md
    assert "Towards no draw for every n" in md and "Ring lemma (every n >= 5)" in md
    assert (out_dir / "minefield-no-draw.svg").read_text().startswith("<svg")
    data = json.loads((out_dir / "minefield-no-draw.json").read_text())
    certs = [s["certificate"] for size in data["sizes"] for s in size["steps"]]
    assert certs and all(c["ok"] for c in certs)
    assert sorted(p.name for p in (out_dir / "proofs").iterdir())[0] == "minefield-n2-fill.drup.gz"
    assert all(c["agree"] and len(c["sha256"]) == 64 for c in certs)


def test_verify_resumes_from_checkpoint(cli_run, tmp_path) -> None:
    cp = tmp_path / "cp.json"
    status, _, err = cli_run("verify", "minefield-no-draw", "--sizes", "2-3", "--checkpoint",
                             str(cp))
    assert status == 0 and "from checkpoint" not in err
    done = json.loads(cp.read_text())
    assert set(done) == {"n=2/exhaustive", "n=2/fill", "n=2/full", "n=3/exhaustive",
                         "n=3/fill", "n=3/full"}
    status, out, err = cli_run("verify", "minefield-no-draw", "--sizes", "2-4", "--checkpoint",
                               str(cp))
    assert status == 0
    assert err.count("from checkpoint") == 6  # finished sizes are not redone
    assert "n=4/fill" in err and "holds for n = 2..4" in out


def test_verify_plain_method_and_workers(cli_run, tmp_path) -> None:
    status, out, err = cli_run("verify", "minefield-no-draw", "--sizes", "5-7", "--method",
                               "plain", "--workers", "2", "--json", "--checkpoint",
                               str(tmp_path / "cp.json"))
    assert status == 0, err
    data = json.loads(out)
    assert data["holds"] is True
    assert {s["method"] for s in data["sizes"]} == {"sat-plain"}


def test_verify_cubes_split_large_sizes() -> None:
    result = claims.verify("minefield-no-draw", [6], cubes=2, progress=False,
                           exhaustive_max=0)
    [size] = result["sizes"]
    assert size["holds"] is True
    # --cubes only applies from n = 13 on; force it here through plan_tasks
    tasks = claims.plan_tasks("minefield-no-draw", [6], cubes=2, cube_min=2)
    assert len(tasks) == 1 + 4  # fill: whole, full: 2^2 cubes
    results = {key: claims.run_task(task) for key, task in tasks}
    row = claims.assemble_size("minefield-no-draw", 6, results, "split", "cadical195")
    assert row["holds"] is True and [s["cubes"] for s in row["steps"]] == [1, 4]
    plain = claims.plan_tasks("minefield-no-draw", [6], method="plain", cubes=2, cube_min=2)
    assert len(plain) == 9


def test_verify_orthodiagonal(cli_run, tmp_path) -> None:
    status, out, err = cli_run("verify", "minefield-orthodiagonal", "--sizes", "2-3", "--json",
                               "--checkpoint", str(tmp_path / "cp.json"))
    assert status == 0, err
    data = json.loads(out)
    assert data["holds"] is True
    assert [s["method"] for s in data["sizes"]] == ["exhaustive", "exhaustive"]
    assert data["sizes"][1]["exhaustive"]["orthodiagonal_positions"] > 0


@pytest.mark.parametrize("args, field", [
    (["verify", "no-such-claim"], "claim"),
    (["verify", "minefield-no-draw", "--sizes", "1-3"], "--sizes"),
    (["verify", "minefield-no-draw", "--sizes", "x"], "--sizes"),
    (["verify", "minefield-no-draw", "--sizes", "2", "--method", "magic"], "--method"),
    (["verify", "minefield-no-draw", "--sizes", "2", "--workers", "0"], "--workers"),
    (["verify", "minefield-no-draw", "--sizes", "2", "--solver", "nope"], "solver"),
])
def test_verify_bad_input(cli_run, tmp_path, args, field) -> None:
    status, out, err = cli_run(*args, "--checkpoint", str(tmp_path / "cp.json"))
    assert status == 2
    assert field in err and len(err.strip().splitlines()) == 1
