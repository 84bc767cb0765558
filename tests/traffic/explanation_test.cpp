// The reason behind an outcome in the traffic log (TrafficRecord::explanation, staleReceipt): an
// empty receive says why by its cause, at the moment it is answered (a long poll when it ends); a
// receipt used by a delete or a visibility change says where it stood before the call (a stale
// one flagged); an error says its likely cause in the client's terms. Requests go through the
// endpoint with a summary and into a record as HttpServer makes it, then into its JSON and HAR.
#include "protocol/protocol_fixture.h"
#include "traffic/traffic_capture.h"
#include "traffic/traffic_json.h"

#include <QJsonArray>

namespace inflight::traffic {
namespace {

using namespace protocol;
using protocol::testing::kQueueUrlPrefix;
using protocol::testing::kT0;

// 22:13:20 UTC is kT0: the engine's clock times in the texts below count from there.
class ExplanationTest : public protocol::testing::ProtocolTest {
protected:
    // `request` as HttpServer::handleRecorded records it: handled with a summary, answered at once.
    TrafficRecord record(const HttpRequest& request)
    {
        RequestSummary summary;
        Outcome outcome = endpoint.handle(request, &summary);
        TrafficRecord r = arrival(request, summary, kT0, clock.now(), false);
        if (auto* response = std::get_if<HttpResponse>(&outcome))
            answered(r, *response, summary, 0);
        else
            ADD_FAILURE() << "a deferred receive";
        return r;
    }

    // A long poll as the server runs it: deferred, waited in the engine while the clock moves
    // `wait` on, then answered and summarized as HttpServer::finishWait does.
    TrafficRecord longPoll(const HttpRequest& request, engine::Millis wait)
    {
        RequestSummary summary;
        Outcome outcome = endpoint.handle(request, &summary);
        auto* deferred = std::get_if<DeferredReceive>(&outcome);
        if (!deferred) {
            ADD_FAILURE() << "answered at once";
            return {};
        }
        TrafficRecord r = arrival(request, summary, kT0, clock.now(), true);
        std::optional<engine::Result<engine::ReceiveResult>> result;
        broker.receiveMessageAsync(deferred->request, [&](auto answer) { result = answer; });
        clock.advance(wait);
        broker.advance();
        if (!result) {
            ADD_FAILURE() << "still waiting";
            return r;
        }
        endpoint.summarizeWaitEnded(*result, summary);
        answered(r, deferred->respond(*result), summary, 0);
        return r;
    }

    TrafficRecord sqs(const QByteArray& action, const QByteArray& body)
    {
        return record(jsonRequest(action, body));
    }

    QByteArray urlOf(const std::string& queue) const
    {
        return kQueueUrlPrefix + QByteArray::fromStdString(queue);
    }

    void send(const std::string& queue, const QByteArray& members = {})
    {
        const HttpResponse sent
            = json("SendMessage",
                   R"({"QueueUrl":")" + urlOf(queue) + R"(","MessageBody":"m")" + members + "}");
        ASSERT_EQ(sent.status, 200) << sent.body.toStdString();
    }

    // The receipt of the one message a JSON receive returns ("" if none).
    QByteArray receive(const std::string& queue, int visibility)
    {
        const HttpResponse received
            = json("ReceiveMessage",
                   R"({"QueueUrl":")" + urlOf(queue) + R"(","VisibilityTimeout":)"
                       + QByteArray::number(visibility) + "}");
        EXPECT_EQ(received.status, 200) << received.body.toStdString();
        return object(received)
            .value(QStringLiteral("Messages"))
            .toArray()
            .at(0)
            .toObject()
            .value(QStringLiteral("ReceiptHandle"))
            .toString()
            .toUtf8();
    }

    TrafficRecord deleteWith(const std::string& queue, const QByteArray& receipt)
    {
        return sqs("DeleteMessage",
                   R"({"QueueUrl":")" + urlOf(queue) + R"(","ReceiptHandle":")" + receipt
                       + R"("})");
    }

