"""Connection limits and timeouts of `inflight --headless`: no client can take the server's
descriptors or its time.

- 1,100 idle connections and 300 slow senders against a server limited to 1,024 open files: new
  clients are still answered within a second, and the server's CPU stays near idle.
- Idle and header timeouts close quiet and slow connections, but never a parked long poll.
- When every connection it may keep is busy (long polls), a new client gets a 503 at once.
"""

import http.client
import os
import resource
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inflight_process import InflightProcess  # noqa: E402

FAILURES = []
PASSED = []


def check(name, condition, detail=""):
    (PASSED if condition else FAILURES).append(name)
    print(("ok   " if condition else "FAIL ") + name + (f": {detail}" if detail else ""))


def host_port(url):
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def limit_files(count):
    def apply():
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))

    return apply


def cpu_seconds(pid):
    """User + system CPU time of a process so far, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def list_queues(url, timeout=5.0):
    """One ListQueues on a new connection; (status, seconds)."""
    host, port = host_port(url)
    start = time.monotonic()
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request(
            "POST",
            "/",
            body="Action=ListQueues&Version=2012-11-05",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - start
    finally:
        connection.close()


def open_connections(url, count, first_bytes=b""):
    host, port = host_port(url)
    sockets = []
    for _ in range(count):
        s = socket.create_connection((host, port), timeout=5)
        if first_bytes:
            s.sendall(first_bytes)
        s.setblocking(False)
        sockets.append(s)
    return sockets


def closed_by_server(s, wait):
    """Whether the server closes `s` within `wait` seconds (EOF or reset)."""
    s.settimeout(wait)
    try:
        return s.recv(4096) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_flood_of_idle_and_slow_clients():
    # The test itself holds 1,400+ sockets.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    with InflightProcess(preexec_fn=limit_files(1024)) as server:
        idle = open_connections(server.url, 1100)
        slow = open_connections(server.url, 300, b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            # The slow senders keep trickling a header byte now and then.
            for s in slow:
                try:
                    s.send(b"X")
                except OSError:
                    pass  # closed to make room: that is the point
            worst = 0.0
            statuses = []
            for _ in range(10):
                status, seconds = list_queues(server.url)
                statuses.append(status)
                worst = max(worst, seconds)
            check("new clients are answered among 1,400 idle and slow connections",
                  statuses == [200] * 10, f"statuses {statuses}")
            check("within a second each", worst < 1.0, f"slowest {worst:.3f} s")

            before = cpu_seconds(server.process.pid)
            time.sleep(3)
            used = cpu_seconds(server.process.pid) - before
            check("the server stays near idle while they hold on", used < 0.3,
                  f"{used:.2f} s of CPU in 3 s")
            check("the server is still running", server.process.poll() is None)
        finally:
            for s in idle + slow:
                s.close()


def test_timeouts():
    with InflightProcess("--idle-timeout", "1", "--header-timeout", "1") as server:
        host, port = host_port(server.url)
        idle = socket.create_connection((host, port))
        check("an idle connection is closed after the idle timeout",
              closed_by_server(idle, 4.0))
        idle.close()

        slow = socket.create_connection((host, port))
        slow.sendall(b"GET /?Action=ListQueues HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        start = time.monotonic()
        # Bytes keep coming, but the headers never end: the header timeout, not the idle one.
        closed = False
        while time.monotonic() - start < 4.0 and not closed:
            try:
                slow.sendall(b"X-Slow: 1\r\n")
            except OSError:
                closed = True
                break
            closed = closed_by_server(slow, 0.3)
        check("headers that never end are cut off by the header timeout", closed,
              f"after {time.monotonic() - start:.1f} s")
        slow.close()

        # A long poll parked for longer than the idle timeout is answered, not dropped.
        connection = http.client.HTTPConnection(host, port, timeout=10)
        form = "Action=CreateQueue&QueueName=waiting&Version=2012-11-05"
        connection.request("POST", "/", body=form,
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
        created = connection.getresponse()
        created.read()
        start = time.monotonic()
        connection.request(
            "POST",
            "/",
            body=f"Action=ReceiveMessage&QueueUrl={server.url}/000000000000/waiting"
            "&WaitTimeSeconds=3&Version=2012-11-05",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        answer = connection.getresponse()
        answer.read()
        waited = time.monotonic() - start
        check("a long poll outlives the idle timeout", answer.status == 200 and waited >= 2.5,
              f"status {answer.status} after {waited:.1f} s")
        connection.close()


def test_busy_server_refuses_with_503():
    # Two connections at most; both hold long polls, so neither can make room.
    with InflightProcess("--max-connections", "2") as server:
        host, port = host_port(server.url)
        setup = http.client.HTTPConnection(host, port, timeout=10)
        setup.request("POST", "/", body="Action=CreateQueue&QueueName=busy",
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
        setup.getresponse().read()
        setup.close()
        polls = []
        for _ in range(2):
            poll = socket.create_connection((host, port))
            body = (f"Action=ReceiveMessage&QueueUrl={server.url}/000000000000/busy"
                    "&WaitTimeSeconds=5").encode()
            poll.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         b"application/x-www-form-urlencoded\r\nContent-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n" + body)
            polls.append(poll)
        time.sleep(0.3)
        status, seconds = list_queues(server.url)
        check("a client beyond the limit, with nothing idle to close, gets a 503 at once",
              status == 503 and seconds < 1.0, f"status {status} in {seconds:.3f} s")
        # A client that is slow to send its request still reads the 503: the server answers,
        # then reads until the client hangs up, rather than resetting the request it is sending.
        late = socket.create_connection((host, port), timeout=5)
        time.sleep(0.3)  # answered and shut by now
        body = b"Action=ListQueues&Version=2012-11-05"
        late.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n")
        time.sleep(0.2)
        try:
            late.sendall(body)
            answer = late.recv(4096)
        except OSError as error:
            answer = repr(error).encode()
        late.close()
        check("a refused client still sending its request reads the 503, not a reset",
              answer.startswith(b"HTTP/1.1 503") and b"Retry-After: 1" in answer,
              answer[:60].decode(errors="replace"))
        for poll in polls:
            poll.close()
        time.sleep(0.3)
        status, _ = list_queues(server.url)
        check("once the long polls are gone, clients are served again", status == 200,
              f"status {status}")


def main():
    test_flood_of_idle_and_slow_clients()
    test_timeouts()
    test_busy_server_refuses_with_503()
    print(f"{len(PASSED)} passed, {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
