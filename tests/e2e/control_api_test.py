"""The control API of `inflight --headless` (/_inflight/v1/, README "Testing with Inflight") driven
next to boto3 on a frozen clock: every route, the answers a test relies on, and bad input refused
with a 4xx JSON error that changes nothing. No test sleeps to wait for engine time."""

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

SERVER = None
START = 1_900_000_000_000  # --start, epoch ms: 2030-03-17T17:46:40Z


def setUpModule():
    global SERVER
    warnings.simplefilter("ignore", ResourceWarning)  # boto3's pooled connections
    home = tempfile.mkdtemp()
    os.environ["AWS_CONFIG_FILE"] = os.path.join(home, "config")
    os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(home, "credentials")
    SERVER = InflightProcess("--clock", "frozen", "--start", str(START))


def tearDownModule():
    assert SERVER.stop() == 0


def control(method, path, body=None, headers=None, url=None, raw=None):
    """(status, parsed JSON) of a control API call."""
    address = urlparse(url or SERVER.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        payload = raw if raw is not None else (None if body is None else json.dumps(body))
        connection.request(method, "/_inflight/v1/" + path, body=payload, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None
    finally:
        connection.close()


def sqs(url=None):
    return boto3.session.Session().client(
        "sqs", endpoint_url=url or SERVER.url, region_name="us-east-1",
        aws_access_key_id="AKIDCONTROL", aws_secret_access_key="secret",
        config=botocore.config.Config(retries={"max_attempts": 1}))


def advance(ms):
    status, clock = control("POST", "clock", {"advanceMs": ms})
    assert status == 200, clock
    return clock


class ControlApi(unittest.TestCase):
    def setUp(self):
        self.assertEqual(control("POST", "reset")[0], 200)
        self.sqs = sqs()

    def test_health(self):
        status, health = control("GET", "health")
        self.assertEqual(status, 200)
        self.assertIs(health["ready"], True)
        self.assertRegex(health["version"], r"^\d+\.\d+")

    def test_a_frozen_clock_moves_only_when_told(self):
        _, before = control("GET", "clock")
        self.assertIs(before["paused"], True)
        self.assertGreaterEqual(before["now"], START)
        time.sleep(0.2)  # wall time passes; engine time does not
        _, still = control("GET", "clock")
        self.assertEqual(still["now"], before["now"])
        after = advance(31_000)
        self.assertEqual(after["now"], before["now"] + 31_000)
        self.assertIs(after["paused"], True)
        status, to = control("POST", "clock", {"advanceTo": after["now"] + 1_000})
        self.assertEqual((status, to["now"]), (200, after["now"] + 1_000))
        self.assertAlmostEqual(to["wallOffsetMs"], to["now"] - time.time() * 1000, delta=5_000)

    def test_pause_resume_and_speed(self):
        self.assertIs(control("POST", "clock", {"resume": True})[1]["paused"], False)
        self.assertEqual(control("POST", "clock", {"speed": 10})[1]["speed"], 10)
        self.assertIs(control("POST", "clock", {"pause": True})[1]["paused"], True)
        self.assertEqual(control("POST", "clock", {"speed": 1})[1]["speed"], 1)

    def test_a_message_comes_back_after_its_visibility_timeout(self):
        url = self.sqs.create_queue(QueueName="vt", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
        sent = self.sqs.send_message(QueueUrl=url, MessageBody="job")["MessageId"]
        first = self.sqs.receive_message(QueueUrl=url)["Messages"][0]
        _, peeked = control("GET", "queues/vt/messages")
        [message] = peeked["messages"]
        self.assertEqual(message["messageId"], sent)
        self.assertEqual(message["state"], "inFlight")
        self.assertEqual(message["receiptHandle"], first["ReceiptHandle"])
        self.assertEqual(message["visibleAt"] - message["receivedAt"], 30_000)
        self.assertEqual(self.sqs.receive_message(QueueUrl=url).get("Messages"), None)
        advance(30_000)
        again = self.sqs.receive_message(QueueUrl=url, AttributeNames=["All"])["Messages"][0]
        self.assertEqual(again["MessageId"], sent)
        self.assertEqual(again["Attributes"]["ApproximateReceiveCount"], "2")

    def test_peek_changes_nothing_and_filters_by_state(self):
        url = self.sqs.create_queue(QueueName="peek")["QueueUrl"]
        self.sqs.send_message(QueueUrl=url, MessageBody="a", MessageAttributes={
            "k": {"DataType": "String", "StringValue": "v"}})
        self.sqs.send_message(QueueUrl=url, MessageBody="later", DelaySeconds=60)
        for _ in range(3):
            _, all_messages = control("GET", "queues/peek/messages")
        self.assertEqual([m["state"] for m in all_messages["messages"]], ["available", "delayed"])
        self.assertEqual(all_messages["messages"][0]["receiveCount"], 0)
        self.assertEqual(all_messages["messages"][0]["attributes"],
                         {"k": {"DataType": "String", "StringValue": "v"}})
        self.assertEqual(all_messages["messages"][1]["deliverAt"] - START > 0, True)
        _, delayed = control("GET", "queues/peek/messages?state=delayed")
        self.assertEqual([m["body"] for m in delayed["messages"]], ["later"])
        _, first = control("GET", "queues/peek/messages?limit=1")
        self.assertEqual((len(first["messages"]), first["nextOffset"]), (1, 1))
        attributes = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])
        self.assertEqual(attributes["Attributes"]["ApproximateNumberOfMessages"], "1")

    def test_events_from_a_cursor_say_a_message_moved_to_the_dlq(self):
        dlq = self.sqs.create_queue(QueueName="ev-dlq")["QueueUrl"]
        arn = self.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])[
            "Attributes"]["QueueArn"]
        url = self.sqs.create_queue(QueueName="ev", Attributes={
            "VisibilityTimeout": "10",
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": 1})})[
            "QueueUrl"]
        _, start = control("GET", "events")
        cursor = start["cursor"]
        sent = self.sqs.send_message(QueueUrl=url, MessageBody="poison")["MessageId"]
        self.sqs.receive_message(QueueUrl=url)
        advance(10_000)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))  # moves it
        _, page = control("GET", f"events?after={cursor}")
        kinds = [(e["kind"], e["queue"]) for e in page["events"] if e.get("messageId") == sent]
        self.assertEqual(kinds, [("MessageSent", "ev"), ("MessageReceived", "ev"),
                                 ("VisibilityExpired", "ev"), ("MovedToDeadLetterQueue", "ev")])
        moved = [e for e in page["events"] if e["kind"] == "MovedToDeadLetterQueue"][0]
        self.assertEqual(moved["destination"], "ev-dlq")
        self.assertGreater(page["cursor"], cursor)
        _, nothing = control("GET", f"events?after={page['cursor']}")
        self.assertEqual((nothing["events"], nothing["cursor"]), ([], page["cursor"]))

    def test_events_wait_for_the_next_one(self):
        url = self.sqs.create_queue(QueueName="wait")["QueueUrl"]
        _, start = control("GET", "events")
        answer = {}

        def waiter():
            # As a test would wait: from its cursor, until the event it waits for came. (The
            # queue's creation may still reach the journal first: events arrive once stored.)
            began = time.monotonic()
            cursor, kinds = start["cursor"], []
            while "MessageSent" not in kinds and time.monotonic() - began < 10:
                page = control("GET", f"events?after={cursor}&waitSeconds=10")[1]
                cursor = page["cursor"]
                kinds += [e["kind"] for e in page["events"]]
            answer["kinds"], answer["cursor"] = kinds, cursor
            answer["took"] = time.monotonic() - began

        thread = threading.Thread(target=waiter)
        thread.start()
        time.sleep(0.3)
        self.sqs.send_message(QueueUrl=url, MessageBody="wake")
        thread.join(15)
        self.assertEqual([k for k in answer["kinds"] if k != "QueueCreated"], ["MessageSent"])
        self.assertLess(answer["took"], 5)
        began = time.monotonic()
        _, empty = control("GET", f"events?after={answer['cursor']}&waitSeconds=1")
        self.assertEqual(empty["events"], [])
        self.assertGreaterEqual(time.monotonic() - began, 0.9)

    def test_advancing_answers_long_polls_before_it_answers(self):
        url = self.sqs.create_queue(QueueName="poll", Attributes={"DelaySeconds": "5"})["QueueUrl"]
        self.sqs.send_message(QueueUrl=url, MessageBody="delayed")
        got = {}
        thread = threading.Thread(target=lambda: got.update(
            self.sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)))
        thread.start()
        time.sleep(0.3)
        advance(5_000)
        thread.join(5)
        self.assertFalse(thread.is_alive(), "the long poll was answered")
        self.assertEqual(got["Messages"][0]["Body"], "delayed")

    def test_retention_and_the_deduplication_window_run_out_on_an_advance(self):
        url = self.sqs.create_queue(QueueName="short", Attributes={
            "MessageRetentionPeriod": "60"})["QueueUrl"]
        self.sqs.send_message(QueueUrl=url, MessageBody="old")
        advance(60_000)
        self.assertEqual(control("GET", "queues/short/messages")[1]["messages"], [])
        fifo = self.sqs.create_queue(QueueName="d.fifo", Attributes={"FifoQueue": "true"})[
            "QueueUrl"]
        entry = {"QueueUrl": fifo, "MessageBody": "x", "MessageGroupId": "g",
                 "MessageDeduplicationId": "once"}
        first = self.sqs.send_message(**entry)["MessageId"]
        self.assertEqual(self.sqs.send_message(**entry)["MessageId"], first)
        advance(5 * 60_000)
        self.assertNotEqual(self.sqs.send_message(**entry)["MessageId"], first)
        self.assertEqual(len(control("GET", "queues/d.fifo/messages")[1]["messages"]), 2)

    def test_reset_of_one_queue_and_of_everything(self):
        url = self.sqs.create_queue(QueueName="r")["QueueUrl"]
        self.sqs.send_message(QueueUrl=url, MessageBody="x")
        self.sqs.receive_message(QueueUrl=url)
        self.assertEqual(control("POST", "queues/r/reset")[0], 200)
        self.assertEqual(control("GET", "queues/r/messages")[1]["messages"], [])
        self.sqs.purge_queue(QueueUrl=url)  # a reset is no PurgeQueue: one is allowed at once
        self.assertEqual(control("POST", "reset")[0], 200)
        self.assertEqual(self.sqs.list_queues().get("QueueUrls"), None)
        self.sqs.create_queue(QueueName="r")  # no QueueDeletedRecently after a reset

    def test_config_loads_queues_at_run_time(self):
        config = {"queues": [
            {"name": "cfg", "attributes": {"VisibilityTimeout": 5, "RedrivePolicy": {
                "deadLetterTargetArn": "cfg-dlq", "maxReceiveCount": 2}},
             "tags": {"team": "a"}, "messages": [{"body": "hello"}]},
            {"name": "cfg-dlq"}]}
        status, applied = control("POST", "config", config)
        self.assertEqual(status, 200, applied)
        self.assertEqual(applied["queuesCreated"], 2)
        self.assertEqual([m["body"] for m in control("GET", "queues/cfg/messages")[1]["messages"]],
                         ["hello"])
        status, again = control("POST", "config", config)
        self.assertEqual((status, again["queuesCreated"]), (200, 0))
        self.assertEqual(len(control("GET", "queues/cfg/messages")[1]["messages"]), 1)
        status, bad = control("POST", "config", raw='{"queues": [{"name": "x", "colour": 1}]}')
        self.assertEqual((status, bad["error"]["code"]), (400, "InvalidConfig"))
        self.assertIn("line 1", bad["error"]["message"])
        urls = self.sqs.list_queues()["QueueUrls"]
        self.assertFalse(any(u.endswith("/x") for u in urls), "nothing of a bad file applied")


