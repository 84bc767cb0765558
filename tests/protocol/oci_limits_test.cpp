// OCI REST requests at their limits (docs/BEHAVIOUR.md "Limits on what a request may hold"): page
// tokens and limits up to 2^63 - 1 that cannot overflow, query strings that must be UTF-8, bodies
// nested too deep for Qt's parser, and a content starting with U+FEFF kept as sent.
#include "protocol_fixture.h"

namespace inflight::protocol::testing {
namespace {

class OciLimitsTest : public ProtocolTest {
protected:
    static HttpRequest oci(const QByteArray& method, const QByteArray& pathAndQuery,
                           const QByteArray& body = {})
    {
        HttpRequest request;
        request.method = method;
        const qsizetype question = pathAndQuery.indexOf('?');
        request.path
            = "/20210201/queues/" + (question < 0 ? pathAndQuery : pathAndQuery.left(question));
        request.query = question < 0 ? QByteArray() : pathAndQuery.mid(question + 1);
        request.headers = {{"Host", "127.0.0.1:9324"}, {"Content-Type", "application/json"}};
        request.body = body;
        return request;
    }

    void SetUp() override
    {
        engine::CreateQueueRequest request;
        request.name = "oq";
        request.oci = true;
        ASSERT_TRUE(broker.createQueue(request).ok());
    }

    static void expectOciError(const HttpResponse& response, int status, const char* code)
    {
        EXPECT_EQ(response.status, status) << response.body.left(2'000).toStdString();
        EXPECT_EQ(object(response).value(QStringLiteral("code")).toString(), QLatin1String(code));
        EXPECT_FALSE(object(response).value(QStringLiteral("message")).toString().isEmpty());
    }

    std::int64_t messagesIn(const std::string& queue)
    {
        const auto attributes = broker.getQueueAttributes(queue, {"ApproximateNumberOfMessages"});
        return attributes ? std::stoll(attributes->at("ApproximateNumberOfMessages")) : -1;
    }
};

TEST_F(OciLimitsTest, listChannelsPagesNeverOverflow)
{
    ASSERT_EQ(respond(oci("POST", "oq/messages",
                          R"({"messages":[{"content":"a","metadata":{"channelId":"c1"}},)"
                          R"({"content":"b","metadata":{"channelId":"c2"}}]})"))
                  .status,
              200);
    // A page past the end, with any limit, is an empty page with no next page.
    for (const QByteArray& parameters :
         {QByteArrayLiteral("page=9223372036854775807&limit=2"),
          QByteArrayLiteral("page=9223372036854775806&limit=9223372036854775807"),
          QByteArrayLiteral("page=2&limit=9223372036854775807"),
          QByteArrayLiteral("page=9223372036854775807")}) {
        SCOPED_TRACE(parameters.toStdString());
        const HttpResponse response = respond(oci("GET", "oq/channels?" + parameters));
        EXPECT_EQ(response.status, 200);
        EXPECT_EQ(response.body, "{\"items\":[]}");
        EXPECT_TRUE(response.header("opc-next-page").isEmpty())
            << response.header("opc-next-page").toStdString();
    }
    // A huge limit from the first page is the whole list.
    const HttpResponse all = respond(oci("GET", "oq/channels?page=1&limit=9223372036854775807"));
    EXPECT_EQ(all.body, "{\"items\":[\"c2\"]}");
    EXPECT_TRUE(all.header("opc-next-page").isEmpty());
    // Negative or unreadable numbers are the client's mistake.
    for (const QByteArray& parameters :
         {QByteArrayLiteral("page=-1"), QByteArrayLiteral("page=-9223372036854775808"),
          QByteArrayLiteral("limit=-9223372036854775808"), QByteArrayLiteral("limit=0"),
          QByteArrayLiteral("page=9223372036854775808"),
          QByteArrayLiteral("limit=99999999999999999999")}) {
        SCOPED_TRACE(parameters.toStdString());
        expectOciError(respond(oci("GET", "oq/channels?" + parameters)), 400, "InvalidParameter");
    }
}

TEST_F(OciLimitsTest, aQueryStringThatIsNotUtf8IsInvalidParameter)
{
    expectOciError(respond(oci("GET", "oq/channels?channelFilter=%FF")), 400, "InvalidParameter");
}

TEST_F(OciLimitsTest, aContentStartingWithUFeffComesBackAsSent)
{
    // Escaped or as raw UTF-8, the character is kept both ways. (The raw bytes of the answer are
    // compared: QJsonDocument would drop a leading U+FEFF from what it reads here too.)
    for (const QByteArray& content :
         {QByteArrayLiteral("\\ufeffx"), QByteArrayLiteral("\xEF\xBB\xBFx")}) {
        SCOPED_TRACE(content.toStdString());
        ASSERT_EQ(
            respond(oci("POST", "oq/messages", R"({"messages":[{"content":")" + content + "\"}]}"))
                .status,
            200);
        const HttpResponse received = respond(oci("GET", "oq/messages?timeoutInSeconds=0"));
        EXPECT_TRUE(received.body.contains("\"content\":\"\xEF\xBB\xBFx\""))
            << received.body.toStdString();
    }
}

TEST_F(OciLimitsTest, aDeeplyNestedPutMessagesBodyIsInvalidParameter)
{
    // Qt's JSON parser refuses more than 1,024 levels (QJsonParseError::DeepNesting).
    for (const QByteArray& body :
         {R"({"messages":[{"content":"m","metadata":)" + nestedObjects(250'000) + "}]}",
          R"({"messages":)" + nestedArrays(750'000) + "}",
          R"({"messages":[{"content":"m","metadata":{"x":)" + nestedArrays(2'000) + "}}]}"}) {
        expectOciError(respond(oci("POST", "oq/messages", body)), 400, "InvalidParameter");
    }
    EXPECT_EQ(messagesIn("oq"), 0);
}

} // namespace
} // namespace inflight::protocol::testing
