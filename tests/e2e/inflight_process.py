"""Starts `inflight --headless` on a free 127.0.0.1 port for a Python end-to-end test."""

import os
import re
import shlex
import signal
import subprocess
import tempfile
import time


def headless_options():
    """Options for every `inflight --headless` of the tests, from INFLIGHT_HEADLESS_OPTIONS
    (e.g. `--socket-thread`, so that one test covers both ways of serving the sockets)."""
    return shlex.split(os.environ.get("INFLIGHT_HEADLESS_OPTIONS", ""))


def headless_command(*options):
    """`inflight --headless` on 127.0.0.1, port 0: the kernel picks a free port and the first
    line of output names it."""
    binary = os.environ.get("INFLIGHT_BIN")
    if not binary:
        raise RuntimeError("INFLIGHT_BIN must point at build/app/inflight")
    return [binary, "--headless", "--listen", "127.0.0.1:0", *headless_options(), *options]


def thread_names(pid):
    """The names of a process's threads (Linux)."""
    names = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/comm") as comm:
            names.append(comm.read().strip())
    return names


class InflightProcess:
    """`with InflightProcess() as server:` runs the endpoint; server.url is its base URL."""

    def __init__(self, *options, preexec_fn=None):
        # stderr to a file, not a pipe nobody reads: a chatty server never blocks on it.
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            headless_command(*options),
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            preexec_fn=preexec_fn,
        )
        line = self.process.stdout.readline()
        match = re.match(r"Inflight endpoint listening on (http://\S+)", line)
        if not match:
            self.process.kill()
            self.process.wait()
            self.log.seek(0)
            raise RuntimeError("inflight did not start: " + line + self.process.stdout.read()
                               + self.log.read())
        self.url = match.group(1)

    def stop(self):
        """Sends SIGTERM and returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log.close()
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def elapsed_since(start):
    return time.monotonic() - start
