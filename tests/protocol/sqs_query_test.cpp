// SQS over the Query protocol (spec §2.2–§2.6, §3, §4, §8 F): form bodies as botocore and the AWS
// CLI send them, XML answers with flattened lists, escaping that keeps "\r\n" intact, errors.
#include "protocol_fixture.h"

#include "engine/digest.h"

#include <QRegularExpression>
#include <QUrl>

namespace inflight::protocol::testing {
namespace {

class SqsQueryTest : public ProtocolTest {
protected:
    QByteArray url;

    void SetUp() override { url = QUrl::toPercentEncoding(createQueue("q")); }

    // The XML with the random request id blanked out, for comparing whole documents.
    static QByteArray stable(const HttpResponse& response)
    {
        return QString::fromUtf8(response.body)
            .replace(QRegularExpression(QStringLiteral("<RequestId>[^<]*</RequestId>")),
                     QStringLiteral("<RequestId/>"))
            .toUtf8();
    }

    static void expectError(const HttpResponse& response, int status, const char* code)
    {
        EXPECT_EQ(response.status, status) << response.body.toStdString();
        EXPECT_EQ(response.contentType, "text/xml");
        EXPECT_EQ(xmlText(response.body, QStringLiteral("Type")), QStringLiteral("Sender"));
        EXPECT_EQ(xmlText(response.body, QStringLiteral("Code")), QLatin1String(code));
    }

