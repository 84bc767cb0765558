// SQS over AWS JSON 1.0 (spec §2.2, §2.4–§2.6, §3, §4, §5.5, §8 F): literal request bodies as the
// JS SDK v3 and botocore send them, exact keys, digests and error shapes on the wire.
#include "protocol_fixture.h"

#include "engine/digest.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

namespace inflight::protocol::testing {
namespace {

class SqsJsonTest : public ProtocolTest {
protected:
    QString url;

    void SetUp() override { url = createQueue("q"); }

    QByteArray withUrl(const QByteArray& members, const QString& queueUrl) const
    {
        return "{\"QueueUrl\":\"" + queueUrl.toUtf8() + "\""
            + (members.isEmpty() ? "" : "," + members) + "}";
    }
    QByteArray withUrl(const QByteArray& members) const { return withUrl(members, url); }

    QJsonObject receiveAll(const QByteArray& extra = {})
    {
        const HttpResponse response = json("ReceiveMessage", withUrl(extra));
        EXPECT_EQ(response.status, 200) << response.body.toStdString();
        return object(response);
    }

    static void expectError(const HttpResponse& response, int status, const char* shape,
                            const char* queryCode, const QString& message = {})
    {
        EXPECT_EQ(response.status, status) << response.body.toStdString();
        EXPECT_EQ(response.contentType, "application/x-amz-json-1.0");
        const QJsonObject body = object(response);
        EXPECT_EQ(body.value(QStringLiteral("__type")).toString(),
                  QStringLiteral("com.amazonaws.sqs#") + QLatin1String(shape));
        EXPECT_EQ(response.header("x-amzn-query-error"), QByteArray(queryCode) + ";Sender");
        EXPECT_FALSE(response.header("x-amzn-RequestId").isEmpty());
        if (!message.isNull()) {
            EXPECT_EQ(body.value(QStringLiteral("message")).toString(), message);
        }
    }
};

TEST_F(SqsJsonTest, sendMessageAnswersWithBodyDigestOnly)
{
    const HttpResponse response = json("SendMessage", withUrl(R"("MessageBody":"foobar")"));
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.contentType, "application/x-amz-json-1.0");
    EXPECT_EQ(response.header("X-AMZN-REQUESTID").size(), 36);
    const QJsonObject body = object(response);
    EXPECT_EQ(body.keys(),
              (QStringList{QStringLiteral("MD5OfMessageBody"), QStringLiteral("MessageId")}));
    EXPECT_EQ(body.value(QStringLiteral("MD5OfMessageBody")).toString(),
              QStringLiteral("3858f62230ac3c915f300c664312c63f"));
    EXPECT_EQ(body.value(QStringLiteral("MessageId")).toString().size(), 36);
}

TEST_F(SqsJsonTest, sendMessageDigestsStringAttributes)
{
    const HttpResponse response = json(
        "SendMessage",
        withUrl(
            R"("MessageBody":"msg","MessageAttributes":{"MyAttribute":{"DataType":"String","StringValue":"foobar"}})"));
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QJsonObject body = object(response);
    EXPECT_EQ(body.value(QStringLiteral("MD5OfMessageBody")).toString(),
              QStringLiteral("6e2baaf3b97dbeef01c0043275f9a0e7"));
    EXPECT_EQ(body.value(QStringLiteral("MD5OfMessageAttributes")).toString(),
              QStringLiteral("adb59cd4678ea5a855436b949cd07ab6"));
    EXPECT_FALSE(body.contains(QStringLiteral("MD5OfMessageSystemAttributes")));
}

TEST_F(SqsJsonTest, binaryAttributeDigestAndRoundTrip)
{
    const QByteArray value
        = QByteArrayLiteral("traceparent\x1e"
                            "00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01");
    const HttpResponse sent = json(
        "SendMessage",
        withUrl(
            R"("MessageBody":"test","MessageAttributes":{"attr1":{"DataType":"Binary","BinaryValue":")"
            + value.toBase64() + "\"}}"));
    ASSERT_EQ(sent.status, 200) << sent.body.toStdString();
    EXPECT_EQ(object(sent).value(QStringLiteral("MD5OfMessageBody")).toString(),
              QStringLiteral("098f6bcd4621d373cade4e832627b4f6"));
    EXPECT_EQ(object(sent).value(QStringLiteral("MD5OfMessageAttributes")).toString(),
              QStringLiteral("8cbe4db156db8a94db8b801b7addb984"));

    const QJsonObject message = receiveAll(R"("MessageAttributeNames":["All"])")
                                    .value(QStringLiteral("Messages"))
                                    .toArray()
                                    .at(0)
                                    .toObject();
    EXPECT_EQ(message.value(QStringLiteral("MD5OfMessageAttributes")).toString(),
              QStringLiteral("8cbe4db156db8a94db8b801b7addb984"));
    const QJsonObject attribute = message.value(QStringLiteral("MessageAttributes"))
                                      .toObject()
                                      .value(QStringLiteral("attr1"))
                                      .toObject();
    EXPECT_EQ(
        attribute,
        (QJsonObject{{QStringLiteral("DataType"), QStringLiteral("Binary")},
                     {QStringLiteral("BinaryValue"), QString::fromLatin1(value.toBase64())}}));
}

