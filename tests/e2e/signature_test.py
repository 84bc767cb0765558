"""`inflight --headless --credentials FILE` checks AWS Signature Version 4 on every SQS request:
the e2e clients (AWS CLI, boto3 and the JS SDK v3) get AWS's error codes with a wrong secret, an
unknown key or no signature, and succeed with a key of the file. (The clients' whole suites also run
against a checking endpoint: the `_signed` variants of e2e_aws_cli, e2e_boto3 and e2e_sdk_js.)"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import boto3  # noqa: E402
import botocore.config  # noqa: E402
from botocore import UNSIGNED  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402

from inflight_process import InflightProcess  # noqa: E402

E2E_DIR = os.path.dirname(os.path.abspath(__file__))
CREDENTIALS = os.path.join(E2E_DIR, "credentials.ini")
REPO = os.path.dirname(os.path.dirname(E2E_DIR))
FAILURES = []
PASSED = []


def check(name, condition, detail=""):
    (PASSED if condition else FAILURES).append(name)
    print(("ok   " if condition else "FAIL ") + name + (f": {detail}" if detail else ""))


def boto3_client(url, key, secret, signed=True):
    config = botocore.config.Config(retries={"max_attempts": 1})
    if not signed:
        config = config.merge(botocore.config.Config(signature_version=UNSIGNED))
    return boto3.session.Session().client("sqs", endpoint_url=url, region_name="us-east-1",
                                          aws_access_key_id=key, aws_secret_access_key=secret,
                                          config=config)


def boto3_error(call):
    try:
        call()
    except ClientError as error:
        return error.response["Error"]["Code"], error.response["ResponseMetadata"]["HTTPStatusCode"]
    return None, 200


def aws_cli(url, key, secret, *args):
    environment = dict(os.environ, AWS_ACCESS_KEY_ID=key, AWS_SECRET_ACCESS_KEY=secret,
                       AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE=os.devnull,
                       AWS_SHARED_CREDENTIALS_FILE=os.devnull, AWS_MAX_ATTEMPTS="1")
    return subprocess.run(["aws", "--endpoint-url", url, "sqs", *args], env=environment,
                          capture_output=True, text=True, timeout=60)


JS = """
const { SQSClient, ListQueuesCommand } = await import('@aws-sdk/client-sqs');
const client = new SQSClient({ endpoint: process.argv[1], region: 'us-east-1', maxAttempts: 1,
  credentials: { accessKeyId: process.argv[2], secretAccessKey: process.argv[3] } });
try {
  const answer = await client.send(new ListQueuesCommand({}));
  console.log(JSON.stringify({ ok: true, urls: answer.QueueUrls ?? [] }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, name: error.name, code: error.Code ?? error.name,
                               status: error.$metadata?.httpStatusCode }));
}
"""


def js_sdk(url, key, secret):
    answer = subprocess.run(["node", "--input-type=module", "-e", JS, url, key, secret],
                            capture_output=True, text=True, timeout=60, cwd=REPO)
    return answer.stdout.strip() + answer.stderr.strip()


def main():
    with tempfile.TemporaryDirectory() as home:
        os.environ["AWS_CONFIG_FILE"] = os.path.join(home, "config")
        os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(home, "credentials")
        with InflightProcess("--credentials", CREDENTIALS) as server:
            url = server.url
            good = boto3_client(url, "AKIDINFLIGHTE2E", "inflight-e2e-secret")
            created = good.create_queue(QueueName="signed")["QueueUrl"]
            check("boto3 with a key of the file creates a queue", created.endswith("/signed"))
            other = boto3_client(url, "AKIDSECONDUSER", "second-secret")
            check("boto3 with the file's second key lists it",
                  created in other.list_queues().get("QueueUrls", []))

            code, status = boto3_error(
                lambda: boto3_client(url, "AKIDINFLIGHTE2E", "wrong").list_queues())
            check("boto3 with a wrong secret gets SignatureDoesNotMatch (403)",
                  (code, status) == ("SignatureDoesNotMatch", 403), f"{code} {status}")
            code, status = boto3_error(
                lambda: boto3_client(url, "AKIDUNKNOWN", "x").send_message(
                    QueueUrl=created, MessageBody="x"))
            check("boto3 with an unknown key gets InvalidClientTokenId (403)",
                  (code, status) == ("InvalidClientTokenId", 403), f"{code} {status}")
            code, status = boto3_error(
                lambda: boto3_client(url, "AKIDINFLIGHTE2E", "x", signed=False).list_queues())
            check("boto3 unsigned gets MissingAuthenticationToken (403)",
                  (code, status) == ("MissingAuthenticationToken", 403), f"{code} {status}")

            answer = aws_cli(url, "AKIDINFLIGHTE2E", "inflight-e2e-secret", "list-queues")
            check("the AWS CLI with a key of the file lists the queue",
                  answer.returncode == 0 and created in answer.stdout, answer.stderr[-300:])
            answer = aws_cli(url, "AKIDINFLIGHTE2E", "wrong", "send-message", "--queue-url",
                             created, "--message-body", "x")
            check("the AWS CLI with a wrong secret gets SignatureDoesNotMatch",
                  answer.returncode != 0 and "SignatureDoesNotMatch" in answer.stderr,
                  answer.stderr[-300:])
            answer = aws_cli(url, "AKIDUNKNOWN", "x", "list-queues")
            check("the AWS CLI with an unknown key gets InvalidClientTokenId",
                  answer.returncode != 0 and "InvalidClientTokenId" in answer.stderr,
                  answer.stderr[-300:])

            answer = js_sdk(url, "AKIDINFLIGHTE2E", "inflight-e2e-secret")
            check("the JS SDK with a key of the file lists the queue",
                  '"ok":true' in answer and created in answer, answer[-300:])
            answer = js_sdk(url, "AKIDINFLIGHTE2E", "wrong")
            check("the JS SDK with a wrong secret gets SignatureDoesNotMatch",
                  "SignatureDoesNotMatch" in answer and '"status":403' in answer, answer[-300:])
            answer = js_sdk(url, "AKIDUNKNOWN", "x")
            check("the JS SDK with an unknown key gets InvalidClientTokenId",
                  "InvalidClientTokenId" in answer and '"status":403' in answer, answer[-300:])

            messages = good.get_queue_attributes(
                QueueUrl=created, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]
            check("no refused request changed anything",
                  messages["ApproximateNumberOfMessages"] == "0", str(messages))
            check("inflight exits cleanly", server.stop() == 0)

        with InflightProcess() as server:
            answer = boto3_client(server.url, "AKIDANY", "any-secret").list_queues()
            check("without --credentials any signature is accepted",
                  answer["ResponseMetadata"]["HTTPStatusCode"] == 200)
        with tempfile.NamedTemporaryFile("w", suffix=".ini") as bad:
            bad.write("[default]\naws_access_key_id = AKIDONLY\n")
            bad.flush()
            started = subprocess.run([os.environ["INFLIGHT_BIN"], "--headless", "--listen",
                                      "127.0.0.1:0", "--credentials", bad.name],
                                     capture_output=True, text=True, timeout=30)
            check("a credentials file with a key but no secret stops the start with a reason",
                  started.returncode == 2 and "--credentials" in started.stderr,
                  started.stderr.strip())

    print(f"{len(PASSED)} passed, {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
