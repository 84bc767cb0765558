"""Web pages in the user's browser against `inflight --headless`: a hostile page served on another
port of 127.0.0.1 (the same site, another origin: the hard case) posts forms, loads images and
iframes, fetches and sends beacons to the endpoint in Debian's headless Chromium, and none of it
changes or reads anything; a DNS-rebound origin (rebind.test resolved to 127.0.0.1) is refused by
its Host; a page of an origin allowed with --allow-origin works and reads the answers. A relay in
front of the endpoint records what the browser really sent, so that "nothing changed" cannot come
from a request that never left it. Run with /usr/bin/python3 by ctest (label e2e)."""

import functools
import html
import http.client
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import parse_qsl, quote, urlencode, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import boto3  # noqa: E402
import botocore.config  # noqa: E402

from inflight_process import InflightProcess  # noqa: E402

PAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "browser_pages")
OCI_QUEUE = "ocivictim"  # OCI and SQS queues share names: the OCI victim has one of its own
BODIES = ["first", "second"]
FAILURES = []
PASSED = []


def check(condition, name, detail=""):
    (PASSED if condition else FAILURES).append(name)
    print(("ok   " if condition else "FAIL ") + name + (f": {detail}" if detail and not condition
                                                        else ""))
    return condition


class Fatal(Exception):
    """A step the rest of the test cannot go on without."""


# ---- clients -----------------------------------------------------------------------------------

def sqs_client(url):
    return boto3.session.Session().client(
        "sqs", endpoint_url=url, region_name="us-east-1",
        aws_access_key_id="test", aws_secret_access_key="test",
        config=botocore.config.Config(retries={"max_attempts": 1}))


