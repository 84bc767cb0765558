"""Crash safety: `kill -9` of `inflight --headless --workspace F` under a sending and deleting load
loses nothing acknowledged and applies nothing twice.

Each round starts the endpoint on the same workspace file, runs several client threads (SQS JSON
protocol over urllib) that send batches of uniquely numbered messages and receive and delete them,
kills the process with SIGKILL at a random moment, restarts it on the file and checks:
- every send that was acknowledged is in the queue exactly once, unless its delete was acknowledged;
- no message is there twice; nothing is there that was never sent;
- a message whose delete was acknowledged is gone.
Messages whose request was in flight at the kill (sent or deleted without an answer) may be either
way. A FIFO queue with explicit deduplication ids is loaded the same way.
"""

import json
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inflight_process import InflightProcess  # noqa: E402

ROUNDS = int(os.environ.get("CRASH_ROUNDS", "5"))
THREADS = 4
# Receives by the load hide messages this long; the final check waits it out after the restart, so
# that what was in flight at a kill is visible again.
VISIBILITY = 2


def call(url, action, body, timeout=10):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "AmazonSQS." + action,
        },
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"{}")


class Ledger:
    """What the clients were told, shared by the load threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked_sends = {}  # body -> queue
        self.maybe_sent = set()  # request in flight at the kill
        self.acked_deletes = set()
        self.maybe_deleted = set()


def load(url, queue_url, fifo, ledger, stop, worker, counter):
    rng = random.Random(worker)
    while not stop.is_set():
        try:
            if rng.random() < 0.6:
                entries = []
                bodies = []
                for i in range(10):
                    n = next(counter)
                    body = "w%d-m%d" % (worker, n)
                    entry = {"Id": str(i), "MessageBody": body}
                    if fifo:
                        entry["MessageGroupId"] = "g%d" % (n % 3)
                        entry["MessageDeduplicationId"] = body
                    entries.append(entry)
                    bodies.append(body)
                with ledger.lock:
                    ledger.maybe_sent.update(bodies)
                result = call(url, "SendMessageBatch", {"QueueUrl": queue_url, "Entries": entries})
                ok = {e["Id"] for e in result.get("Successful", [])}
                with ledger.lock:
                    for i, body in enumerate(bodies):
                        if str(i) in ok:
                            ledger.acked_sends[body] = queue_url
                            ledger.maybe_sent.discard(body)
            else:
                got = call(
                    url,
                    "ReceiveMessage",
                    {"QueueUrl": queue_url, "MaxNumberOfMessages": 10, "VisibilityTimeout": VISIBILITY},
                )
                messages = got.get("Messages", [])
                if not messages:
                    continue
                entries = [
                    {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)
                ]
                with ledger.lock:
                    ledger.maybe_deleted.update(m["Body"] for m in messages)
                result = call(
                    url, "DeleteMessageBatch", {"QueueUrl": queue_url, "Entries": entries}
                )
                ok = {e["Id"] for e in result.get("Successful", [])}
                with ledger.lock:
                    for i, m in enumerate(messages):
                        if str(i) in ok:
                            ledger.acked_deletes.add(m["Body"])
                            ledger.maybe_deleted.discard(m["Body"])
        except (urllib.error.URLError, ConnectionError, OSError, ValueError):
            return  # the endpoint was killed


def drain(url, queue_url):
    """Receives and deletes every stored message; returns their bodies (FIFO groups unblock as
    their heads are deleted)."""
    bodies = []
    while True:
        got = call(
            url,
            "ReceiveMessage",
            {"QueueUrl": queue_url, "MaxNumberOfMessages": 10, "VisibilityTimeout": 600},
        )
        messages = got.get("Messages", [])
        if not messages:
            return bodies
        bodies.extend(m["Body"] for m in messages)
        entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)]
        call(url, "DeleteMessageBatch", {"QueueUrl": queue_url, "Entries": entries})


def counter_from(start):
    n = start
    lock = threading.Lock()
    while True:
        with lock:
            n += 1
            yield n


def main():
    folder = tempfile.mkdtemp(prefix="inflight-crash-")
    path = os.path.join(folder, "crash.inflight")
    ledgers = {"std": Ledger(), "fifo": Ledger()}
    started = time.monotonic()
    try:
        for round_number in range(ROUNDS):
            server = InflightProcess("--workspace", path)
            url = server.url
            queues = {}
            for kind, name, attributes in (
                ("std", "crash", {"VisibilityTimeout": "30"}),
                ("fifo", "crash.fifo", {"FifoQueue": "true", "VisibilityTimeout": "30"}),
            ):
                queues[kind] = call(url, "CreateQueue", {"QueueName": name, "Attributes": attributes})[
                    "QueueUrl"
                ]
            stop = threading.Event()
            threads = []
            for kind in ("std", "fifo"):
                for w in range(THREADS // 2):
                    worker = round_number * 100 + w + (50 if kind == "fifo" else 0)
                    t = threading.Thread(
                        target=load,
                        args=(url, queues[kind], kind == "fifo", ledgers[kind], stop, worker,
                              counter_from(round_number * 10_000_000)),
                        daemon=True,
                    )
                    t.start()
                    threads.append(t)
            time.sleep(random.uniform(0.5, 2.0))
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
            server.process.stdout.close()
            stop.set()
            for t in threads:
                t.join(timeout=15)
            print("round %d: killed after load; %d acknowledged sends, %d acknowledged deletes"
                  % (round_number, sum(len(l.acked_sends) for l in ledgers.values()),
                     sum(len(l.acked_deletes) for l in ledgers.values())), flush=True)
        # Final check on a restart.
        with InflightProcess("--workspace", path) as server:
            time.sleep(VISIBILITY + 0.5)
            failures = []
            for kind, name in (("std", "crash"), ("fifo", "crash.fifo")):
                queue_url = call(server.url, "GetQueueUrl", {"QueueName": name})["QueueUrl"]
                stored = drain(server.url, queue_url)
                ledger = ledgers[kind]
                seen = {}
                for body in stored:
                    seen[body] = seen.get(body, 0) + 1
                twice = [b for b, c in seen.items() if c > 1]
                if twice:
                    failures.append("%s: stored twice: %s" % (name, twice[:5]))
                unknown = [b for b in seen if b not in ledger.acked_sends and b not in ledger.maybe_sent]
                if unknown:
                    failures.append("%s: never sent: %s" % (name, unknown[:5]))
                lost = [
                    b for b in ledger.acked_sends
                    if b not in seen and b not in ledger.acked_deletes and b not in ledger.maybe_deleted
                ]
                if lost:
                    failures.append("%s: acknowledged send lost: %d, e.g. %s" % (name, len(lost), lost[:5]))
                resurrected = [b for b in ledger.acked_deletes if b in seen]
                if resurrected:
                    failures.append("%s: acknowledged delete undone: %s" % (name, resurrected[:5]))
                print("%s: %d stored, %d acknowledged sends, %d acknowledged deletes"
                      % (name, len(stored), len(ledger.acked_sends), len(ledger.acked_deletes)))
            if failures:
                print("FAILED:\n  " + "\n  ".join(failures))
                return 1
        print("crash test passed: %d rounds in %.1f s" % (ROUNDS, time.monotonic() - started))
        return 0
    finally:
        if not os.environ.get("CRASH_KEEP"):
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print("kept", path)


if __name__ == "__main__":
    sys.exit(main())
