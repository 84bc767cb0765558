"""boto3 from Debian's python3-boto3 (botocore 1.29: SQS over the Query protocol) against
`inflight --headless`. Run with /usr/bin/python3 by ctest (label e2e)."""

import hashlib
import os
import struct
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import boto3  # noqa: E402
import botocore.config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402

from inflight_process import InflightProcess, elapsed_since  # noqa: E402
import sqs_move_task_model  # noqa: E402

SERVER = None
MODELS = None


def setUpModule():
    global SERVER, MODELS
    MODELS = tempfile.TemporaryDirectory()
    os.environ["AWS_DATA_PATH"] = sqs_move_task_model.write_model(MODELS.name)
    for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE"):
        os.environ.pop(name, None)
    os.environ["AWS_CONFIG_FILE"] = os.path.join(MODELS.name, "config")
    os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(MODELS.name, "credentials")
    SERVER = InflightProcess()


def tearDownModule():
    status = SERVER.stop()
    MODELS.cleanup()
    assert status == 0, f"inflight exited with {status} on SIGTERM"


def client():
    return boto3.session.Session().client(
        "sqs",
        endpoint_url=SERVER.url,
        region_name="us-east-1",
        aws_access_key_id="AKIDINFLIGHTE2E",
        aws_secret_access_key="inflight-e2e-secret",
        config=botocore.config.Config(retries={"max_attempts": 1}),
    )


def attributes_md5(attributes):
    """MD5OfMessageAttributes computed independently, per the documented algorithm (spec §2.6)."""
    buffer = b""
    for name in sorted(attributes):
        value = attributes[name]
        data_type = value["DataType"]
        buffer += struct.pack(">I", len(name.encode())) + name.encode()
        buffer += struct.pack(">I", len(data_type.encode())) + data_type.encode()
        if data_type.startswith("Binary"):
            raw = value["BinaryValue"]
            buffer += b"\x02" + struct.pack(">I", len(raw)) + raw
        else:
            raw = value["StringValue"].encode()
            buffer += b"\x01" + struct.pack(">I", len(raw)) + raw
    return hashlib.md5(buffer).hexdigest()


def error_of(call, **kwargs):
    try:
        call(**kwargs)
    except ClientError as error:
        return error.response["Error"]["Code"], error.response["ResponseMetadata"]["HTTPStatusCode"]
    raise AssertionError(f"{call.__name__} succeeded, expected an error")