TEST_F(SqsJsonTest, systemAttributeDigestOnlyWhenTraceHeaderSent)
{
    const HttpResponse response = json(
        "SendMessage",
        withUrl(
            R"("MessageBody":"msg","MessageSystemAttributes":{"AWSTraceHeader":{"DataType":"String","StringValue":"Root=1-5759e988-bd862e3fe1be46a994272793"}})"));
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QJsonObject body = object(response);
    engine::MessageAttributes trace{
        {"AWSTraceHeader", {"String", "Root=1-5759e988-bd862e3fe1be46a994272793", {}}}};
    EXPECT_EQ(body.value(QStringLiteral("MD5OfMessageSystemAttributes")).toString().toStdString(),
              engine::md5OfMessageAttributes(trace));
    EXPECT_FALSE(body.contains(QStringLiteral("MD5OfMessageAttributes")));
}

TEST_F(SqsJsonTest, receiveDigestsOnlyTheReturnedAttributes)
{
    const HttpResponse sent = json(
        "SendMessage",
        withUrl(
            R"("MessageBody":"foobar","MessageAttributes":{"Help.Me":{"DataType":"String","StringValue":"Me"},"Hello":{"DataType":"String","StringValue":"There"},"General":{"DataType":"String","StringValue":"Kenobi"}})"));
    EXPECT_EQ(object(sent).value(QStringLiteral("MD5OfMessageAttributes")).toString(),
              QStringLiteral("4c360f3fdafd970e05fae2f149d997f5"));

    QJsonObject m
        = receiveAll(R"("VisibilityTimeout":0,"MessageAttributeNames":["Hello","General"])")
              .value(QStringLiteral("Messages"))
              .toArray()
              .at(0)
              .toObject();
    EXPECT_EQ(m.value(QStringLiteral("MD5OfBody")).toString(),
              QStringLiteral("3858f62230ac3c915f300c664312c63f"));
    EXPECT_EQ(m.value(QStringLiteral("Body")).toString(), QStringLiteral("foobar"));
    EXPECT_EQ(m.value(QStringLiteral("MD5OfMessageAttributes")).toString(),
              QStringLiteral("fca026605781cb4126a1e9044df24232"));
    EXPECT_EQ(m.value(QStringLiteral("MessageAttributes")).toObject().keys(),
              (QStringList{QStringLiteral("General"), QStringLiteral("Hello")}));

    m = receiveAll(R"("VisibilityTimeout":0,"MessageAttributeNames":["Hel.*"])")
            .value(QStringLiteral("Messages"))
            .toArray()
            .at(0)
            .toObject();
    EXPECT_EQ(m.value(QStringLiteral("MD5OfMessageAttributes")).toString(),
              QStringLiteral("83fee93c1bcd8b9a5a923ffacdc636c7"));

    // Nothing asked for: neither the attributes nor their digest, and no system attributes.
    m = receiveAll().value(QStringLiteral("Messages")).toArray().at(0).toObject();
    EXPECT_EQ(m.keys(),
              (QStringList{QStringLiteral("Body"), QStringLiteral("MD5OfBody"),
                           QStringLiteral("MessageId"), QStringLiteral("ReceiptHandle")}));
}

TEST_F(SqsJsonTest, receiveReturnsRequestedSystemAttributesAsStrings)
{
    json("SendMessage", withUrl(R"("MessageBody":"m")"));
    clock.advance(1500);
    // botocore sends the newer MessageSystemAttributeNames; AttributeNames is accepted too.
    const QJsonObject m
        = receiveAll(
              R"("MessageSystemAttributeNames":["SentTimestamp"],"AttributeNames":["ApproximateReceiveCount"])")
              .value(QStringLiteral("Messages"))
              .toArray()
              .at(0)
              .toObject();
    EXPECT_EQ(m.value(QStringLiteral("Attributes")).toObject(),
              (QJsonObject{{QStringLiteral("ApproximateReceiveCount"), QStringLiteral("1")},
                           {QStringLiteral("SentTimestamp"), QStringLiteral("1700000000000")}}));
}

TEST_F(SqsJsonTest, emptyReceiveIsAnEmptyObject)
{
    const HttpResponse response
        = json("ReceiveMessage", withUrl(R"("MaxNumberOfMessages":10,"WaitTimeSeconds":0)"));
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "{}");
}

TEST_F(SqsJsonTest, integersAcceptedAsNumbersOrStrings)
{
    for (int i = 0; i < 3; ++i)
        json("SendMessage", withUrl(R"("MessageBody":"m")"));
    EXPECT_EQ(receiveAll(R"("MaxNumberOfMessages":"2")")
                  .value(QStringLiteral("Messages"))
                  .toArray()
                  .size(),
              2);
    EXPECT_EQ(
        receiveAll(R"("MaxNumberOfMessages":1)").value(QStringLiteral("Messages")).toArray().size(),
        1);
    expectError(
        json("ReceiveMessage", withUrl(R"("MaxNumberOfMessages":"ten")")), 400,
        "InvalidParameterValueException", "InvalidParameterValue",
        QStringLiteral(
            "Value ten for parameter MaxNumberOfMessages is invalid. Reason: Must be an integer."));
    expectError(
        json("ReceiveMessage", withUrl(R"("MaxNumberOfMessages":11)")), 400,
        "InvalidParameterValueException", "InvalidParameterValue",
        QStringLiteral(
            "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and "
            "10, if provided."));
}

