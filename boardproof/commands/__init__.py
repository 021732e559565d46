"""Command-line commands of the subsystems, one module each.

Each module defines ``register(group)`` that adds its click commands to the
``boardproof`` group (see :data:`boardproof.cli.COMMAND_MODULES`).
"""
