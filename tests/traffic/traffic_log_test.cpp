#include "traffic/traffic_capture.h"
#include "traffic/traffic_log.h"

#include <gtest/gtest.h>

namespace inflight::traffic {
namespace {

TrafficRecord request(int status = 200, QByteArray body = {}, QString operation = {})
{
    TrafficRecord record;
    record.status = status;
    record.requestBody = std::move(body);
    record.operation = std::move(operation);
    record.client.key = QStringLiteral("test aws-cli");
    return record;
}

TEST(TrafficLog, numbersRecordsFromOneAndReturnsThemAfterACursor)
{
    TrafficLog log;
    EXPECT_EQ(log.cursor(), 0u);
    EXPECT_EQ(log.add(request()), 1u);
    EXPECT_EQ(log.add(request(400)), 2u);
    EXPECT_EQ(log.add(request()), 3u);
    const auto all = log.after(0, 100);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].cursor, 1u);
    const auto later = log.after(2, 100);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_EQ(later[0].cursor, 3u);
    const auto errors = log.after(0, 100, true);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].status, 400);
    EXPECT_EQ(log.after(0, 2).size(), 2u);
}

TEST(TrafficLog, dropsTheOldestBeyondItsRecordCap)
{
    TrafficLog log(TrafficLimits{.maxRecords = 3});
    for (int i = 0; i < 5; ++i)
        log.add(request());
    EXPECT_EQ(log.size(), 3u);
    EXPECT_EQ(log.dropped(), 2u);
    EXPECT_EQ(log.oldestCursor(), 3u);
    EXPECT_EQ(log.after(0, 10).front().cursor, 3u);
    EXPECT_EQ(log.find(2), nullptr);
    ASSERT_NE(log.find(5), nullptr);
}

TEST(TrafficLog, cutsEachBodyAtThePerRequestCap)
{
    TrafficLog log(TrafficLimits{.maxBodyBytesPerRequest = 4});
    log.add(request(200, "abcdefgh"));
    log.add(request(200, "abcd"));
    const TrafficRecord* cut = log.find(1);
    EXPECT_EQ(cut->requestBody, QByteArray("abcd"));
    EXPECT_TRUE(cut->requestTruncated);
    EXPECT_EQ(cut->requestBodySize, 8);
    EXPECT_FALSE(log.find(2)->requestTruncated);
}

TEST(TrafficLog, keepsItsBodiesUnderTheTotalCapByDroppingTheOldest)
{
    TrafficLog log(TrafficLimits{.maxBodyBytesPerRequest = 100, .maxBodyBytesTotal = 250});
    for (int i = 0; i < 10; ++i) {
        log.add(request(200, QByteArray(100, 'x')));
        EXPECT_LE(log.bodyBytes(), 250);
    }
    EXPECT_EQ(log.size(), 2u);
    EXPECT_EQ(log.dropped(), 8u);
}

TEST(TrafficLog, completesAWaitingRecordInPlace)
{
    TrafficLog log;
    int added = 0;
    int updated = 0;
    log.addListener([&](const TrafficRecord&, bool isNew) { ++(isNew ? added : updated); });
    TrafficRecord waiting = request(0, {}, QStringLiteral("ReceiveMessage"));
    waiting.waiting = true;
    const std::uint64_t cursor = log.add(waiting);
    EXPECT_EQ(log.clients().clients().front().waitingPolls, 1);
    TrafficRecord done = waiting;
    done.waiting = false;
    done.status = 200;
    done.outcome = QStringLiteral("empty after a 20 s long poll");
    EXPECT_TRUE(log.complete(cursor, done));
    EXPECT_EQ(log.size(), 1u);
    EXPECT_FALSE(log.find(cursor)->waiting);
    EXPECT_EQ(added, 1);
    EXPECT_EQ(updated, 1);
    const ClientStats client = log.clients().clients().front();
    EXPECT_EQ(client.waitingPolls, 0);
    EXPECT_EQ(client.receives, 1);
    EXPECT_EQ(client.emptyReceives, 1);
    EXPECT_EQ(client.requests, 1);
}

TEST(TrafficLog, countsACompletionOfADroppedWaitingRecordForItsClient)
{
    TrafficLog log(TrafficLimits{.maxRecords = 1});
    TrafficRecord waiting = request(0, {}, QStringLiteral("ReceiveMessage"));
    waiting.waiting = true;
    const std::uint64_t cursor = log.add(waiting);
    log.add(request());
    TrafficRecord done = waiting;
    done.waiting = false;
    done.status = 200;
    EXPECT_FALSE(log.complete(cursor, done));
    EXPECT_EQ(log.clients().clients().front().waitingPolls, 0);
}

