"""The ``bangarena`` command line: one module per command, each parsing its arguments and printing."""