TEST_F(SqsJsonTest, fifoSendReturnsSequenceNumber)
{
    const QString fifo
        = createQueue("f.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}});
    const QJsonObject body
        = object(json("SendMessage", withUrl(R"("MessageBody":"a","MessageGroupId":"g")", fifo)));
    EXPECT_EQ(body.value(QStringLiteral("SequenceNumber")).toString().size(), 20);
    const QJsonObject missingGroup
        = object(json("SendMessage", withUrl(R"("MessageBody":"a")", fifo)));
    EXPECT_EQ(missingGroup.value(QStringLiteral("message")).toString(),
              QStringLiteral("The request must contain the parameter MessageGroupId."));
}

TEST_F(SqsJsonTest, createQueueTakesLowerCaseTagsAndListQueueTagsAnswersTags)
{
    const HttpResponse created = json(
        "CreateQueue",
        R"({"QueueName":"tagged","Attributes":{"DelaySeconds":"5"},"tags":{"team":"blue"}})");
    ASSERT_EQ(created.status, 200) << created.body.toStdString();
    EXPECT_EQ(created.body, "{\"QueueUrl\":\"http://127.0.0.1:9324/000000000000/tagged\"}");
    const HttpResponse tags = json(
        "ListQueueTags", withUrl({}, QStringLiteral("http://127.0.0.1:9324/000000000000/tagged")));
    EXPECT_EQ(tags.body, "{\"Tags\":{\"team\":\"blue\"}}");
    EXPECT_EQ(json("ListQueueTags", withUrl({})).body, "{}");
}

TEST_F(SqsJsonTest, listDeadLetterSourceQueuesUsesLowerCaseQueueUrls)
{
    const std::string dlqArn = broker.arnForName("dlq");
    const QString dlq = createQueue("dlq");
    createQueue(
        "s1",
        {{"RedrivePolicy", R"({"deadLetterTargetArn":")" + dlqArn + R"(","maxReceiveCount":2})"}});
    createQueue("s2",
                {{"RedrivePolicy",
                  R"({"deadLetterTargetArn":")" + dlqArn + R"(","maxReceiveCount":"3"})"}});
    const HttpResponse response = json("ListDeadLetterSourceQueues", withUrl({}, dlq));
    EXPECT_EQ(response.body,
              "{\"queueUrls\":[\"http://127.0.0.1:9324/000000000000/s1\","
              "\"http://127.0.0.1:9324/000000000000/s2\"]}");
    EXPECT_EQ(json("ListDeadLetterSourceQueues", withUrl({})).body, "{\"queueUrls\":[]}");
}

TEST_F(SqsJsonTest, listQueuesPaginatesOnlyWhenMaxResultsGiven)
{
    for (int i = 0; i < 9; ++i)
        createQueue("p" + std::to_string(i));
    QJsonObject page = object(json("ListQueues", R"({"QueueNamePrefix":"p","MaxResults":2})"));
    EXPECT_EQ(page.value(QStringLiteral("QueueUrls")).toArray(),
              (QJsonArray{QStringLiteral("http://127.0.0.1:9324/000000000000/p0"),
                          QStringLiteral("http://127.0.0.1:9324/000000000000/p1")}));
    const QString token = page.value(QStringLiteral("NextToken")).toString();
    ASSERT_FALSE(token.isEmpty());
    page = object(
        json("ListQueues",
             R"({"QueueNamePrefix":"p","MaxResults":10,"NextToken":")" + token.toUtf8() + "\"}"));
    EXPECT_EQ(page.value(QStringLiteral("QueueUrls")).toArray().size(), 7);
    EXPECT_FALSE(page.contains(QStringLiteral("NextToken")));
    page = object(json("ListQueues", "{}"));
    EXPECT_EQ(page.value(QStringLiteral("QueueUrls")).toArray().size(), 10); // q and p0..p8
    EXPECT_FALSE(page.contains(QStringLiteral("NextToken")));
    EXPECT_EQ(json("ListQueues", R"({"QueueNamePrefix":"none"})").body, "{}");
}

TEST_F(SqsJsonTest, deletedQueueIsNonExistentQueue)
{
    EXPECT_EQ(json("DeleteQueue", withUrl({})).body, "{}");
    expectError(json("SendMessage", withUrl(R"("MessageBody":"m")")), 400, "QueueDoesNotExist",
                "AWS.SimpleQueueService.NonExistentQueue",
                QStringLiteral("The specified queue does not exist."));
}

