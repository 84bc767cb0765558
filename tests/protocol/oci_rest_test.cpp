// OCI Queue REST (spec §6.1, §6.3–§6.5, §8 G.121–G.131): request paths and bodies as the OCI SDKs
// send them, response shapes, the OCI error shape, long polls by default.
#include "protocol_fixture.h"

#include <QDateTime>
#include <QJsonArray>
#include <QUrl>

namespace inflight::protocol::testing {
namespace {

class OciRestTest : public ProtocolTest {
protected:
    void SetUp() override
    {
        createOci("oq", {{"retentionInSeconds", "3600"}, {"visibilityInSeconds", "30"}});
    }

    void createOci(const std::string& name, engine::StringMap attributes = {})
    {
        engine::CreateQueueRequest request;
        request.name = name;
        request.oci = true;
        request.attributes = std::move(attributes);
        ASSERT_TRUE(broker.createQueue(request).ok()) << name;
    }

    static HttpRequest oci(const QByteArray& method, const QByteArray& path,
                           const QByteArray& body = {})
    {
        HttpRequest request;
        request.method = method;
        const qsizetype question = path.indexOf('?');
        request.path = "/20210201/queues/" + (question < 0 ? path : path.left(question));
        request.query = question < 0 ? QByteArray() : path.mid(question + 1);
        request.headers = {{"Host", "127.0.0.1:9324"},
                           {"Accept", "application/json"},
                           {"opc-request-id", "4C1B9E0A8D2F4F0B9E6A3D7C5B1A2E9F"}};
        if (!body.isEmpty())
            request.headers.append(qMakePair(QByteArrayLiteral("Content-Type"),
                                             QByteArrayLiteral("application/json")));
        request.body = body;
        request.origin = QStringLiteral("127.0.0.1:53999");
        return request;
    }

    static void expectError(const HttpResponse& response, int status, const char* code)
    {
        EXPECT_EQ(response.status, status) << response.body.toStdString();
        EXPECT_EQ(response.contentType, "application/json");
        EXPECT_EQ(object(response).value(QStringLiteral("code")).toString(), QLatin1String(code));
        EXPECT_FALSE(object(response).value(QStringLiteral("message")).toString().isEmpty());
        EXPECT_EQ(response.header("opc-request-id"), "4C1B9E0A8D2F4F0B9E6A3D7C5B1A2E9F");
    }

    QJsonArray put(const QByteArray& messages)
    {
        const HttpResponse response
            = respond(oci("POST", "oq/messages", "{\"messages\":" + messages + "}"));
        EXPECT_EQ(response.status, 200) << response.body.toStdString();
        return object(response).value(QStringLiteral("messages")).toArray();
    }

    QJsonArray get(const QByteArray& query = "timeoutInSeconds=0")
    {
        const HttpResponse response = respond(oci("GET", "oq/messages?" + query));
        EXPECT_EQ(response.status, 200) << response.body.toStdString();
        return object(response).value(QStringLiteral("messages")).toArray();
    }

    static QString isoTime(engine::Millis t)
    {
        return QDateTime::fromMSecsSinceEpoch(t, Qt::UTC).toString(Qt::ISODateWithMs);
    }
};

TEST_F(OciRestTest, putMessagesAnswersIdsAndExpiry)
{
    const HttpResponse response = respond(
        oci("POST", "oq/messages", R"({"messages":[{"content":"hello"},{"content":"world"}]})"));
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.contentType, "application/json");
    EXPECT_EQ(response.header("opc-request-id"), "4C1B9E0A8D2F4F0B9E6A3D7C5B1A2E9F");
    const QJsonArray messages = object(response).value(QStringLiteral("messages")).toArray();
    ASSERT_EQ(messages.size(), 2);
    // Case 131: expireAfter = createdAt + retention (3600 s).
    EXPECT_EQ(messages.at(0).toObject().value(QStringLiteral("expireAfter")).toString(),
              QStringLiteral("2023-11-14T23:13:20.000Z"));
    // The id is the first 15 hex digits of the engine's message id.
    const auto stored = broker.peekMessages("oq");
    const QString hex
        = QString::fromStdString(stored->at(0).messageId).remove(QLatin1Char('-')).left(15);
    EXPECT_EQ(messages.at(0).toObject().value(QStringLiteral("id")),
              QJsonValue(hex.toLongLong(nullptr, 16)));
    EXPECT_EQ(messages.at(0).toObject().keys(),
              (QStringList{QStringLiteral("expireAfter"), QStringLiteral("id")}));
}

TEST_F(OciRestTest, putMessagesIsAllOrNothing)
{
    expectError(
        respond(oci("POST", "oq/messages", R"({"messages":[{"content":"ok"},{"content":""}]})")),
        400, "InvalidParameter");
    expectError(
        respond(oci("POST", "oq/messages", R"({"messages":[{"content":"ok"},{"metadata":{}}]})")),
        400, "MissingParameter");
    const QByteArray big(128 * 1024 + 1, 'x');
    expectError(respond(oci("POST", "oq/messages",
                            R"({"messages":[{"content":"ok"},{"content":")" + big + "\"}]}")),
                400, "InvalidParameter");
    EXPECT_EQ(broker.queueStats("oq")->available, 0);
    expectError(respond(oci("POST", "oq/messages", R"({"messages":[]})")), 400, "InvalidParameter");
    expectError(respond(oci("POST", "oq/messages", "{}")), 400, "MissingParameter");
    expectError(respond(oci("POST", "oq/messages", "not json")), 400, "InvalidParameter");
}