    TrafficRecord emptyReceive(const std::string& queue)
    {
        return sqs("ReceiveMessage", R"({"QueueUrl":")" + urlOf(queue) + R"("})");
    }

    void createFifo(const std::string& name) { createQueue(name, {{"FifoQueue", "true"}}); }
};

const QByteArray kFifoMembers = R"(,"MessageGroupId":"g1","MessageDeduplicationId":"d1")";

// ---- empty receives, by cause -----------------------------------------------------------------

TEST_F(ExplanationTest, anEmptyQueueSaysSo)
{
    createQueue("q");
    const TrafficRecord r = emptyReceive("q");
    EXPECT_EQ(r.outcome, QStringLiteral("empty"));
    EXPECT_EQ(r.explanation, QStringLiteral("0 available; the queue is empty"));
    EXPECT_FALSE(r.staleReceipt);
}

TEST_F(ExplanationTest, anEmptyReceiveCountsWhatIsInFlightAndDelayed)
{
    createQueue("q");
    send("q");
    send("q", R"(,"DelaySeconds":10)");
    ASSERT_FALSE(receive("q", 30).isEmpty());
    clock.advance(2 * engine::kSecond);
    EXPECT_EQ(emptyReceive("q").explanation,
              QStringLiteral("0 available; 1 in flight (next visible in 28 s); 1 delayed (next "
                             "in 8 s)"));
}

TEST_F(ExplanationTest, anEmptyFifoReceiveNamesTheBlockingGroups)
{
    createFifo("f.fifo");
    send("f.fifo", kFifoMembers);
    send("f.fifo", R"(,"MessageGroupId":"g1","MessageDeduplicationId":"d2")");
    ASSERT_FALSE(receive("f.fifo", 30).isEmpty());
    const TrafficRecord r
        = record(queryRequest("Action=ReceiveMessage&QueueUrl="
                              + QUrl::toPercentEncoding(QString::fromLatin1(urlOf("f.fifo")))));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.explanation,
              QStringLiteral("1 available, all behind in-flight heads of groups g1 (next visible "
                             "in 30 s)"));
}

TEST_F(ExplanationTest, aLongPollIsExplainedWhenItEnds)
{
    createQueue("q");
    send("q");
    ASSERT_FALSE(receive("q", 30).isEmpty());
    const TrafficRecord r
        = longPoll(jsonRequest("ReceiveMessage",
                               R"({"QueueUrl":")" + urlOf("q") + R"(","WaitTimeSeconds":20})"),
                   20 * engine::kSecond);
    EXPECT_EQ(r.outcome, QStringLiteral("empty after a 20 s long poll"));
    EXPECT_EQ(r.explanation, QStringLiteral("0 available; 1 in flight (next visible in 10 s)"))
        << "as things stand when it ended, not at its start";
}