TEST_F(SqsJsonTest, foreignAccountInQueueUrlIsNonExistentQueue)
{
    expectError(json("SendMessage",
                     withUrl(R"("MessageBody":"m")",
                             QStringLiteral("http://127.0.0.1:9324/123456789012/q"))),
                400, "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue");
}

TEST_F(SqsJsonTest, bodyThatIsNotUtf8IsSerializationException)
{
    // JSON text is UTF-8 (RFC 8259): a lone surrogate escape or a byte that is not UTF-8 cannot be
    // read as a message body, so the request is refused as a whole and nothing is sent.
    expectError(json("SendMessage", withUrl(R"("MessageBody":"\ud800")")), 400,
                "SerializationException", "SerializationException");
    expectError(json("SendMessage", withUrl("\"MessageBody\":\"a\xff\"")), 400,
                "SerializationException", "SerializationException");
    // A well-formed escape of a character SQS does not allow reaches the engine's own check.
    expectError(json("SendMessage", withUrl(R"("MessageBody":"\uffff")")), 400,
                "InvalidMessageContents", "InvalidMessageContents");
    EXPECT_EQ(json("SendMessage", withUrl(R"("MessageBody":"\ud83d\ude00")")).status, 200);
}

TEST_F(SqsJsonTest, queueUrlSpellingsResolveByAccountAndName)
{
    // Only the last two path segments count (account, name), whatever the host, scheme, escapes,
    // empty segments, query or trailing slash. Plain URLs take a fast path, the rest QUrl; both
    // must agree.
    for (const char* given :
         {"http://127.0.0.1:9324/000000000000/q",
          "https://sqs.eu-west-1.amazonaws.com/000000000000/q", "http://h/000000000000/q/",
          "http://h/000000000000/%71", "http://h/000000000000/q?x=1", "http://h//000000000000//q",
          "http://h/prefix/000000000000/q", "/000000000000/q"}) {
        const HttpResponse response
            = json("SendMessage", withUrl(R"("MessageBody":"m")", QString::fromLatin1(given)));
        EXPECT_EQ(response.status, 200) << given << ": " << response.body.toStdString();
    }
    for (const char* given : {"http://h/123456789012/q", "http://h/q", "http://h/000000000000/r",
                              "http://h/000000000000", "http://h", "q"}) {
        expectError(
            json("SendMessage", withUrl(R"("MessageBody":"m")", QString::fromLatin1(given))), 400,
            "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue");
    }
}

TEST_F(SqsJsonTest, secondPurgeWithinAMinuteIs403)
{
    EXPECT_EQ(json("PurgeQueue", withUrl({})).status, 200);
    expectError(json("PurgeQueue", withUrl({})), 403, "PurgeQueueInProgress",
                "AWS.SimpleQueueService.PurgeQueueInProgress");
    clock.advance(60 * engine::kSecond);
    EXPECT_EQ(json("PurgeQueue", withUrl({})).status, 200);
}

TEST_F(SqsJsonTest, missingParameterNamesIt)
{
    expectError(json("CreateQueue", "{}"), 400, "MissingRequiredParameterException",
                "MissingParameter",
                QStringLiteral("The request must contain the parameter QueueName."));
    expectError(json("DeleteMessage", withUrl({})), 400, "MissingRequiredParameterException",
                "MissingParameter",
                QStringLiteral("The request must contain the parameter ReceiptHandle."));
    expectError(json("SendMessage", withUrl({})), 400, "MissingRequiredParameterException",
                "MissingParameter",
                QStringLiteral("The request must contain the parameter MessageBody."));
    expectError(json("SendMessage", R"({"MessageBody":"m"})"), 400,
                "MissingRequiredParameterException", "MissingParameter",
                QStringLiteral("The request must contain the parameter QueueUrl."));
}

TEST_F(SqsJsonTest, unknownTargetIsUnknownOperation)
{
    expectError(json("FlyToTheMoon", "{}"), 400, "UnknownOperationException",
                "UnknownOperationException");
    HttpRequest request = jsonRequest("ListQueues", "{}");
    request.headers[2].second = "DynamoDB_20120810.ListTables";
    expectError(respond(request), 400, "UnknownOperationException", "UnknownOperationException");
}

TEST_F(SqsJsonTest, bodyThatIsNotJsonIsSerializationException)
{
    expectError(json("ListQueues", "{\"QueueNamePrefix\":"), 400, "SerializationException",
                "SerializationException");
    expectError(json("ListQueues", "[]"), 400, "SerializationException", "SerializationException");
}

TEST_F(SqsJsonTest, contentTypeAloneSelectsJson)
{
    HttpRequest request = jsonRequest("ListQueues", "{}");
    request.headers.removeAt(2); // no X-Amz-Target: JSON, but no operation
    expectError(respond(request), 400, "UnknownOperationException", "UnknownOperationException");
}