def request(url, method, path, body=b"", headers=None):
    """One request over a connection of its own, only the given headers (and Host, unless given):
    no User-Agent, no Origin, nothing of a browser. Returns (status, headers, body text)."""
    address = urlparse(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text
    finally:
        connection.close()


def query(url, form, headers=None):
    body = urlencode(form).encode()
    return request(url, "POST", "/", body, {
        "Content-Type": "application/x-www-form-urlencoded; charset=utf-8", **(headers or {})})


def oci_stats(url):
    status, _, text = request(url, "GET", f"/20210201/queues/{OCI_QUEUE}/stats")
    if status != 200:
        raise Fatal(f"OCI GetStats answered {status}: {text}")
    queue = json.loads(text)["queue"]
    return queue["visibleMessages"], queue["inFlightMessages"]


# ---- the servers the browser talks to ----------------------------------------------------------

class PageServer:
    """browser_pages/ over http.server on a port of its own: another origin than the endpoint."""

    def __init__(self):
        handler = functools.partial(QuietFiles, directory=PAGES)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


class Exchange:
    """One request the browser sent through the relay and the endpoint's answer."""

    def __init__(self, method, target, headers, body):
        self.method, self.target, self.headers, self.body = method, target, headers, body
        self.status, self.answer = None, ""
        address = urlparse(target)
        self.path = address.path
        fields = dict(parse_qsl(address.query))
        text = body.decode("utf-8", "replace")
        kind = headers.get("content-type", "")
        if kind.startswith("multipart/form-data"):
            fields.update(re.findall(r'name="([^"]+)"\r\n\r\n([^\r]*)\r\n', text))
        elif not kind.startswith("application/x-amz-json") and "=" in text:
            fields.update((k, v.strip()) for k, v in parse_qsl(text.strip()))
        self.fields = fields
        self.text = text

    def line(self):
        def header(name):
            return self.headers.get(name, "-")
        return (f"{self.status} {self.method} {self.target[:60]} "
                f"[Host {header('host')}, Origin {header('origin')}, "
                f"Sec-Fetch-Site {header('sec-fetch-site')}, "
                f"Content-Type {header('content-type').split(';')[0]}]")


def split_messages(data):
    """Splits an HTTP/1.1 byte stream (Content-Length framed) into (start line, headers, body)."""
    while b"\r\n\r\n" in data:
        head, data = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0") or 0)
        body, data = data[:length], data[length:]
        yield lines[0], headers, body


class Relay:
    """A TCP relay in front of the endpoint that records every byte both ways (the endpoint keeps
    no request log). It also plays the attacker of a DNS rebinding: a connection whose first
    request is GET /__page/NAME gets browser_pages/NAME instead and is closed, so that the same
    origin's next connections reach the endpoint, as they would once the attacker's DNS answer
    has turned into 127.0.0.1."""

    def __init__(self, upstream):
        self.upstream = urlparse(upstream).port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.streams = []
        threading.Thread(target=self._accept, daemon=True).start()

    def stop(self):
        self.listener.close()

    def take(self):
        """The exchanges recorded since the last call."""
        with self.lock:
            streams = [(bytes(sent), bytes(received)) for sent, received in self.streams]
            self.streams = []
        exchanges = []
        for sent, received in streams:
            answers = list(split_messages(received))
            for i, (start, headers, body) in enumerate(split_messages(sent)):
                method, target = start.split(" ")[:2]
                exchange = Exchange(method, target, headers, body)
                if i < len(answers):
                    exchange.status = int(answers[i][0].split(" ")[1])
                    exchange.answer = answers[i][2].decode("utf-8", "replace")
                exchanges.append(exchange)
        return exchanges

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        with client:
            first = b""
            while b"\r\n\r\n" not in first:
                chunk = client.recv(65536)
                if not chunk:
                    return
                first += chunk
            start = first.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
            if start[0] == "GET" and start[1].startswith("/__page/"):
                self._serve_page(client, urlparse(start[1]).path[len("/__page/"):])
                return
            sent, received = bytearray(), bytearray()
            with self.lock:
                self.streams.append((sent, received))
            with socket.create_connection(("127.0.0.1", self.upstream), timeout=30) as upstream:
                back = threading.Thread(target=self._pump, args=(upstream, client, received),
                                        daemon=True)
                back.start()
                self._pump(client, upstream, sent, first)
                back.join(30)

    def _pump(self, source, sink, record, first=b""):
        try:
            data = first or source.recv(65536)
            while data:
                with self.lock:
                    record.extend(data)
                sink.sendall(data)
                data = source.recv(65536)
        except OSError:
            pass
        finally:
            try:
                sink.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    @staticmethod
    def _serve_page(client, name):
        path = os.path.join(PAGES, os.path.basename(name))
        with open(path, "rb") as page:
            body = page.read()
        kind = "application/javascript" if name.endswith(".js") else "text/html; charset=utf-8"
        client.sendall((f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}"
                        "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n").encode() + body)


# ---- Chromium ----------------------------------------------------------------------------------

def find_chromium():
    chromium = shutil.which("chromium") or ("/usr/bin/chromium"
                                            if os.path.exists("/usr/bin/chromium") else None)
    if not chromium:
        raise Fatal("Debian's chromium is not installed: this test needs it to load pages in a "
                    "real browser. Install it with `bash scripts/deps.sh` (as root), as CI does.")
    return chromium