TEST_F(OciRestTest, getMessagesShape)
{
    put(R"([{"content":"hello","metadata":{"channelId":"ch1","customProperties":{"k":"v"}}}])");
    clock.advance(250);
    const QJsonArray messages = get("timeoutInSeconds=0&visibilityInSeconds=60&limit=5");
    ASSERT_EQ(messages.size(), 1);
    const QJsonObject m = messages.at(0).toObject();
    EXPECT_EQ(m.keys(),
              (QStringList{QStringLiteral("content"), QStringLiteral("createdAt"),
                           QStringLiteral("deliveryCount"), QStringLiteral("expireAfter"),
                           QStringLiteral("id"), QStringLiteral("metadata"),
                           QStringLiteral("receipt"), QStringLiteral("visibleAfter")}));
    EXPECT_EQ(m.value(QStringLiteral("content")).toString(), QStringLiteral("hello"));
    EXPECT_EQ(m.value(QStringLiteral("deliveryCount")), QJsonValue(1));
    EXPECT_EQ(m.value(QStringLiteral("createdAt")).toString(),
              QStringLiteral("2023-11-14T22:13:20.000Z"));
    EXPECT_EQ(m.value(QStringLiteral("visibleAfter")).toString(),
              QStringLiteral("2023-11-14T22:14:20.250Z"));
    EXPECT_EQ(m.value(QStringLiteral("expireAfter")).toString(),
              QStringLiteral("2023-11-14T23:13:20.000Z"));
    EXPECT_EQ(m.value(QStringLiteral("metadata")).toObject(),
              (QJsonObject{{QStringLiteral("channelId"), QStringLiteral("ch1")},
                           {QStringLiteral("customProperties"),
                            QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}}}));
    EXPECT_FALSE(m.value(QStringLiteral("receipt")).toString().isEmpty());
}

TEST_F(OciRestTest, limitAboveTwentyIsInvalidParameter)
{
    // Case 121.
    expectError(respond(oci("GET", "oq/messages?limit=21&timeoutInSeconds=0")), 400,
                "InvalidParameter");
    QByteArray fifteen = "[";
    for (int i = 0; i < 15; ++i)
        fifteen += (i ? ",{" : "{") + QByteArray("\"content\":\"m") + QByteArray::number(i) + "\"}";
    fifteen += "]";
    put(fifteen); // a PutMessages takes at most 20
    put(fifteen);
    EXPECT_EQ(get("limit=20&timeoutInSeconds=0").size(), 20);
}

TEST_F(OciRestTest, rangesOfTimeoutAndVisibility)
{
    // Case 123.
    expectError(respond(oci("GET", "oq/messages?timeoutInSeconds=31")), 400, "InvalidParameter");
    expectError(respond(oci("GET", "oq/messages?visibilityInSeconds=43201&timeoutInSeconds=0")),
                400, "InvalidParameter");
    expectError(respond(oci("GET", "oq/messages?limit=many")), 400, "InvalidParameter");
}