TEST_F(ExplanationTest, theInFlightLimitExplainsAShortPollsErrorAndALongPollsEmptyEnd)
{
    engine::BrokerOptions options;
    options.inFlightLimitStandard = 1;
    engine::Broker limited(clock, options);
    Endpoint limitedEndpoint(limited);
    ASSERT_TRUE(limited.createQueue({.name = "q"}).ok());
    for (const char* body : {"a", "b"})
        ASSERT_TRUE(limited.sendMessage({.queue = "q", .body = std::string(body)}).ok());
    ASSERT_EQ(limited.receiveMessage({.queue = "q"})->messages.size(), 1u);

    const HttpRequest shortPoll
        = jsonRequest("ReceiveMessage", R"({"QueueUrl":")" + urlOf("q") + R"("})");
    RequestSummary summary;
    const HttpResponse refused
        = std::get<HttpResponse>(limitedEndpoint.handle(shortPoll, &summary));
    EXPECT_EQ(refused.status, 403) << refused.body.toStdString();
    EXPECT_EQ(summary.explanation,
              QStringLiteral("in-flight limit reached: 1 in flight, limit 1 (next visible in 30 "
                             "s); 1 available held back; a short poll fails with OverLimit"));

    const HttpRequest poll = jsonRequest(
        "ReceiveMessage", R"({"QueueUrl":")" + urlOf("q") + R"(","WaitTimeSeconds":1})");
    RequestSummary waiting;
    Outcome outcome = limitedEndpoint.handle(poll, &waiting);
    ASSERT_TRUE(std::holds_alternative<DeferredReceive>(outcome));
    clock.advance(engine::kSecond);
    limitedEndpoint.summarizeWaitEnded(engine::ReceiveResult{}, waiting);
    EXPECT_EQ(waiting.explanation,
              QStringLiteral("in-flight limit reached: 1 in flight, limit 1 (next visible in 29 "
                             "s); 1 available held back; a long poll of 1 s ends empty instead of "
                             "OverLimit"));
}

TEST_F(ExplanationTest, anOciChannelFilterWithNothingInThatChannel)
{
    ASSERT_TRUE(broker.createQueue({.name = "t", .oci = true}).ok());
    ASSERT_TRUE(
        broker.sendMessage({.queue = "t", .body = std::string("m"), .channelId = std::string("eu")})
            .ok());
    HttpRequest get;
    get.method = "GET";
    get.path = "/20210201/queues/t/messages";
    get.query = "channelFilter=us&timeoutInSeconds=0";
    get.headers = {{"Host", "127.0.0.1:9324"}};
    get.origin = QStringLiteral("127.0.0.1:53999");
    const TrafficRecord r = record(get);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.operation, QStringLiteral("GetMessages"));
    EXPECT_EQ(r.explanation,
              QStringLiteral("channel `us` is empty; 1 available in other channels"));

    // OCI long-polls by default: explained when the wait ends.
    get.query = "channelFilter=us&timeoutInSeconds=5";
    const TrafficRecord polled = longPoll(get, 5 * engine::kSecond);
    EXPECT_EQ(polled.explanation,
              QStringLiteral("channel `us` is empty; 1 available in other channels"));
}

// ---- receipts ---------------------------------------------------------------------------------

TEST_F(ExplanationTest, aStaleDeleteOnAStandardQueueIsFlagged)
{
    createQueue("q");
    send("q");
    const QByteArray first = receive("q", 0); // visible again at once
    clock.advance(5 * engine::kSecond);
    ASSERT_FALSE(receive("q", 30).isEmpty());
    const TrafficRecord r = deleteWith("q", first);
    EXPECT_EQ(r.status, 200);
    // At a glance (issue 37): the outcome says it, not only the detail.
    EXPECT_EQ(r.outcome, QStringLiteral("deleted 1 · stale receipt"));
    EXPECT_TRUE(r.staleReceipt);
    EXPECT_EQ(r.explanation,
              QStringLiteral("receipt of receive #1, used after receive #2 (client "
                             "`127.0.0.1:53412`) at 22:13:25; standard queues accept it: a delete "
                             "with it deletes the message"))
        << "explained before the delete ran: after it the message is gone";
}

// A message received again (its visibility ran out while someone held it): the receive's outcome
// and record say so, at a glance; a first receive does not.
TEST_F(ExplanationTest, aMessageReceivedAgainIsCountedInTheReceivesOutcome)
{
    createQueue("q");
    send("q");
    send("q");
    const QByteArray body
        = R"({"QueueUrl":")" + urlOf("q") + R"(","MaxNumberOfMessages":10,"VisibilityTimeout":10})";
    const TrafficRecord first = sqs("ReceiveMessage", body);
    EXPECT_EQ(first.outcome, QStringLiteral("received 2 of max 10"));
    EXPECT_EQ(first.receivedAgain, 0);
    clock.advance(12 * engine::kSecond); // the consumer took 12 s against a 10 s timeout
    const TrafficRecord again = sqs("ReceiveMessage", body);
    EXPECT_EQ(again.succeeded, 2);
    EXPECT_EQ(again.receivedAgain, 2);
    EXPECT_EQ(again.outcome, QStringLiteral("received 2 of max 10 · 2 received again"));
}