class Chromium:
    def __init__(self, binary, scratch):
        self.binary, self.scratch, self.runs = binary, scratch, 0

    def dump_dom(self, url, *options):
        """Loads url in a fresh headless Chromium (a new profile each time) and returns the DOM
        once the page's virtual time budget has run out."""
        self.runs += 1
        home = tempfile.mkdtemp(prefix=f"chromium-{self.runs}-", dir=self.scratch)
        command = [self.binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                   "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync",
                   f"--user-data-dir={os.path.join(home, 'profile')}",
                   "--virtual-time-budget=5000", *options, "--dump-dom", url]
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"))
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   stdin=subprocess.DEVNULL, env=env, text=True,
                                   start_new_session=True)
        try:
            dom, errors = process.communicate(timeout=45)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise Fatal(f"chromium did not finish loading {url} within 45 s")
        finally:
            try:  # whatever Chromium left behind in its own process group
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if process.returncode != 0 or not dom.strip():
            raise Fatal(f"chromium exited with {process.returncode} on {url}: "
                        + "\n".join(errors.splitlines()[-15:]))
        self.last_errors = errors
        return dom

    def page_results(self, url, *options):
        """The JSON that a page of browser_pages/ wrote into <pre id="result">."""
        dom = self.dump_dom(url, *options)
        match = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
        if not match or not match.group(1).strip():
            raise Fatal(f"{url} recorded no result; the DOM was: {dom[:2000]}\nChromium said: "
                        + "\n".join(self.last_errors.splitlines()[-15:]))
        return json.loads(html.unescape(match.group(1)))


# ---- the checks --------------------------------------------------------------------------------

def read_nothing(result):
    """A fetch that read nothing: an opaque answer (no-cors) or an error (CORS, network)."""
    if "error" in result:
        return True
    return result.get("type") == "opaque" and result.get("status") == 0 and not result.get("text")


def attack_expectations(oci_path):
    """What each of attack.html's attempts must have put on the wire, by the fields it sent."""
    def sent(method, path="/", **fields):
        return lambda e: (e.method == method and e.path == path
                          and all(e.fields.get(k) == v for k, v in fields.items()))

    def oci_put(content):
        return lambda e: e.method == "POST" and e.path == oci_path and content in e.text

    return {
        "form-create": sent("POST", Action="CreateQueue", QueueName="pwned"),
        "form-purge": sent("POST", Action="PurgeQueue"),
        "form-delete": sent("POST", Action="DeleteQueue"),
        "form-send": sent("POST", Action="SendMessage", MessageBody="form-send"),
        "form-plain-send": sent("POST", Action="SendMessage", MessageBody="plain-form"),
        "form-multipart-send": sent("POST", Action="SendMessage", MessageBody="multipart-form"),
        "form-oci-put": oci_put("form-oci"),
        "img-create": sent("GET", Action="CreateQueue", QueueName="pwned2"),
        "img-receive": sent("GET", Action="ReceiveMessage", VisibilityTimeout="601"),
        "iframe-delete": sent("GET", Action="DeleteQueue"),
        "img-oci-get": sent("GET", oci_path, visibilityInSeconds="601"),
        "fetch-plain-send": sent("POST", Action="SendMessage", MessageBody="fetch-plain"),
        "fetch-form-create": sent("POST", Action="CreateQueue", QueueName="pwned-fetch"),
        "fetch-receive": sent("GET", Action="ReceiveMessage", VisibilityTimeout="602"),
        "fetch-receive-no-cors": sent("GET", Action="ReceiveMessage", VisibilityTimeout="603"),
        "fetch-json (preflight)": lambda e: (e.method == "OPTIONS" and "x-amz-target" in
                                             e.headers.get("access-control-request-headers", "")),
        "fetch-oci-get": sent("GET", oci_path, visibilityInSeconds="602"),
        "fetch-oci-put": oci_put("fetch-oci"),
        "beacon-create": sent("POST", Action="CreateQueue", QueueName="pwned-beacon"),
        "beacon-send": sent("POST", Action="SendMessage", MessageBody="beacon-plain"),
    }


def refused(exchange):
    """The endpoint's refusal, in the request's protocol."""
    if exchange.path.startswith("/20210201/"):
        return exchange.status == 401 and "NotAuthenticated" in exchange.answer
    return exchange.status == 403 and "AccessDenied" in exchange.answer