class BadInput(unittest.TestCase):
    def expect_error(self, answer, status, code=None):
        got_status, body = answer
        self.assertEqual(got_status, status, body)
        self.assertIn("message", body["error"])
        if code:
            self.assertEqual(body["error"]["code"], code)

    def test_unknown_paths_and_wrong_methods(self):
        self.expect_error(control("GET", "nope"), 404, "NotFound")
        self.expect_error(control("GET", "../v2/health"), 404)
        self.expect_error(control("DELETE", "clock"), 405, "MethodNotAllowed")
        self.expect_error(control("GET", "reset"), 405, "MethodNotAllowed")
        self.expect_error(control("POST", "health"), 405)

    def test_bad_clock_changes_change_nothing(self):
        _, before = control("GET", "clock")
        for body in ({"advanceMs": -1}, {"advanceMs": 10**15}, {"advanceMs": 1.5},
                     {"advanceMs": "10"}, {"advanceTo": before["now"] - 1}, {"speed": 0},
                     {"speed": -2}, {"pause": False}, {"advanceMs": 1, "pause": True}, {},
                     {"warp": 9}, [1]):
            self.expect_error(control("POST", "clock", body), 400, "BadRequest")
        self.expect_error(control("POST", "clock", raw="{not json"), 400, "BadRequest")
        _, after = control("GET", "clock")
        self.assertEqual((after["now"], after["paused"], after["speed"]),
                         (before["now"], before["paused"], before["speed"]))

    def test_unknown_queues_and_bad_parameters(self):
        self.expect_error(control("GET", "queues/nosuch/messages"), 404, "QueueDoesNotExist")
        self.expect_error(control("POST", "queues/nosuch/reset"), 404, "QueueDoesNotExist")
        sqs().create_queue(QueueName="p")
        self.expect_error(control("GET", "queues/p/messages?state=gone"), 400)
        self.expect_error(control("GET", "queues/p/messages?limit=0"), 400)
        self.expect_error(control("GET", "events?after=-3"), 400)
        self.expect_error(control("GET", "events?waitSeconds=99"), 400)

    def test_a_web_page_cannot_use_it(self):
        self.expect_error(control("POST", "reset", headers={"Origin": "http://evil.example"}),
                          403, "Forbidden")
        self.expect_error(control("GET", "clock", headers={"Host": "evil.example"}), 403,
                          "Forbidden")


