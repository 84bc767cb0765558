"""Starts `inflight --headless` on a free 127.0.0.1 port for a Python end-to-end test."""

import os
import re
import signal
import subprocess
import time


class InflightProcess:
    """`with InflightProcess() as server:` runs the endpoint; server.url is its base URL."""

    def __init__(self, *options):
        binary = os.environ.get("INFLIGHT_BIN")
        if not binary:
            raise RuntimeError("INFLIGHT_BIN must point at build/app/inflight")
        # Port 0: the kernel picks a free port and the first line of output names it.
        self.process = subprocess.Popen(
            [binary, "--headless", "--listen", "127.0.0.1:0", *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        line = self.process.stdout.readline()
        match = re.match(r"Inflight endpoint listening on (http://\S+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError("inflight did not start: " + line + self.process.stdout.read())
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
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def elapsed_since(start):
    return time.monotonic() - start