TEST_F(SqsJsonTest, sendMessageBatchReportsPartialFailure)
{
    const HttpResponse response = json(
        "SendMessageBatch",
        withUrl(
            R"("Entries":[{"Id":"ok","MessageBody":"foobar","MessageAttributes":{"MyAttribute":{"DataType":"String","StringValue":"foobar"}}},{"Id":"9","MessageBody":"\u0001"}])"));
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QJsonObject body = object(response);
    const QJsonArray successful = body.value(QStringLiteral("Successful")).toArray();
    ASSERT_EQ(successful.size(), 1);
    const QJsonObject ok = successful.at(0).toObject();
    EXPECT_EQ(ok.keys(),
              (QStringList{QStringLiteral("Id"), QStringLiteral("MD5OfMessageAttributes"),
                           QStringLiteral("MD5OfMessageBody"), QStringLiteral("MessageId")}));
    EXPECT_EQ(ok.value(QStringLiteral("MD5OfMessageBody")).toString(),
              QStringLiteral("3858f62230ac3c915f300c664312c63f"));
    EXPECT_EQ(ok.value(QStringLiteral("MD5OfMessageAttributes")).toString(),
              QStringLiteral("adb59cd4678ea5a855436b949cd07ab6"));
    const QJsonArray failed = body.value(QStringLiteral("Failed")).toArray();
    ASSERT_EQ(failed.size(), 1);
    const QJsonObject bad = failed.at(0).toObject();
    EXPECT_EQ(bad.value(QStringLiteral("Id")).toString(), QStringLiteral("9"));
    EXPECT_EQ(bad.value(QStringLiteral("SenderFault")), QJsonValue(true));
    EXPECT_EQ(bad.value(QStringLiteral("Code")).toString(),
              QStringLiteral("InvalidMessageContents"));
    EXPECT_TRUE(bad.value(QStringLiteral("Message"))
                    .toString()
                    .startsWith(QStringLiteral("Invalid binary character")));
}

TEST_F(SqsJsonTest, batchWideErrorsFailTheRequest)
{
    QByteArray entries;
    for (int i = 0; i < 20; ++i)
        entries += (i ? "," : "") + QByteArray(R"({"Id":"e)") + QByteArray::number(i)
            + R"(","MessageBody":"m"})";
    expectError(json("SendMessageBatch", withUrl("\"Entries\":[" + entries + "]")), 400,
                "TooManyEntriesInBatchRequest",
                "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
                QStringLiteral("Maximum number of entries per request are 10. You have sent 20."));
    expectError(json("DeleteMessageBatch", withUrl(R"("Entries":[])")), 400, "EmptyBatchRequest",
                "AWS.SimpleQueueService.EmptyBatchRequest");
}

TEST_F(SqsJsonTest, deleteAndChangeVisibilityBatchesReportGarbageHandles)
{
    json("SendMessage", withUrl(R"("MessageBody":"m")"));
    const QString handle = receiveAll()
                               .value(QStringLiteral("Messages"))
                               .toArray()
                               .at(0)
                               .toObject()
                               .value(QStringLiteral("ReceiptHandle"))
                               .toString();
    const QJsonObject changed = object(json(
        "ChangeMessageVisibilityBatch",
        withUrl(
            R"("Entries":[{"Id":"a","ReceiptHandle":")" + handle.toUtf8()
            + R"(","VisibilityTimeout":60},{"Id":"b","ReceiptHandle":"garbage","VisibilityTimeout":60}])")));
    EXPECT_EQ(changed.value(QStringLiteral("Successful")).toArray(),
              (QJsonArray{QJsonObject{{QStringLiteral("Id"), QStringLiteral("a")}}}));
    EXPECT_EQ(changed.value(QStringLiteral("Failed")).toArray(),
              (QJsonArray{QJsonObject{
                  {QStringLiteral("Id"), QStringLiteral("b")},
                  {QStringLiteral("SenderFault"), true},
                  {QStringLiteral("Code"), QStringLiteral("ReceiptHandleIsInvalid")},
                  {QStringLiteral("Message"),
                   QStringLiteral(
                       "The input receipt handle \"garbage\" is not a valid receipt handle.")}}}));

    const QJsonObject deleted
        = object(json("DeleteMessageBatch",
                      withUrl(R"("Entries":[{"Id":"a","ReceiptHandle":")" + handle.toUtf8()
                              + R"("},{"Id":"b","ReceiptHandle":"garbage"}])")));
    EXPECT_EQ(deleted.value(QStringLiteral("Successful")).toArray().size(), 1);
    EXPECT_EQ(deleted.value(QStringLiteral("Failed")).toArray().size(), 1);
    EXPECT_EQ(broker.queueStats("q")->inFlight, 0);
}

TEST_F(SqsJsonTest, changeVisibilityAndDeleteAnswerEmptyObjects)
{
    json("SendMessage", withUrl(R"("MessageBody":"m")"));
    const QString handle = receiveAll()
                               .value(QStringLiteral("Messages"))
                               .toArray()
                               .at(0)
                               .toObject()
                               .value(QStringLiteral("ReceiptHandle"))
                               .toString();
    EXPECT_EQ(json("ChangeMessageVisibility",
                   withUrl(R"("ReceiptHandle":")" + handle.toUtf8() + R"(","VisibilityTimeout":0)"))
                  .body,
              "{}");
    expectError(
        json("ChangeMessageVisibility", withUrl(R"("ReceiptHandle":")" + handle.toUtf8() + "\"")),
        400, "MissingRequiredParameterException", "MissingParameter",
        QStringLiteral("The request must contain the parameter VisibilityTimeout."));
    EXPECT_EQ(json("DeleteMessage", withUrl(R"("ReceiptHandle":")" + handle.toUtf8() + "\"")).body,
              "{}");
    expectError(
        json("DeleteMessage", withUrl(R"("ReceiptHandle":"garbage")")), 400,
        "ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid",
        QStringLiteral("The input receipt handle \"garbage\" is not a valid receipt handle."));
}

