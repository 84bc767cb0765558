// How many tags a queue may carry (§1.3: 50 per queue), through Broker: on CreateQueue and on
// TagQueue, where the limit is on the queue's total after the call, so re-tagging a key costs
// nothing and UntagQueue makes room again. The per-tag rules (key ≤128, value ≤256 characters,
// `aws:` reserved) are in queue_purge_tags_test.cpp.
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <string>

namespace inflight::engine {
namespace {

constexpr std::size_t kMaxTags = 50;

std::string tooManyTags(const std::string& queue)
{
    return "Too many tags added for queue " + queue + ".";
}

// `count` distinct tags named <prefix>0, <prefix>1, …
StringMap tags(std::size_t count, const std::string& prefix = "k")
{
    StringMap result;
    for (std::size_t i = 0; i < count; ++i)
        result.emplace(prefix + std::to_string(i), "v");
    return result;
}

class TagsTest : public EngineTest {
protected:
    std::size_t tagCount(const std::string& queue)
    {
        auto listed = broker.listQueueTags(queue);
        EXPECT_TRUE(listed.ok());
        return listed.ok() ? listed->size() : 0;
    }

    static void expectTooMany(const Status& status, const std::string& queue)
    {
        ASSERT_TRUE(failsWith(status, ErrorCode::InvalidParameterValue, tooManyTags(queue)));
        EXPECT_EQ(status.error().parameter, "Tags");
    }
};

TEST_F(TagsTest, createQueueTakesUpToFiftyTags)
{
    ASSERT_TRUE(tryCreate("q", {}, tags(kMaxTags)).ok());
    EXPECT_EQ(tagCount("q"), kMaxTags);
}

TEST_F(TagsTest, createQueueWithFiftyOneTagsIsRefusedAndCreatesNothing)
{
    const auto created = tryCreate("q", {}, tags(kMaxTags + 1));
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(created.error().message, tooManyTags("q"));
    EXPECT_EQ(broker.getQueue("q").error().code, ErrorCode::QueueDoesNotExist);
}

TEST_F(TagsTest, tagQueueMayFillTheQueueToFifty)
{
    ASSERT_TRUE(tryCreate("q", {}, tags(40, "old")).ok());
    EXPECT_TRUE(broker.tagQueue("q", tags(10, "new"), "test").ok());
    EXPECT_EQ(tagCount("q"), kMaxTags);
}

TEST_F(TagsTest, tagQueueBeyondFiftyInTotalIsRefusedAndChangesNothing)
{
    ASSERT_TRUE(tryCreate("q", {}, tags(40, "old")).ok());
    expectTooMany(broker.tagQueue("q", tags(11, "new"), "test"), "q");
    EXPECT_EQ(tagCount("q"), 40u);
    ASSERT_TRUE(tryCreate("full", {}, tags(kMaxTags)).ok());
    expectTooMany(broker.tagQueue("full", {{"one-more", "v"}}, "test"), "full");
}

TEST_F(TagsTest, retaggingKeysTheQueueHasDoesNotCount)
{
    ASSERT_TRUE(tryCreate("q", {}, tags(kMaxTags)).ok());
    StringMap changed = tags(kMaxTags);
    for (auto& [key, value] : changed)
        value = "changed";
    EXPECT_TRUE(broker.tagQueue("q", changed, "test").ok());
    EXPECT_EQ(broker.listQueueTags("q")->at("k7"), "changed");
}

TEST_F(TagsTest, untagQueueMakesRoomAgain)
{
    ASSERT_TRUE(tryCreate("q", {}, tags(kMaxTags)).ok());
    ASSERT_TRUE(broker.untagQueue("q", {"k0", "k1"}, "test").ok());
    EXPECT_TRUE(broker.tagQueue("q", tags(2, "new"), "test").ok());
    EXPECT_EQ(tagCount("q"), kMaxTags);
    expectTooMany(broker.tagQueue("q", {{"new2", "v"}}, "test"), "q");
}

TEST_F(TagsTest, anIdempotentCreateQueueIgnoresItsTags)
{
    // Tags only apply to a queue being created; the same CreateQueue again returns the queue.
    ASSERT_TRUE(tryCreate("q", {}, tags(kMaxTags)).ok());
    EXPECT_TRUE(tryCreate("q", {}, tags(kMaxTags, "other")).ok());
    EXPECT_EQ(tagCount("q"), kMaxTags);
}

} // namespace
} // namespace inflight::engine