TEST_F(OciRestTest, getMessagesLongPollsByDefault)
{
    Outcome outcome = handle(oci("GET", "oq/messages?limit=3"));
    ASSERT_TRUE(std::holds_alternative<DeferredReceive>(outcome));
    DeferredReceive deferred = std::get<DeferredReceive>(std::move(outcome));
    EXPECT_EQ(deferred.request.queue, "oq");
    EXPECT_EQ(deferred.request.maxMessages, 3);
    EXPECT_FALSE(deferred.request.waitTimeSeconds); // the queue's 30 s
    EXPECT_EQ(deferred.request.origin, "127.0.0.1:53999");

    const HttpResponse empty = deferred.respond(engine::ReceiveResult{});
    EXPECT_EQ(empty.status, 200);
    EXPECT_EQ(empty.body, "{\"messages\":[]}");
    EXPECT_EQ(empty.header("opc-request-id"), "4C1B9E0A8D2F4F0B9E6A3D7C5B1A2E9F");

    std::optional<HttpResponse> answer;
    broker.receiveMessageAsync(deferred.request, [&](engine::Result<engine::ReceiveResult> r) {
        answer = deferred.respond(r);
    });
    EXPECT_FALSE(answer);
    put(R"([{"content":"late"}])");
    ASSERT_TRUE(answer);
    EXPECT_EQ(object(*answer)
                  .value(QStringLiteral("messages"))
                  .toArray()
                  .at(0)
                  .toObject()
                  .value(QStringLiteral("content")),
              QJsonValue(QStringLiteral("late")));

    EXPECT_TRUE(std::holds_alternative<DeferredReceive>(
        handle(oci("GET", "oq/messages?timeoutInSeconds=5"))));
    EXPECT_EQ(respond(oci("GET", "oq/messages?timeoutInSeconds=0")).body, "{\"messages\":[]}");
}

TEST_F(OciRestTest, updateMessageSetsVisibleAfterFromNow)
{
    // Case 127.
    put(R"([{"content":"m"}])");
    const QString receipt = get().at(0).toObject().value(QStringLiteral("receipt")).toString();
    clock.advance(10 * engine::kSecond);
    const HttpResponse response
        = respond(oci("PUT", "oq/messages/" + QUrl::toPercentEncoding(receipt),
                      R"({"visibilityInSeconds":120})"));
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QJsonObject body = object(response);
    EXPECT_EQ(body.value(QStringLiteral("visibleAfter")).toString(),
              isoTime(kT0 + 130 * engine::kSecond));
    EXPECT_TRUE(body.value(QStringLiteral("id")).isDouble());
    clock.advance(119 * engine::kSecond);
    EXPECT_EQ(get().size(), 0);
    clock.advance(1 * engine::kSecond);
    EXPECT_EQ(get().size(), 1);
    expectError(respond(oci("PUT", "oq/messages/garbage", R"({"visibilityInSeconds":120})")), 400,
                "InvalidParameter");
    expectError(respond(oci("PUT", "oq/messages/" + QUrl::toPercentEncoding(receipt), "{}")), 400,
                "MissingParameter");
}

TEST_F(OciRestTest, deleteMessagesReportsEntriesInRequestOrder)
{
    // Case 129.
    put(R"([{"content":"a"}])");
    const QString receipt = get().at(0).toObject().value(QStringLiteral("receipt")).toString();
    const HttpResponse response = respond(
        oci("POST", "oq/messages/actions/deleteMessages",
            R"({"entries":[{"receipt":"garbage"},{"receipt":")" + receipt.toUtf8() + "\"}]}"));
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QJsonObject body = object(response);
    EXPECT_EQ(body.value(QStringLiteral("clientFailures")), QJsonValue(1));
    EXPECT_EQ(body.value(QStringLiteral("serverFailures")), QJsonValue(0));
    const QJsonArray entries = body.value(QStringLiteral("entries")).toArray();
    ASSERT_EQ(entries.size(), 2);
    EXPECT_EQ(entries.at(0).toObject().value(QStringLiteral("errorCode")), QJsonValue(400));
    EXPECT_FALSE(
        entries.at(0).toObject().value(QStringLiteral("errorMessage")).toString().isEmpty());
    EXPECT_EQ(entries.at(1).toObject(), QJsonObject());
    EXPECT_EQ(broker.queueStats("oq")->inFlight, 0);
}

