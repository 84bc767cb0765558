#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into corpus/<folder>/ (README.md says more).

The seeds are the requests of the protocol tests (tests/protocol/*_test.cpp) and the end-to-end
tests (tests/e2e/), in each target's input format, against the queues of fuzz_world.h (q, dlq,
q.fifo, oq; @R, @F, @O stand for valid receipts). Also the inputs that crashed the endpoint once
(crash-*), kept as regression tests: scripts/fuzz.sh runs every file here once before fuzzing.
Crashers too big to keep in the repository are made by scripts/fuzz.sh at run time.
Seed files are named seed-*; files of other names (crashers others added) are left alone.
Run: python3 tests/fuzz/make_corpus.py
"""
import os
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
URL = "http://127.0.0.1:9324/000000000000/"
ARN = "arn:aws:sqs:us-east-1:000000000000:"


def write(folder, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    path = CORPUS / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def clean(folder):
    path = CORPUS / folder
    if path.is_dir():
        for f in path.iterdir():
            if f.name.startswith("seed-"):
                f.unlink()


def q(name="q"):
    return f'"QueueUrl":"{URL}{name}"'


# ---- SQS JSON: "<Operation>\n<body>" -----------------------------------------------------------
JSON = {
    "send": ("SendMessage", "{%s,\"MessageBody\":\"foobar\"}" % q()),
    "send-attributes": ("SendMessage", "{%s,\"MessageBody\":\"m\",\"DelaySeconds\":2,"
                        "\"MessageAttributes\":{\"s\":{\"DataType\":\"String\",\"StringValue\":\"v\"},"
                        "\"n\":{\"DataType\":\"Number\",\"StringValue\":\"1.5\"},"
                        "\"b\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AAECAw==\"}},"
                        "\"MessageSystemAttributes\":{\"AWSTraceHeader\":{\"DataType\":\"String\","
                        "\"StringValue\":\"Root=1-5759e988-bd862e3fe1be46a994272793\"}}}" % q()),
    "send-fifo": ("SendMessage", "{%s,\"MessageBody\":\"a\",\"MessageGroupId\":\"g\","
                  "\"MessageDeduplicationId\":\"d1\"}" % q("q.fifo")),
    "send-fifo-no-group": ("SendMessage", "{%s,\"MessageBody\":\"a\"}" % q("q.fifo")),
    "send-lone-surrogate": ("SendMessage", "{%s,\"MessageBody\":\"\\ud800\"}" % q()),
    "send-not-utf8": ("SendMessage", b'{"QueueUrl":"' + URL.encode() + b'q","MessageBody":"a\xff"}'),
    "send-ffff": ("SendMessage", "{%s,\"MessageBody\":\"\\uffff\"}" % q()),
    "send-emoji": ("SendMessage", "{%s,\"MessageBody\":\"\\ud83d\\ude00\"}" % q()),
    "send-no-url": ("SendMessage", "{\"MessageBody\":\"m\"}"),
    "send-batch": ("SendMessageBatch", "{%s,\"Entries\":[{\"Id\":\"ok\",\"MessageBody\":\"foobar\","
                   "\"MessageAttributes\":{\"MyAttribute\":{\"DataType\":\"String\","
                   "\"StringValue\":\"foobar\"}}},{\"Id\":\"9\",\"MessageBody\":\"\\u0001\"}]}" % q()),
    "send-batch-fifo": ("SendMessageBatch", "{%s,\"Entries\":[{\"Id\":\"a\",\"MessageBody\":\"1\","
                        "\"MessageGroupId\":\"g\"},{\"Id\":\"b\",\"MessageBody\":\"2\","
                        "\"MessageGroupId\":\"h\",\"DelaySeconds\":0}]}" % q("q.fifo")),
    "receive": ("ReceiveMessage", "{%s,\"MaxNumberOfMessages\":10,\"WaitTimeSeconds\":0,"
                "\"VisibilityTimeout\":0,\"AttributeNames\":[\"All\"],"
                "\"MessageSystemAttributeNames\":[\"SenderId\",\"ApproximateReceiveCount\"],"
                "\"MessageAttributeNames\":[\"All\"]}" % q()),
    "receive-long-poll": ("ReceiveMessage", "{%s,\"WaitTimeSeconds\":20}" % q("dlq")),
    "receive-bad-number": ("ReceiveMessage", "{%s,\"MaxNumberOfMessages\":\"ten\"}" % q()),
    "receive-fifo-attempt": ("ReceiveMessage", "{%s,\"ReceiveRequestAttemptId\":\"attempt-1\","
                             "\"MaxNumberOfMessages\":2}" % q("q.fifo")),
    "delete": ("DeleteMessage", "{%s,\"ReceiptHandle\":\"@R\"}" % q()),
    "delete-garbage": ("DeleteMessage", "{%s,\"ReceiptHandle\":\"garbage\"}" % q()),
    "delete-batch": ("DeleteMessageBatch", "{%s,\"Entries\":[{\"Id\":\"a\",\"ReceiptHandle\":\"@R\"},"
                     "{\"Id\":\"b\",\"ReceiptHandle\":\"garbage\"}]}" % q()),
    "delete-batch-empty": ("DeleteMessageBatch", "{%s,\"Entries\":[]}" % q()),
    "change-visibility": ("ChangeMessageVisibility", "{%s,\"ReceiptHandle\":\"@F\","
                          "\"VisibilityTimeout\":0}" % q("q.fifo")),
    "change-visibility-batch": ("ChangeMessageVisibilityBatch", "{%s,\"Entries\":[{\"Id\":\"a\","
                                "\"ReceiptHandle\":\"@R\",\"VisibilityTimeout\":60},{\"Id\":\"b\","
                                "\"ReceiptHandle\":\"garbage\",\"VisibilityTimeout\":60}]}" % q()),
    "create": ("CreateQueue", "{\"QueueName\":\"orders\",\"Attributes\":{\"VisibilityTimeout\":\"45\","
               "\"DelaySeconds\":\"5\"},\"tags\":{\"team\":\"blue\"}}"),
    "create-fifo": ("CreateQueue", "{\"QueueName\":\"p.fifo\",\"Attributes\":{\"FifoQueue\":\"true\","
                    "\"DeduplicationScope\":\"messageGroup\",\"FifoThroughputLimit\":\"perMessageGroupId\"}}"),
    "create-redrive": ("CreateQueue", "{\"QueueName\":\"src\",\"Attributes\":{\"RedrivePolicy\":"
                       "\"{\\\"deadLetterTargetArn\\\":\\\"%sdlq\\\",\\\"maxReceiveCount\\\":\\\"3\\\"}\","
                       "\"RedriveAllowPolicy\":\"{\\\"redrivePermission\\\":\\\"allowAll\\\"}\"}}" % ARN),
    "create-empty": ("CreateQueue", "{}"),
    "create-existing-oci": ("CreateQueue", "{\"QueueName\":\"oq\"}"),
    "get-url": ("GetQueueUrl", "{\"QueueName\":\"q\"}"),
    "get-url-other-account": ("GetQueueUrl", "{\"QueueName\":\"q\",\"QueueOwnerAWSAccountId\":\"123456789012\"}"),
    "list": ("ListQueues", "{\"QueueNamePrefix\":\"q\",\"MaxResults\":2}"),
    "list-truncated": ("ListQueues", "{\"QueueNamePrefix\":"),
    "list-array": ("ListQueues", "[]"),
    "delete-queue": ("DeleteQueue", "{%s}" % q("q.fifo")),
    "get-attributes": ("GetQueueAttributes", "{%s,\"AttributeNames\":[\"All\"]}" % q()),
    "get-attributes-bad": ("GetQueueAttributes", "{%s,\"AttributeNames\":[\"Foobar\"]}" % q()),
    "set-attributes": ("SetQueueAttributes", "{%s,\"Attributes\":{\"VisibilityTimeout\":\"45\","
                       "\"Policy\":\"{\\\"Version\\\":\\\"2012-10-17\\\",\\\"Statement\\\":[]}\"}}" % q()),
    "purge": ("PurgeQueue", "{%s}" % q()),
    "tag": ("TagQueue", "{%s,\"Tags\":{\"a\":\"1\",\"b\":\"2\"}}" % q()),
    "untag": ("UntagQueue", "{%s,\"TagKeys\":[\"a\"]}" % q()),
    "list-tags": ("ListQueueTags", "{%s}" % q()),
    "dead-letter-sources": ("ListDeadLetterSourceQueues", "{%s,\"MaxResults\":1}" % q("dlq")),
    "add-permission": ("AddPermission", "{%s,\"Label\":\"l1\",\"AWSAccountIds\":[\"111122223333\"],"
                       "\"Actions\":[\"SendMessage\"]}" % q()),
    "remove-permission": ("RemovePermission", "{%s,\"Label\":\"l1\"}" % q()),
    "move-start": ("StartMessageMoveTask", "{\"SourceArn\":\"%sdlq\",\"DestinationArn\":\"%sq\","
                   "\"MaxNumberOfMessagesPerSecond\":1}" % (ARN, ARN)),
    "move-list": ("ListMessageMoveTasks", "{\"SourceArn\":\"%sdlq\",\"MaxResults\":10}" % ARN),
    "move-cancel": ("CancelMessageMoveTask", "{\"TaskHandle\":\"eyJ0YXNrSWQiOiJ4In0=\"}"),
    "unknown-operation": ("FlyToTheMoon", "{}"),
    "queue-from-path": ("SendMessage", "{\"QueueUrl\":\"%sq?x=1#f\",\"MessageBody\":\"m\"}" % URL),
}

# ---- SQS Query: a form ---------------------------------------------------------------------------
def qu(name="q"):
    return "QueueUrl=http%3A%2F%2F127.0.0.1%3A9324%2F000000000000%2F" + name.replace(".", "%2E")


QUERY = {
    "create": "Action=CreateQueue&QueueName=orders&Attribute.1.Name=VisibilityTimeout&Attribute.1.Value=45"
              "&Attribute.2.Name=DelaySeconds&Attribute.2.Value=5&Tag.1.Key=team&Tag.1.Value=blue",
    "create-redrive": "Action=CreateQueue&QueueName=src&Attribute.1.Name=RedrivePolicy&Attribute.1.Value="
                      "%7B%22deadLetterTargetArn%22%3A%22arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq"
                      "%22%2C%22maxReceiveCount%22%3A%222%22%7D",
    "create-fifo": "Action=CreateQueue&QueueName=p.fifo&Attribute.1.Name=FifoQueue&Attribute.1.Value=true",
    "send": f"Action=SendMessage&Version=2012-11-05&{qu()}&MessageBody=foobar&MessageAttribute.1.Name=MyAttribute"
            "&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=foobar",
    "send-binary": f"Action=SendMessage&{qu()}&MessageBody=test&MessageAttribute.1.Name=attr1"
                   "&MessageAttribute.1.Value.DataType=Binary&MessageAttribute.1.Value.BinaryValue=AAECAw%3D%3D",
    "send-plus": f"Action=SendMessage&{qu()}&MessageBody=a+b%2Bc%26d%3De",
    "send-fifo": f"Action=SendMessage&{qu('q.fifo')}&MessageBody=m&MessageGroupId=g&MessageDeduplicationId=d",
    "send-trace": f"Action=SendMessage&{qu()}&MessageBody=m&MessageSystemAttribute.1.Name=AWSTraceHeader"
                  "&MessageSystemAttribute.1.Value.DataType=String&MessageSystemAttribute.1.Value.StringValue=Root%3D1",
    "send-from-path": "Action=SendMessage&MessageBody=from-path",
    "send-batch": f"Action=SendMessageBatch&{qu()}&SendMessageBatchRequestEntry.1.Id=a"
                  "&SendMessageBatchRequestEntry.1.MessageBody=1&SendMessageBatchRequestEntry.2.Id=b"
                  "&SendMessageBatchRequestEntry.2.MessageBody=2&SendMessageBatchRequestEntry.2.DelaySeconds=1",
    "receive": f"Action=ReceiveMessage&{qu()}&AttributeName.1=SentTimestamp&MessageSystemAttributeName.1=SenderId"
               "&MessageAttributeName.1=All&MaxNumberOfMessages=10&VisibilityTimeout=0",
    "receive-long-poll": f"Action=ReceiveMessage&{qu('dlq')}&WaitTimeSeconds=20",
    "receive-bad-number": f"Action=ReceiveMessage&{qu()}&MaxNumberOfMessages=ten",
    "receive-fifo-attempt": f"Action=ReceiveMessage&{qu('q.fifo')}&ReceiveRequestAttemptId=attempt-1",
    "delete": f"Action=DeleteMessage&{qu()}&ReceiptHandle=@R",
    "delete-garbage": f"Action=DeleteMessage&{qu()}&ReceiptHandle=garbage",
    "delete-batch": f"Action=DeleteMessageBatch&{qu()}&DeleteMessageBatchRequestEntry.1.Id=a"
                    "&DeleteMessageBatchRequestEntry.1.ReceiptHandle=@R&DeleteMessageBatchRequestEntry.2.Id=b"
                    "&DeleteMessageBatchRequestEntry.2.ReceiptHandle=garbage",
    "change-visibility": f"Action=ChangeMessageVisibility&{qu()}&ReceiptHandle=@R&VisibilityTimeout=0",
    "change-visibility-batch": f"Action=ChangeMessageVisibilityBatch&{qu()}"
                               "&ChangeMessageVisibilityBatchRequestEntry.1.Id=a"
                               "&ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle=@R"
                               "&ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout=60",
    "set-attributes": f"Action=SetQueueAttributes&{qu()}&Attribute.1.Name=DelaySeconds&Attribute.1.Value=3",
    "get-attributes": f"Action=GetQueueAttributes&{qu()}&AttributeName.1=All",
    "get-attributes-one": f"Action=GetQueueAttributes&{qu()}&AttributeName=DelaySeconds",
    "tag": f"Action=TagQueue&{qu()}&Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=b&Tag.2.Value=2",
    "untag": f"Action=UntagQueue&{qu()}&TagKey.1=a",
    "list-tags": f"Action=ListQueueTags&{qu()}",
    "list": "Action=ListQueues&QueueNamePrefix=q&MaxResults=2&Version=2012-11-05",
    "list-next": "Action=ListQueues&QueueNamePrefix=p&MaxResults=2&NextToken=cQ%3D%3D",
    "dead-letter-sources": f"Action=ListDeadLetterSourceQueues&{qu('dlq')}",
    "purge": f"Action=PurgeQueue&{qu()}",
    "get-url": "Action=GetQueueUrl&QueueName=q",
    "add-permission": f"Action=AddPermission&{qu()}&Label=l1&AWSAccountId.1=111122223333&ActionName.1=SendMessage",
    "remove-permission": f"Action=RemovePermission&{qu()}&Label=l1",
    "delete-queue": f"Action=DeleteQueue&{qu('q.fifo')}",
    "move-start": "Action=StartMessageMoveTask&SourceArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq"
                  "&MaxNumberOfMessagesPerSecond=1",
    "move-list": "Action=ListMessageMoveTasks&SourceArn=arn%3Aaws%3Asqs%3Aus-east-1%3A000000000000%3Adlq",
    "move-cancel": "Action=CancelMessageMoveTask&TaskHandle=eyJ0YXNrSWQiOiJ4In0%3D",
    "unknown-action": "Action=FlyToTheMoon&Version=2012-11-05",
    "no-action": "Version=2012-11-05",
    "bad-escape": "Action=SendMessage&MessageBody=%zz%&QueueUrl=%",
}

# ---- OCI REST: "<METHOD> <path>\n<body>" --------------------------------------------------------
OCI = {
    "put": ("POST oq/messages", '{"messages":[{"content":"hello"},{"content":"world"}]}'),
    "put-channel": ("POST oq/messages", '{"messages":[{"content":"in a channel","metadata":{"channelId":"eu",'
                    '"customProperties":{"k":"v"}}}]}'),
    "put-empty-content": ("POST oq/messages", '{"messages":[{"content":"ok"},{"content":""}]}'),
    "put-no-messages": ("POST oq/messages", "{}"),
    "put-not-json": ("POST oq/messages", "not json"),
    "get": ("GET oq/messages?limit=5&visibilityInSeconds=30&timeoutInSeconds=0", ""),
    "get-channel": ("GET oq/messages?channelFilter=eu&limit=5&visibilityInSeconds=30&timeoutInSeconds=0", ""),
    "get-long-poll": ("GET oq/messages?timeoutInSeconds=20", ""),
    "get-bad-limit": ("GET oq/messages?limit=ten", ""),
    "update": ("PUT oq/messages/@O", '{"visibilityInSeconds":120}'),
    "update-batch": ("POST oq/messages/actions/updateMessages",
                     '{"entries":[{"receipt":"@O","visibilityInSeconds":60},'
                     '{"receipt":"garbage","visibilityInSeconds":60}]}'),
    "delete": ("DELETE oq/messages/@O", ""),
    "delete-escaped": ("DELETE oq/messages/%40O%2F", ""),
    "delete-batch": ("POST oq/messages/actions/deleteMessages",
                     '{"entries":[{"receipt":"@O"},{"receipt":"garbage"}]}'),
    "stats": ("GET oq/stats?channelId=eu", ""),
    "channels": ("GET oq/channels?channelFilter=e&limit=10", ""),
    "purge": ("POST oq/actions/purge", '{"purgeType":"BOTH"}'),
    "purge-dlq": ("POST oq/actions/purge", '{"purgeType":"DLQ","channelIds":["eu"]}'),
    "sqs-queue": ("GET q/messages", ""),
    "unknown-queue": ("GET missing/stats", ""),
    "no-route": ("PATCH oq/whatever", ""),
    "absolute-path": ("GET /20210201/queues/oq/stats", ""),
}

# ---- HTTP: byte 0 = number of piece sizes (n % 8 + 1), then the sizes - 1, then the stream ------
def http(head, body=b""):
    if isinstance(body, str):
        body = body.encode()
    return head.replace("\n", "\r\n").encode() + body


JSON_BODY = b'{"QueueName":"q"}'
HTTP_STREAMS = {
    "json": http("POST / HTTP/1.1\nHost: 127.0.0.1:9324\nContent-Type: application/x-amz-json-1.0\n"
                 f"X-Amz-Target: AmazonSQS.GetQueueUrl\nContent-Length: {len(JSON_BODY)}\n\n", JSON_BODY),
    "query": http("POST / HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/x-www-form-urlencoded; "
                  "charset=utf-8\nContent-Length: 17\n\n", "Action=ListQueues"),
    "get-http10": http("GET /?Action=ListQueues HTTP/1.0\n\n"),
    "no-host": http("GET /?Action=ListQueues HTTP/1.1\n\n"),
    "oci": http("PUT /20210201/queues/oq/messages/r1 HTTP/1.1\nHost: x\nContent-Type: application/json\n"
                "opc-request-id: e2e-1\nContent-Length: 27\n\n", '{"visibilityInSeconds":120}'),
    "chunked": http("POST / HTTP/1.1\nHost: x\nContent-Type: application/x-www-form-urlencoded\n"
                    "Transfer-Encoding: chunked\n\n", "5\r\nActio\r\nc\r\nn=ListQueues\r\n0\r\n\r\n"),
    "expect-continue": http("POST / HTTP/1.1\nHost: x\nContent-Type: application/x-amz-json-1.0\n"
                            "X-Amz-Target: AmazonSQS.ListQueues\nExpect: 100-continue\nContent-Length: 2\n\n", "{}"),
    "too-large": http("POST / HTTP/1.1\nHost: x\nContent-Type: application/x-amz-json-1.0\n"
                      "X-Amz-Target: AmazonSQS.SendMessage\nContent-Length: 3000000\n\n", "aaaa"),
    "pipelined": http("GET /?Action=ListQueues HTTP/1.1\nHost: x\n\n"
                      "POST / HTTP/1.1\nHost: x\nConnection: close\nContent-Length: 17\n\n", "Action=ListQueues"),
    "absolute-form": http("GET http://127.0.0.1:9324/20210201/queues/oq/stats?x=1 HTTP/1.1\nHost: x\n\n"),
    "keep-alive-http10": http("GET / HTTP/1.0\nConnection: keep-alive\n\n"),
    "not-http": b"\x16\x03\x01 this is not HTTP\r\n\r\n",
    "sigv4": http("POST / HTTP/1.1\nHost: localhost:9324\nAccept-Encoding: identity\n"
                  "Content-Type: application/x-www-form-urlencoded; charset=utf-8\n"
                  "User-Agent: aws-cli/2.9.19 Python/3.11.2 Linux/6.1 source/x86_64.debian.12\n"
                  "X-Amz-Date: 20240101T000000Z\nAuthorization: AWS4-HMAC-SHA256 "
                  "Credential=x/20240101/us-east-1/sqs/aws4_request, SignedHeaders=content-type;host;x-amz-date, "
                  "Signature=0000\nContent-Length: 36\n\n", "Action=ListQueues&Version=2012-11-05"),
}
PIECES = {"whole": b"\x00\xff", "bytes": b"\x00\x00", "mixed": b"\x02\x06\x00\x1f"}


def main():
    for folder in ("json", "query", "oci", "http"):
        clean(folder)
    for name, (operation, body) in JSON.items():
        if isinstance(body, str):
            body = body.encode("utf-8")
        write("json", f"seed-{name}", operation.encode() + b"\n" + body)
    for name, form in QUERY.items():
        write("query", f"seed-{name}", form)
    for name, (line, body) in OCI.items():
        write("oci", f"seed-{name}", line + "\n" + body)
    for name, stream in HTTP_STREAMS.items():
        for piece, prefix in PIECES.items():
            if piece != "whole" and name not in ("json", "chunked", "pipelined", "expect-continue"):
                continue
            write("http", f"seed-{name}-{piece}", prefix + stream)

    # Crashers once (the fix is in core/protocol; these stay as regression inputs).
    # Query: a member path of 20,000 segments after an Action.
    write("query", "crash-deep-member-path", "Action=ListQueues&" + "a." * 20000 + "a=1")
    # RedrivePolicy JSON nested 70,000 levels deep, in a JSON and in a form body.
    deep = "[" * 70000 + "]" * 70000
    write("json", "crash-deep-redrive-policy",
          'CreateQueue\n{"QueueName":"deep","Attributes":{"RedrivePolicy":"%s"}}' % deep)
    write("query", "crash-deep-redrive-policy",
          "Action=CreateQueue&QueueName=deep&Attribute.1.Name=RedrivePolicy&Attribute.1.Value=" + deep)
    # (scripts/fuzz.sh makes the 300,000-segment name without Action at run time: 600 KB.)


if __name__ == "__main__":
    main()
