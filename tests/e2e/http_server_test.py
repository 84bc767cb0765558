"""The HTTP layer of `inflight --headless` over raw sockets: keep-alive, pipelining in order,
long polls held without blocking other connections and cancelled when their client hangs up,
the request body limit, 100-continue, malformed input, and the answers when the workspace cannot
store a change. Run with /usr/bin/python3 by ctest (label e2e)."""

import json
import os
import re
import resource
import shutil
import signal
import socket
import sys
import tempfile
import time
import unittest
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from inflight_process import (  # noqa: E402
    InflightProcess, elapsed_since, headless_options, thread_names)

SERVER = None
MAX_BODY = 2 * 1024 * 1024  # protocol::kMaxRequestBody


def setUpModule():
    global SERVER
    SERVER = InflightProcess()


def tearDownModule():
    assert SERVER.stop() == 0, "inflight exits cleanly on SIGTERM"


def connect(url=None):
    address = urlparse(url or SERVER.url)
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


def queue_url(name, url=None):
    return f"{url or SERVER.url}/000000000000/{name}"


def query_request(form):
    body = form.encode()
    return (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def oci_request(method, path, payload, request_id):
    body = json.dumps(payload).encode()
    return (f"{method} /20210201/queues/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nopc-request-id: {request_id}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def xml_text(body, element):
    match = re.search(rf"<{element}>([^<]*)</{element}>".encode(), body)
    return match.group(1).decode() if match else None


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

    def test_many_connections_pipelining_are_each_answered_in_order(self):
        connections = [connect() for _ in range(8)]
        try:
            for c, sock in enumerate(connections):
                sock.sendall(b"".join(
                    json_request("CreateQueue", {"QueueName": f"http-pipe-{c}-{i}"})
                    for i in range(10)))
            for c, sock in enumerate(connections):
                reader = Reader(sock)
                for i in range(10):
                    status, _, body = reader.response()
                    self.assertEqual(status, 200, body)
                    self.assertEqual(json.loads(body)["QueueUrl"], queue_url(f"http-pipe-{c}-{i}"))
        finally:
            for sock in connections:
                sock.close()

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
                (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
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
            sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded"
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

    def test_a_refused_upload_that_keeps_sending_is_dropped_after_its_drain_time(self):
        with connect() as sock:
            sock.sendall(
                (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                 f"X-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n")
                .encode())
            self.assertEqual(Reader(sock).response()[0], 413)
            start = time.monotonic()
            with self.assertRaises(OSError):  # reset once the server has dropped it
                while elapsed_since(start) < 8:
                    sock.sendall(b"a" * 1024)
                    time.sleep(0.05)
            self.assertGreater(elapsed_since(start), 1.5)  # the drain time is 2 s

    def test_a_body_at_the_limit_is_accepted(self):
        create_queue("http-limit")
        payload = {"QueueUrl": queue_url("http-limit"), "MessageBody": "x"}
        body = json.dumps(payload).encode()
        body += b" " * (MAX_BODY - len(body))  # JSON allows trailing whitespace
        with connect() as sock:
            sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0"
                         b"\r\nX-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: %d\r\n\r\n"
                         % len(body) + body)
            self.assertEqual(Reader(sock).response()[0], 200)

    def test_expect_100_continue(self):
        with connect() as sock:
            body = json.dumps({}).encode()
            sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0"
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

    def test_http_errors_are_answered_in_the_request_protocol(self):
        # Headers too large for a JSON request: a JSON error clients can read, then closed.
        with connect() as sock:
            sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: "
                         b"AmazonSQS.ListQueues\r\nContent-Type: application/x-amz-json-1.0\r\n"
                         b"X-Big: " + b"a" * (70 * 1024) + b"\r\n\r\n{}")
            reader = Reader(sock)
            status, headers, body = reader.response()
            self.assertEqual(status, 400)
            self.assertEqual(headers["x-amzn-query-error"], "MalformedHttpRequest;Sender")
            self.assertIn("MalformedHttpRequestException", json.loads(body)["__type"])
            self.assertTrue(reader.closed())
        # The same for OCI, with OCI's code.
        with connect() as sock:
            sock.sendall(b"GET /20210201/queues/q/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                         + b"a" * (70 * 1024) + b"\r\n\r\n")
            status, _, body = Reader(sock).response()
            self.assertEqual(status, 400)
            self.assertEqual(json.loads(body)["code"], "CannotParseRequest")

    def test_an_http_1_1_request_without_host_is_refused(self):
        with connect() as sock:
            sock.sendall(b"GET /?Action=ListQueues HTTP/1.1\r\n\r\n")
            reader = Reader(sock)
            status, _, body = reader.response()
            self.assertEqual(status, 400)
            self.assertEqual(xml_text(body, "Code"), "MalformedHttpRequest")
            self.assertIn(b"Host", body)
            self.assertTrue(reader.closed())

    def test_head_answers_carry_no_body(self):
        with connect() as sock:
            sock.sendall(b"HEAD /?Action=ListQueues HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                         b"GET /?Action=ListQueues HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            reader = Reader(sock)
            # The HEAD's Content-Length is the GET's, but no body follows it: the next bytes are
            # the GET's answer.
            while b"\r\n\r\n" not in reader.buffer:
                reader._fill()
            head, rest = reader.buffer.split(b"\r\n\r\n", 1)
            self.assertTrue(head.startswith(b"HTTP/1.1 200"), head)
            self.assertIn(b"Content-Length: ", head)
            reader.buffer = rest
            status, _, body = reader.response()
            self.assertEqual(status, 200)
            self.assertIn(b"<ListQueuesResponse", body)

    def test_absolute_form_targets_are_routed_by_their_path(self):
        with connect() as sock:
            reader = Reader(sock)
            sock.sendall(json_request("CreateQueue", {"QueueName": "absolute"}))
            self.assertEqual(reader.response()[0], 200)
            sock.sendall(f"GET {SERVER.url}/?Action=GetQueueUrl&QueueName=absolute HTTP/1.1\r\n"
                         "Host: 127.0.0.1\r\n\r\n".encode())
            status, _, body = reader.response()
            self.assertEqual(status, 200, body)
            self.assertEqual(xml_text(body, "QueueUrl"), queue_url("absolute"))
            # OCI: a path under /20210201/ only once the scheme and authority are gone.
            sock.sendall(f"GET {SERVER.url}/20210201/queues/nosuch/stats HTTP/1.1\r\n"
                         "Host: 127.0.0.1\r\n\r\n".encode())
            status, _, body = reader.response()
            self.assertEqual(status, 404, body)
            self.assertEqual(json.loads(body)["code"], "NotAuthorizedOrNotFound")

    def test_foreign_hosts_and_origins_are_refused_in_the_request_protocol(self):
        with connect() as sock:
            reader = Reader(sock)
            sock.sendall(b"GET /?Action=ListQueues HTTP/1.1\r\nHost: rebind.example:9324\r\n\r\n")
            status, _, body = reader.response()
            self.assertEqual(status, 403)
            self.assertEqual(xml_text(body, "Code"), "AccessDenied")
            self.assertIn(b"--allow-host rebind.example", body)
            sock.sendall(json_request("ListQueues", {}, "Origin: https://evil.example\r\n"))
            status, headers, body = reader.response()
            self.assertEqual(status, 403)
            self.assertEqual(headers["x-amzn-query-error"], "AccessDenied;Sender")
            self.assertNotIn("access-control-allow-origin", headers)
            sock.sendall(oci_request("POST", "q/messages", {"messages": [{"content": "x"}]},
                                     "r1").replace(b"Host: 127.0.0.1",
                                                   b"Host: 127.0.0.1\r\nOrigin: null"))
            status, _, body = reader.response()
            self.assertEqual(status, 401)
            self.assertEqual(json.loads(body)["code"], "NotAuthenticated")
            # Loopback names of every spelling are the endpoint's own.
            for host in (b"localhost:1", b"LOCALHOST.", b"127.0.0.2", b"[::1]:9324",
                         b"app.localhost"):
                sock.sendall(b"GET /?Action=ListQueues HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
                status, _, body = reader.response()
                self.assertEqual(status, 200, host)


class SocketThreading(unittest.TestCase):
    def test_sockets_have_a_thread_of_their_own_only_when_asked(self):
        # Headless serves them on the engine's thread unless --socket-thread (the window's way).
        names = thread_names(SERVER.process.pid)
        self.assertEqual("inflight-http" in names, "--socket-thread" in headless_options(), names)


class FileSizeLimitedInflight(InflightProcess):
    """`inflight --headless` on a workspace whose files cannot grow past `limit` bytes
    (RLIMIT_FSIZE, SIGXFSZ ignored): a full disk for this process alone, without privileges.
    allow_growth() lifts the limit while it runs, as freeing disk space would."""

    def __init__(self, limit, *options):
        def limit_files():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes fail with EFBIG instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

        super().__init__(*options, preexec_fn=limit_files)

    def allow_growth(self):
        resource.prlimit(self.process.pid, resource.RLIMIT_FSIZE,
                         (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


NOT_STORED = "The workspace could not store this change, so it is not acknowledged."


class HttpServerWithAWorkspaceThatCannotStore(unittest.TestCase):
    """Acknowledged means durable: while commits fail, every answer that would acknowledge an
    unstored change is an HTTP 500 in its request's protocol, on a connection that stays open."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="inflight-e2e-full-")
        self.workspace = os.path.join(self.folder, "w.inflight")
        # --sync full: the file size limit stands for a full disk only while nothing empties the
        # WAL; under normal, the checkpoint a second after each commit would let the WAL start
        # over within its limit, and the disk would seem to have room again.
        self.server = FileSizeLimitedInflight(256 * 1024, "--workspace", self.workspace,
                                              "--sync", "full", "--oci-queue", "full-oci")

    def tearDown(self):
        self.server.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, name):
        return queue_url(name, self.server.url)

    def expect_json_internal_error(self, response):
        status, headers, body = response
        self.assertEqual(status, 500, body)
        self.assertEqual(headers.get("x-amzn-query-error"), "InternalError;Receiver")
        self.assertEqual(headers.get("content-type"), "application/x-amz-json-1.0")
        self.assertTrue(headers.get("x-amzn-requestid"))
        error = json.loads(body)
        self.assertEqual(error["__type"], "com.amazonaws.sqs#InternalError")
        # Then the store's own reason, which names the workspace.
        self.assertTrue(error["message"].startswith(NOT_STORED + " "), error["message"])
        self.assertIn(self.workspace, error["message"])

    def expect_query_internal_error(self, response):
        status, headers, body = response
        self.assertEqual(status, 500, body)
        self.assertEqual(headers.get("content-type"), "text/xml")
        self.assertIn(b"<ErrorResponse", body)
        self.assertEqual(xml_text(body, "Type"), "Receiver")
        self.assertEqual(xml_text(body, "Code"), "InternalError")
        self.assertTrue(xml_text(body, "Message").startswith(NOT_STORED), body)

    def test_failed_commits_are_answered_500_in_each_protocol_and_stored_once_there_is_room(self):
        with connect(self.server.url) as sock, connect(self.server.url) as waiting:
            reader = Reader(sock)
            for name in ("full", "full-wait"):
                sock.sendall(json_request("CreateQueue", {"QueueName": name}))
                self.assertEqual(reader.response()[0], 200)

            # SQS JSON: send until the workspace's files cannot grow any more.
            acknowledged = 0
            send = json_request("SendMessage", {"QueueUrl": self.url("full"),
                                                "MessageBody": "x" * 4000})
            for _ in range(200):
                sock.sendall(send)
                response = reader.response()  # never a closed connection
                if response[0] != 200:
                    break
                acknowledged += 1
            self.expect_json_internal_error(response)

            # SQS Query, on the same connection: it stays open and keeps answering.
            sock.sendall(query_request(f"Action=SendMessage&Version=2012-11-05"
                                       f"&QueueUrl={self.url('full')}&MessageBody=by-query"))
            self.expect_query_internal_error(reader.response())

            # OCI REST, with the request's opc-request-id.
            sock.sendall(oci_request("POST", "full-oci/messages",
                                     {"messages": [{"content": "by-oci"}]}, "e2e-full-disk"))
            status, headers, body = reader.response()
            self.assertEqual(status, 500, body)
            self.assertEqual(headers.get("opc-request-id"), "e2e-full-disk")
            error = json.loads(body)
            self.assertEqual(error["code"], "InternalServerError")
            self.assertTrue(error["message"].startswith(NOT_STORED), error["message"])

            # A long poll that a send completes: its answer (in its own protocol) would
            # acknowledge a receive that was not stored either.
            waiting.sendall(query_request(f"Action=ReceiveMessage&Version=2012-11-05"
                                          f"&QueueUrl={self.url('full-wait')}"
                                          f"&WaitTimeSeconds=10"))
            time.sleep(0.2)
            sock.sendall(json_request("SendMessage", {"QueueUrl": self.url("full-wait"),
                                                      "MessageBody": "wake"}))
            self.expect_json_internal_error(reader.response())
            self.expect_query_internal_error(Reader(waiting).response())

            # Room again: the next commit stores everything, the unacknowledged changes too
            # (the engine made them; only the answers said otherwise).
            self.server.allow_growth()
            sock.sendall(json_request("GetQueueAttributes", {
                "QueueUrl": self.url("full"), "AttributeNames": ["ApproximateNumberOfMessages"]}))
            status, _, body = reader.response()
            self.assertEqual(status, 200, body)
            expected = acknowledged + 2  # the JSON and Query sends answered with 500
            self.assertEqual(
                json.loads(body)["Attributes"]["ApproximateNumberOfMessages"], str(expected))

        self.assertEqual(self.server.stop(), 0, "inflight exits cleanly on SIGTERM")
        with InflightProcess("--workspace", self.workspace) as reopened:
            with connect(reopened.url) as sock:
                sock.sendall(json_request("GetQueueAttributes", {
                    "QueueUrl": queue_url("full", reopened.url),
                    "AttributeNames": ["ApproximateNumberOfMessages"]}))
                status, _, body = Reader(sock).response()
                self.assertEqual(status, 200, body)
                self.assertEqual(
                    json.loads(body)["Attributes"]["ApproximateNumberOfMessages"],
                    str(expected))


if __name__ == "__main__":
    unittest.main(verbosity=2)
