"""``python -m cli_exec_interrupt``: the command line with one more command, whose Ctrl-C
comes from inside code compiled from a string (as when a SIGINT lands while a dataclass
makes its methods); for tests/test_cli_interrupt_flag.py. The command is added only when
the module runs as the program: importing it (pytest's collection) changes nothing."""

import click

from boardproof import cli


@click.command("exec-interrupt")
def exec_interrupt() -> None:
    """Raise KeyboardInterrupt from exec'd text."""
    exec("raise KeyboardInterrupt", {})  # noqa: S102 - the point of the test


if __name__ == "__main__":
    cli.cli.add_command(exec_interrupt)
    cli.main()
