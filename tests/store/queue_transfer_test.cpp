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
    ASSERT_TRUE(imported.ok) << imported.error;
    EXPECT_EQ(imported.queuesCreated, 1);
    EXPECT_EQ(imported.messagesImported, 2);
    auto messages = target.peekMessages("f.fifo");
    ASSERT_EQ(messages->size(), 2u);
    EXPECT_EQ(messages->at(0).body, "one");
    EXPECT_EQ(messages->at(0).groupId, "g");
    EXPECT_EQ(messages->at(0).deduplicationId, "d1");
    EXPECT_EQ(messages->at(0).attributes.at("bin").binaryValue, std::string("\0\xff", 2));

    // Kept ids: importing again inside the dedup window adds nothing; regenerated ids add both.
    EXPECT_EQ(importQueues(target, *text, {}).messagesImported, 2); // acknowledged as duplicates
    EXPECT_EQ(target.queueStats("f.fifo")->available, 2);
    ASSERT_TRUE(importQueues(target, *text, {.regenerateIds = true}).ok);
    EXPECT_EQ(target.queueStats("f.fifo")->available, 4);
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
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.error.rfind("line 4, column", 0), 0u) << result.error;
    EXPECT_TRUE(broker.queues().empty());

    const std::string noBody = "{\"format\": \"inflight-queues\", \"version\": 1, \"queues\": [\n"
                               "{\"name\": \"q\", \"kind\": \"standard\", \"messages\": [\n"
                               "  {\"body\": \"fine\"},\n"
                               "  {\"text\": \"no body\"}\n"
                               "]}]}\n";
    result = importQueues(broker, noBody, {});
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.error.rfind("line 4:", 0), 0u) << result.error;
    EXPECT_TRUE(broker.queues().empty());
}

} // namespace
