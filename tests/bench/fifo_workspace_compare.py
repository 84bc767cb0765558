#!/usr/bin/env python3
"""FIFO sends with a workspace against in memory, as the deduplication window grows (issue 15).

Starts `inflight --headless --in-memory` and `--workspace` on a fresh file, creates a FIFO queue on
each, and sends SendMessageBatch(10) requests (5 groups, a new deduplication id per message) over
one keep-alive connection per server, in rounds taken in turn so that this machine's drift falls
on both alike. Each round prints both rates, the ratio, and the window's size so far: with a
commit whose cost followed the window's size, the workspace's rate fell round by round.

    python3 tests/bench/fifo_workspace_compare.py [--build build] [--rounds 8] [--batches 2000]
"""
import argparse
import http.client
import json
import os
import re
import subprocess
import tempfile
import time

HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "Authorization": "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/sqs/aws4_request, "
    "SignedHeaders=host, Signature=0",
}


class Server:
    def __init__(self, binary, name, options, folder):
        self.name = name
        self.log = open(os.path.join(folder, name + ".out"), "w+")
        self.process = subprocess.Popen(
            [binary, "--headless", "--listen", "127.0.0.1:0", *options],
            stdout=self.log, stderr=subprocess.STDOUT)
        port = None
        for _ in range(100):
            self.log.seek(0)
            found = re.search(r"http://127\.0\.0\.1:(\d+)", self.log.read())
            if found:
                port = int(found.group(1))
                break
            time.sleep(0.1)
        if port is None:
            raise SystemExit(f"fifo_workspace_compare: {name} did not start")
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        created = self.call("CreateQueue",
                            {"QueueName": "compare.fifo", "Attributes": {"FifoQueue": "true"}})
        self.url = created["QueueUrl"]
        self.sent = 0

    def call(self, action, body):
        for attempt in (1, 2):
            try:
                self.connection.request("POST", "/", json.dumps(body),
                                        {**HEADERS, "X-Amz-Target": "AmazonSQS." + action})
                response = self.connection.getresponse()
                data = response.read()
                break
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                # The endpoint closes a connection left idle for long (while the other server
                # took its turn): open a new one.
                self.connection.close()
                if attempt == 2:
                    raise
        if response.status != 200:
            raise SystemExit(f"fifo_workspace_compare: {self.name}: {response.status} {data!r}")
        return json.loads(data)

    def send_batches(self, count):
        start = time.perf_counter()
        for _ in range(count):
            entries = [{"Id": str(k), "MessageBody": "x" * 100,
                        "MessageGroupId": f"group-{k % 5}",
                        "MessageDeduplicationId": f"id-{self.sent + k}"} for k in range(10)]
            self.call("SendMessageBatch", {"QueueUrl": self.url, "Entries": entries})
            self.sent += 10
        return count * 10 / (time.perf_counter() - start)

    def stop(self):
        self.connection.close()
        self.process.terminate()
        self.process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--batches", type=int, default=2000, help="per server per round")
    args = parser.parse_args()
    binary = os.path.join(args.build, "app", "inflight")
    with tempfile.TemporaryDirectory() as folder:
        memory = Server(binary, "in-memory", ["--in-memory"], folder)
        workspace = Server(binary, "workspace",
                           ["--workspace", os.path.join(folder, "w.inflight")], folder)
        totals = {"in-memory": [0, 0.0], "workspace": [0, 0.0]}
        try:
            for round_ in range(1, args.rounds + 1):
                order = [memory, workspace] if round_ % 2 else [workspace, memory]
                rates = {}
                for server in order:
                    rates[server.name] = server.send_batches(args.batches)
                    totals[server.name][0] += args.batches * 10
                    totals[server.name][1] += args.batches * 10 / rates[server.name]
                print(f"round {round_}: window {workspace.sent:>7} records: in-memory "
                      f"{rates['in-memory']:8.0f} msg/s, workspace {rates['workspace']:8.0f} "
                      f"msg/s ({100 * rates['workspace'] / rates['in-memory']:.1f}%)", flush=True)
        finally:
            memory.stop()
            workspace.stop()
        overall = {name: sent / seconds for name, (sent, seconds) in totals.items()}
        print(f"all rounds: in-memory {overall['in-memory']:.0f} msg/s, workspace "
              f"{overall['workspace']:.0f} msg/s "
              f"({100 * overall['workspace'] / overall['in-memory']:.1f}%)")


if __name__ == "__main__":
    main()