TEST_F(SqsJsonTest, queueAttributesAreStringsAndOmittedWhenNoneAsked)
{
    EXPECT_EQ(json("GetQueueAttributes", withUrl({})).body, "{}");
    EXPECT_EQ(
        json("SetQueueAttributes", withUrl(R"("Attributes":{"VisibilityTimeout":"45"})")).body,
        "{}");
    const QJsonObject attributes
        = object(json("GetQueueAttributes",
                      withUrl(R"("AttributeNames":["VisibilityTimeout","QueueArn"])")))
              .value(QStringLiteral("Attributes"))
              .toObject();
    EXPECT_EQ(attributes,
              (QJsonObject{{QStringLiteral("QueueArn"),
                            QStringLiteral("arn:aws:sqs:us-east-1:000000000000:q")},
                           {QStringLiteral("VisibilityTimeout"), QStringLiteral("45")}}));
    expectError(json("GetQueueAttributes", withUrl(R"("AttributeNames":["Foobar"])")), 400,
                "InvalidAttributeName", "InvalidAttributeName",
                QStringLiteral("Unknown Attribute Foobar."));
}

TEST_F(SqsJsonTest, getQueueUrlAndConflictingCreate)
{
    EXPECT_EQ(json("GetQueueUrl", R"({"QueueName":"q"})").body,
              "{\"QueueUrl\":\"http://127.0.0.1:9324/000000000000/q\"}");
    expectError(json("GetQueueUrl", R"({"QueueName":"q","QueueOwnerAWSAccountId":"123456789012"})"),
                400, "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue");
    expectError(json("CreateQueue", R"({"QueueName":"q","Attributes":{"DelaySeconds":"2"}})"), 400,
                "QueueNameExists", "QueueAlreadyExists");
}

TEST_F(SqsJsonTest, baseUrlFollowsTheEndpoint)
{
    endpoint.setBaseUrl(QStringLiteral("http://localhost:4566/"));
    EXPECT_EQ(json("GetQueueUrl", R"({"QueueName":"q"})").body,
              "{\"QueueUrl\":\"http://localhost:4566/000000000000/q\"}");
    // Any host is accepted in a QueueUrl: only the account and the name count.
    EXPECT_EQ(json("SendMessage",
                   withUrl(R"("MessageBody":"m")",
                           QStringLiteral("https://sqs.eu-west-1.amazonaws.com/000000000000/q")))
                  .status,
              200);
}

TEST_F(SqsJsonTest, jsonPostedToTheQueuePathUsesIt)
{
    const HttpResponse response = json("SendMessage", R"({"MessageBody":"m"})", "/000000000000/q");
    EXPECT_EQ(response.status, 200) << response.body.toStdString();
    EXPECT_EQ(broker.queueStats("q")->available, 1);
}

TEST_F(SqsJsonTest, permissionsAndTagsRoundTrip)
{
    EXPECT_EQ(
        json("AddPermission",
             withUrl(R"("Label":"l1","AWSAccountIds":["111122223333"],"Actions":["SendMessage"])"))
            .body,
        "{}");
    expectError(
        json("AddPermission",
             withUrl(R"("Label":"l1","AWSAccountIds":["111122223333"],"Actions":["SendMessage"])")),
        400, "InvalidParameterValueException", "InvalidParameterValue");
    expectError(json("AddPermission", withUrl(R"("Label":"l2","AWSAccountIds":["111122223333"])")),
                400, "MissingRequiredParameterException", "MissingParameter",
                QStringLiteral("The request must contain the parameter Actions."));
    EXPECT_EQ(json("RemovePermission", withUrl(R"("Label":"l1")")).body, "{}");
    EXPECT_EQ(json("TagQueue", withUrl(R"("Tags":{"a":"1","b":"2"})")).body, "{}");
    EXPECT_EQ(json("UntagQueue", withUrl(R"("TagKeys":["a"])")).body, "{}");
    EXPECT_EQ(json("ListQueueTags", withUrl({})).body, "{\"Tags\":{\"b\":\"2\"}}");
}