TEST_F(ExplanationTest, aCurrentReceiptSaysWhichReceiveItIsOf)
{
    createQueue("q");
    send("q");
    const QByteArray receipt = receive("q", 30);
    const TrafficRecord r = deleteWith("q", receipt);
    EXPECT_FALSE(r.staleReceipt);
    EXPECT_EQ(r.explanation,
              QStringLiteral("receipt of receive #1 (client `127.0.0.1:53412`), the latest; in "
                             "flight until 22:13:50 (in 30 s); a delete with it deletes the "
                             "message"));
}

TEST_F(ExplanationTest, anOldReceiptOnAFifoQueueSaysTheMessageWasReceivedAgain)
{
    createFifo("f.fifo");
    send("f.fifo", kFifoMembers);
    const QByteArray first = receive("f.fifo", 0);
    clock.advance(5 * engine::kSecond);
    ASSERT_FALSE(receive("f.fifo", 30).isEmpty());
    const TrafficRecord r = deleteWith("f.fifo", first);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.errorCode, QStringLiteral("InvalidParameterValueException")); // "… has expired"
    EXPECT_TRUE(r.staleReceipt);
    EXPECT_EQ(r.explanation,
              QStringLiteral("this receipt belongs to receive #1; the message was received again "
                             "at 22:13:25 by `127.0.0.1:53412` (receive #2), and FIFO queues "
                             "accept only the latest receive's receipt, while it is in flight"));
}

TEST_F(ExplanationTest, receiptHandleIsInvalidOnAFifoQueueWithAReceiptOfTheQueueBefore)
{
    createFifo("f.fifo");
    send("f.fifo", kFifoMembers);
    const QByteArray old = receive("f.fifo", 30);
    ASSERT_TRUE(broker.deleteQueue("f.fifo", "test").ok());
    clock.advance(61 * engine::kSecond); // past QueueDeletedRecently
    createFifo("f.fifo");
    const TrafficRecord r = deleteWith("f.fifo", old);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.errorCode, QStringLiteral("ReceiptHandleIsInvalid"));
    EXPECT_FALSE(r.staleReceipt);
    EXPECT_EQ(r.explanation,
              QStringLiteral("this receipt is of receive #1 from a queue that no longer exists "
                             "(deleted since, perhaps created again under the same name), not of "
                             "`f.fifo`"));

    const TrafficRecord garbage = deleteWith("f.fifo", "garbage");
    EXPECT_EQ(garbage.errorCode, QStringLiteral("ReceiptHandleIsInvalid"));
    EXPECT_EQ(garbage.explanation,
              QStringLiteral("not a receipt handle of this engine (malformed, edited, or from "
                             "another broker)"));
}

TEST_F(ExplanationTest, aBatchExplainsItsFirstStaleOrFailedEntry)
{
    createQueue("q");
    send("q");
    send("q");
    const QByteArray current = receive("q", 30);
    const QByteArray stale = receive("q", 0);
    clock.advance(engine::kSecond);
    ASSERT_FALSE(receive("q", 30).isEmpty()); // receives the second message again
    const TrafficRecord r
        = sqs("DeleteMessageBatch",
              R"({"QueueUrl":")" + urlOf("q")
                  + R"(","Entries":[{"Id":"a",)"
                    R"("ReceiptHandle":")"
                  + current + R"("},{"Id":"b","ReceiptHandle":")" + stale + R"("}]})");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.outcome, QStringLiteral("deleted 2 · stale receipt"));
    EXPECT_TRUE(r.staleReceipt);
    EXPECT_TRUE(r.explanation.startsWith(
        QStringLiteral("entry `b`: receipt of receive #1, used after receive #2")))
        << r.explanation.toStdString();
}

