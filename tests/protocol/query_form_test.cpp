// Query forms as the endpoint reads them (docs/BEHAVIOUR.md "Limits on what a request may
// hold"): parameter names of at most 16 segments, read without recursion proportional to the
// input; names and values that are UTF-8 once percent-decoded (anything else is
// MalformedQueryString, 400); and every character a body may hold (§1.3) stored and returned as
// sent, the engine's own check seeing the real code points.
#include "protocol_fixture.h"

#include <QUrl>

namespace inflight::protocol::testing {
namespace {

// "a.a.a…": a parameter name of `segments` segments.
QByteArray dottedName(int segments)
{
    QByteArray name = "a";
    name.reserve(segments * 2);
    for (int i = 1; i < segments; ++i)
        name += ".a";
    return name;
}

class QueryFormTest : public QueueProtocolTest {
protected:
    std::int64_t messagesIn(const std::string& queue)
    {
        const auto attributes = broker.getQueueAttributes(queue, {"ApproximateNumberOfMessages"});
        return attributes ? std::stoll(attributes->at("ApproximateNumberOfMessages")) : -1;
    }

    QString receivedBody()
    {
        const HttpResponse received = query("Action=ReceiveMessage&QueueUrl=" + encodedUrl);
        return xmlText(received.body, QStringLiteral("Body"));
    }
};

TEST_F(QueryFormTest, aParameterNameOfTwentyThousandSegmentsIsMalformedQueryString)
{
    // The reported crash: 40 KB of "a.a.a…" overflowed the stack while the name was read.
    expectQueryError(query("Action=ListQueues&" + dottedName(20'000) + "=1"), 400,
                     "MalformedQueryString");
}

TEST_F(QueryFormTest, aParameterNameOfThreeHundredThousandSegmentsWithoutActionIsRefused)
{
    // Without Action the tree of names used to be built and then torn down recursively.
    expectQueryError(query(dottedName(300'000) + "=1"), 400, "MalformedQueryString");
}

TEST_F(QueryFormTest, parameterNamesHaveAtMostSixteenSegments)
{
    EXPECT_EQ(query("Action=ListQueues&" + dottedName(16) + "=1").status, 200);
    const HttpResponse tooDeep = query("Action=ListQueues&" + dottedName(17) + "=1");
    expectQueryError(tooDeep, 400, "MalformedQueryString");
    EXPECT_EQ(xmlText(tooDeep.body, QStringLiteral("Message")),
              QStringLiteral("The query string is malformed: a parameter name has more than 16 "
                             "parts separated by '.'."));
}

TEST_F(QueryFormTest, theDeepestNameOfTheApiIsRead)
{
    // SendMessageBatchRequestEntry.N.MessageAttribute.M.Value.<field>: six or seven segments.
    const HttpResponse response
        = query("Action=SendMessageBatch&QueueUrl=" + encodedUrl
                + "&SendMessageBatchRequestEntry.1.Id=a"
                  "&SendMessageBatchRequestEntry.1.MessageBody=m"
                  "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Name=colour"
                  "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType=String"
                  "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue=red");
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    EXPECT_EQ(xmlTexts(response.body, QStringLiteral("Id")), QStringList{QStringLiteral("a")});
    const HttpResponse received
        = query("Action=ReceiveMessage&QueueUrl=" + encodedUrl + "&MessageAttributeName.1=All");
    EXPECT_EQ(xmlText(received.body, QStringLiteral("StringValue")), QStringLiteral("red"));
}

TEST_F(QueryFormTest, oneHundredThousandParametersAreRead)
{
    // Every parameter costs the same however many come before it (a quadratic step would take
    // minutes here).
    QByteArray form = "Action=ListQueues";
    for (int i = 0; i < 100'000; ++i)
        form += "&Extra." + QByteArray::number(i) + ".Name=x";
    const HttpResponse response = query(form);
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(xmlTexts(response.body, QStringLiteral("QueueUrl")), QStringList{url});
}

TEST_F(QueryFormTest, aFormValueThatIsNotUtf8IsMalformedQueryStringAndNothingIsSent)
{
    for (const QByteArray& body :
         {QByteArrayLiteral("%FF%FE"), QByteArrayLiteral("a%C0%80"), QByteArrayLiteral("%ED%A0%80"),
          QByteArrayLiteral("%F4%90%80%80"), QByteArrayLiteral("ab%E2%82"),
          QByteArrayLiteral("a\xff")}) {
        SCOPED_TRACE(body.toStdString());
        const HttpResponse response
            = query("Action=SendMessage&QueueUrl=" + encodedUrl + "&MessageBody=" + body);
        expectQueryError(response, 400, "MalformedQueryString");
        EXPECT_EQ(xmlText(response.body, QStringLiteral("Message")),
                  QStringLiteral("The query string is malformed: a parameter name or value is "
                                 "not UTF-8 once percent-decoded."));
    }
    EXPECT_EQ(messagesIn("q"), 0);
}

TEST_F(QueryFormTest, aFormNameThatIsNotUtf8IsMalformedQueryString)
{
    expectQueryError(query("Action=ListQueues&%FF=1"), 400, "MalformedQueryString");
    HttpRequest get;
    get.method = "GET";
    get.path = "/";
    get.query = "Action=ListQueues&QueueNamePrefix=%C3";
    expectQueryError(respond(get), 400, "MalformedQueryString");
}

TEST_F(QueryFormTest, aNonCharacterInAQueryBodyIsInvalidMessageContentsAsOverJson)
{
    // U+FFFF is well-formed UTF-8 that §1.3 does not allow in a body: the engine's own check must
    // see it, not a replacement character.
    expectQueryError(query("Action=SendMessage&QueueUrl=" + encodedUrl + "&MessageBody=%EF%BF%BF"),
                     400, "InvalidMessageContents");
    expectQueryError(
        query("Action=SendMessage&QueueUrl=" + encodedUrl + "&MessageBody=a%EF%BF%BEb"), 400,
        "InvalidMessageContents");
    EXPECT_EQ(messagesIn("q"), 0);
}

TEST_F(QueryFormTest, everyAllowedCharacterOfAQueryBodyComesBackAsSent)
{
    // U+FEFF is a character like any other, first (not a byte-order mark to drop) or later, also
    // beside characters XML needs care with (U+10FFFD is a surrogate pair in UTF-16); a '%' not
    // followed by two hex digits stands for itself.
    for (const QString& body :
         {QStringLiteral("\uFEFFx"), QStringLiteral("a\uFEFFb\U0001F600\uFEFF"),
          QStringLiteral("\uFEFFx\uFFFD\U0010FFFD")}) {
        SCOPED_TRACE(body.toStdString());
        ASSERT_EQ(query("Action=SendMessage&QueueUrl=" + encodedUrl
                        + "&MessageBody=" + QUrl::toPercentEncoding(body))
                      .status,
                  200);
        EXPECT_EQ(receivedBody(), body);
    }
    ASSERT_EQ(query("Action=SendMessage&QueueUrl=" + encodedUrl + "&MessageBody=%zz%4").status,
              200);
    EXPECT_EQ(receivedBody(), QStringLiteral("%zz%4"));
}

} // namespace
} // namespace inflight::protocol::testing