    QString receiveHandle()
    {
        const HttpResponse response
            = query("Action=ReceiveMessage&Version=2012-11-05&QueueUrl=" + url);
        return xmlText(response.body, QStringLiteral("ReceiptHandle"));
    }
};

TEST_F(SqsQueryTest, createQueueWithAttributesAndTags)
{
    const HttpResponse response = query("Action=CreateQueue&QueueName=orders&Attribute.1.Name="
                                        "VisibilityTimeout&Attribute.1.Value=45"
                                        "&Attribute.2.Name=DelaySeconds&Attribute.2.Value=5&Tag.1."
                                        "Key=team&Tag.1.Value=blue&Version=2012-11-05");
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.contentType, "text/xml");
    EXPECT_EQ(stable(response),
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
              "<CreateQueueResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
              "<CreateQueueResult><QueueUrl>http://127.0.0.1:9324/000000000000/orders</QueueUrl></"
              "CreateQueueResult>"
              "<ResponseMetadata><RequestId/></ResponseMetadata></CreateQueueResponse>\n");
    EXPECT_EQ(xmlText(response.body, QStringLiteral("RequestId")).size(), 36);
    EXPECT_EQ(response.header("x-amzn-RequestId"),
              xmlText(response.body, QStringLiteral("RequestId")).toLatin1());
    const auto attributes
        = broker.getQueueAttributes("orders", {"VisibilityTimeout", "DelaySeconds"});
    EXPECT_EQ(attributes->at("VisibilityTimeout"), "45");
    EXPECT_EQ(attributes->at("DelaySeconds"), "5");
    EXPECT_EQ(broker.listQueueTags("orders")->at("team"), "blue");
}

TEST_F(SqsQueryTest, sendMessageWithStringAttribute)
{
    const HttpResponse response = query("Action=SendMessage&Version=2012-11-05&QueueUrl=" + url
                                        + "&MessageBody=foobar&MessageAttribute.1.Name=MyAttribute&"
                                          "MessageAttribute.1.Value.DataType=String"
                                          "&MessageAttribute.1.Value.StringValue=foobar");
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    EXPECT_EQ(xmlText(response.body, QStringLiteral("MD5OfMessageBody")),
              QStringLiteral("3858f62230ac3c915f300c664312c63f"));
    EXPECT_EQ(xmlText(response.body, QStringLiteral("MD5OfMessageAttributes")),
              QStringLiteral("adb59cd4678ea5a855436b949cd07ab6"));
    EXPECT_EQ(xmlTexts(response.body, QStringLiteral("SequenceNumber")), QStringList());
    EXPECT_TRUE(response.body.contains(
        "<SendMessageResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
        "<SendMessageResult><MessageId>"));
}

TEST_F(SqsQueryTest, binaryAttributeTravelsAsBase64)
{
    const QByteArray value
        = QByteArrayLiteral("traceparent\x1e"
                            "00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01");
    const HttpResponse response
        = query("Action=SendMessage&QueueUrl=" + url
                + "&MessageBody=test&MessageAttribute.1.Name=attr1"
                  "&MessageAttribute.1.Value.DataType=Binary&MessageAttribute.1.Value.BinaryValue="
                + QUrl::toPercentEncoding(QString::fromLatin1(value.toBase64())));
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    EXPECT_EQ(xmlText(response.body, QStringLiteral("MD5OfMessageAttributes")),
              QStringLiteral("8cbe4db156db8a94db8b801b7addb984"));

    const HttpResponse received
        = query("Action=ReceiveMessage&QueueUrl=" + url + "&MessageAttributeName.1=All");
    EXPECT_TRUE(received.body.contains(
        "<MessageAttribute><Name>attr1</Name><Value><BinaryValue>" + value.toBase64()
        + "</BinaryValue><DataType>Binary</DataType></Value></MessageAttribute>"))
        << received.body.toStdString();
}

TEST_F(SqsQueryTest, receivedMessageXmlShape)
{
    query("Action=SendMessage&QueueUrl=" + url
          + "&MessageBody=foobar&MessageAttribute.1.Name=k&MessageAttribute.1.Value.DataType=String"
            "&MessageAttribute.1.Value.StringValue=v");
    const HttpResponse response
        = query("Action=ReceiveMessage&QueueUrl=" + url
                + "&AttributeName.1=SentTimestamp&MessageSystemAttributeName.1=SenderId"
                  "&MessageAttributeName.1=All&MaxNumberOfMessages=10");
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QString handle = xmlText(response.body, QStringLiteral("ReceiptHandle"));
    const QString id = xmlText(response.body, QStringLiteral("MessageId"));
    EXPECT_EQ(stable(response),
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
              "<ReceiveMessageResponse "
              "xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><ReceiveMessageResult>"
              "<Message><MessageId>"
                  + id.toLatin1() + "</MessageId><ReceiptHandle>" + handle.toLatin1()
                  + "</ReceiptHandle><MD5OfBody>3858f62230ac3c915f300c664312c63f</"
                    "MD5OfBody><Body>foobar</Body>"
                    "<Attribute><Name>SenderId</Name><Value>000000000000</Value></Attribute>"
                    "<Attribute><Name>SentTimestamp</Name><Value>1700000000000</Value></Attribute>"
                    "<MD5OfMessageAttributes>"
                  + QByteArray::fromStdString(
                      engine::md5OfMessageAttributes({{"k", {"String", "v", {}}}}))
                  + "</MD5OfMessageAttributes>"
                    "<MessageAttribute><Name>k</Name><Value><StringValue>v</"
                    "StringValue><DataType>String</DataType>"
                    "</Value></MessageAttribute></Message>"
                    "</ReceiveMessageResult><ResponseMetadata><RequestId/></ResponseMetadata></"
                    "ReceiveMessageResponse>\n");
}

TEST_F(SqsQueryTest, emptyReceiveIsAnEmptyResultElement)
{
    const HttpResponse response
        = query("Action=ReceiveMessage&QueueUrl=" + url + "&WaitTimeSeconds=0");
    EXPECT_EQ(response.status, 200);
    EXPECT_TRUE(response.body.contains("<ReceiveMessageResult/>")) << response.body.toStdString();
}

TEST_F(SqsQueryTest, carriageReturnsAndQuotesSurviveXml)
{
    const QByteArray body = "line1\r\nline2 \"quoted\" & <tagged> +plus";
    const HttpResponse sent
        = query("Action=SendMessage&QueueUrl=" + url + "&MessageBody="
                + QUrl::toPercentEncoding(QString::fromUtf8(body)).replace("%20", "+"));
    ASSERT_EQ(sent.status, 200) << sent.body.toStdString();
    EXPECT_EQ(xmlText(sent.body, QStringLiteral("MD5OfMessageBody")).toStdString(),
              engine::md5Hex(body.toStdString()));

    const HttpResponse received = query("Action=ReceiveMessage&QueueUrl=" + url);
    EXPECT_TRUE(received.body.contains(
        "<Body>line1&#xD;\nline2 &quot;quoted&quot; &amp; &lt;tagged&gt; +plus</Body>"))
        << received.body.toStdString();
    // What a client's XML parser reads back is the body byte for byte.
    EXPECT_EQ(xmlText(received.body, QStringLiteral("Body")).toUtf8(), body);
    EXPECT_EQ(xmlText(received.body, QStringLiteral("MD5OfBody")).toStdString(),
              engine::md5Hex(body.toStdString()));
}

TEST_F(SqsQueryTest, queueFromRequestPath)
{
    // Case 117: POST to the queue URL's path without a QueueUrl parameter.
    const HttpResponse sent = query("Action=SendMessage&MessageBody=from-path", "/000000000000/q");
    ASSERT_EQ(sent.status, 200) << sent.body.toStdString();
    EXPECT_EQ(broker.queueStats("q")->available, 1);
    // QueueUrl wins over the path.
    createQueue("other");
    query("Action=SendMessage&MessageBody=m&QueueUrl="
              + QUrl::toPercentEncoding(QStringLiteral("http://127.0.0.1:9324/000000000000/other")),
          "/000000000000/q");
    EXPECT_EQ(broker.queueStats("other")->available, 1);
    expectError(query("Action=SendMessage&MessageBody=m", "/999999999999/q"), 400,
                "AWS.SimpleQueueService.NonExistentQueue");
    expectError(query("Action=SendMessage&MessageBody=m", "/000000000000/missing"), 400,
                "AWS.SimpleQueueService.NonExistentQueue");
}

TEST_F(SqsQueryTest, getWithQueryString)
{
    createQueue("Abc");
    createQueue("abc");
    HttpRequest request;
    request.method = "GET";
    request.path = "/";
    request.query = "Action=ListQueues&QueueNamePrefix=a&Version=2012-11-05";
    const HttpResponse response = respond(request);
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(xmlTexts(response.body, QStringLiteral("QueueUrl")),
              QStringList{QStringLiteral("http://127.0.0.1:9324/000000000000/abc")});
}

TEST_F(SqsQueryTest, errorResponseShape)
{
    const HttpResponse response = query(
        "Action=SendMessage&MessageBody=m&QueueUrl="
        + QUrl::toPercentEncoding(QStringLiteral("http://127.0.0.1:9324/000000000000/gone")));
    EXPECT_EQ(response.status, 400);
    EXPECT_EQ(response.contentType, "text/xml");
    EXPECT_EQ(stable(response),
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
              "<ErrorResponse "
              "xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><Error><Type>Sender</Type>"
              "<Code>AWS.SimpleQueueService.NonExistentQueue</Code><Message>The specified queue "
              "does not exist.</Message>"
              "<Detail/></Error><RequestId/></ErrorResponse>\n");
    EXPECT_TRUE(response.header("x-amzn-query-error").isEmpty());
}

TEST_F(SqsQueryTest, secondPurgeIs403)
{
    EXPECT_EQ(query("Action=PurgeQueue&QueueUrl=" + url).status, 200);
    expectError(query("Action=PurgeQueue&QueueUrl=" + url), 403,
                "AWS.SimpleQueueService.PurgeQueueInProgress");
}

TEST_F(SqsQueryTest, unknownOrMissingAction)
{
    expectError(query("Action=FlyToTheMoon&Version=2012-11-05"), 400, "InvalidAction");
    expectError(query("Version=2012-11-05"), 400, "MissingAction");
}

TEST_F(SqsQueryTest, nonNumericIntegerIsInvalidParameterValue)
{
    const HttpResponse response
        = query("Action=ReceiveMessage&QueueUrl=" + url + "&MaxNumberOfMessages=ten");
    expectError(response, 400, "InvalidParameterValue");
    EXPECT_EQ(
        xmlText(response.body, QStringLiteral("Message")),
        QStringLiteral(
            "Value ten for parameter MaxNumberOfMessages is invalid. Reason: Must be an integer."));
}

TEST_F(SqsQueryTest, noOutputActionsHaveNoResultElement)
{
    const HttpResponse response
        = query("Action=SetQueueAttributes&QueueUrl=" + url
                + "&Attribute.1.Name=VisibilityTimeout&Attribute.1.Value=40");
    EXPECT_EQ(stable(response),
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
              "<SetQueueAttributesResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
              "<ResponseMetadata><RequestId/></ResponseMetadata></SetQueueAttributesResponse>\n");
    EXPECT_EQ(broker.getQueueAttributes("q", {"VisibilityTimeout"})->at("VisibilityTimeout"), "40");
}

TEST_F(SqsQueryTest, queueAttributesAreFlattened)
{
    const HttpResponse response
        = query("Action=GetQueueAttributes&QueueUrl=" + url
                + "&AttributeName.1=VisibilityTimeout&AttributeName.2=DelaySeconds");
    EXPECT_TRUE(response.body.contains(
        "<GetQueueAttributesResult><Attribute><Name>DelaySeconds</Name><Value>0</Value></Attribute>"
        "<Attribute><Name>VisibilityTimeout</Name><Value>30</Value></Attribute></"
        "GetQueueAttributesResult>"))
        << response.body.toStdString();
    // Nothing asked: an empty result.
    EXPECT_TRUE(query("Action=GetQueueAttributes&QueueUrl=" + url)
                    .body.contains("<GetQueueAttributesResult/>"));
}

TEST_F(SqsQueryTest, tagsAreFlattened)
{
    query("Action=TagQueue&QueueUrl=" + url
          + "&Tag.1.Key=a&Tag.1.Value=1&Tag.2.Key=b&Tag.2.Value=2");
    query("Action=UntagQueue&QueueUrl=" + url + "&TagKey.1=a");
    const HttpResponse response = query("Action=ListQueueTags&QueueUrl=" + url);
    EXPECT_TRUE(response.body.contains(
        "<ListQueueTagsResult><Tag><Key>b</Key><Value>2</Value></Tag></ListQueueTagsResult>"))
        << response.body.toStdString();
}

TEST_F(SqsQueryTest, sendMessageBatchPartialFailure)
{
    const HttpResponse response = query(
        "Action=SendMessageBatch&QueueUrl=" + url
        + "&SendMessageBatchRequestEntry.1.Id=ok&SendMessageBatchRequestEntry.1.MessageBody=foobar"
          "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Name=MyAttribute"
          "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType=String"
          "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue=foobar"
          "&SendMessageBatchRequestEntry.2.Id=9&SendMessageBatchRequestEntry.2.MessageBody=%01");
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QString id = xmlText(response.body, QStringLiteral("MessageId"));
    EXPECT_TRUE(response.body.contains(
        "<SendMessageBatchResult><SendMessageBatchResultEntry><Id>ok</Id><MessageId>"
        + id.toLatin1()
        + "</MessageId><MD5OfMessageBody>3858f62230ac3c915f300c664312c63f</MD5OfMessageBody>"
          "<MD5OfMessageAttributes>adb59cd4678ea5a855436b949cd07ab6</MD5OfMessageAttributes>"
          "</SendMessageBatchResultEntry>"
          "<BatchResultErrorEntry><Id>9</Id><SenderFault>true</"
          "SenderFault><Code>InvalidMessageContents</Code><Message>"))
        << response.body.toStdString();
    EXPECT_EQ(broker.queueStats("q")->available, 1);
}

TEST_F(SqsQueryTest, deleteAndChangeVisibilityBatches)
{
    query("Action=SendMessage&QueueUrl=" + url + "&MessageBody=m");
    const QByteArray handle = QUrl::toPercentEncoding(receiveHandle());
    const HttpResponse changed
        = query("Action=ChangeMessageVisibilityBatch&QueueUrl=" + url
                + "&ChangeMessageVisibilityBatchRequestEntry.1.Id=a&"
                  "ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle="
                + handle + "&ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout=60");
    EXPECT_TRUE(changed.body.contains(
        "<ChangeMessageVisibilityBatchResult><ChangeMessageVisibilityBatchResultEntry>"
        "<Id>a</Id></ChangeMessageVisibilityBatchResultEntry>"
        "</ChangeMessageVisibilityBatchResult>"))
        << changed.body.toStdString();
    const HttpResponse deleted = query(
        "Action=DeleteMessageBatch&QueueUrl=" + url
        + "&DeleteMessageBatchRequestEntry.1.Id=a&DeleteMessageBatchRequestEntry.1.ReceiptHandle="
        + handle
        + "&DeleteMessageBatchRequestEntry.2.Id=b"
          "&DeleteMessageBatchRequestEntry.2.ReceiptHandle=garbage");
    EXPECT_TRUE(deleted.body.contains(
        "<DeleteMessageBatchResultEntry><Id>a</Id></DeleteMessageBatchResultEntry>"
        "<BatchResultErrorEntry><Id>b</Id><SenderFault>true</SenderFault>"
        "<Code>ReceiptHandleIsInvalid</Code><Message>The input receipt handle &quot;garbage&quot; "
        "is not a valid receipt handle.</Message></BatchResultErrorEntry>"))
        << deleted.body.toStdString();
}

TEST_F(SqsQueryTest, singleDeleteAndChangeVisibility)
{
    query("Action=SendMessage&QueueUrl=" + url + "&MessageBody=m");
    const QByteArray handle = QUrl::toPercentEncoding(receiveHandle());
    EXPECT_EQ(query("Action=ChangeMessageVisibility&QueueUrl=" + url + "&ReceiptHandle=" + handle
                    + "&VisibilityTimeout=0")
                  .status,
              200);
    EXPECT_EQ(broker.queueStats("q")->available, 1);
    const QByteArray second = QUrl::toPercentEncoding(receiveHandle());
    const HttpResponse deleted
        = query("Action=DeleteMessage&QueueUrl=" + url + "&ReceiptHandle=" + second);
    EXPECT_EQ(stable(deleted),
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
              "<DeleteMessageResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
              "<ResponseMetadata><RequestId/></ResponseMetadata></DeleteMessageResponse>\n");
    EXPECT_EQ(broker.queueStats("q")->inFlight, 0);
    expectError(query("Action=DeleteMessage&QueueUrl=" + url + "&ReceiptHandle=garbage"), 400,
                "ReceiptHandleIsInvalid");
}

TEST_F(SqsQueryTest, listQueuesNextToken)
{
    for (int i = 0; i < 3; ++i)
        createQueue("p" + std::to_string(i));
    const HttpResponse first = query("Action=ListQueues&QueueNamePrefix=p&MaxResults=2");
    EXPECT_EQ(xmlTexts(first.body, QStringLiteral("QueueUrl")),
              (QStringList{QStringLiteral("http://127.0.0.1:9324/000000000000/p0"),
                           QStringLiteral("http://127.0.0.1:9324/000000000000/p1")}));
    const QString token = xmlText(first.body, QStringLiteral("NextToken"));
    ASSERT_FALSE(token.isEmpty());
    const HttpResponse second = query("Action=ListQueues&QueueNamePrefix=p&MaxResults=2&NextToken="
                                      + QUrl::toPercentEncoding(token));
    EXPECT_EQ(xmlTexts(second.body, QStringLiteral("QueueUrl")),
              QStringList{QStringLiteral("http://127.0.0.1:9324/000000000000/p2")});
    EXPECT_EQ(xmlTexts(second.body, QStringLiteral("NextToken")), QStringList());
    EXPECT_TRUE(first.body.contains("p1</QueueUrl><NextToken>")) << first.body.toStdString();
}

TEST_F(SqsQueryTest, listDeadLetterSourceQueuesIsFlattened)
{
    const std::string dlqArn = broker.arnForName("q");
    createQueue(
        "s1",
        {{"RedrivePolicy", R"({"deadLetterTargetArn":")" + dlqArn + R"(","maxReceiveCount":2})"}});
    const HttpResponse response = query("Action=ListDeadLetterSourceQueues&QueueUrl=" + url);
    EXPECT_TRUE(response.body.contains(
        "<ListDeadLetterSourceQueuesResult><QueueUrl>http://127.0.0.1:9324/000000000000/s1"
        "</QueueUrl></ListDeadLetterSourceQueuesResult>"))
        << response.body.toStdString();
}

TEST_F(SqsQueryTest, listMessageMoveTasksEntries)
{
    const std::string arn = broker.arnForName("q");
    createQueue(
        "src",
        {{"RedrivePolicy", R"({"deadLetterTargetArn":")" + arn + R"(","maxReceiveCount":1})"}});
    const HttpResponse started = query("Action=StartMessageMoveTask&SourceArn="
                                       + QUrl::toPercentEncoding(QString::fromStdString(arn)));
    ASSERT_EQ(started.status, 200) << started.body.toStdString();
    const HttpResponse listed = query("Action=ListMessageMoveTasks&SourceArn="
                                      + QUrl::toPercentEncoding(QString::fromStdString(arn)));
    const QStringList entries
        = xmlTexts(listed.body, QStringLiteral("ListMessageMoveTasksResultEntry"));
    ASSERT_EQ(entries.size(), 1) << listed.body.toStdString();
    EXPECT_TRUE(listed.body.contains("<StartedTimestamp>1700000000000</StartedTimestamp>"))
        << listed.body.toStdString();
    EXPECT_TRUE(
        listed.body.contains("<SourceArn>arn:aws:sqs:us-east-1:000000000000:q</SourceArn>"));
    EXPECT_FALSE(listed.body.contains("<DestinationArn>"));
    EXPECT_FALSE(listed.body.contains("<MaxNumberOfMessagesPerSecond>"));
}

TEST_F(SqsQueryTest, formDecodingOfPlusAndPercent)
{
    query("Action=SendMessage&QueueUrl=" + url + "&MessageBody=a+b%2Bc%26d%3De");
    const HttpResponse received = query("Action=ReceiveMessage&QueueUrl=" + url);
    EXPECT_EQ(xmlText(received.body, QStringLiteral("Body")), QStringLiteral("a b+c&d=e"));
}

TEST_F(SqsQueryTest, unicodeBodyRoundTrips)
{
    const QString body = QStringLiteral("caf\u00e9 \U0001F600 \uE000");
    query("Action=SendMessage&QueueUrl=" + url + "&MessageBody=" + QUrl::toPercentEncoding(body));
    const HttpResponse received = query("Action=ReceiveMessage&QueueUrl=" + url);
    EXPECT_EQ(xmlText(received.body, QStringLiteral("Body")), body);
    EXPECT_EQ(xmlText(received.body, QStringLiteral("MD5OfBody")).toStdString(),
              engine::md5Hex(body.toUtf8().toStdString()));
}

TEST_F(SqsQueryTest, longPollDeferredAnswerIsXml)
{
    Outcome outcome
        = handle(queryRequest("Action=ReceiveMessage&QueueUrl=" + url + "&WaitTimeSeconds=20"));
    ASSERT_TRUE(std::holds_alternative<DeferredReceive>(outcome));
    const DeferredReceive& deferred = std::get<DeferredReceive>(outcome);
    EXPECT_EQ(deferred.request.waitTimeSeconds, 20);
    const HttpResponse empty = deferred.respond(engine::ReceiveResult{});
    EXPECT_EQ(empty.contentType, "text/xml");
    EXPECT_TRUE(empty.body.contains(
        "<ReceiveMessageResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
        "<ReceiveMessageResult/>"))
        << empty.body.toStdString();
    const HttpResponse failed = deferred.respond(engine::makeError(
        engine::ErrorCode::QueueDoesNotExist, "The specified queue does not exist."));
    expectError(failed, 400, "AWS.SimpleQueueService.NonExistentQueue");
}

TEST_F(SqsQueryTest, legacyUnindexedMembers)
{
    // Old clients: `Attribute.Name`/`Attribute.Value` and `AttributeName=All` without an index.
    EXPECT_EQ(query("Action=SetQueueAttributes&QueueUrl=" + url
                    + "&Attribute.Name=DelaySeconds&Attribute.Value=3")
                  .status,
              200);
    const HttpResponse response
        = query("Action=GetQueueAttributes&QueueUrl=" + url + "&AttributeName=DelaySeconds");
    EXPECT_TRUE(
        response.body.contains("<Attribute><Name>DelaySeconds</Name><Value>3</Value></Attribute>"))
        << response.body.toStdString();
}

TEST_F(SqsQueryTest, queueLifecycleAndPermissions)
{
    const HttpResponse found = query("Action=GetQueueUrl&QueueName=q");
    EXPECT_TRUE(found.body.contains("<GetQueueUrlResult><QueueUrl>http://127.0.0.1:9324/"
                                    "000000000000/q</QueueUrl></GetQueueUrlResult>"))
        << found.body.toStdString();
    EXPECT_EQ(query("Action=AddPermission&QueueUrl=" + url
                    + "&Label=l1&AWSAccountId.1=111122223333&AWSAccountId.2=444455556666"
                      "&ActionName.1=SendMessage&ActionName.2=ReceiveMessage")
                  .status,
              200);
    const std::string policy = broker.getQueueAttributes("q", {"Policy"})->at("Policy");
    EXPECT_NE(policy.find("l1"), std::string::npos);
    EXPECT_NE(policy.find("444455556666"), std::string::npos);
    EXPECT_EQ(query("Action=RemovePermission&QueueUrl=" + url + "&Label=l1").status, 200);
    expectError(query("Action=RemovePermission&QueueUrl=" + url + "&Label=l1"), 400,
                "InvalidParameterValue");
    const HttpResponse deleted = query("Action=DeleteQueue&QueueUrl=" + url);
    EXPECT_EQ(stable(deleted),
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
              "<DeleteQueueResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
              "<ResponseMetadata><RequestId/></ResponseMetadata></DeleteQueueResponse>\n");
    expectError(query("Action=GetQueueUrl&QueueName=q"), 400,
                "AWS.SimpleQueueService.NonExistentQueue");
    expectError(query("Action=CreateQueue&QueueName=q"), 400,
                "AWS.SimpleQueueService.QueueDeletedRecently");
}

TEST_F(SqsQueryTest, fifoSendWithTraceHeader)
{
    createQueue("f.fifo", {{"FifoQueue", "true"}});
    const QByteArray fifo
        = QUrl::toPercentEncoding(QStringLiteral("http://127.0.0.1:9324/000000000000/f.fifo"));
    const HttpResponse response = query(
        "Action=SendMessage&QueueUrl=" + fifo
        + "&MessageBody=a&MessageGroupId=g&MessageDeduplicationId=d1"
          "&MessageSystemAttribute.1.Name=AWSTraceHeader&MessageSystemAttribute.1.Value.DataType="
          "String"
          "&MessageSystemAttribute.1.Value.StringValue=Root%3D1-5759e988-bd862e3fe1be46a994272793");
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    EXPECT_EQ(xmlText(response.body, QStringLiteral("SequenceNumber")).size(), 20);
    EXPECT_EQ(
        xmlText(response.body, QStringLiteral("MD5OfMessageSystemAttributes")).toStdString(),
        engine::md5OfMessageAttributes(
            {{"AWSTraceHeader", {"String", "Root=1-5759e988-bd862e3fe1be46a994272793", {}}}}));
    EXPECT_EQ(xmlTexts(response.body, QStringLiteral("MD5OfMessageAttributes")), QStringList());

    const HttpResponse received
        = query("Action=ReceiveMessage&QueueUrl=" + fifo
                + "&MessageSystemAttributeName.1=All&ReceiveRequestAttemptId=attempt-1");
    EXPECT_TRUE(
        received.body.contains("<Attribute><Name>AWSTraceHeader</Name><Value>Root=1-5759e988-"
                               "bd862e3fe1be46a994272793</Value></Attribute>"))
        << received.body.toStdString();
    EXPECT_TRUE(received.body.contains(
        "<Attribute><Name>MessageGroupId</Name><Value>g</Value></Attribute>"));
    // The same attempt id replays the same receive (§5.3).
    const HttpResponse replay
        = query("Action=ReceiveMessage&QueueUrl=" + fifo + "&ReceiveRequestAttemptId=attempt-1");
    EXPECT_EQ(xmlText(replay.body, QStringLiteral("ReceiptHandle")),
              xmlText(received.body, QStringLiteral("ReceiptHandle")));
}

TEST_F(SqsQueryTest, cancelMessageMoveTaskAnswersCount)
{
    const std::string arn = broker.arnForName("q");
    const QString source = createQueue(
        "src",
        {{"RedrivePolicy", R"({"deadLetterTargetArn":")" + arn + R"(","maxReceiveCount":1})"}});
    const QByteArray sourceUrl = QUrl::toPercentEncoding(source);
    for (int i = 0; i < 3; ++i) {
        query("Action=SendMessage&MessageBody=m&QueueUrl=" + sourceUrl);
        query("Action=ReceiveMessage&VisibilityTimeout=0&QueueUrl=" + sourceUrl);
        query("Action=ReceiveMessage&VisibilityTimeout=0&QueueUrl=" + sourceUrl);
    }
    const HttpResponse started
        = query("Action=StartMessageMoveTask&MaxNumberOfMessagesPerSecond=1&SourceArn="
                + QUrl::toPercentEncoding(QString::fromStdString(arn)));
    const QString handle = xmlText(started.body, QStringLiteral("TaskHandle"));
    ASSERT_FALSE(handle.isEmpty()) << started.body.toStdString();
    const HttpResponse cancelled
        = query("Action=CancelMessageMoveTask&TaskHandle=" + QUrl::toPercentEncoding(handle));
    EXPECT_EQ(cancelled.status, 200) << cancelled.body.toStdString();
    EXPECT_FALSE(
        xmlText(cancelled.body, QStringLiteral("ApproximateNumberOfMessagesMoved")).isEmpty());
    EXPECT_TRUE(
        cancelled.body.contains("<CancelMessageMoveTaskResult><ApproximateNumberOfMessagesMoved>"));
}

TEST_F(SqsQueryTest, oversizedRequestIs413InXml)
{
    expectError(requestTooLarge(queryRequest("Action=SendMessage")), 413, "RequestEntityTooLarge");
}

TEST_F(SqsQueryTest, aChangeTheWorkspaceCouldNotStoreIsAnswered500InternalErrorInXml)
{
    const HttpRequest request = queryRequest("Action=SendMessage&Version=2012-11-05&QueueUrl=" + url
                                             + "&MessageBody=foobar");
    const HttpResponse unsent = respond(request);
    ASSERT_EQ(unsent.status, 200) << unsent.body.toStdString();
    ASSERT_EQ(wireProtocol(request), WireProtocol::SqsQuery);

    const HttpResponse response = notStored(
        wireProtocol(request), unsent, QStringLiteral("The disk holding the workspace is full."));
    EXPECT_EQ(response.status, 500);
    EXPECT_EQ(response.contentType, "text/xml");
    EXPECT_TRUE(response.body.contains("<ErrorResponse")) << response.body.toStdString();
    EXPECT_EQ(xmlText(response.body, QStringLiteral("Type")), QStringLiteral("Receiver"));
    EXPECT_EQ(xmlText(response.body, QStringLiteral("Code")), QStringLiteral("InternalError"));
    EXPECT_EQ(xmlText(response.body, QStringLiteral("Message")),
              QStringLiteral("The workspace could not store this change, so it is not "
                             "acknowledged. The disk holding the workspace is full."));
    EXPECT_EQ(xmlText(response.body, QStringLiteral("RequestId")).size(), 36);
}

TEST_F(SqsQueryTest, aChangeTheWorkspaceCouldNotStoreWithoutAReasonStillSaysSo)
{
    const HttpResponse response = notStored(WireProtocol::SqsQuery, {}, QString());
    EXPECT_EQ(response.status, 500);
    EXPECT_EQ(xmlText(response.body, QStringLiteral("Message")),
              QStringLiteral("The workspace could not store this change, so it is not "
                             "acknowledged."));
}

} // namespace
} // namespace inflight::protocol::testing