// A batch whose receipts were all current words its first entry's; one with several stale or
// failed words the first of them and counts the others.
TEST_F(ExplanationTest, aBatchWordsItsFirstEntryOrItsFirstStaleOneAndCountsTheRest)
{
    createQueue("q");
    send("q");
    send("q");
    const QByteArray a = receive("q", 30);
    const QByteArray b = receive("q", 30);
    const TrafficRecord current
        = sqs("DeleteMessageBatch",
              R"({"QueueUrl":")" + urlOf("q") + R"(","Entries":[{"Id":"a","ReceiptHandle":")" + a
                  + R"("},{"Id":"b","ReceiptHandle":")" + b + R"("}]})");
    EXPECT_EQ(current.outcome, QStringLiteral("deleted 2"));
    EXPECT_FALSE(current.staleReceipt);
    EXPECT_EQ(
        current.explanation,
        QStringLiteral("entry `a`: receipt of receive #1 (client `127.0.0.1:53412`), the latest; "
                       "in flight until "
                       "22:13:50 (in 30 s); a delete with it deletes the message"));

    send("q");
    const QByteArray first = receive("q", 0);
    const QByteArray second = receive("q", 0);
    const QByteArray third = receive("q", 30);
    const TrafficRecord stale = sqs(
        "DeleteMessageBatch",
        R"({"QueueUrl":")" + urlOf("q") + R"(","Entries":[{"Id":"c","ReceiptHandle":")" + third
            + R"("},{"Id":"d","ReceiptHandle":")" + first + R"("},{"Id":"e","ReceiptHandle":")"
            + second + R"("},{"Id":"f","ReceiptHandle":"junk"}]})");
    EXPECT_TRUE(stale.staleReceipt);
    EXPECT_TRUE(stale.explanation.startsWith(
        QStringLiteral("entry `d`: receipt of receive #1, used after receive #3")))
        << stale.explanation.toStdString();
    EXPECT_TRUE(stale.explanation.endsWith(QStringLiteral("; 2 more entries were stale or failed")))
        << stale.explanation.toStdString();
}

TEST_F(ExplanationTest, aFailedVisibilityChangeInABatchIsExplained)
{
    createFifo("f.fifo");
    send("f.fifo", kFifoMembers);
    const QByteArray first = receive("f.fifo", 0);
    ASSERT_FALSE(receive("f.fifo", 30).isEmpty());
    const TrafficRecord r
        = sqs("ChangeMessageVisibilityBatch",
              R"({"QueueUrl":")" + urlOf("f.fifo") + R"(","Entries":[{"Id":"x","ReceiptHandle":")"
                  + first + R"(","VisibilityTimeout":60}]})");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.outcome,
              QStringLiteral("changed 0, 1 failed: InvalidParameterValue · stale receipt"));
    EXPECT_TRUE(r.staleReceipt);
    EXPECT_TRUE(r.explanation.startsWith(
        QStringLiteral("entry `x`: this receipt belongs to receive #1; the message was received "
                       "again at 22:13:20")))
        << r.explanation.toStdString();
}

TEST_F(ExplanationTest, aChangeThatFailsForItsTimeoutSaysOnlyWhereTheReceiptStood)
{
    createQueue("q");
    send("q");
    const QByteArray first = receive("q", 0);
    ASSERT_FALSE(receive("q", 30).isEmpty());
    const TrafficRecord r = sqs("ChangeMessageVisibility",
                                R"({"QueueUrl":")" + urlOf("q") + R"(","ReceiptHandle":")" + first
                                    + R"(","VisibilityTimeout":50000})");
    EXPECT_EQ(r.status, 400);
    EXPECT_TRUE(r.staleReceipt);
    EXPECT_EQ(r.explanation,
              QStringLiteral("receipt of receive #1, used after receive #2 (client "
                             "`127.0.0.1:53412`) at 22:13:20"))
        << "its error, about VisibilityTimeout, says why it failed";
}

