"""``python -m cli_exec_interrupt``: the command line with one more command, whose Ctrl-C
comes from inside code compiled from a string (as when a SIGINT lands while a dataclass
makes its methods); for tests/test_cli_interrupt_flag.py."""

from boardproof import cli


@cli.cli.command("exec-interrupt")
def exec_interrupt() -> None:
    """Raise KeyboardInterrupt from exec'd text."""
    exec("raise KeyboardInterrupt", {})  # noqa: S102 - the point of the test


if __name__ == "__main__":
    cli.main()
