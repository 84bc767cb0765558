// PurgeQueue (spec §3.7, C.79) and the per-tag rules of TagQueue / UntagQueue / ListQueueTags
// (§1.3, §3.8) through Broker. How many tags a queue may carry is in tags_test.cpp.
#include "engine/support/queues_fixture.h"

#include <gtest/gtest.h>

#include <string>

namespace inflight::engine {
namespace {

std::string purgeInProgress(const std::string& queue)
{
    return "Only one PurgeQueue operation on " + queue + " is allowed every 60 seconds.";
}

// ================================================================================================
// Tags (§1.3, §3.8)
// ================================================================================================

TEST_F(QueuesTest, newQueueHasNoTags)
{
    create("q");
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_TRUE(tags->empty());
}

TEST_F(QueuesTest, tagsGivenAtCreateAreListed)
{
    create("q", {}, {{"team", "payments"}, {"env", "prod"}});
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "prod"}, {"team", "payments"}}));
}

TEST_F(QueuesTest, tagOverwritesTheSameKey)
{
    create("q", {}, {{"env", "dev"}});
    ASSERT_TRUE(succeeds(broker.tagQueue("q", {{"env", "prod"}, {"team", "a"}}, "test")));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "prod"}, {"team", "a"}}));
}

TEST_F(QueuesTest, untagOfUnknownKeyIsIgnored)
{
    create("q", {}, {{"env", "dev"}, {"team", "a"}});
    ASSERT_TRUE(succeeds(broker.untagQueue("q", {"nope", "team"}, "test")));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "dev"}}));
    EXPECT_TRUE(succeeds(broker.untagQueue("q", {"nope"}, "test")));
}

TEST_F(QueuesTest, tagKeysAreCaseSensitive)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.tagQueue("q", {{"Env", "A"}, {"env", "a"}}, "test")));
    ASSERT_TRUE(succeeds(broker.untagQueue("q", {"ENV"}, "test")));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"Env", "A"}, {"env", "a"}}));
    ASSERT_TRUE(succeeds(broker.untagQueue("q", {"Env"}, "test")));
    tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "a"}}));
}

TEST_F(QueuesTest, awsPrefixedTagKeysAreRejected)
{
    create("q");
    EXPECT_TRUE(failsWith(broker.tagQueue("q", {{"aws:owner", "me"}}, "test"),
                          ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(tryCreate("r", {}, {{"aws:owner", "me"}}), ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(broker.getQueue("r"), ErrorCode::QueueDoesNotExist));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_TRUE(tags->empty());
    // Only the prefix is reserved.
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{"my-aws:tag", "x"}, {"aws", "x"}}, "test")));
}

TEST_F(QueuesTest, tagKeyUpTo128AndValueUpTo256Characters)
{
    create("q");
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{repeat("k", 128), repeat("v", 256)}}, "test")));
    EXPECT_FALSE(broker.tagQueue("q", {{repeat("k", 129), "v"}}, "test").ok());
    EXPECT_FALSE(broker.tagQueue("q", {{"k", repeat("v", 257)}}, "test").ok());
}

TEST_F(QueuesTest, tagLengthsCountUnicodeCharactersNotBytes)
{
    // §1.3: "key ≤128, value ≤256 Unicode chars". U+00E9 is two UTF-8 bytes.
    create("q");
    const std::string e = "\xC3\xA9";
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{repeat(e, 128), "v"}}, "test")));
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{"k", repeat(e, 256)}}, "test")));
    EXPECT_FALSE(broker.tagQueue("q", {{repeat(e, 129), "v"}}, "test").ok());
    EXPECT_FALSE(broker.tagQueue("q", {{"k", repeat(e, 257)}}, "test").ok());
}

// ================================================================================================
// PurgeQueue (§3.7, C.79)
// ================================================================================================

