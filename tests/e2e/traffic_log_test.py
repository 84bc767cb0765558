"""The traffic log of `inflight --headless --traffic-log FILE` (README "The traffic log"): the AWS
CLI, boto3 and the JS SDK make good and failing calls, and each shows up in
GET /_inflight/v1/traffic and in the file with its operation, status, error code and client (CLI
calls with one key are one client); an empty long poll and a waiting one; the HAR export has the
fields HAR 1.2 requires."""

import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import warnings
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import boto3  # noqa: E402
import botocore.config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402

from inflight_process import InflightProcess  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = None
LOG_FILE = None
MISSING = "no-such-queue"
# QueueDoesNotExist as the JSON protocol and the Query protocol name it.
NO_QUEUE = ("QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue")


def control(path):
    address = urlparse(SERVER.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        connection.request("GET", "/_inflight/v1/" + path)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def sqs(key):
    return boto3.session.Session().client(
        "sqs", endpoint_url=SERVER.url, region_name="us-east-1", aws_access_key_id=key,
        aws_secret_access_key="secret", config=botocore.config.Config(retries={"max_attempts": 1}))


def aws_cli(*args):
    environment = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDCLI", AWS_SECRET_ACCESS_KEY="secret",
                       AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE=os.devnull,
                       AWS_SHARED_CREDENTIALS_FILE=os.devnull, AWS_MAX_ATTEMPTS="1")
    return subprocess.run(["aws", "--endpoint-url", SERVER.url, "sqs", *args], env=environment,
                          capture_output=True, text=True, timeout=60)


JS = """
const { SQSClient, SendMessageCommand, GetQueueUrlCommand } = await import('@aws-sdk/client-sqs');
const client = new SQSClient({ endpoint: process.argv[1], region: 'us-east-1', maxAttempts: 1,
  credentials: { accessKeyId: 'AKIDJS', secretAccessKey: 'secret' } });
await client.send(new SendMessageCommand({ QueueUrl: process.argv[2], MessageBody: 'from js' }));
try { await client.send(new GetQueueUrlCommand({ QueueName: process.argv[3] })); }
catch (error) { console.log(error.name); }
"""


def records(**match):
    """Every record of GET traffic whose members (client members with client_) match."""
    status, body = control("traffic?limit=10000")
    assert status == 200, body
    out = []
    for record in body["requests"]:
        ok = True
        for key, value in match.items():
            got = record["client"][key[7:]] if key.startswith("client_") else record[key]
            ok = ok and got == value
        if ok:
            out.append(record)
    return out


class TrafficLogTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        global SERVER, LOG_FILE
        warnings.simplefilter("ignore", ResourceWarning)
        cls.home = tempfile.mkdtemp()
        os.environ["AWS_CONFIG_FILE"] = os.path.join(cls.home, "config")
        os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(cls.home, "credentials")
        LOG_FILE = os.path.join(cls.home, "traffic.jsonl")
        SERVER = InflightProcess("--traffic-log", LOG_FILE)
        boto = sqs("AKIDBOTO")
        cls.queue = boto.create_queue(QueueName="traffic")["QueueUrl"]
        boto.receive_message(QueueUrl=cls.queue, WaitTimeSeconds=1)  # empty long poll
        boto.send_message(QueueUrl=cls.queue, MessageBody="from boto3")
        with cls.assertRaises(cls, ClientError):
            boto.get_queue_url(QueueName=MISSING)
        cli = aws_cli("send-message", "--queue-url", cls.queue, "--message-body", "from cli")
        assert cli.returncode == 0, cli.stderr
        cli = aws_cli("get-queue-url", "--queue-name", MISSING)
        assert cli.returncode != 0
        js = subprocess.run(["node", "--input-type=module", "-e", JS, SERVER.url, cls.queue,
                             MISSING], capture_output=True, text=True, timeout=60, cwd=REPO)
        assert js.returncode == 0, js.stderr
        assert "QueueDoesNotExist" in js.stdout, js.stdout

    @classmethod
    def tearDownClass(cls):
        assert SERVER.stop() == 0

    def assert_call(self, key, operation, status, error=None):
        found = records(client_accessKeyId=key, operation=operation)
        self.assertTrue(found, f"{key} {operation} not in the log")
        record = found[-1]
        self.assertEqual(record["status"], status)
        if error:
            self.assertIn(record["errorCode"], error)
            self.assertTrue(record["errorMessage"])
        else:
            self.assertEqual(record["errorCode"], "")
        self.assertEqual(record["queue"], "traffic" if status < 400 else MISSING)
        self.assertTrue(record["requestId"])
        return record

    def test_each_clients_calls_are_in_the_log_with_their_outcome(self):
        sent = self.assert_call("AKIDBOTO", "SendMessage", 200)
        self.assertEqual(sent["outcome"], "sent 1")
        self.assertEqual(sent["client"]["sdk"], "Boto3")
        self.assertEqual(sent["protocol"], "sqs-query")
        self.assert_call("AKIDBOTO", "GetQueueUrl", 400, NO_QUEUE)
        cli = self.assert_call("AKIDCLI", "SendMessage", 200)
        self.assertEqual(cli["client"]["sdk"], "aws-cli")
        self.assert_call("AKIDCLI", "GetQueueUrl", 400, NO_QUEUE)
        js = self.assert_call("AKIDJS", "SendMessage", 200)
        self.assertEqual(js["client"]["sdk"], "aws-sdk-js")
        self.assertEqual(js["protocol"], "sqs-json")
        self.assertEqual(js["response"]["body"][:13], '{"MD5OfMessag')
        self.assert_call("AKIDJS", "GetQueueUrl", 400, NO_QUEUE)

    def test_an_empty_long_poll_says_so(self):
        polls = records(client_accessKeyId="AKIDBOTO", operation="ReceiveMessage")
        self.assertEqual(polls[0]["outcome"], "empty after a 1 s long poll")
        self.assertFalse(polls[0]["waiting"])
        self.assertGreaterEqual(polls[0]["latencyUs"], 900_000)

    def test_a_long_poll_is_a_waiting_row_until_answered(self):
        boto = sqs("AKIDWAIT")
        answer = {}
        poll = threading.Thread(target=lambda: answer.update(
            boto.receive_message(QueueUrl=self.queue, WaitTimeSeconds=10)))
        sqs("AKIDBOTO").purge_queue(QueueUrl=self.queue)
        poll.start()
        deadline = time.time() + 10
        while not records(client_accessKeyId="AKIDWAIT") and time.time() < deadline:
            time.sleep(0.05)
        waiting = records(client_accessKeyId="AKIDWAIT")[0]
        self.assertTrue(waiting["waiting"])
        self.assertEqual(waiting["status"], 0)
        _, clients = control("clients")
        waiter = [c for c in clients["clients"] if c["accessKeyId"] == "AKIDWAIT"][0]
        self.assertEqual(waiter["waitingPolls"], 1)
        sqs("AKIDBOTO").send_message(QueueUrl=self.queue, MessageBody="wake up")
        poll.join(15)
        self.assertEqual(len(answer["Messages"]), 1)
        done = records(client_accessKeyId="AKIDWAIT")[0]
        self.assertFalse(done["waiting"])
        self.assertEqual(done["cursor"], waiting["cursor"])
        self.assertEqual(done["outcome"], "received 1 of max 1")

    def test_cli_calls_with_one_key_are_one_client(self):
        status, body = control("clients")
        self.assertEqual(status, 200)
        cli = [c for c in body["clients"] if c["accessKeyId"] == "AKIDCLI"]
        self.assertEqual(len(cli), 1)
        self.assertEqual(cli[0]["requests"], 2)
        self.assertEqual(cli[0]["sends"], 1)
        self.assertEqual(cli[0]["errors"], 1)

    def test_errors_only_and_the_cursor(self):
        status, body = control("traffic?errors=1")
        self.assertEqual(status, 200)
        self.assertGreaterEqual(len(body["requests"]), 3)
        self.assertTrue(all(r["status"] >= 400 for r in body["requests"]))
        _, everything = control("traffic")
        self.assertEqual(everything["dropped"], 0)
        _, after = control(f"traffic?after={everything['cursor']}")
        self.assertEqual(after["requests"], [])
        self.assertEqual(after["cursor"], everything["cursor"])
        status, bad = control("traffic?limit=0")
        self.assertEqual(status, 400)
        self.assertEqual(bad["error"]["code"], "BadRequest")

    def test_the_har_export_has_har_1_2s_fields(self):
        status, har = control("traffic.har")
        self.assertEqual(status, 200)
        log = har["log"]
        self.assertEqual(log["version"], "1.2")
        self.assertEqual(log["creator"]["name"], "Inflight")
        self.assertTrue(log["entries"])
        for entry in log["entries"]:
            for key in ("startedDateTime", "time", "request", "response", "cache", "timings"):
                self.assertIn(key, entry)
            for key in ("method", "url", "httpVersion", "cookies", "headers", "queryString",
                        "headersSize", "bodySize"):
                self.assertIn(key, entry["request"])
            self.assertTrue(entry["request"]["url"].startswith("http://127.0.0.1:"))
            for key in ("status", "statusText", "httpVersion", "cookies", "headers", "content",
                        "redirectURL", "headersSize", "bodySize"):
                self.assertIn(key, entry["response"])
            for key in ("size", "mimeType"):
                self.assertIn(key, entry["response"]["content"])
            for key in ("send", "wait", "receive"):
                self.assertIn(key, entry["timings"])

    def test_the_file_holds_the_same_records(self):
        _, body = control("traffic")
        answered = {r["cursor"]: r for r in body["requests"] if not r["waiting"]}
        deadline = time.time() + 5
        lines = {}
        while time.time() < deadline:
            with open(LOG_FILE) as file:
                lines = {r["cursor"]: r for r in map(json.loads, file)}
            if set(answered) <= set(lines):
                break
            time.sleep(0.05)
        self.assertLessEqual(set(answered), set(lines))
        for cursor, record in answered.items():
            line = lines[cursor]
            for key in ("operation", "status", "errorCode", "client", "outcome", "requestId"):
                self.assertEqual(line[key], record[key], key)


if __name__ == "__main__":
    unittest.main()
