// Export of queues and their messages to JSON, and import into another broker: FIFO group and
// deduplication ids kept or regenerated; bad JSON names its line and imports nothing.
#include "engine/broker.h"
#include "store/queue_transfer.h"

#include <gtest/gtest.h>

using namespace inflight::engine;
using namespace inflight::store;

namespace {

TEST(QueueTransferTest, exportThenImportKeepsBodiesAttributesGroupsAndDedupIds)
{
    ManualClock clock;
    Broker source(clock);
    ASSERT_TRUE(source.createQueue({.name = "f.fifo", .attributes = {{"FifoQueue", "true"}}}).ok());
    SendMessageRequest r{.queue = "f.fifo",
                         .body = std::string("one"),
                         .deduplicationId = std::string("d1"),
                         .groupId = std::string("g")};
    r.attributes["bin"] = MessageAttributeValue{"Binary", "", std::string("\0\xff", 2)};
    ASSERT_TRUE(source.sendMessage(r).ok());
    ASSERT_TRUE(source
                    .sendMessage({.queue = "f.fifo",
                                  .body = std::string("two"),
                                  .deduplicationId = std::string("d2"),
                                  .groupId = std::string("g")})
                    .ok());
    auto text = exportQueues(source, {});
    ASSERT_TRUE(text.ok());

    Broker target(clock);
    auto imported = importQueues(target, *text, {});
    ASSERT_TRUE(imported) << describe(imported.error());
    EXPECT_EQ(imported->queuesCreated, 1);
    EXPECT_EQ(imported->messages, 2);
    auto messages = target.peekMessages("f.fifo");
    ASSERT_EQ(messages->size(), 2u);
    EXPECT_EQ(messages->at(0).body, "one");
    EXPECT_EQ(messages->at(0).groupId, "g");
    EXPECT_EQ(messages->at(0).deduplicationId, "d1");
    EXPECT_EQ(messages->at(0).attributes.at("bin").binaryValue, std::string("\0\xff", 2));

    // Kept ids: importing again inside the dedup window adds nothing; regenerated ids add both.
    EXPECT_EQ(importQueues(target, *text, {})->messages, 2); // acknowledged as duplicates
    EXPECT_EQ(target.queueStats("f.fifo")->available, 2);
    ASSERT_TRUE(importQueues(target, *text, {.regenerateIds = true}));
    EXPECT_EQ(target.queueStats("f.fifo")->available, 4);
}

TEST(QueueTransferTest, theSenderIdGoesWithTheMessage)
{
    ManualClock clock;
    Broker source(clock);
    ASSERT_TRUE(source.createQueue({.name = "q"}).ok());
    SendMessageRequest r{.queue = "q", .body = std::string("signed")};
    r.senderId = "AKIDPRODUCER";
    ASSERT_TRUE(source.sendMessage(r).ok());
    ASSERT_TRUE(source.sendMessage({.queue = "q", .body = std::string("unsigned")}).ok());
    auto text = exportQueues(source, {});
    ASSERT_TRUE(text.ok());
    EXPECT_NE(text->find(R"("senderId":"AKIDPRODUCER")"), std::string::npos) << *text;

    Broker target(clock);
    ASSERT_TRUE(importQueues(target, *text, {}));
    auto received = target.receiveMessage(
        {.queue = "q", .maxMessages = 10, .systemAttributeNames = {"SenderId"}});
    ASSERT_EQ(received->messages.size(), 2u);
    EXPECT_EQ(received->messages[0].systemAttributes.at("SenderId"), "AKIDPRODUCER");
    EXPECT_EQ(received->messages[1].systemAttributes.at("SenderId"), "000000000000");
}

TEST(QueueTransferTest, badJsonSaysWhichLineIsWrongAndImportsNothing)
{
    ManualClock clock;
    Broker broker(clock);
    const std::string text = "{\"format\": \"inflight-queues\", \"version\": 1, \"queues\": [\n"
                             "{\"name\": \"q\", \"kind\": \"standard\", \"messages\": [\n"
                             "  {\"body\": \"fine\"},\n"
                             "  {\"body\": \"broken\",,}\n"
                             "]}]}\n";
    auto result = importQueues(broker, text, {});
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message.rfind("line 4, column", 0), 0u) << result.error().message;
    EXPECT_TRUE(broker.queues().empty());

    const std::string noBody = "{\"format\": \"inflight-queues\", \"version\": 1, \"queues\": [\n"
                               "{\"name\": \"q\", \"kind\": \"standard\", \"messages\": [\n"
                               "  {\"body\": \"fine\"},\n"
                               "  {\"text\": \"no body\"}\n"
                               "]}]}\n";
    result = importQueues(broker, noBody, {});
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message.rfind("line 4:", 0), 0u) << result.error().message;
    EXPECT_TRUE(broker.queues().empty());
}

TEST(QueueTransferTest, progressFollowsTheMessagesAndCanStop)
{
    ManualClock clock;
    Broker broker(clock);
    ASSERT_TRUE(broker.createQueue({.name = "q"}).ok());
    ASSERT_TRUE(broker.createQueue({.name = "into"}).ok());
    for (int i = 0; i < 10'000; ++i)
        ASSERT_TRUE(broker.sendMessage({.queue = "q", .body = std::to_string(i)}).ok());
    std::vector<std::pair<std::int64_t, std::int64_t>> calls;
    auto text
        = exportQueues(broker, {.queues = {"q"}, .progress = [&](std::int64_t d, std::int64_t t) {
                                    calls.emplace_back(d, t);
                                    return true;
                                }});
    ASSERT_TRUE(text.ok());
    ASSERT_FALSE(calls.empty());
    EXPECT_EQ(calls.back(), std::make_pair(std::int64_t{10'000}, std::int64_t{10'000}));

    // Stopped at the first report: what was sent before stays, the rest is not sent.
    auto stopped = importQueues(
        broker, *text, {.intoQueue = "into", .progress = [](auto, auto) { return false; }});
    ASSERT_TRUE(stopped);
    EXPECT_TRUE(stopped->stopped);
    EXPECT_LT(stopped->messages, 10'000);
    EXPECT_EQ(static_cast<std::int64_t>(broker.peekMessages("into")->size()), stopped->messages);

    // A stopped export is an error, not half a file.
    EXPECT_FALSE(
        exportQueues(broker, {.queues = {"q"}, .progress = [](auto, auto) { return false; }}).ok());
}

} // namespace