TEST_F(OciRestTest, updateMessagesReportsEntriesInRequestOrder)
{
    put(R"([{"content":"a"}])");
    const QString receipt = get().at(0).toObject().value(QStringLiteral("receipt")).toString();
    const HttpResponse response = respond(oci(
        "POST", "oq/messages/actions/updateMessages",
        R"({"entries":[{"receipt":")" + receipt.toUtf8()
            + R"(","visibilityInSeconds":90},{"receipt":"garbage","visibilityInSeconds":90}]})"));
    ASSERT_EQ(response.status, 200) << response.body.toStdString();
    const QJsonObject body = object(response);
    EXPECT_EQ(body.value(QStringLiteral("clientFailures")), QJsonValue(1));
    const QJsonArray entries = body.value(QStringLiteral("entries")).toArray();
    EXPECT_EQ(entries.at(0).toObject().value(QStringLiteral("visibleAfter")).toString(),
              isoTime(kT0 + 90 * engine::kSecond));
    EXPECT_TRUE(entries.at(0).toObject().value(QStringLiteral("id")).isDouble());
    EXPECT_EQ(entries.at(1).toObject().value(QStringLiteral("errorCode")), QJsonValue(400));
}

TEST_F(OciRestTest, deleteMessageAnswersEmpty)
{
    put(R"([{"content":"a"}])");
    const QString receipt = get().at(0).toObject().value(QStringLiteral("receipt")).toString();
    const HttpResponse response
        = respond(oci("DELETE", "oq/messages/" + QUrl::toPercentEncoding(receipt)));
    EXPECT_EQ(response.status, 200);
    EXPECT_TRUE(response.body.isEmpty());
    EXPECT_EQ(response.header("opc-request-id"), "4C1B9E0A8D2F4F0B9E6A3D7C5B1A2E9F");
    expectError(respond(oci("DELETE", "oq/messages/garbage")), 400, "InvalidParameter");
}

TEST_F(OciRestTest, deliveryCountMovesToBuiltInDeadLetterQueue)
{
    // Case 125.
    createOci("dq", {{"deadLetterQueueDeliveryCount", "2"}, {"visibilityInSeconds", "10"}});
    respond(oci("POST", "dq/messages", R"({"messages":[{"content":"poison"}]})"));
    for (int delivery = 1; delivery <= 2; ++delivery) {
        const HttpResponse response = respond(oci("GET", "dq/messages?timeoutInSeconds=0"));
        EXPECT_EQ(object(response).value(QStringLiteral("messages")).toArray().size(), 1)
            << delivery;
        clock.advance(10 * engine::kSecond);
    }
    EXPECT_EQ(respond(oci("GET", "dq/messages?timeoutInSeconds=0")).body, "{\"messages\":[]}");
    const HttpResponse stats = respond(oci("GET", "dq/stats"));
    EXPECT_EQ(object(stats),
              (QJsonObject{{QStringLiteral("queue"),
                            QJsonObject{{QStringLiteral("visibleMessages"), 0},
                                        {QStringLiteral("inFlightMessages"), 0},
                                        {QStringLiteral("sizeInBytes"), 0}}},
                           {QStringLiteral("dlq"),
                            QJsonObject{{QStringLiteral("visibleMessages"), 1},
                                        {QStringLiteral("inFlightMessages"), 0},
                                        {QStringLiteral("sizeInBytes"), 6}}}}));
}

TEST_F(OciRestTest, statsOfOneChannel)
{
    put(R"([{"content":"a","metadata":{"channelId":"c1"}},{"content":"bb","metadata":{"channelId":"c2"}},{"content":"ccc"}])");
    const QJsonObject stats = object(respond(oci("GET", "oq/stats?channelId=c2")));
    EXPECT_EQ(stats.value(QStringLiteral("channelId")).toString(), QStringLiteral("c2"));
    EXPECT_EQ(
        stats.value(QStringLiteral("queue")).toObject().value(QStringLiteral("visibleMessages")),
        QJsonValue(1));
    EXPECT_EQ(stats.value(QStringLiteral("queue")).toObject().value(QStringLiteral("sizeInBytes")),
              QJsonValue(2));
    const QJsonObject all = object(respond(oci("GET", "oq/stats")));
    EXPECT_FALSE(all.contains(QStringLiteral("channelId")));
    EXPECT_EQ(
        all.value(QStringLiteral("queue")).toObject().value(QStringLiteral("visibleMessages")),
        QJsonValue(3));
}

