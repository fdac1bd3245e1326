"""Lab kernels that start warm. A new Python kernel spends about two seconds of CPU importing torch,
matplotlib and ipykernel before a lab's first cell runs, and a build runs every lab of every
language edition. Here one server process imports them once; each kernel is a fork of it, made on
request of a tiny launcher that Jupyter starts in place of ``ipykernel_launcher``. From the fork on,
the kernel is what ``ipykernel_launcher`` would have made: a new IPKernelApp with the connection
file, working folder and environment Jupyter gave the launcher.

What the preload does must not hide from a lab what a reader's fresh kernel would print: it runs
with warnings as errors (a warning stops the server, and the build with it), and it imports only
modules that change nothing a kernel sets up later (see PRELOAD).

Protocol (one Unix socket, one connection per kernel): the launcher sends a JSON line
{connection_file, cwd, env}; the server forks; the fork runs the kernel; the server answers with
the fork's pid, then with its exit status when it ends. The launcher passes Jupyter's signals on to
the fork and exits with it; if the launcher dies, the server ends the fork.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

SOCKET = "HANDBOOK_KERNEL_SERVER"  # the environment variable naming the server's socket
# torch and matplotlib: most of a kernel's start. Not pyplot, nor the inline backend: imported in a
# kernel they hook themselves into its shell (figure formats, figures shown after a cell), which a
# copy imported before any shell would not. Not IPython or ipykernel: they read the environment
# when imported (JPY_PARENT_PID), and the kernel's is not the server's.
PRELOAD = ("torch", "matplotlib", "matplotlib.font_manager")


def kernel_spec(folder: Path) -> Path:
    """A kernel spec under ``folder``/kernels named ``python3``, whose argv is this module's
    launcher."""
    spec = folder / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "handbook.kernels", "launch", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)", "language": "python", "interrupt_mode": "signal",
    }), encoding="utf-8")
    return folder


class Server:
    """The warm process, started on first use and stopped with ``close``."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="handbook-kernels-"))
        self.path = str(self.folder / "socket")
        env = {**os.environ, "MPLBACKEND": "module://matplotlib_inline.backend_inline"}
        # stderr is the build's, as a kernel's is; stdout only says "ready" (then it is stderr too)
        # stdin: a pipe only this process writes to, so the server sees its end at EOF however this
        # process ends (a Ctrl-C that skips atexit, a kill) and exits instead of staying behind
        self.process = subprocess.Popen([sys.executable, "-m", "handbook.kernels", "serve", self.path],
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "ready":
            self.process.wait()
            raise RuntimeError("the lab kernels' server did not start (its error is above)")
        kernel_spec(self.folder)

    def env(self) -> dict[str, str]:
        """What the launcher needs in its environment to reach this server."""
        return {SOCKET: self.path}

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is not None:
            return  # closed already
        self.process.terminate()
        self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()
        shutil.rmtree(self.folder, ignore_errors=True)  # its socket and kernel spec: nothing left in /tmp


def serve(path: str) -> None:
    import warnings

    # Ctrl-C in the terminal reaches the whole process group: the build stops the server itself
    # (close), so the server takes no SIGINT and prints no KeyboardInterrupt traceback; it ends when
    # the build's end of its stdin closes, whichever way the build ended.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_at_eof, args=(Path(path).parent,), daemon=True).start()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for module in PRELOAD:
            __import__(module)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen()
    print("ready", flush=True)
    os.dup2(2, 1)
    while True:
        connection, _ = listener.accept()
        request = json.loads(connection.makefile().readline())
        pid = os.fork()
        if pid == 0:
            listener.close()
            connection.close()
            _kernel(request)
        connection.sendall(f"{pid}\n".encode())
        threading.Thread(target=_watch, args=(connection, pid), daemon=True).start()


def _exit_at_eof(folder: Path) -> None:
    sys.stdin.buffer.read()  # returns when the build has gone
    # The socket's folder is the server's: a build killed or stopped by SIGTERM (no atexit, no
    # close) left it in /tmp; the server removes it as it goes.
    shutil.rmtree(folder, ignore_errors=True)
    os._exit(0)


def _kernel(request: dict) -> None:
    """In the fork: become the kernel ``ipykernel_launcher`` would have started."""
    code = 1
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a kernel is interrupted by SIGINT
    try:
        os.setsid()  # its own process group, as Jupyter gives a kernel
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
        sys.argv = ["ipykernel_launcher", "-f", request["connection_file"]]
        from ipykernel import kernelapp

        kernelapp.launch_new_instance()
        code = 0
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _watch(connection: socket.socket, pid: int) -> None:
    """Tell the launcher when the kernel ends; end the kernel if the launcher goes first."""
    done = threading.Event()

    def launcher_gone() -> None:
        connection.recv(1)  # returns at EOF: the launcher has exited
        if not done.is_set():
            _signal(pid, signal.SIGKILL)

    threading.Thread(target=launcher_gone, daemon=True).start()
    _, status = os.waitpid(pid, 0)
    done.set()
    try:
        connection.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
    except OSError:
        pass
    connection.close()


def _signal(pid: int, number: int) -> None:
    try:
        os.killpg(pid, number)
    except ProcessLookupError:
        pass


def launch(connection_file: str) -> int:
    """What Jupyter starts: ask the server for a kernel, pass on its signals, exit as it exits."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(os.environ[SOCKET])
    request = {"connection_file": str(Path(connection_file).resolve()), "cwd": os.getcwd(),
               "env": {k: v for k, v in os.environ.items() if k != SOCKET}}
    client.sendall((json.dumps(request) + "\n").encode())
    replies = client.makefile()
    pid = int(replies.readline())
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda n, _frame: _signal(pid, n))
    line = replies.readline()
    return int(line) if line.strip() else 1


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    elif sys.argv[1] == "launch":
        raise SystemExit(launch(sys.argv[2]))
    else:
        raise SystemExit(f"usage: python -m handbook.kernels serve SOCKET | launch CONNECTION_FILE, not {sys.argv[1:]}")