class Protection(unittest.TestCase):
    def test_control_off_removes_it(self):
        with InflightProcess("--control", "off") as server:
            status, body = control("GET", "health", url=server.url)
            self.assertEqual(status, 404)
            self.assertEqual(body["error"]["code"], "NotFound")

    def test_a_token_is_checked_when_sent(self):
        with InflightProcess("--control-token", "s3cret") as server:
            ok = control("GET", "health", headers={"Authorization": "Bearer s3cret"},
                         url=server.url)
            self.assertEqual(ok[0], 200)
            wrong = control("GET", "health", headers={"Authorization": "Bearer nope"},
                            url=server.url)
            self.assertEqual((wrong[0], wrong[1]["error"]["code"]), (403, "Forbidden"))
            self.assertEqual(control("GET", "health", url=server.url)[0], 200, "loopback")


class ConfigAtStart(unittest.TestCase):
    CONFIG = {"queues": [
        {"name": "orders", "attributes": {"VisibilityTimeout": "30", "RedrivePolicy": {
            "deadLetterTargetArn": "orders-dlq", "maxReceiveCount": 3}},
         "tags": {"team": "a"}, "messages": [{"body": "one"}, {"body": "two"}]},
        {"name": "orders-dlq"},
        {"name": "jobs", "type": "oci", "options": {"deadLetterQueueDeliveryCount": 3}}]}

    def write(self, folder, text):
        path = os.path.join(folder, "queues.json")
        with open(path, "w") as file:
            file.write(text)
        return path

    def test_config_creates_the_queues_and_a_workspace_keeps_them_without_duplicates(self):
        with tempfile.TemporaryDirectory() as folder:
            config = self.write(folder, json.dumps(self.CONFIG, indent=2))
            workspace = os.path.join(folder, "w.inflight")
            for run in range(2):  # the second start loads the same file on the same workspace
                with InflightProcess("--config", config, "--workspace", workspace) as server:
                    client = sqs(server.url)
                    urls = client.list_queues()["QueueUrls"]
                    self.assertEqual(sorted(u.rsplit("/", 1)[1] for u in urls),
                                     ["orders", "orders-dlq"], "OCI queues are not listed by SQS")
                    orders = control("GET", "queues/orders/messages", url=server.url)[1]
                    self.assertEqual([m["body"] for m in orders["messages"]], ["one", "two"],
                                     f"run {run}")
                    attributes = client.get_queue_attributes(
                        QueueUrl=urls[0], AttributeNames=["RedrivePolicy"])["Attributes"]
                    self.assertIn("orders-dlq", attributes["RedrivePolicy"])
                    self.assertEqual(control("GET", "queues/jobs/messages", url=server.url)[0], 200)

    def test_a_bad_file_stops_the_start_with_its_position(self):
        with tempfile.TemporaryDirectory() as folder:
            config = self.write(folder, '{"queues": [\n  {"name": "a",\n   "attributes": '
                                        '{"VisibilityTimeout": "forever"}}]}')
            done = subprocess.run([os.environ["INFLIGHT_BIN"], "--headless", "--listen",
                                   "127.0.0.1:0", "--config", config],
                                  capture_output=True, text=True, timeout=30)
            self.assertEqual(done.returncode, 2)
            self.assertIn("line 3, column", done.stderr)
            self.assertIn("queues[0].attributes.VisibilityTimeout", done.stderr)