TEST_F(OciRestTest, channelFilterAndListChannels)
{
    put(R"([{"content":"a","metadata":{"channelId":"orders-eu"}},{"content":"b","metadata":{"channelId":"orders-us"}},{"content":"c","metadata":{"channelId":"billing"}}])");
    EXPECT_EQ(respond(oci("GET", "oq/channels")).body,
              "{\"items\":[\"billing\",\"orders-eu\",\"orders-us\"]}");
    EXPECT_EQ(respond(oci("GET", "oq/channels?channelFilter=orders")).body,
              "{\"items\":[\"orders-eu\",\"orders-us\"]}");
    const HttpResponse page = respond(oci("GET", "oq/channels?limit=2"));
    EXPECT_EQ(page.body, "{\"items\":[\"billing\",\"orders-eu\"]}");
    EXPECT_EQ(page.header("opc-next-page"), "2");
    EXPECT_EQ(respond(oci("GET", "oq/channels?limit=2&page=2")).body,
              "{\"items\":[\"orders-us\"]}");

    const QJsonArray fromUs = get("timeoutInSeconds=0&limit=10&channelFilter=orders-us");
    ASSERT_EQ(fromUs.size(), 1);
    EXPECT_EQ(fromUs.at(0).toObject().value(QStringLiteral("content")).toString(),
              QStringLiteral("b"));
}

TEST_F(OciRestTest, purgeQueueByType)
{
    put(R"([{"content":"a"}])");
    EXPECT_EQ(respond(oci("POST", "oq/actions/purge", R"({"purgeType":"NORMAL"})")).status, 200);
    EXPECT_EQ(broker.queueStats("oq")->available, 0);
    EXPECT_EQ(respond(oci("POST", "oq/actions/purge", R"({"purgeType":"BOTH"})")).status, 200);
    expectError(respond(oci("POST", "oq/actions/purge", R"({"purgeType":"SOME"})")), 400,
                "InvalidParameter");
    expectError(respond(oci("POST", "oq/actions/purge", "{}")), 400, "MissingParameter");
}

TEST_F(OciRestTest, profilesAreKeptApart)
{
    createQueue("sqs");
    expectError(respond(oci("GET", "sqs/messages?timeoutInSeconds=0")), 404,
                "NotAuthorizedOrNotFound");
    expectError(respond(oci("GET", "missing/stats")), 404, "NotAuthorizedOrNotFound");
}

TEST_F(OciRestTest, unknownRoutesAreNotFound)
{
    expectError(respond(oci("GET", "oq/unknown")), 404, "NotAuthorizedOrNotFound");
    expectError(respond(oci("PATCH", "oq/messages")), 404, "NotAuthorizedOrNotFound");
    HttpRequest request = oci("GET", "oq");
    request.path = "/20210201/nothing";
    expectError(respond(request), 404, "NotAuthorizedOrNotFound");
}

TEST_F(OciRestTest, requestIdIsMadeWhenNotGiven)
{
    HttpRequest request = oci("GET", "oq/stats");
    request.headers.removeLast();
    EXPECT_EQ(respond(request).header("opc-request-id").size(), 36);
}

TEST_F(OciRestTest, oversizedRequestIs413InOciShape)
{
    expectError(requestTooLarge(oci("POST", "oq/messages")), 413, "RequestEntityTooLarge");
}

TEST_F(OciRestTest, aChangeTheWorkspaceCouldNotStoreIsAnswered500InternalServerError)
{
    const HttpRequest request = oci("POST", "oq/messages", R"({"messages":[{"content":"hi"}]})");
    const HttpResponse unsent = respond(request);
    ASSERT_EQ(unsent.status, 200) << unsent.body.toStdString();
    ASSERT_EQ(wireProtocol(request), WireProtocol::OciRest);

    const HttpResponse response = notStored(
        wireProtocol(request), unsent, QStringLiteral("The disk holding the workspace is full."));
    expectError(response, 500, "InternalServerError"); // with the request's opc-request-id
    EXPECT_EQ(object(response).keys(),
              (QStringList{QStringLiteral("code"), QStringLiteral("message")}));
    EXPECT_EQ(object(response).value(QStringLiteral("message")).toString(),
              QStringLiteral("The workspace could not store this change, so it is not "
                             "acknowledged. The disk holding the workspace is full."));
}

TEST_F(OciRestTest, aChangeTheWorkspaceCouldNotStoreKeepsTheRequestIdMadeForIt)
{
    HttpRequest request = oci("DELETE", "oq/messages/whatever");
    request.headers.removeLast(); // no opc-request-id: the answer makes one
    const HttpResponse unsent = respond(request);
    ASSERT_EQ(unsent.header("opc-request-id").size(), 36);
    EXPECT_EQ(notStored(wireProtocol(request), unsent, {}).header("opc-request-id"),
              unsent.header("opc-request-id"));
}

} // namespace
} // namespace inflight::protocol::testing