TEST_F(QueuesTest, purgeRemovesAvailableInFlightAndDelayedMessages)
{
    create("q");
    for (int i = 0; i < 10; ++i)
        send("q", "m" + std::to_string(i));
    send("q", "delayed", 5);
    ASSERT_EQ(receive("q", 5, 3).size(), 5u);
    EXPECT_EQ(counters("q"), "5/5/1");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    EXPECT_EQ(counters("q"), "0/0/0");
    EXPECT_TRUE(receive("q", 10).empty());
    clock.advance(3'000);
    EXPECT_TRUE(receive("q", 10).empty()) << "in-flight messages do not come back";
    clock.advance(2'000);
    EXPECT_TRUE(receive("q", 10).empty()) << "delayed messages do not arrive";
    EXPECT_EQ(counters("q"), "0/0/0");
}

TEST_F(QueuesTest, purgeRemovesFifoMessagesInEveryState)
{
    createFifo("q.fifo", {{"DelaySeconds", "5"}});
    ASSERT_TRUE(succeeds(trySendFifo("q.fifo", "a", "g1", "d1")));
    ASSERT_TRUE(succeeds(trySendFifo("q.fifo", "c", "g1", "d2")));
    ASSERT_TRUE(succeeds(trySendFifo("q.fifo", "e", "g2", "d3")));
    clock.advance(3'000);
    ASSERT_TRUE(succeeds(trySendFifo("q.fifo", "b", "g3", "d4")));
    clock.advance(2'000);
    ASSERT_EQ(receive("q.fifo", 1, 30).size(), 1u);
    EXPECT_EQ(counters("q.fifo"), "2/1/1");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q.fifo", PurgeTarget::Normal, "test")));
    EXPECT_EQ(counters("q.fifo"), "0/0/0");
    clock.advance(30'000);
    EXPECT_TRUE(receive("q.fifo", 10).empty());
    EXPECT_EQ(counters("q.fifo"), "0/0/0");
}

TEST_F(QueuesTest, receiptsOfPurgedMessagesStillDeleteOnStandard)
{
    // §3.7 UNCONFIRMED; the engine treats them as stale handles: delete succeeds as a no-op.
    create("q");
    send("q", "a");
    send("q", "b");
    const auto got = receive("q", 10);
    ASSERT_EQ(got.size(), 2u);
    ASSERT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    send("q", "after");
    EXPECT_TRUE(succeeds(broker.deleteMessage("q", got[0].receiptHandle, "test")));
    EXPECT_TRUE(succeeds(broker.deleteMessage("q", got[1].receiptHandle, "test")));
    EXPECT_EQ(counters("q"), "1/0/0") << "a message sent after the purge is untouched";
}

TEST_F(QueuesTest, purgeClearsFifoDeduplicationHistory)
{
    createFifo("q.fifo");
    auto first = trySendFifo("q.fifo", "one", "g", "same");
    ASSERT_TRUE(succeeds(first));
    auto duplicate = trySendFifo("q.fifo", "one", "g", "same");
    ASSERT_TRUE(succeeds(duplicate));
    EXPECT_TRUE(duplicate->deduplicated);
    ASSERT_TRUE(succeeds(broker.purgeQueue("q.fifo", PurgeTarget::Normal, "test")));
    auto again = trySendFifo("q.fifo", "two", "g", "same");
    ASSERT_TRUE(succeeds(again));
    EXPECT_FALSE(again->deduplicated);
    EXPECT_NE(again->messageId, first->messageId);
    const auto got = receive("q.fifo", 10);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "two");
}

TEST_F(QueuesTest, secondPurgeWithin60SecondsIsPurgeQueueInProgress)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    EXPECT_TRUE(failsWith(broker.purgeQueue("q", PurgeTarget::Normal, "test"),
                          ErrorCode::PurgeQueueInProgress, purgeInProgress("q")));
    clock.advance(59'999);
    EXPECT_TRUE(failsWith(broker.purgeQueue("q", PurgeTarget::Normal, "test"),
                          ErrorCode::PurgeQueueInProgress, purgeInProgress("q")));
    clock.advance(1);
    EXPECT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    EXPECT_TRUE(failsWith(broker.purgeQueue("q", PurgeTarget::Normal, "test"),
                          ErrorCode::PurgeQueueInProgress, purgeInProgress("q")));
}

TEST_F(QueuesTest, rejectedPurgeRemovesNothing)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    send("q", "m");
    EXPECT_FALSE(broker.purgeQueue("q", PurgeTarget::Normal, "test").ok());
    EXPECT_EQ(counters("q"), "1/0/0");
}

TEST_F(QueuesTest, purgeWindowIsPerQueue)
{
    create("a");
    createFifo("b.fifo");
    ASSERT_TRUE(succeeds(broker.purgeQueue("a", PurgeTarget::Normal, "test")));
    EXPECT_TRUE(succeeds(broker.purgeQueue("b.fifo", PurgeTarget::Normal, "test")));
    EXPECT_TRUE(failsWith(broker.purgeQueue("b.fifo", PurgeTarget::Normal, "test"),
                          ErrorCode::PurgeQueueInProgress, purgeInProgress("b.fifo")));
}

TEST_F(QueuesTest, purgeIntervalIsConfigurable)
{
    BrokerOptions options;
    options.purgeInterval = 10 * kSecond;
    restart(options);
    create("q");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    clock.advance(9'999);
    EXPECT_TRUE(failsWith(broker.purgeQueue("q", PurgeTarget::Normal, "test"),
                          ErrorCode::PurgeQueueInProgress));
    clock.advance(1);
    EXPECT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
}

TEST_F(QueuesTest, messagesSentAfterPurgeAreDelivered)
{
    create("q");
    send("q", "before");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    send("q", "after");
    const auto got = receive("q", 10);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "after");
}

TEST_F(QueuesTest, purgeOfUnknownQueueIsQueueDoesNotExist)
{
    EXPECT_TRUE(failsWith(broker.purgeQueue("missing", PurgeTarget::Normal, "test"),
                          ErrorCode::QueueDoesNotExist, kNoSuchQueue));
}

} // namespace
} // namespace inflight::engine