TEST_F(ExplanationTest, anOciDeleteWithAnOldReceipt)
{
    ASSERT_TRUE(broker.createQueue({.name = "t", .oci = true}).ok());
    ASSERT_TRUE(broker.sendMessage({.queue = "t", .body = std::string("m")}).ok());
    const std::string first = broker.receiveMessage({.queue = "t", .visibilityTimeout = 0})
                                  ->messages.at(0)
                                  .receiptHandle;
    ASSERT_EQ(broker.receiveMessage({.queue = "t"})->messages.size(), 1u);
    HttpRequest del;
    del.method = "DELETE";
    del.path
        = "/20210201/queues/t/messages/" + QUrl::toPercentEncoding(QString::fromStdString(first));
    del.headers = {{"Host", "127.0.0.1:9324"}};
    del.origin = QStringLiteral("127.0.0.1:53999");
    const TrafficRecord r = record(del);
    EXPECT_EQ(r.operation, QStringLiteral("DeleteMessage"));
    EXPECT_GE(r.status, 400);
    EXPECT_TRUE(r.staleReceipt);
    EXPECT_TRUE(r.explanation.startsWith(
        QStringLiteral("this receipt belongs to receive #1; the message was received again")))
        << r.explanation.toStdString();
}

// ---- other errors -----------------------------------------------------------------------------

TEST_F(ExplanationTest, aMissingQueueIsNamed)
{
    createQueue("q");
    EXPECT_EQ(sqs("GetQueueUrl", R"({"QueueName":"nope"})").explanation,
              QStringLiteral("no queue named `nope`"));
    EXPECT_EQ(
        sqs("ReceiveMessage", R"({"QueueUrl":"http://127.0.0.1:9324/123456789012/q"})").explanation,
        QStringLiteral("queue `q` exists, under account 000000000000: the QueueUrl names "
                       "another account"));
}

TEST_F(ExplanationTest, aRequestWithNothingToExplainHasNoExplanation)
{
    createQueue("q");
    const TrafficRecord r
        = sqs("SendMessage", R"({"QueueUrl":")" + urlOf("q") + R"(","MessageBody":"m"})");
    EXPECT_EQ(r.status, 200);
    EXPECT_TRUE(r.explanation.isEmpty());
    EXPECT_FALSE(r.staleReceipt);
}

// ---- where it is written ----------------------------------------------------------------------

TEST_F(ExplanationTest, theJsonLineAndTheHarEntryCarryIt)
{
    createQueue("q");
    send("q");
    const QByteArray first = receive("q", 0);
    ASSERT_FALSE(receive("q", 30).isEmpty());
    TrafficRecord r = deleteWith("q", first);
    r.cursor = 1;
    const nlohmann::json line = recordJson(r);
    EXPECT_EQ(line.at("staleReceipt"), true);
    EXPECT_EQ(line.at("explanation"), r.explanation.toStdString());
    EXPECT_FALSE(line.at("explanation").get<std::string>().empty());
    const nlohmann::json har = harDocument({r}, QStringLiteral("0.1.0"));
    const nlohmann::json& entry = har.at("log").at("entries").at(0);
    EXPECT_EQ(entry.at("_explanation"), r.explanation.toStdString());
    EXPECT_EQ(entry.at("_inflight").at("staleReceipt"), true);

    const nlohmann::json plain = recordJson(emptyReceive("q"));
    EXPECT_EQ(plain.at("staleReceipt"), false);
    EXPECT_EQ(plain.at("explanation"),
              "0 available; the queue is empty"); // the stale receipt deleted
}

} // namespace
} // namespace inflight::traffic
