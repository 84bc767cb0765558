"""Testing an SQS application with Inflight, in pytest with boto3: engine time is frozen and moved
by the control API, so nothing here sleeps to wait for a timeout. Copy the fixtures into your own
conftest.py; README "Testing with Inflight" explains each call.

Run: INFLIGHT_BIN=build/app/inflight python3 -m pytest tests/e2e/examples/test_with_inflight.py
"""

import json
import os
import re
import subprocess
import urllib.request

import boto3
import pytest
from botocore.exceptions import ClientError


@pytest.fixture(scope="module")
def inflight():
    """`inflight --headless` on a free port, its clock frozen: time moves only when a test says."""
    process = subprocess.Popen(
        [os.environ.get("INFLIGHT_BIN", "inflight"), "--headless", "--listen", "127.0.0.1:0",
         "--clock", "frozen", "--in-flight-limit", "5"],
        stdout=subprocess.PIPE, text=True)
    url = re.search(r"listening on (\S+)", process.stdout.readline()).group(1)
    yield url
    process.terminate()
    process.wait(timeout=10)


def control(url, method, path, body=None):
    """One call of the control API (/_inflight/v1/...): its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}/_inflight/v1/{path}", data=data, method=method)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


@pytest.fixture
def sqs(inflight):
    """A boto3 client on a fresh endpoint: every queue of the last test is gone."""
    control(inflight, "POST", "reset")
    return boto3.client("sqs", endpoint_url=inflight, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test")


def advance(inflight, seconds):
    """Moves engine time; everything that fell due has happened when this returns."""
    return control(inflight, "POST", "clock", {"advanceMs": int(seconds * 1000)})


def test_a_message_comes_back_after_its_visibility_timeout(inflight, sqs):
    url = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="job 1")
    sqs.receive_message(QueueUrl=url)  # a worker takes it ... and never deletes it
    assert "Messages" not in sqs.receive_message(QueueUrl=url)
    advance(inflight, 30)
    again = sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])
    assert again["Messages"][0]["Attributes"]["ApproximateReceiveCount"] == "2"


def test_a_poison_message_ends_in_the_dead_letter_queue(inflight, sqs):
    dlq = sqs.create_queue(QueueName="jobs-dlq")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"]
    url = sqs.create_queue(QueueName="jobs", Attributes={
        "VisibilityTimeout": "10",
        "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": 3})})[
        "QueueUrl"]
    cursor = control(inflight, "GET", "events")["cursor"]
    sqs.send_message(QueueUrl=url, MessageBody="poison")
    for _ in range(3):  # three workers fail on it in turn
        assert sqs.receive_message(QueueUrl=url)["Messages"]
        advance(inflight, 10)
    assert "Messages" not in sqs.receive_message(QueueUrl=url)  # the fourth receive moves it
    events = control(inflight, "GET", f"events?after={cursor}")["events"]
    assert [e["destination"] for e in events if e["kind"] == "MovedToDeadLetterQueue"] == [
        "jobs-dlq"]
    [moved] = control(inflight, "GET", "queues/jobs-dlq/messages")["messages"]
    assert moved["body"] == "poison"


def test_the_fifo_deduplication_window_ends_after_five_minutes(inflight, sqs):
    url = sqs.create_queue(QueueName="orders.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    order = {"QueueUrl": url, "MessageBody": "order 7", "MessageGroupId": "customer-1",
             "MessageDeduplicationId": "order-7"}
    first = sqs.send_message(**order)["MessageId"]
    assert sqs.send_message(**order)["MessageId"] == first  # a retry within 5 minutes: deduplicated
    advance(inflight, 5 * 60)
    assert sqs.send_message(**order)["MessageId"] != first
    assert len(control(inflight, "GET", "queues/orders.fifo/messages")["messages"]) == 2


def test_retention_expires_a_message(inflight, sqs):
    url = sqs.create_queue(QueueName="short", Attributes={"MessageRetentionPeriod": "60"})[
        "QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="stale soon")
    advance(inflight, 59)
    assert len(control(inflight, "GET", "queues/short/messages")["messages"]) == 1
    advance(inflight, 1)
    assert control(inflight, "GET", "queues/short/messages")["messages"] == []


def test_the_in_flight_limit(inflight, sqs):
    # Started with --in-flight-limit 5 (SQS's is 120,000), so the test reaches it in a few calls.
    url = sqs.create_queue(QueueName="busy")["QueueUrl"]
    for i in range(6):
        sqs.send_message(QueueUrl=url, MessageBody=f"m{i}")
    for _ in range(5):
        sqs.receive_message(QueueUrl=url)  # received, never deleted
    with pytest.raises(ClientError) as refused:
        sqs.receive_message(QueueUrl=url)  # a short poll at the limit
    assert refused.value.response["Error"]["Code"] == "OverLimit"
