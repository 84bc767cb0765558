"""`inflight --headless --scenario FILE` (README "Simulations and lessons"): a lesson's system runs
behind the endpoint on a frozen clock that the test moves through the control API; GET actors
shows every actor's figures, POST actors/{name}/... starts and stops them, POST scenario loads one
all or nothing; a bad scenario file starts nothing and exits 2 with its line, column and field.
Only the test of a running clock waits for engine time."""

import http.client
import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import boto3  # noqa: E402
import botocore.config  # noqa: E402

from inflight_process import InflightProcess, headless_command  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LESSON_1 = os.path.join(ROOT, "resources", "scenarios", "01-visibility-timeout-duplicates.json")
LESSON_2 = os.path.join(ROOT, "resources", "scenarios", "02-poison-message-dlq.json")
LESSON_START = 1_714_554_000_000  # 2024-05-01T09:00:00Z, the lessons' clock.start


def control(server, method, path, body=None, raw=None):
    """(status, parsed JSON) of a control API call."""
    address = urlparse(server.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        payload = raw if raw is not None else (None if body is None else json.dumps(body))
        connection.request(method, "/_inflight/v1/" + path, body=payload)
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None
    finally:
        connection.close()


def advance(server, ms):
    status, clock = control(server, "POST", "clock", {"advanceMs": ms})
    assert status == 200, clock
    return clock


def actors(server):
    status, body = control(server, "GET", "actors")
    assert status == 200, body
    return {actor["name"]: actor for actor in body["actors"]}


def figures(server, name):
    return actors(server)[name]["figures"]


class LessonBehindTheEndpoint(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        warnings.simplefilter("ignore", ResourceWarning)
        home = tempfile.mkdtemp()
        os.environ["AWS_CONFIG_FILE"] = os.path.join(home, "config")
        os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(home, "credentials")
        cls.server = InflightProcess("--clock", "frozen", "--scenario", LESSON_1)

    @classmethod
    def tearDownClass(cls):
        assert cls.server.stop() == 0

    def test_1_the_lesson_runs_on_engine_time_and_shows_duplicates(self):
        server = self.server
        _, clock = control(server, "GET", "clock")
        # The scenario's start and speed; --clock frozen wins over its running clock.
        self.assertEqual((clock["now"], clock["paused"], clock["speed"]),
                         (LESSON_START, True, 10))
        listed = actors(server)
        self.assertEqual(list(listed), ["orders-feed", "slow-worker", "patient-worker",
                                        "heartbeat-worker"])
        self.assertEqual([a["state"] for a in listed.values()],
                         ["running", "running", "stopped", "stopped"])
        slow = listed["slow-worker"]
        self.assertEqual((slow["type"], slow["queue"], slow["origin"]),
                         ("consumer", "orders", "consumer slow-worker"))
        self.assertEqual(slow["spec"]["workers"], 3)
        self.assertEqual(slow["spec"]["processing"], {"uniform": [4, 8]})
        # The first order went out at the start, as the producer's first action.
        self.assertEqual(listed["orders-feed"]["figures"]["sent"], 1)

        for _ in range(6):
            advance(server, 30_000)
        feed = figures(server, "orders-feed")
        self.assertEqual(feed["sent"], 55)  # 0.3 a second for 180 s, and the first at 0
        slow = figures(server, "slow-worker")
        self.assertGreater(slow["processedMoreThanOnce"], 0)
        self.assertGreater(slow["processed"], 30)
        for name in ("sent", "received", "processed", "processedMoreThanOnce", "emptyReceives",
                     "busyWorkers", "latencyMean"):
            self.assertIn(name, slow)

        # The engine's events carry the actors' own origins.
        _, page = control(server, "GET", "events?after=0&limit=10000")
        origins = {e["origin"] for e in page["events"]}
        self.assertIn("producer orders-feed", origins)
        self.assertTrue({"consumer slow-worker/1", "consumer slow-worker/2"} <= origins, origins)

        # Real clients see the lesson's queue.
        sqs = boto3.session.Session().client(
            "sqs", endpoint_url=server.url, region_name="us-east-1",
            aws_access_key_id="AKIDLESSON", aws_secret_access_key="secret",
            config=botocore.config.Config(retries={"max_attempts": 1}))
        self.assertEqual([u.rsplit("/", 1)[1] for u in sqs.list_queues()["QueueUrls"]],
                         ["orders"])

    def test_2_fix_it_with_a_longer_visibility_timeout(self):
        server = self.server
        status, stopped = control(server, "POST", "actors/slow-worker/stop")
        self.assertEqual((status, stopped["state"]), (200, "stopped"))
        status, started = control(server, "POST", "actors/patient-worker/start")
        self.assertEqual((status, started["state"]), (200, "running"))
        before = figures(server, "slow-worker")
        for _ in range(6):
            advance(server, 30_000)
        patient = figures(server, "patient-worker")
        self.assertGreater(patient["processed"], 30)
        self.assertEqual(patient["processedMoreThanOnce"], 0)
        self.assertEqual(figures(server, "slow-worker")["receives"], before["receives"])
        status, paused = control(server, "POST", "actors/orders-feed/pause")
        self.assertEqual((status, paused["state"]), (200, "paused"))
        sent = paused["figures"]["sent"]
        advance(server, 30_000)
        self.assertEqual(figures(server, "orders-feed")["sent"], sent)
        self.assertEqual(control(server, "POST", "actors/orders-feed/resume")[1]["state"],
                         "running")

    def test_3_bad_actor_calls_are_refused(self):
        server = self.server
        status, error = control(server, "POST", "actors/nobody/start")
        self.assertEqual((status, error["error"]["code"]), (404, "ActorNotFound"))
        status, error = control(server, "GET", "actors/slow-worker/start")
        self.assertEqual((status, error["error"]["code"]), (405, "MethodNotAllowed"))
        status, error = control(server, "POST", "actors")
        self.assertEqual(status, 405)
        status, error = control(server, "POST", "actors/slow-worker/explode")
        self.assertEqual((status, error["error"]["code"]), (404, "NotFound"))

    def test_4_a_scenario_over_the_api_is_applied_all_or_nothing(self):
        server = self.server
        names = list(actors(server))
        bad = ('{"version": 1,\n "queues": [{"name": "extra"}],\n "actors": [\n'
               '  {"type": "consumer", "name": "extra-worker", "queue": "extra",\n'
               '   "receive": {"maxMessages": 11}}]}')
        status, error = control(server, "POST", "scenario", raw=bad)
        self.assertEqual(status, 400)
        self.assertEqual(error["error"]["code"], "InvalidScenario")
        self.assertEqual((error["error"]["line"], error["error"]["column"], error["error"]["path"]),
                         (5, 31, "actors[0].receive.maxMessages"))
        self.assertTrue(error["error"]["message"].startswith(
            "line 5, column 31, at actors[0].receive.maxMessages: "), error)
        self.assertEqual(list(actors(server)), names)
        status, _ = control(server, "GET", "queues/extra/messages")
        self.assertEqual(status, 404)  # nothing of it applied
        status, error = control(server, "POST", "scenario", raw="{\"version\": 1,")
        self.assertEqual((status, error["error"]["line"]), (400, 1))

        good = {"version": 1, "queues": [{"name": "extra"}],
                "actors": [{"type": "producer", "name": "extra-feed", "queue": "extra",
                            "rate": 2}]}
        status, loaded = control(server, "POST", "scenario?mode=add", good)
        self.assertEqual(status, 200, loaded)
        self.assertEqual((loaded["queuesCreated"], loaded["actors"]), (1, ["extra-feed"]))
        self.assertEqual(list(actors(server)), names + ["extra-feed"])
        _, clock = control(server, "GET", "clock")
        self.assertIs(clock["paused"], True)  # the test's clock stays as it is
        advance(server, 10_000)
        self.assertEqual(figures(server, "extra-feed")["sent"], 21)
        # Replacing (the default): its actors are all there is.
        status, loaded = control(server, "POST", "scenario", good | {"actors": [
            {"type": "consumer", "name": "extra-worker", "queue": "extra", "processing": 0}]})
        self.assertEqual(status, 200, loaded)
        self.assertEqual(list(actors(server)), ["extra-worker"])
        advance(server, 5_000)
        self.assertEqual(figures(server, "extra-worker")["processed"], 21)


class ScenarioFiles(unittest.TestCase):
    def test_the_same_scenario_and_clock_moves_give_the_same_run(self):
        runs = []
        for _ in range(2):
            with InflightProcess("--clock", "frozen", "--scenario", LESSON_2) as server:
                for _ in range(4):
                    advance(server, 15_000)
                _, page = control(server, "GET", "events?after=0&limit=10000")
                runs.append(([(e["kind"], e["time"], e.get("messageId"), e["origin"])
                              for e in page["events"]],
                             {name: a["figures"] for name, a in actors(server).items()}))
        self.assertGreater(len(runs[0][0]), 100)
        self.assertEqual(runs[0], runs[1])
        self.assertEqual(runs[0][1]["worker"]["poisoned"], 3)

    def test_headless_the_clock_runs_on_past_the_lessons_moments(self):
        # A lesson's pauseWhenMet steps are for a reader in the window; headless nobody reads
        # them, so the scenario's system runs on (lesson 1's first step would pause at 5 s).
        import time
        with InflightProcess("--speed", "200", "--scenario", LESSON_1) as server:
            began = time.monotonic()
            clock = control(server, "GET", "clock")[1]
            while clock["now"] < LESSON_START + 20_000 and time.monotonic() - began < 20:
                time.sleep(0.05)
                clock = control(server, "GET", "clock")[1]
            self.assertIs(clock["paused"], False)
            self.assertGreaterEqual(clock["now"], LESSON_START + 20_000)
            self.assertGreater(figures(server, "slow-worker")["processedMoreThanOnce"], 0)

    def test_reset_removes_the_actors_with_the_queues(self):
        with InflightProcess("--clock", "frozen", "--scenario", LESSON_1) as server:
            self.assertEqual(len(actors(server)), 4)
            status, body = control(server, "POST", "reset")
            self.assertEqual((status, body), (200, {"reset": True}))
            self.assertEqual(actors(server), {})
            advance(server, 30_000)  # nothing acts on the queues that are gone
            _, page = control(server, "GET", "events?after=0&limit=10000")
            after_reset = [e for e in page["events"] if e["time"] > LESSON_START + 1]
            self.assertEqual([e for e in after_reset if e["origin"].startswith(("producer",
                                                                               "consumer"))], [])

    def test_a_workspace_keeps_its_simulation(self):
        # The actors run in the workspace: reopened without --scenario, the same actors are back,
        # running or stopped as they were, and go on acting; figures start from zero.
        folder = tempfile.mkdtemp()
        workspace = os.path.join(folder, "lesson.inflight")
        with InflightProcess("--workspace", workspace, "--clock", "frozen",
                             "--scenario", LESSON_1) as server:
            advance(server, 30_000)
            status, _ = control(server, "POST", "actors/slow-worker/stop")
            self.assertEqual(status, 200)
            status, _ = control(server, "POST", "actors/patient-worker/start")
            self.assertEqual(status, 200)
            before = actors(server)
        with InflightProcess("--workspace", workspace, "--clock", "frozen") as server:
            after = actors(server)
            self.assertEqual(list(after), list(before))
            self.assertEqual({n: a["state"] for n, a in after.items()},
                             {"orders-feed": "running", "slow-worker": "stopped",
                              "patient-worker": "running", "heartbeat-worker": "stopped"})
            def specs(listed):  # as configured; autoStart now says whether it was running
                return {n: {k: v for k, v in a["spec"].items() if k != "autoStart"}
                        for n, a in listed.items()}
            self.assertEqual(specs(after), specs(before))
            sent = figures(server, "orders-feed")["sent"]
            advance(server, 30_000)
            self.assertGreater(figures(server, "orders-feed")["sent"], sent)
            self.assertGreater(figures(server, "patient-worker")["received"], 0)
        # Every actor removed: the workspace then opens with none.
        with InflightProcess("--workspace", workspace, "--clock", "frozen") as server:
            for name in list(actors(server)):
                status, _ = control(server, "DELETE", "actors/" + name)
                self.assertEqual(status, 200, name)
        with InflightProcess("--workspace", workspace, "--clock", "frozen") as server:
            self.assertEqual(actors(server), {})

    def test_a_bad_file_starts_nothing_and_names_its_position(self):
        folder = tempfile.mkdtemp()
        bad = os.path.join(folder, "bad.json")
        with open(bad, "w") as f:
            f.write('{\n  "version": 1,\n  "queues": [{"name": "q"}],\n  "actors": [\n'
                    '    {"type": "producer", "name": "feed", "queue": "q", "rate": -1}\n'
                    '  ]\n}\n')
        result = subprocess.run(headless_command("--scenario", bad), capture_output=True,
                                text=True, timeout=30)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "")  # never listened
        self.assertIn(f"--scenario {bad}: line 5, column 64, at actors[0].rate: ", result.stderr)
        # An actor on a queue that is nowhere: refused when applied, still before anything runs.
        with open(bad, "w") as f:
            f.write('{"version": 1, "actors": [{"type": "producer", "name": "feed", '
                    '"queue": "nowhere"}]}')
        result = subprocess.run(headless_command("--scenario", bad), capture_output=True,
                                text=True, timeout=30)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertRegex(result.stderr, r"line 1, column \d+, at actors\[0\]\.queue: ")
        result = subprocess.run(headless_command("--scenario", os.path.join(folder, "none.json")),
                                capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 2)
        self.assertIn("none.json", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