class QueueActions(unittest.TestCase):
    def setUp(self):
        self.sqs = client()
        self.addCleanup(self.sqs.close)

    def test_queue_lifecycle_attributes_tags_permissions(self):
        url = self.sqs.create_queue(QueueName="b3-life", Attributes={"DelaySeconds": "2"},
                                    tags={"team": "payments"})["QueueUrl"]
        self.assertEqual(url, SERVER.url + "/000000000000/b3-life")
        self.assertEqual(self.sqs.get_queue_url(QueueName="b3-life")["QueueUrl"], url)
        self.assertIn(url, self.sqs.list_queues(QueueNamePrefix="b3-")["QueueUrls"])
        self.assertEqual(self.sqs.list_queue_tags(QueueUrl=url)["Tags"], {"team": "payments"})
        self.sqs.tag_queue(QueueUrl=url, Tags={"tier": "gold"})
        self.sqs.untag_queue(QueueUrl=url, TagKeys=["team"])
        self.assertEqual(self.sqs.list_queue_tags(QueueUrl=url)["Tags"], {"tier": "gold"})

        self.sqs.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "45"})
        attributes = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])
        self.assertEqual(attributes["Attributes"]["VisibilityTimeout"], "45")
        self.assertEqual(attributes["Attributes"]["DelaySeconds"], "2")

        self.sqs.add_permission(QueueUrl=url, Label="send", AWSAccountIds=["111122223333"],
                                Actions=["SendMessage"])
        policy = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])
        self.assertIn('"Sid":"send"', policy["Attributes"]["Policy"].replace(" ", ""))
        self.sqs.remove_permission(QueueUrl=url, Label="send")

        self.sqs.delete_queue(QueueUrl=url)
        self.assertEqual(error_of(self.sqs.get_queue_url, QueueName="b3-life"),
                         ("AWS.SimpleQueueService.NonExistentQueue", 400))

    def test_errors(self):
        self.assertEqual(error_of(self.sqs.get_queue_url, QueueName="b3-missing"),
                         ("AWS.SimpleQueueService.NonExistentQueue", 400))
        url = self.sqs.create_queue(QueueName="b3-errors")["QueueUrl"]
        self.assertEqual(error_of(self.sqs.receive_message, QueueUrl=url, MaxNumberOfMessages=11),
                         ("InvalidParameterValue", 400))
        self.assertEqual(error_of(self.sqs.send_message_batch, QueueUrl=url, Entries=[
            {"Id": f"m{i}", "MessageBody": "x"} for i in range(11)]),
            ("AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400))
        self.assertEqual(error_of(self.sqs.delete_message, QueueUrl=url, ReceiptHandle="junk"),
                         ("ReceiptHandleIsInvalid", 400))
        self.sqs.purge_queue(QueueUrl=url)
        self.assertEqual(error_of(self.sqs.purge_queue, QueueUrl=url),
                         ("AWS.SimpleQueueService.PurgeQueueInProgress", 403))


class MessageActions(unittest.TestCase):
    def setUp(self):
        self.sqs = client()
        self.addCleanup(self.sqs.close)

    def test_send_receive_digests_and_xml_escaping(self):
        url = self.sqs.create_queue(QueueName="b3-messages")["QueueUrl"]
        attributes = {
            "Hello": {"DataType": "String", "StringValue": "There"},
            "Count": {"DataType": "Number.int", "StringValue": "42"},
            "Blob": {"DataType": "Binary", "BinaryValue": b"\x00\x01binary\xff"},
        }
        body = 'line 1\r\nline 2 <&> "quoted" \'single\' ünïcödé ✓'
        sent = self.sqs.send_message(QueueUrl=url, MessageBody=body, MessageAttributes=attributes)
        self.assertEqual(sent["MD5OfMessageBody"], hashlib.md5(body.encode()).hexdigest())
        self.assertEqual(sent["MD5OfMessageAttributes"], attributes_md5(attributes))

        received = self.sqs.receive_message(QueueUrl=url, MessageAttributeNames=["All"],
                                            AttributeNames=["All"])["Messages"]
        self.assertEqual(len(received), 1)
        message = received[0]
        self.assertEqual(message["Body"], body)  # CR and markup survive the XML
        self.assertEqual(message["MD5OfBody"], sent["MD5OfMessageBody"])
        self.assertEqual(message["MD5OfMessageAttributes"], attributes_md5(attributes))
        self.assertEqual(message["MessageAttributes"]["Blob"]["BinaryValue"],
                         b"\x00\x01binary\xff")
        self.assertEqual(message["Attributes"]["ApproximateReceiveCount"], "1")

        handle = message["ReceiptHandle"]
        self.sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=handle, VisibilityTimeout=0)
        again = self.sqs.receive_message(QueueUrl=url, MessageAttributeNames=["Hel.*"])["Messages"]
        self.assertEqual(list(again[0]["MessageAttributes"]), ["Hello"])
        self.assertEqual(again[0]["MD5OfMessageAttributes"],
                         attributes_md5({"Hello": attributes["Hello"]}))
        self.sqs.delete_message(QueueUrl=url, ReceiptHandle=again[0]["ReceiptHandle"])

    def test_batches_with_partial_failures(self):
        url = self.sqs.create_queue(QueueName="b3-batches")["QueueUrl"]
        sent = self.sqs.send_message_batch(QueueUrl=url, Entries=[
            {"Id": "a", "MessageBody": "one"},
            {"Id": "b", "MessageBody": "too late", "DelaySeconds": 901},
            {"Id": "c", "MessageBody": "two"},
        ])
        self.assertEqual(sorted(e["Id"] for e in sent["Successful"]), ["a", "c"])
        self.assertEqual([(e["Id"], e["Code"], e["SenderFault"]) for e in sent["Failed"]],
                         [("b", "InvalidParameterValue", True)])

        messages = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        handles = [m["ReceiptHandle"] for m in messages]
        self.assertEqual(len(handles), 2)
        changed = self.sqs.change_message_visibility_batch(QueueUrl=url, Entries=[
            {"Id": "ok", "ReceiptHandle": handles[0], "VisibilityTimeout": 60},
            {"Id": "bad", "ReceiptHandle": "garbage", "VisibilityTimeout": 60},
        ])
        self.assertEqual([e["Id"] for e in changed["Successful"]], ["ok"])
        self.assertEqual([(e["Id"], e["Code"]) for e in changed["Failed"]],
                         [("bad", "ReceiptHandleIsInvalid")])
        deleted = self.sqs.delete_message_batch(QueueUrl=url, Entries=[
            {"Id": "x", "ReceiptHandle": handles[0]},
            {"Id": "y", "ReceiptHandle": handles[1]},
            {"Id": "z", "ReceiptHandle": "garbage"},
        ])
        self.assertEqual(sorted(e["Id"] for e in deleted["Successful"]), ["x", "y"])
        self.assertEqual([e["Id"] for e in deleted["Failed"]], ["z"])

    def test_fifo_order_and_group_blocking(self):
        url = self.sqs.create_queue(QueueName="b3-jobs.fifo", Attributes={
            "FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]
        for group, body in [("A", "a1"), ("A", "a2"), ("B", "b1"), ("A", "a3")]:
            self.sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId=group)
        first = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2)["Messages"]
        self.assertEqual([m["Body"] for m in first], ["a1", "a2"])
        rest = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        self.assertEqual([m["Body"] for m in rest], ["b1"])  # A is blocked while a1, a2 fly
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))
        for message in first:
            self.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        last = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        self.assertEqual([m["Body"] for m in last], ["a3"])

    def test_dead_letter_queue_and_move_tasks(self):
        dlq = self.sqs.create_queue(QueueName="b3-dlq")["QueueUrl"]
        dlq_arn = self.sqs.get_queue_attributes(
            QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        source = self.sqs.create_queue(QueueName="b3-source", Attributes={
            "RedrivePolicy": '{"deadLetterTargetArn":"%s","maxReceiveCount":"2"}' % dlq_arn,
        })["QueueUrl"]
        self.assertEqual(self.sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"],
                         [source])
        self.sqs.send_message(QueueUrl=source, MessageBody="poison")
        for _ in range(2):
            self.assertEqual(len(self.sqs.receive_message(QueueUrl=source,
                                                          VisibilityTimeout=0)["Messages"]), 1)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=source))
        moved = self.sqs.receive_message(QueueUrl=dlq, VisibilityTimeout=0)["Messages"]
        self.assertEqual(moved[0]["Body"], "poison")

        handle = self.sqs.start_message_move_task(SourceArn=dlq_arn)["TaskHandle"]
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            tasks = self.sqs.list_message_move_tasks(SourceArn=dlq_arn)["Results"]
            if tasks[0]["Status"] == "COMPLETED":
                break
            time.sleep(0.05)
        self.assertEqual(tasks[0]["SourceArn"], dlq_arn)
        self.assertNotIn("TaskHandle", tasks[0])  # only running tasks show their handle
        self.assertEqual((tasks[0]["Status"], tasks[0]["ApproximateNumberOfMessagesMoved"]),
                         ("COMPLETED", 1))
        self.assertEqual(self.sqs.receive_message(QueueUrl=source)["Messages"][0]["Body"],
                         "poison")

        self.sqs.send_message_batch(QueueUrl=dlq, Entries=[
            {"Id": str(i), "MessageBody": "x"} for i in range(5)])
        slow = self.sqs.start_message_move_task(
            SourceArn=dlq_arn, DestinationArn=dlq_arn.replace("b3-dlq", "b3-source"),
            MaxNumberOfMessagesPerSecond=1)["TaskHandle"]
        running = self.sqs.list_message_move_tasks(SourceArn=dlq_arn, MaxResults=10)["Results"]
        self.assertEqual((running[0]["Status"], running[0]["TaskHandle"]), ("RUNNING", slow))
        self.assertEqual(len(running), 2)  # newest first
        moved_so_far = self.sqs.cancel_message_move_task(TaskHandle=slow)
        self.assertLess(moved_so_far["ApproximateNumberOfMessagesMoved"], 5)
        self.assertEqual(error_of(self.sqs.cancel_message_move_task, TaskHandle=slow)[0],
                         "ResourceNotFoundException")

    def test_long_poll_answered_early_by_another_client(self):
        url = self.sqs.create_queue(QueueName="b3-waiting")["QueueUrl"]
        result = {}

        def poll():
            start = time.monotonic()
            other = client()
            result["messages"] = other.receive_message(QueueUrl=url, WaitTimeSeconds=10)
            result["seconds"] = elapsed_since(start)
            other.close()

        poller = threading.Thread(target=poll)
        poller.start()
        time.sleep(0.5)
        self.sqs.send_message(QueueUrl=url, MessageBody="wake up")
        poller.join(15)
        self.assertEqual(result["messages"]["Messages"][0]["Body"], "wake up")
        self.assertGreater(result["seconds"], 0.4)  # it did wait for the send
        self.assertLess(result["seconds"], 2.5)  # ...and no longer


if __name__ == "__main__":
    unittest.main(verbosity=2)
