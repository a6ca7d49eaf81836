"""Where the console scripts lds-opt, lds-run and lds-bench start, and the tool server.
(`python -m ldsopt.tools.launch TOOL ARGS...` starts any of them, or filecheck, the same way.)

Each command imports its tool and runs it, unless LDSOPT_TOOL_SERVER names the socket of a
tool server (`python -m ldsopt.tools.launch --serve SOCKET`, which the test suite starts for
a run): then a fork of the server runs it. The server has imported the tools, every pass
and the IREE dialect modules they load (0.4-0.5 s of CPU a start, more than a cached
lds-run's own work), and each command is a fresh fork of it, never of an earlier command.
What the command gets is what a start gets: its argv, working folder, environment and
stdin/stdout/stderr (the client's file descriptors, passed over the socket), stdout
line-buffered on a terminal only; its exit status is the client's, a traceback where Python
would print one (exit 1). What differs: Python's hash seed is the server's (the same in
every command), and a command whose client is killed (a timeout) runs on to its end, its
output going nowhere. Without a server at that socket the command starts as usual.

This module imports only the standard library until it runs a tool: a client start costs
an interpreter start.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import select
import signal
import socket
import sys
import tempfile
import traceback

ENV = "LDSOPT_TOOL_SERVER"
# The dialects of the IR the tools walk (IREE's dispatches, the passes' output).
_DIALECTS = ("linalg", "hal", "flow", "util", "iree_codegen", "iree_gpu", "iree_tensor_ext", "builtin", "func",
             "arith", "math", "affine", "cf", "tensor", "scf", "memref", "vector", "gpu", "amdgpu", "nvvm", "rocdl",
             "llvm")
# What the tools import only when they run (lds-run's compile and reference side; numpy's
# random inputs, and numpy.ma, which np.unique loads on its first call): imported by the server
# too, so that no fork does.
_LAZY = ("ldsopt.tools.opt_run", "ldsopt.run.driver", "ldsopt.run.replay", "ldsopt.measure.bench_replay", "numpy.random", "numpy.ma")
TOOLS = {"lds-opt": "ldsopt.tools.lds_opt", "lds-run": "ldsopt.tools.lds_run", "lds-bench": "ldsopt.tools.lds_bench",
         # lit runs filecheck as often as lds-opt; its own start (imports) costs more than its work.
         "filecheck": "filecheck.main"}


def _entry(tool: str):
    def main() -> int:
        code = _forward(os.environ[ENV], tool) if os.environ.get(ENV) else None
        return importlib.import_module(TOOLS[tool]).main() if code is None else code
    main.__name__ = tool.replace("-", "_")
    return main


lds_opt = _entry("lds-opt")
lds_run = _entry("lds-run")
lds_bench = _entry("lds-bench")


def _forward(path: str, tool: str) -> int | None:
    """The exit status of `tool` run by the server at `path`; None if none answers there, or
    if a standard stream is closed (the socket would take its descriptor: started as usual)."""
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        sock.connect(path)
    except OSError:
        return None
    request = {"tool": tool, "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ)}
    with sock:
        try:
            socket.send_fds(sock, [json.dumps(request).encode()], [0, 1, 2])
        except OSError:  # a standard stream that cannot be handed over: start as usual
            return None
        status = sock.recv(64)
    return int(status) if status else 1  # no status: the fork died without one


def serve(path: str) -> None:
    """Imports everything a tool loads, then runs each request in a fork of itself, until
    SIGTERM or the end of its stdin (a pipe from its starter, closed when the starter ends,
    killed or not)."""
    for module in (*TOOLS.values(), *_LAZY):
        importlib.import_module(module)
    from ldsopt import registry
    for name in registry.pass_names():
        registry.lookup(name)
    for dialect in _DIALECTS:  # the bindings import a dialect's module on its first op in Python
        importlib.import_module(f"iree.compiler.dialects.{dialect}")
    # lds-run's device probe (an iree-run-module start), once for every fork.
    importlib.import_module("ldsopt.run.iree_tools").available_devices()
    # Forks are reaped as they end, and all of them before the server exits (on SIGTERM), so
    # that their CPU time counts as the server's children's, and so its starter's.
    signal.signal(signal.SIGCHLD, lambda *_: _reap(os.WNOHANG))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(64)
    try:
        while True:
            ready, _, _ = select.select([listener, sys.stdin], [], [])
            if sys.stdin in ready and not os.read(sys.stdin.fileno(), 4096):
                break  # its starter is gone (or closed the pipe): so is the server
            if listener in ready:
                conn, _ = listener.accept()
                if os.fork() == 0:
                    listener.close()
                    _run(conn)
                conn.close()
    finally:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _reap(0)


def _reap(flags: int) -> None:
    try:
        while os.waitpid(-1, flags)[0]:
            pass
    except ChildProcessError:  # none left
        pass


def _run(conn: socket.socket) -> None:
    """In a fork of the server: runs one request as a start would, sends its exit status."""
    code = 1
    try:
        for sig in (signal.SIGCHLD, signal.SIGTERM):  # as in a start: the tool waits for its own children
            signal.signal(sig, signal.SIG_DFL)
        message, fds, _, _ = socket.recv_fds(conn, 1 << 24, 3)
        request = json.loads(message)
        for std, fd in enumerate(fds):
            os.dup2(fd, std)
            os.close(fd)
        sys.stdin = io.TextIOWrapper(io.open(0, "rb", closefd=False), encoding=sys.stdin.encoding)
        sys.stdout, sys.stderr = (io.TextIOWrapper(io.open(fd, "wb", closefd=False), encoding=stream.encoding,
                                                   errors=stream.errors, line_buffering=os.isatty(fd))
                                  for fd, stream in ((1, sys.stdout), (2, sys.stderr)))
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        tempfile.tempdir = None  # read TMPDIR again, from this environment
        sys.argv = request["argv"]
        try:
            code = importlib.import_module(TOOLS[request["tool"]]).main()
        except SystemExit as e:
            code = e.code
        if code is None or isinstance(code, str):  # as sys.exit takes them
            if isinstance(code, str):
                print(code, file=sys.stderr)
            code = 0 if code is None else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:  # the reader is gone (a killed client)
                pass
        try:
            conn.sendall(str(int(code)).encode())
        finally:
            os._exit(0)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
    elif len(sys.argv) >= 2 and sys.argv[1] in TOOLS:  # a tool's start, by the server where there is one
        sys.argv = sys.argv[1:]
        sys.exit(_entry(sys.argv[0])())
    else:
        sys.exit(f"usage: python -m ldsopt.tools.launch --serve SOCKET | {{{','.join(TOOLS)}}} ARGS...")