class Ids(unittest.TestCase):
    def ids_of_a_run(self, *options):
        with InflightProcess(*options) as server:
            client = sqs(server.url)
            url = client.create_queue(QueueName="ids")["QueueUrl"]
            return [client.send_message(QueueUrl=url, MessageBody=str(i))["MessageId"]
                    for i in range(3)]

    def test_runs_without_a_seed_never_repeat_ids(self):
        self.assertTrue(set(self.ids_of_a_run()).isdisjoint(self.ids_of_a_run()))

    def test_runs_with_the_same_seed_repeat_them(self):
        self.assertEqual(self.ids_of_a_run("--seed", "42"), self.ids_of_a_run("--seed", "42"))
        self.assertNotEqual(self.ids_of_a_run("--seed", "42"), self.ids_of_a_run("--seed", "43"))


class StartOptions(unittest.TestCase):
    def test_start_speed_and_advertised_url(self):
        with InflightProcess("--start", "2030-01-01T00:00:00Z", "--clock", "frozen", "--speed",
                             "60", "--advertised-url", "http://inflight.test:4566") as server:
            _, clock = control("GET", "clock", url=server.url)
            self.assertEqual((clock["now"], clock["speed"]), (1_893_456_000_000, 60))
            url = sqs(server.url).create_queue(QueueName="adv")["QueueUrl"]
            self.assertEqual(url, "http://inflight.test:4566/000000000000/adv")
            status, _ = control("GET", "health", url=server.url,
                                headers={"Host": "inflight.test:4566"})
            self.assertEqual(status, 200, "the advertised host passes the Host check")

    def test_bad_start_options_stop_the_start_with_a_reason(self):
        binary = os.environ["INFLIGHT_BIN"]
        for options in (["--clock", "stopped"], ["--speed", "0"], ["--start", "yesterday"],
                        ["--seed", "x"], ["--advertised-url", "ftp://x"], ["--control", "maybe"]):
            done = subprocess.run([binary, "--headless", "--listen", "127.0.0.1:0", *options],
                                  capture_output=True, text=True, timeout=30)
            self.assertEqual(done.returncode, 2, options)
            self.assertIn(options[0], done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
