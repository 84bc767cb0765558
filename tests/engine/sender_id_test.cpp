// The SenderId system attribute (spec §4.1, §4.3): the sender's access key id as the request gave
// it (SendMessageRequest::senderId), the account id when it gave none; kept through a DLQ move, a
// move task and an export/restore (docs/BEHAVIOUR.md, "SenderId").
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace inflight::engine {
namespace {

class SenderIdTest : public EngineTest {
protected:
    void SetUp() override { ASSERT_TRUE(succeeds(tryCreate("q"))); }

    void send(const std::string& body, const std::string& senderId, const std::string& queue = "q")
    {
        EngineTest::send(SendMessageRequest{.queue = queue, .body = body, .senderId = senderId});
    }

    // The SenderId of each message a receive of `queue` returns, in order.
    std::vector<std::string> senders(const std::string& queue = "q")
    {
        std::vector<std::string> out;
        for (const ReceivedMessage& m : receive(ReceiveRequest{.queue = queue,
                                        .maxMessages = 10,
                                        .visibilityTimeout = 0,
                                        .systemAttributeNames = {"SenderId"}}))
            out.push_back(m.systemAttributes.at("SenderId"));
        return out;
    }
};

TEST_F(SenderIdTest, isTheAccessKeyIdOfTheSendAndTheAccountIdWithoutOne)
{
    send("signed", "AKIDORDERS");
    send("unsigned", "");
    EXPECT_EQ(senders(), (std::vector<std::string>{"AKIDORDERS", "000000000000"}));
}

TEST_F(SenderIdTest, theFallbackIsTheConfiguredAccountId)
{
    BrokerOptions options;
    options.accountId = "123456789012";
    Broker other(clock, options);
    ASSERT_TRUE(other.createQueue({.name = "q"}).ok());
    ASSERT_TRUE(other.sendMessage({.queue = "q", .body = std::string("m")}).ok());
    auto r = other.receiveMessage({.queue = "q", .systemAttributeNames = {"All"}});
    ASSERT_EQ(r->messages.size(), 1u);
    EXPECT_EQ(r->messages[0].systemAttributes.at("SenderId"), "123456789012");
}

TEST_F(SenderIdTest, eachBatchEntryKeepsItsOwnSender)
{
    std::vector<BatchSendEntry> entries{
        {"a", {.body = std::string("a"), .senderId = "AKIDA"}},
        {"b", {.body = std::string("b"), .senderId = "AKIDB"}},
        {"c", {.body = std::string("c")}},
    };
    auto sent = broker.sendMessageBatch("q", entries, "test");
    ASSERT_TRUE(sent.ok());
    ASSERT_EQ(sent->successful.size(), 3u);
    EXPECT_EQ(senders(), (std::vector<std::string>{"AKIDA", "AKIDB", "000000000000"}));
}

TEST_F(SenderIdTest, aDeadLetterAndAMovedMessageKeepTheirSender)
{
    ASSERT_TRUE(broker.createQueue({.name = "dlq"}).ok());
    ASSERT_TRUE(broker
                    .setQueueAttributes("q",
                                        {{"RedrivePolicy",
                                          R"({"deadLetterTargetArn":")" + broker.arnForName("dlq")
                                              + R"(","maxReceiveCount":1})"}},
                                        "test")
                    .ok());
    send("poison", "AKIDPRODUCER");
    EXPECT_EQ(senders(), std::vector<std::string>{"AKIDPRODUCER"}); // receive 1 of 1
    EXPECT_TRUE(senders().empty());                                 // moved to the DLQ instead
    ASSERT_EQ(broker.queueStats("dlq")->available, 1);

    auto task = broker.startMessageMoveTask({.sourceArn = broker.arnForName("dlq")});
    ASSERT_TRUE(task.ok());
    clock.advance(10 * kSecond);
    broker.advance();
    EXPECT_EQ(senders(), std::vector<std::string>{"AKIDPRODUCER"});
}

TEST_F(SenderIdTest, survivesExportAndRestore)
{
    send("signed", "AKIDORDERS");
    send("unsigned", "");
    std::vector<MessageRecord> records;
    ASSERT_TRUE(
        broker.forEachMessage("q", [&](const MessageRecord& m) { records.push_back(m); }).ok());
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].senderId, "AKIDORDERS");
    EXPECT_EQ(records[1].senderId, "");

    Broker restored(clock);
    ASSERT_TRUE(restored.restoreBroker(broker.brokerRecord()).ok());
    for (QueueRecord& q : broker.queueRecords())
        ASSERT_TRUE(restored.restoreQueue(q).ok());
    for (MessageRecord& m : records)
        ASSERT_TRUE(restored.restoreMessage("q", m).ok());
    restored.finishRestore();
    auto r = restored.receiveMessage(
        {.queue = "q", .maxMessages = 10, .systemAttributeNames = {"SenderId"}});
    ASSERT_EQ(r->messages.size(), 2u);
    EXPECT_EQ(r->messages[0].systemAttributes.at("SenderId"), "AKIDORDERS");
    EXPECT_EQ(r->messages[1].systemAttributes.at("SenderId"), "000000000000");
}

} // namespace
} // namespace inflight::engine