def check_attack(chromium, pages, server, relay, victim_url):
    oci_path = f"/20210201/queues/{OCI_QUEUE}/messages"
    targets = [server.url, f"http://127.0.0.1:{relay.port}"]
    url = (f"{pages.origin}/attack.html?"
           + urlencode([("target", t) for t in targets] + [("queue", victim_url),
                                                           ("oci", OCI_QUEUE)]))
    results = chromium.page_results(url)
    check(results.get("settled") is True, "the attack page's requests all settled", results)
    for key, result in sorted(results.items()):
        if key == "settled":
            continue
        if "pending" in result:
            check(False, f"attack {key} settled", result)
        elif "img" in result:
            check(result["img"] == "error", f"attack {key}: the image did not load", result)
        elif "type" in result or "error" in result:
            check(read_nothing(result), f"attack {key} read nothing", result)
            leaked = [word for word in ["000000000000", *BODIES]
                      if word in json.dumps(result)]
            check(not leaked, f"attack {key} saw no queue URL or message body", result)
        elif "queued" in result:
            check(result["queued"] is True, f"attack {key}: the browser queued the beacon")

    # What reached the endpoint through the relay (target 1): every attempt, every one refused.
    exchanges = relay.take()
    print(f"     the relay saw {len(exchanges)} requests from the attack page:")
    for exchange in exchanges:
        print("       " + exchange.line())
    for name, matches in attack_expectations(oci_path).items():
        seen = [e for e in exchanges if matches(e)]
        if check(seen, f"the browser sent {name} to the endpoint"):
            check(all(refused(e) for e in seen), f"the endpoint refused {name}",
                  "; ".join(e.line() + " " + e.answer[:200] for e in seen))
    check(all(refused(e) for e in exchanges), "the endpoint refused every request of the page",
          "; ".join(e.line() for e in exchanges if not refused(e)))
    check(not [e for e in exchanges if e.headers.get("x-amz-target")],
          "no preflighted JSON request got past its preflight")
    check(all(e.headers.get("origin") == pages.origin
              or e.headers.get("sec-fetch-site") == "same-site" for e in exchanges),
          "every request showed the page's Origin or Sec-Fetch-Site: same-site")


