"""The command-line commands, one module per subsystem, each command a top-level function.

:mod:`~boardproof.commands.common` holds what they share (the game options read from
the games' descriptors, loading a game or position, JSON output, option checks);
:mod:`boardproof.cli` adds every command to the ``boardproof`` group.
"""