TrafficRecord withEveryByteField(int n)
{
    TrafficRecord record = request(200, "request " + QByteArray::number(n));
    record.method = "POST";
    record.path = "/000000000000/orders";
    record.query = "Action=SendMessage&n=" + QByteArray::number(n);
    record.requestHeaders
        = Headers{{"Host", "localhost"}, {"X-Amz-Target", "AmazonSQS.SendMessage"}};
    record.responseHeaders = Headers{{"x-amzn-RequestId", "req-" + QByteArray::number(n)}};
    record.requestContentType = "application/x-amz-json-1.0";
    record.responseContentType = "application/json";
    record.requestId = "req-" + QByteArray::number(n);
    record.responseBody = R"({"MessageId":")" + QByteArray::number(n) + R"("})";
    return record;
}

TEST(TrafficLog, keepsEveryByteFieldOfARecordItPacks)
{
    TrafficLog log;
    const TrafficRecord given = withEveryByteField(7);
    log.add(given);
    const TrafficRecord* kept = log.find(1);
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ(kept->method, given.method);
    EXPECT_EQ(kept->path, given.path);
    EXPECT_EQ(kept->query, given.query);
    EXPECT_EQ(kept->requestHeaders.list(), given.requestHeaders.list());
    EXPECT_EQ(kept->responseHeaders.list(), given.responseHeaders.list());
    EXPECT_EQ(kept->requestContentType, given.requestContentType);
    EXPECT_EQ(kept->responseContentType, given.responseContentType);
    EXPECT_EQ(kept->requestId, given.requestId);
    EXPECT_EQ(kept->requestBody, given.requestBody);
    EXPECT_EQ(kept->responseBody, given.responseBody);
    // Each field reads as a terminated string, as every QByteArray does.
    EXPECT_STREQ(kept->path.constData(), "/000000000000/orders");
    EXPECT_STREQ(kept->requestId.constData(), "req-7");
    // Fields share one block: they point into it, in the order they were packed.
    EXPECT_LT(kept->method.constData(), kept->path.constData());
    EXPECT_LT(kept->path.constData(), kept->responseBody.constData());
    // A record taken from the log again (after()) is packed once more and stays the same.
    log.add(log.after(0, 1).front());
    EXPECT_EQ(log.find(2)->requestHeaders.list(), given.requestHeaders.list());
    EXPECT_EQ(log.find(2)->responseBody, given.responseBody);
}

TEST(TrafficLog, aFieldCopiedOutOutlivesItsRecordAndAWriteToItCopiesIt)
{
    TrafficLog log(TrafficLimits{.maxRecords = 1});
    log.add(withEveryByteField(1));
    QByteArray body = log.find(1)->requestBody;
    QByteArray path = log.find(1)->path;
    path.append("/more"); // a write to a shared slice must not reach the block
    EXPECT_EQ(log.find(1)->path, QByteArray("/000000000000/orders"));
    EXPECT_EQ(log.find(1)->query, QByteArray("Action=SendMessage&n=1"));
    log.add(withEveryByteField(2)); // drops record 1 and its block
    EXPECT_EQ(body, QByteArray("request 1"));
    EXPECT_EQ(path, QByteArray("/000000000000/orders/more"));
    body.append(" and more"); // the only holder of the old block may write where it likes
    EXPECT_EQ(body, QByteArray("request 1 and more"));
    EXPECT_EQ(log.find(2)->requestBody, QByteArray("request 2"));
}

TEST(TrafficLog, reusesItsSlotsInCursorOrderOnceFull)
{
    TrafficLog log(TrafficLimits{.maxRecords = 3});
    for (int n = 1; n <= 10; ++n)
        log.add(withEveryByteField(n));
    const auto kept = log.after(0, 10);
    ASSERT_EQ(kept.size(), 3u);
    for (std::size_t i = 0; i < kept.size(); ++i) {
        EXPECT_EQ(kept[i].cursor, 8 + i);
        EXPECT_EQ(kept[i].requestBody, "request " + QByteArray::number(int(8 + i)));
    }
    EXPECT_EQ(log.find(9)->requestId, QByteArray("req-9"));
    EXPECT_EQ(log.after(8, 10).front().cursor, 9u);
}

TEST(TrafficLog, aSmallerRecordCapDropsTheOldestAtOnceAndALargerOneLetsItGrow)
{
    TrafficLog log(TrafficLimits{.maxRecords = 4});
    for (int n = 1; n <= 6; ++n) // wraps: records 3 … 6, the oldest not in slot 0
        log.add(withEveryByteField(n));
    log.setLimits(TrafficLimits{.maxRecords = 2});
    EXPECT_EQ(log.size(), 2u);
    EXPECT_EQ(log.oldestCursor(), 5u);
    EXPECT_EQ(log.dropped(), 4u);
    log.add(withEveryByteField(7));
    ASSERT_EQ(log.after(0, 10).size(), 2u);
    EXPECT_EQ(log.after(0, 10).front().requestBody, QByteArray("request 6"));
    log.setLimits(TrafficLimits{.maxRecords = 5});
    for (int n = 8; n <= 12; ++n)
        log.add(withEveryByteField(n));
    const auto kept = log.after(0, 10);
    ASSERT_EQ(kept.size(), 5u);
    for (std::size_t i = 0; i < kept.size(); ++i)
        EXPECT_EQ(kept[i].requestBody, "request " + QByteArray::number(int(8 + i)));
}

