"""`inflight export` and `inflight import` on workspace files, through the real binary:
- export a queue of a workspace (filled by an import), import it into another queue and into
  another workspace; the bodies and FIFO ids come through;
- bad JSON: a non-zero exit, "line L, column C" on stderr, and nothing imported;
- a workspace that does not exist cannot be exported from.
"""

import json
import os
import subprocess
import sys
import tempfile

BIN = os.environ.get("INFLIGHT_BIN", "build/app/inflight")
failures = []


def run(*args, stdin=None):
    return subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, timeout=60)


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def export(workspace, queue):
    r = run("export", "--workspace", workspace, "--queue", queue)
    check(r.returncode == 0, f"export {queue}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout) if r.returncode == 0 else {"queues": [{"messages": []}]}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ws = os.path.join(tmp, "one.inflight")
        source = os.path.join(tmp, "source.json")
        doc = {"format": "inflight-queues", "version": 1, "queues": [
            {"name": "orders", "kind": "standard", "attributes": {}, "tags": {}, "messages": [
                {"body": f"order {i}", "attributes": {
                    "n": {"DataType": "Number", "StringValue": str(i)}}} for i in range(50)]},
            {"name": "jobs.fifo", "kind": "fifo", "attributes": {"FifoQueue": "true"}, "tags": {},
             "messages": [{"body": f"job {i}", "groupId": f"g{i % 3}",
                           "deduplicationId": f"d{i}"} for i in range(10)]}]}
        with open(source, "w") as f:
            f.write(json.dumps(doc))

        r = run("import", "--workspace", ws, source)
        check(r.returncode == 0, f"import into a new workspace: {r.returncode} {r.stderr}")
        check("Imported 60 messages" in r.stdout, f"import summary: {r.stdout!r}")

        orders = export(ws, "orders")
        bodies = [m["body"] for m in orders["queues"][0]["messages"]]
        check(bodies == [f"order {i}" for i in range(50)], f"exported bodies: {bodies[:3]}…")
        jobs = export(ws, "jobs.fifo")["queues"][0]["messages"]
        check([(m.get("groupId"), m.get("deduplicationId")) for m in jobs]
              == [(f"g{i % 3}", f"d{i}") for i in range(10)], "FIFO ids kept")

        # --output, then into another (existing) queue of another workspace.
        out = os.path.join(tmp, "orders.json")
        r = run("export", "--workspace", ws, "--queue", "orders", "--output", out)
        check(r.returncode == 0 and os.path.getsize(out) > 0, f"export --output: {r.stderr}")
        ws2 = os.path.join(tmp, "two.inflight")
        seed = os.path.join(tmp, "seed.json")
        with open(seed, "w") as f:
            json.dump({"format": "inflight-queues", "version": 1, "queues": [
                {"name": "copy", "kind": "standard", "attributes": {}, "tags": {},
                 "messages": []}]}, f)
        check(run("import", "--workspace", ws2, seed).returncode == 0, "create the target queue")
        r = run("import", "--workspace", ws2, "--queue", "copy", out)
        check(r.returncode == 0, f"import --queue copy: {r.stderr}")
        copied = [m["body"] for m in export(ws2, "copy")["queues"][0]["messages"]]
        check(sorted(copied) == sorted(bodies), "the copy holds the same bodies")

        # Regenerated ids: importing the same FIFO messages again is not deduplicated away.
        fifo = os.path.join(tmp, "jobs.json")
        check(run("export", "--workspace", ws, "--queue", "jobs.fifo", "--output",
                  fifo).returncode == 0, "export jobs")
        r = run("import", "--workspace", ws, "--queue", "jobs.fifo", "--regenerate-ids", fifo)
        check(r.returncode == 0, f"import --regenerate-ids: {r.stderr}")
        check(len(export(ws, "jobs.fifo")["queues"][0]["messages"]) == 20, "20 jobs after import")

        # Bad JSON: which line, non-zero exit, nothing imported.
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write('{"format": "inflight-queues", "version": 1, "queues": [\n'
                    '{"name": "orders", "messages": [\n'
                    '  {"body": "fine"},\n'
                    '  {"body": oops}\n'
                    ']}]}\n')
        r = run("import", "--workspace", ws, "--queue", "orders", bad)
        check(r.returncode != 0, "bad JSON exits non-zero")
        check("line 4, column" in r.stderr, f"bad JSON names the line: {r.stderr!r}")
        check(len(export(ws, "orders")["queues"][0]["messages"]) == 50, "bad JSON imports nothing")

        # No such workspace, no such queue.
        r = run("export", "--workspace", os.path.join(tmp, "missing.inflight"), "--queue", "x")
        check(r.returncode != 0 and r.stderr.strip(), f"missing workspace: {r.stderr!r}")
        check(not os.path.exists(os.path.join(tmp, "missing.inflight")), "export creates nothing")
        r = run("export", "--workspace", ws, "--queue", "nope")
        check(r.returncode != 0 and r.stderr.strip(), f"unknown queue: {r.stderr!r}")

    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("cli transfer: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