def check_direct_requests(server, page_origin, victim_url):
    """The guard on its own, with http.client: a page's Origin, a foreign Host and the browser's
    markers are refused; the same request without them works, so the refusals are the guard's."""
    listing = {"Action": "ListQueues"}
    status, _, text = query(server.url, listing)
    check(status == 200 and victim_url in text,
          "ListQueues without Origin works (the endpoint is up)", f"{status} {text[:300]}")
    status, headers, text = query(server.url, listing, {"Origin": page_origin})
    check(status == 403 and "<Code>AccessDenied</Code>" in text and victim_url not in text,
          "ListQueues with the page's Origin is refused: 403 AccessDenied",
          f"{status} {text[:300]}")
    check("access-control-allow-origin" not in headers, "the refusal carries no CORS grant",
          headers)
    status, _, text = query(server.url, listing, {"Host": "evil.test"})
    check(status == 403 and "<Code>AccessDenied</Code>" in text,
          "ListQueues with Host: evil.test is refused: 403 AccessDenied", f"{status} {text[:300]}")
    status, _, text = query(server.url, listing, {"Host": f"evil.test:{urlparse(server.url).port}"})
    check(status == 403, "Host: evil.test:PORT is refused", f"{status} {text[:300]}")
    status, _, text = query(server.url, listing, {"Sec-Fetch-Site": "same-site"})
    check(status == 403 and "AccessDenied" in text,
          "Sec-Fetch-Site: same-site without Origin is refused", f"{status} {text[:300]}")
    status, _, text = request(server.url, "POST", "/", b"Action=ListQueues",
                              {"Content-Type": "text/plain"})
    check(status == 403 and "AccessDenied" in text, "a text/plain Query POST is refused",
          f"{status} {text[:300]}")
    status, _, text = request(server.url, "GET", "/?Action=CreateQueue&QueueName=pwned-ua",
                              headers={"User-Agent": "Mozilla/5.0"})
    check(status == 403 and "AccessDenied" in text,
          "a browser's GET of CreateQueue is refused", f"{status} {text[:300]}")
    status, _, text = request(server.url, "GET", "/?Action=ListQueues",
                              headers={"User-Agent": "Mozilla/5.0"})
    check(status == 200 and victim_url in text, "a browser's GET of ListQueues (read-only) works",
          f"{status} {text[:300]}")
    status, _, text = request(server.url, "POST", "/", b"{}", {
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "AmazonSQS.ListQueues",
        "Origin": page_origin})
    check(status == 403 and "AccessDenied" in text,
          "JSON ListQueues with the page's Origin is refused", f"{status} {text[:300]}")
    status, headers, text = request(server.url, "OPTIONS", "/", headers={
        "Origin": page_origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-amz-target"})
    check(status == 403 and "access-control-allow-origin" not in headers,
          "the page's CORS preflight is refused", f"{status} {headers} {text[:300]}")
    status, _, text = request(server.url, "GET", f"/20210201/queues/{OCI_QUEUE}/stats",
                              headers={"Origin": page_origin})
    check(status == 401 and "NotAuthenticated" in text,
          "OCI GetStats with the page's Origin is refused: 401 NotAuthenticated",
          f"{status} {text[:300]}")
    status, _, text = request(server.url, "GET", f"/20210201/queues/{OCI_QUEUE}/messages",
                              headers={"User-Agent": "Mozilla/5.0"})
    check(status == 401 and "NotAuthenticated" in text,
          "a browser's OCI GetMessages is refused", f"{status} {text[:300]}")


def check_rebinding(chromium, server, relay):
    port = urlparse(server.url).port
    rules = "--host-resolver-rules=MAP rebind.test 127.0.0.1"
    # The control: the same navigation by the endpoint's own name is a read-only GET, and works.
    dom = chromium.dump_dom(f"{server.url}/?Action=ListQueues")
    check("ListQueuesResponse" in dom and "/000000000000/victim" in dom,
          "Chromium opening the endpoint by its address reads ListQueues (the control)", dom[-600:])
    dom = chromium.dump_dom(f"http://rebind.test:{port}/?Action=ListQueues", rules)
    check("AccessDenied" in dom and "ListQueuesResponse" not in dom
          and "000000000000" not in dom,
          "Chromium opening the endpoint as rebind.test gets AccessDenied, not the queues",
          dom[-600:])

    # A page of the rebound origin: its same-origin requests carry an Origin that matches Host.
    results = chromium.page_results(
        f"http://rebind.test:{relay.port}/__page/rebind.html?oci={OCI_QUEUE}", rules)
    check(results.get("settled") is True, "the rebinding page's requests all settled", results)
    for key in ["json-list", "json-create", "form-create", "get-list", "oci-stats"]:
        result = results.get(key, {})
        refusal = "NotAuthenticated" if key.startswith("oci") else "AccessDenied"
        check(result.get("status") in (401, 403) and refusal in result.get("text", "")
              and "000000000000" not in result.get("text", ""),
              f"rebinding page {key}: refused ({refusal}), nothing read", result)
    exchanges = [e for e in relay.take() if e.headers.get("host", "").startswith("rebind.test")]
    print(f"     the relay saw {len(exchanges)} requests from the rebinding page:")
    for exchange in exchanges:
        print("       " + exchange.line())
    check(len(exchanges) >= 5 and all(refused(e) for e in exchanges),
          "the endpoint refused every request of the rebinding page",
          "; ".join(e.line() for e in exchanges))


def check_allowed_origin(chromium, pages):
    with InflightProcess("--allow-origin", pages.origin) as allowed:
        friend = sqs_client(allowed.url).create_queue(QueueName="friend")["QueueUrl"]
        status, headers, _ = request(allowed.url, "OPTIONS", "/", headers={
            "Origin": pages.origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-amz-target"})
        check(status == 204 and headers.get("access-control-allow-origin") == pages.origin
              and "POST" in headers.get("access-control-allow-methods", "")
              and "x-amz-target" in headers.get("access-control-allow-headers", "").lower(),
              "with --allow-origin, the page's preflight gets 204 and the CORS headers",
              f"{status} {headers}")
        status, headers, _ = query(allowed.url, {"Action": "ListQueues"},
                                   {"Origin": "http://127.0.0.1:1"})
        check(status == 403, "with --allow-origin, other origins are still refused", status)

        results = chromium.page_results(
            f"{pages.origin}/allowed.html?endpoint={quote(allowed.url, safe='')}")
        listed = results.get("json-list", {})
        check(listed.get("status") == 200 and friend in listed.get("text", ""),
              "the allowed page's fetch of ListQueues (JSON, preflighted) reads the queue URL",
              listed)
        check(allowed.stop() == 0, "the second endpoint exits cleanly on SIGTERM")


def main():
    started = time.monotonic()
    scratch = tempfile.mkdtemp(prefix="inflight-browser-origin-")
    for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE"):
        os.environ.pop(name, None)
    os.environ["AWS_CONFIG_FILE"] = os.path.join(scratch, "aws-config")
    os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(scratch, "aws-credentials")
    server = pages = relay = None
    try:
        chromium = Chromium(find_chromium(), scratch)
        pages = PageServer()
        server = InflightProcess("--oci-queue", OCI_QUEUE)
        relay = Relay(server.url)
        sqs = sqs_client(server.url)
        victim = sqs.create_queue(QueueName="victim")["QueueUrl"]
        for body in BODIES:
            sqs.send_message(QueueUrl=victim, MessageBody=body)
        before = sqs.get_queue_attributes(QueueUrl=victim, AttributeNames=["All"])["Attributes"]
        status, _, text = request(server.url, "POST", f"/20210201/queues/{OCI_QUEUE}/messages",
                                  json.dumps({"messages": [{"content": b} for b in BODIES]}),
                                  {"Content-Type": "application/json"})
        if status != 200:
            raise Fatal(f"OCI PutMessages answered {status}: {text}")

        check_attack(chromium, pages, server, relay, victim)
        check_direct_requests(server, pages.origin, victim)
        check_rebinding(chromium, server, relay)
        check_allowed_origin(chromium, pages)

        # Nothing changed: no queue made, the victim as it was, its two messages still visible.
        names = sorted(u.rsplit("/", 1)[1] for u in sqs.list_queues().get("QueueUrls", []))
        check(names == ["victim"], "no queue was created or deleted", names)
        after = sqs.get_queue_attributes(QueueUrl=victim, AttributeNames=["All"])["Attributes"]
        check(after.get("ApproximateNumberOfMessages") == "2"
              and after.get("ApproximateNumberOfMessagesNotVisible") == "0",
              "victim still has its 2 messages, both visible (none received)", after)
        check(after == before, "victim's attributes are unchanged", f"{before} -> {after}")
        check(oci_stats(server.url) == (2, 0),
              "the OCI queue still has its 2 messages, both visible", oci_stats(server.url))
        received = sqs.receive_message(QueueUrl=victim, MaxNumberOfMessages=10,
                                       VisibilityTimeout=30)
        check(sorted(m["Body"] for m in received.get("Messages", [])) == BODIES,
              "victim holds exactly its own two messages", received.get("Messages"))
        check(server.stop() == 0, "inflight exits cleanly on SIGTERM")
    except Fatal as error:
        check(False, "the test could run", str(error))
    finally:
        for part in (relay, server, pages):
            if part is not None:
                part.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    seconds = time.monotonic() - started
    if FAILURES:
        print(f"browser origin: {len(FAILURES)} of {len(FAILURES) + len(PASSED)} checks FAILED "
              f"in {seconds:.1f} s:\n  " + "\n  ".join(FAILURES), file=sys.stderr)
        return 1
    print(f"browser origin: all {len(PASSED)} checks passed in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
