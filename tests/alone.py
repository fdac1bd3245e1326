"""A snippet run as ``python <path>`` runs it, for test_snippets' processes. A module of its own, with
nothing but the standard library: each new process imports the module that holds its target, and
test_snippets (pytest, the project) took 0.1 s of each snippet's process (measured)."""


def run_alone(path: str, folder: str) -> None:
    """In a new process: run one snippet as ``python <path>`` would, from ``folder``, with its
    stdout and stderr (file descriptors, so C code's output counts too) in two files there."""
    import os
    import runpy
    import sys

    os.chdir(folder)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        os.dup2(os.open(name, os.O_WRONLY | os.O_CREAT), fd)
    sys.argv, sys.path[0] = [path], os.path.dirname(path)
    try:
        runpy.run_path(path, run_name="__main__")
    finally:
        sys.stdout.flush(), sys.stderr.flush()
