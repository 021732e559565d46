import sys
from pathlib import Path

# make the naive reference implementations (tests/naive_*.py) importable
sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from boardproof.cli import main  # noqa: E402


@pytest.fixture
def cli_run(capsys):
    """Run the command line in-process: returns (status, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            status = main(list(args))
        except SystemExit as done:
            status = done.code if isinstance(done.code, int) else 1
        out, err = capsys.readouterr()
        return status, out, err

    return run