TEST(TrafficLog, keepsItsRingInOrderWhenTheTotalCapKeepsItBelowItsRecordCap)
{
    // Records of changing sizes: the body cap drops a varying number of the oldest each time.
    TrafficLog log(TrafficLimits{.maxRecords = 50, .maxBodyBytesTotal = 400});
    std::uint64_t expected = 0;
    for (int n = 1; n <= 200; ++n) {
        TrafficRecord record = request(200, QByteArray(n % 7 == 0 ? 150 : 10 + n % 30, 'x'));
        record.requestId = QByteArray::number(n);
        log.add(record);
        ASSERT_LE(log.bodyBytes(), 400);
        const auto kept = log.after(0, 100);
        ASSERT_EQ(kept.size(), log.size());
        for (std::size_t i = 0; i < kept.size(); ++i) {
            ASSERT_EQ(kept[i].cursor, log.oldestCursor() + i);
            ASSERT_EQ(kept[i].requestId, QByteArray::number(int(kept[i].cursor)));
        }
        expected = static_cast<std::uint64_t>(n);
    }
    EXPECT_EQ(log.cursor(), expected);
}

TEST(ClientRegistry, countsSendsReceivesDeletesAndErrorsPerClient)
{
    TrafficLog log;
    TrafficRecord send = request(200, {}, QStringLiteral("SendMessageBatch"));
    send.succeeded = 3;
    log.add(send);
    TrafficRecord del = request(200, {}, QStringLiteral("DeleteMessage"));
    del.succeeded = 1;
    log.add(del);
    log.add(request(400, {}, QStringLiteral("SendMessage")));
    TrafficRecord other = request();
    other.client.key = QStringLiteral("curl@127.0.0.1");
    log.add(other);
    const auto clients = log.clients().clients();
    ASSERT_EQ(clients.size(), 2u);
    const ClientStats& cli
        = clients[1].identity.key == QStringLiteral("test aws-cli") ? clients[1] : clients[0];
    EXPECT_EQ(cli.requests, 3);
    EXPECT_EQ(cli.sends, 3);
    EXPECT_EQ(cli.deletes, 1);
    EXPECT_EQ(cli.errors, 1);
}

TEST(OutcomeText, saysWhatARequestDid)
{
    protocol::RequestSummary summary;
    summary.operation = QStringLiteral("SendMessage");
    summary.succeeded = 1;
    summary.failed = 0;
    EXPECT_EQ(outcomeText(summary, 200, {}), QStringLiteral("sent 1"));
    summary.operation = QStringLiteral("ReceiveMessage");
    summary.succeeded = 4;
    summary.maxMessages = 10;
    EXPECT_EQ(outcomeText(summary, 200, {}), QStringLiteral("received 4 of max 10"));
    summary.succeeded = 0;
    summary.waitSeconds = 20;
    EXPECT_EQ(outcomeText(summary, 200, {}), QStringLiteral("empty after a 20 s long poll"));
    summary.operation = QStringLiteral("DeleteMessageBatch");
    summary.succeeded = 3;
    summary.failed = 1;
    summary.firstFailure = "ReceiptHandleIsInvalid";
    EXPECT_EQ(outcomeText(summary, 200, {}),
              QStringLiteral("deleted 3, 1 failed: ReceiptHandleIsInvalid"));
    EXPECT_EQ(outcomeText(summary, 400, QStringLiteral("QueueDoesNotExist")),
              QStringLiteral("QueueDoesNotExist"));
}

TEST(WireError, readsTheCodeAndMessageOfEveryProtocol)
{
    protocol::HttpResponse json;
    json.status = 400;
    json.body = R"({"__type":"com.amazonaws.sqs#QueueDoesNotExist","message":"gone"})";
    EXPECT_EQ(wireError(json).code, QStringLiteral("QueueDoesNotExist"));
    EXPECT_EQ(wireError(json).message, QStringLiteral("gone"));
    protocol::HttpResponse query;
    query.body = "<ErrorResponse><Error><Type>Sender</Type><Code>AWS.SimpleQueueService."
                 "NonExistentQueue</Code><Message>gone</Message></Error></ErrorResponse>";
    EXPECT_EQ(wireError(query).code, QStringLiteral("AWS.SimpleQueueService.NonExistentQueue"));
    EXPECT_EQ(wireError(query).message, QStringLiteral("gone"));
    protocol::HttpResponse oci;
    oci.body = R"({"code":"NotAuthorizedOrNotFound","message":"no queue"})";
    EXPECT_EQ(wireError(oci).code, QStringLiteral("NotAuthorizedOrNotFound"));
}

} // namespace
} // namespace inflight::traffic
