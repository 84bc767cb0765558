"""The HTTP layer of `inflight --headless` over raw sockets: keep-alive, pipelining in order,
long polls held without blocking other connections and cancelled when their client hangs up,
the request body limit, 100-continue and malformed input. Run with /usr/bin/python3 by ctest
(label e2e)."""

import json
import os
import socket
import sys
import time
import unittest
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from inflight_process import InflightProcess, elapsed_since  # noqa: E402

SERVER = None
MAX_BODY = 2 * 1024 * 1024  # protocol::kMaxRequestBody


def setUpModule():
    global SERVER
    SERVER = InflightProcess()


def tearDownModule():
    assert SERVER.stop() == 0, "inflight exits cleanly on SIGTERM"


def connect():
    address = urlparse(SERVER.url)
    sock = socket.create_connection((address.hostname, address.port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def json_request(action, payload, extra_headers=""):
    body = json.dumps(payload).encode()
    head = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
            f"X-Amz-Target: AmazonSQS.{action}\r\nContent-Length: {len(body)}\r\n{extra_headers}\r\n")
    return head.encode() + body


class Reader:
    """Reads HTTP/1.1 responses (Content-Length framed) from a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("connection closed")
        self.buffer += chunk

    def response(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body

    def closed(self):
        """True if the server closes the connection (nothing more to read)."""
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False


def queue_url(name):
    return f"{SERVER.url}/000000000000/{name}"


def create_queue(name):
    with connect() as sock:
        sock.sendall(json_request("CreateQueue", {"QueueName": name}))
        status, _, _ = Reader(sock).response()
        assert status == 200


class HttpServer(unittest.TestCase):
    def test_keep_alive_serves_many_requests_on_one_connection(self):
        with connect() as sock:
            reader = Reader(sock)
            for _ in range(3):
                sock.sendall(json_request("ListQueues", {}))
                status, headers, _ = reader.response()
                self.assertEqual(status, 200)
                self.assertNotEqual(headers.get("connection"), "close")

    def test_pipelined_requests_are_answered_in_order_behind_a_long_poll(self):
        create_queue("http-pipeline")
        with connect() as sock:
            reader = Reader(sock)
            sock.sendall(
                json_request("GetQueueUrl", {"QueueName": "http-pipeline"})
                + json_request("ReceiveMessage", {"QueueUrl": queue_url("http-pipeline"),
                                                  "WaitTimeSeconds": 1})
                + json_request("GetQueueUrl", {"QueueName": "missing"}))
            start = time.monotonic()
            first = reader.response()
            second = reader.response()
            third = reader.response()
            self.assertEqual(first[0], 200)
            self.assertEqual(json.loads(first[2])["QueueUrl"], queue_url("http-pipeline"))
            self.assertEqual((second[0], json.loads(second[2])), (200, {}))
            self.assertEqual(third[0], 400)  # the request after the wait, answered after it
            self.assertGreater(elapsed_since(start), 0.8)

    def test_a_long_poll_does_not_block_other_connections(self):
        create_queue("http-parallel")
        with connect() as waiting, connect() as other:
            waiting.sendall(json_request("ReceiveMessage", {
                "QueueUrl": queue_url("http-parallel"), "WaitTimeSeconds": 2}))
            time.sleep(0.1)
            start = time.monotonic()
            other.sendall(json_request("ListQueues", {}))
            self.assertEqual(Reader(other).response()[0], 200)
            self.assertLess(elapsed_since(start), 0.5)
            self.assertEqual(Reader(waiting).response()[0], 200)

    def test_a_client_hanging_up_cancels_its_wait(self):
        create_queue("http-hangup")
        waiting = connect()
        waiting.sendall(json_request("ReceiveMessage", {
            "QueueUrl": queue_url("http-hangup"), "WaitTimeSeconds": 20}))
        time.sleep(0.1)
        waiting.close()
        time.sleep(0.2)
        with connect() as sock:
            reader = Reader(sock)
            sock.sendall(json_request("SendMessage", {"QueueUrl": queue_url("http-hangup"),
                                                      "MessageBody": "for the living"}))
            self.assertEqual(reader.response()[0], 200)
            sock.sendall(json_request("ReceiveMessage", {"QueueUrl": queue_url("http-hangup")}))
            status, _, body = reader.response()
            self.assertEqual(status, 200)
            # Had the dead wait stayed, it would have taken the message.
            self.assertEqual(json.loads(body)["Messages"][0]["Body"], "for the living")

    def test_an_oversized_content_length_is_refused_before_the_body(self):
        with connect() as sock:
            sock.sendall(
                (f"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                 f"X-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n")
                .encode())
            reader = Reader(sock)
            status, headers, body = reader.response()  # without sending a byte of the body
            self.assertEqual(status, 413)
            self.assertEqual(headers.get("connection"), "close")
            self.assertIn("RequestEntityTooLarge", headers.get("x-amzn-query-error", ""))
            self.assertIn(b"RequestEntityTooLarge", body)
            sock.settimeout(5)
            self.assertTrue(reader.closed())

    def test_an_oversized_chunked_body_is_refused_while_it_streams(self):
        with connect() as sock:
            sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded"
                         b"\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"a" * 65536
            sent = 0
            try:
                while sent <= MAX_BODY + len(chunk):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            reader = Reader(sock)
            status, _, body = reader.response()
            self.assertEqual(status, 413)
            self.assertIn(b"RequestEntityTooLarge", body)  # Query: <Code> in the XML
            sock.settimeout(5)
            self.assertTrue(reader.closed())

    def test_a_body_at_the_limit_is_accepted(self):
        create_queue("http-limit")
        payload = {"QueueUrl": queue_url("http-limit"), "MessageBody": "x"}
        body = json.dumps(payload).encode()
        body += b" " * (MAX_BODY - len(body))  # JSON allows trailing whitespace
        with connect() as sock:
            sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0"
                         b"\r\nX-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: %d\r\n\r\n"
                         % len(body) + body)
            self.assertEqual(Reader(sock).response()[0], 200)

    def test_expect_100_continue(self):
        with connect() as sock:
            body = json.dumps({}).encode()
            sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0"
                         b"\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nExpect: 100-continue\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(body))
            reader = Reader(sock)
            self.assertEqual(reader.response()[0], 100)
            sock.sendall(body)
            self.assertEqual(reader.response()[0], 200)

    def test_http_1_0_closes_after_the_answer(self):
        with connect() as sock:
            sock.sendall(b"GET /?Action=ListQueues HTTP/1.0\r\n\r\n")
            reader = Reader(sock)
            status, headers, body = reader.response()
            self.assertEqual(status, 200)
            self.assertIn(b"<ListQueuesResponse", body)
            self.assertEqual(headers.get("connection"), "close")
            self.assertTrue(reader.closed())

    def test_garbage_is_answered_with_400_and_closed(self):
        with connect() as sock:
            sock.sendall(b"\x16\x03\x01 this is not HTTP\r\n\r\n")
            reader = Reader(sock)
            self.assertEqual(reader.response()[0], 400)
            self.assertTrue(reader.closed())


if __name__ == "__main__":
    unittest.main(verbosity=2)