TEST_F(SqsJsonTest, longPollOnEmptyQueueIsDeferredAndAnsweredInJson)
{
    Outcome outcome = handle(
        jsonRequest("ReceiveMessage", withUrl(R"("WaitTimeSeconds":5,"MaxNumberOfMessages":3)")));
    ASSERT_TRUE(std::holds_alternative<DeferredReceive>(outcome));
    DeferredReceive deferred = std::get<DeferredReceive>(std::move(outcome));
    EXPECT_EQ(deferred.request.queue, "q");
    EXPECT_EQ(deferred.request.waitTimeSeconds, 5);
    EXPECT_EQ(deferred.request.maxMessages, 3);
    EXPECT_EQ(deferred.request.origin, "127.0.0.1:53412");

    // Ended empty at the deadline.
    const HttpResponse empty = deferred.respond(engine::ReceiveResult{});
    EXPECT_EQ(empty.status, 200);
    EXPECT_EQ(empty.contentType, "application/x-amz-json-1.0");
    EXPECT_EQ(empty.body, "{}");

    // Answered early by a send, as the server will run it.
    std::optional<HttpResponse> answer;
    broker.receiveMessageAsync(deferred.request, [&](engine::Result<engine::ReceiveResult> r) {
        answer = deferred.respond(r);
    });
    EXPECT_FALSE(answer);
    json("SendMessage", withUrl(R"("MessageBody":"foobar")"));
    ASSERT_TRUE(answer);
    const QJsonObject message
        = object(*answer).value(QStringLiteral("Messages")).toArray().at(0).toObject();
    EXPECT_EQ(message.value(QStringLiteral("MD5OfBody")).toString(),
              QStringLiteral("3858f62230ac3c915f300c664312c63f"));

    // A failure later (the queue was deleted meanwhile) is an error of the same protocol.
    const HttpResponse failed = deferred.respond(engine::makeError(
        engine::ErrorCode::QueueDoesNotExist, "The specified queue does not exist."));
    expectError(failed, 400, "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue");
}

TEST_F(SqsJsonTest, queueDefaultWaitDefersUnlessZeroIsExplicit)
{
    const QString waiting = createQueue("waiting", {{"ReceiveMessageWaitTimeSeconds", "2"}});
    EXPECT_TRUE(std::holds_alternative<DeferredReceive>(
        handle(jsonRequest("ReceiveMessage", withUrl({}, waiting)))));
    const HttpResponse now = json("ReceiveMessage", withUrl(R"("WaitTimeSeconds":0)", waiting));
    EXPECT_EQ(now.body, "{}");
    // A short poll on a queue without a default wait answers at once.
    EXPECT_EQ(json("ReceiveMessage", withUrl({})).body, "{}");
}

TEST_F(SqsJsonTest, longPollWithMessagesAnswersAtOnce)
{
    json("SendMessage", withUrl(R"("MessageBody":"m")"));
    const HttpResponse response = json("ReceiveMessage", withUrl(R"("WaitTimeSeconds":20)"));
    EXPECT_EQ(object(response).value(QStringLiteral("Messages")).toArray().size(), 1);
}

TEST_F(SqsJsonTest, ociQueuesAreInvisibleToSqs)
{
    engine::CreateQueueRequest oci;
    oci.name = "oq";
    oci.oci = true;
    ASSERT_TRUE(broker.createQueue(oci).ok());
    expectError(json("GetQueueUrl", R"({"QueueName":"oq"})"), 400, "QueueDoesNotExist",
                "AWS.SimpleQueueService.NonExistentQueue");
    expectError(json("SendMessage",
                     withUrl(R"("MessageBody":"m")",
                             QStringLiteral("http://127.0.0.1:9324/000000000000/oq"))),
                400, "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue");
    EXPECT_EQ(object(json("ListQueues", "{}")).value(QStringLiteral("QueueUrls")).toArray(),
              (QJsonArray{QStringLiteral("http://127.0.0.1:9324/000000000000/q")}));
    expectError(json("CreateQueue", R"({"QueueName":"oq"})"), 400, "QueueNameExists",
                "QueueAlreadyExists");
}

