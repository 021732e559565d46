"""A newcomer's first hour (issue 12), session 4: what the first pass left over."""

from __future__ import annotations

import json
import warnings

import pytest

IMPOSSIBLE = "ww3/ww3/5/5/5 b -"


def _one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


# ---------------------------------------------------------------- impossible positions


def test_analyse_refuses_an_impossible_position(cli_run):
    status, out, err = cli_run("analyse", "minefield", IMPOSSIBLE, "--iterations", "5")
    assert status == 2 and out == ""
    line = _one_error_line(err)
    assert line.startswith("error: impossible position: 0 b and 4 w stones")
    assert line.endswith(f"{IMPOSSIBLE!r} (--allow-impossible analyses it anyway)")


def test_analyse_allow_impossible_analyses_it_and_says_so(cli_run):
    args = ("analyse", "minefield", IMPOSSIBLE, "--iterations", "5", "--quiet")
    status, out, err = cli_run(*args, "--allow-impossible")
    assert status == 0 and out.startswith(f"position: {IMPOSSIBLE}\n")
    assert err.startswith("warning: impossible position (0 b and 4 w stones")
    assert "analysed anyway because of --allow-impossible" in err


@pytest.mark.parametrize(
    "record",
    [f"{IMPOSSIBLE}\nc3\n", json.dumps({"start": IMPOSSIBLE, "moves": ["c3"]})],
)
def test_review_refuses_an_impossible_start(cli_run, tmp_path, record):
    path = tmp_path / "game.txt"
    path.write_text(record)
    status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "5")
    assert status == 2 and out == ""
    line = _one_error_line(err)
    assert line.startswith("error: impossible position (record the start): 0 b and 4 w")
    assert "--allow-impossible" in line
    status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "5",
                               "--quiet", "--allow-impossible")  # fmt: skip
    assert status == 0 and out.startswith(f"start: {IMPOSSIBLE}\n")
    assert err.count("warning: impossible position record the start: (") == 1


def test_review_checks_every_position_of_the_record(cli_run, tmp_path, monkeypatch):
    from boardproof.models.minefield.rules import MinefieldPosition

    real = MinefieldPosition.status

    def status(self):  # a stand-in rule: two stones or more cannot occur
        problems = real(self)
        return problems or (["two stones"] if bin(self.black | self.white).count("1") >= 2 else [])

    monkeypatch.setattr(MinefieldPosition, "status", status)
    path = tmp_path / "game.txt"
    path.write_text("4/4/4/4 b -\nb2\nc3 a1\n")
    status_, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "5")
    assert status_ == 2 and out == ""
    assert _one_error_line(err) == (
        "error: impossible position (record line 3, ply 2): two stones: '4/2w1/1b2/4 b -' "
        "(--allow-impossible analyses it anyway)"
    )


def test_serve_refuses_impossible_positions_with_the_cli_line(cli_run):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from boardproof.web.app import create_app
    client = TestClient(create_app())
    _, _, err = cli_run("solve", "minefield", IMPOSSIBLE)
    cli_line = _one_error_line(err)
    body = {"game": "minefield", "position": IMPOSSIBLE}
    for url, extra in (("/api/solve", {"timeout": 1}), ("/api/play", {"moves": ["c3"]})):
        answer = client.post(url, json={**body, **extra})
        assert answer.status_code == 400, url
        assert cli_line == answer.json()["error"] + " (--allow-impossible analyses it anyway)"
    shown = client.post("/api/position", json=body)  # show's view: the status is listed
    assert shown.status_code == 200 and shown.json()["status"][0].startswith("0 b and 4 w")