TEST_F(SqsJsonTest, moveTaskShapes)
{
    const std::string dlqArn = broker.arnForName("dlq");
    const QString dlq = createQueue("dlq");
    const QString source = createQueue(
        "src",
        {{"RedrivePolicy", R"({"deadLetterTargetArn":")" + dlqArn + R"(","maxReceiveCount":1})"}});
    // Redriven into the DLQ by the second receive (maxReceiveCount 1), so each has a source to go
    // back to; three at 1/s keep the task running.
    for (int i = 0; i < 3; ++i) {
        json("SendMessage", withUrl(R"("MessageBody":"m")", source));
        json("ReceiveMessage", withUrl(R"("VisibilityTimeout":0)", source));
        json("ReceiveMessage", withUrl(R"("VisibilityTimeout":0)", source));
    }
    ASSERT_EQ(broker.queueStats("dlq")->available, 3);

    const HttpResponse started = json("StartMessageMoveTask",
                                      R"({"SourceArn":")" + QByteArray::fromStdString(dlqArn)
                                          + R"(","MaxNumberOfMessagesPerSecond":1})");
    ASSERT_EQ(started.status, 200) << started.body.toStdString();
    const QString handle = object(started).value(QStringLiteral("TaskHandle")).toString();
    ASSERT_FALSE(handle.isEmpty());

    const QJsonObject listed = object(
        json("ListMessageMoveTasks",
             R"({"SourceArn":")" + QByteArray::fromStdString(dlqArn) + R"(","MaxResults":10})"));
    const QJsonObject task = listed.value(QStringLiteral("Results")).toArray().at(0).toObject();
    EXPECT_EQ(task.value(QStringLiteral("Status")).toString(), QStringLiteral("RUNNING"));
    EXPECT_EQ(task.value(QStringLiteral("TaskHandle")).toString(), handle);
    EXPECT_EQ(task.value(QStringLiteral("SourceArn")).toString().toStdString(), dlqArn);
    EXPECT_EQ(task.value(QStringLiteral("MaxNumberOfMessagesPerSecond")), QJsonValue(1));
    EXPECT_EQ(task.value(QStringLiteral("StartedTimestamp")), QJsonValue(qint64(kT0)));
    EXPECT_TRUE(task.value(QStringLiteral("ApproximateNumberOfMessagesMoved")).isDouble());
    EXPECT_TRUE(task.value(QStringLiteral("ApproximateNumberOfMessagesToMove")).isDouble());
    EXPECT_FALSE(task.contains(QStringLiteral("DestinationArn")));
    EXPECT_FALSE(task.contains(QStringLiteral("FailureReason")));
    // Printed as an integer, not as 1.7e+12.
    EXPECT_TRUE(json("ListMessageMoveTasks",
                     R"({"SourceArn":")" + QByteArray::fromStdString(dlqArn) + R"("})")
                    .body.contains("\"StartedTimestamp\":1700000000000"));

    const HttpResponse cancelled
        = json("CancelMessageMoveTask", R"({"TaskHandle":")" + handle.toUtf8() + "\"}");
    ASSERT_EQ(cancelled.status, 200) << cancelled.body.toStdString();
    EXPECT_TRUE(
        object(cancelled).value(QStringLiteral("ApproximateNumberOfMessagesMoved")).isDouble());

    expectError(json("StartMessageMoveTask",
                     R"({"SourceArn":")" + QByteArray::fromStdString(dlqArn)
                         + R"(","DestinationArn":"arn:aws:sqs:us-east-1:000000000000:nope"})"),
                404, "ResourceNotFoundException", "ResourceNotFoundException");
}

TEST_F(SqsJsonTest, oversizedRequestIs413InJson)
{
    const HttpResponse response = requestTooLarge(jsonRequest("SendMessage", {}));
    expectError(response, 413, "RequestEntityTooLarge", "RequestEntityTooLarge");
}

TEST_F(SqsJsonTest, aChangeTheWorkspaceCouldNotStoreIsAnswered500InternalErrorInJson)
{
    const HttpRequest request = jsonRequest("SendMessage", withUrl(R"("MessageBody":"foobar")"));
    const HttpResponse unsent = respond(request);
    ASSERT_EQ(unsent.status, 200);
    ASSERT_EQ(wireProtocol(request), WireProtocol::SqsJson);

    const HttpResponse response = notStored(
        wireProtocol(request), unsent, QStringLiteral("The disk holding the workspace is full."));
    EXPECT_EQ(response.status, 500);
    EXPECT_EQ(response.contentType, "application/x-amz-json-1.0");
    // botocore reads Code and Type from this header: InternalError, a server (Receiver) fault.
    EXPECT_EQ(response.header("x-amzn-query-error"), "InternalError;Receiver");
    EXPECT_EQ(response.header("x-amzn-RequestId").size(), 36);
    const QJsonObject body = object(response);
    EXPECT_EQ(body.keys(), (QStringList{QStringLiteral("__type"), QStringLiteral("message")}));
    EXPECT_EQ(body.value(QStringLiteral("__type")).toString(),
              QStringLiteral("com.amazonaws.sqs#InternalError"));
    EXPECT_EQ(body.value(QStringLiteral("message")).toString(),
              QStringLiteral("The workspace could not store this change, so it is not "
                             "acknowledged. The disk holding the workspace is full."));
}

TEST_F(SqsJsonTest, aJsonContentTypeAloneMakesAJsonRequest)
{
    HttpRequest request = jsonRequest("SendMessage", {});
    request.headers.removeIf([](const auto& header) { return header.first == "X-Amz-Target"; });
    EXPECT_EQ(wireProtocol(request), WireProtocol::SqsJson);
    EXPECT_EQ(notStored(wireProtocol(request), {}, {}).header("x-amzn-query-error"),
              "InternalError;Receiver");
}

TEST_F(SqsJsonTest, everyAnswerCarriesItsOwnVersion4RequestId)
{
    // SDKs log x-amzn-RequestId; users quote it. It is a UUID (version 4, RFC 4122 variant), and
    // no two answers share one.
    static const QRegularExpression uuid4(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"));
    QSet<QByteArray> seen;
    for (int i = 0; i < 1000; ++i) {
        const QByteArray id
            = json("SendMessage", withUrl(R"("MessageBody":"x")")).header("x-amzn-RequestId");
        ASSERT_TRUE(uuid4.match(QString::fromLatin1(id)).hasMatch()) << id.toStdString();
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 1000);
}

} // namespace
} // namespace inflight::protocol::testing
