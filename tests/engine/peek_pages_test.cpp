// Paged peeks (PeekRequest: a cursor `after`, an offset, a limit): pages in sequence order that
// together hold every wanted message exactly once, also when slots are reused out of order, and
// peekMessage(key) for a key an event gave. Time is a ManualClock; nothing sleeps.
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace inflight::engine {
namespace {

class PeekPages : public EngineTest {
protected:
    void SetUp() override { ASSERT_TRUE(succeeds(tryCreate("q"))); }
    // Sends to "q"; the message id.
    std::string send(const std::string& body) { return EngineTest::send("q", body).messageId; }
    // Every page of `limit` from the cursor on: the bodies in order.
    std::vector<std::string> allPages(std::size_t limit, PeekRequest request = {})
    {
        std::vector<std::string> bodies;
        request.limit = limit;
        for (int pages = 0; pages < 1000; ++pages) {
            auto page = broker.peekMessages("q", request);
            EXPECT_TRUE(page.ok());
            if (!page.ok() || page->empty())
                break;
            for (const MessageView& m : *page) {
                if (!bodies.empty()) {
                    EXPECT_LT(request.after, m.key.sequence);
                }
                bodies.push_back(m.body);
            }
            request.after = page->back().key.sequence;
        }
        return bodies;
    }
};

TEST_F(PeekPages, pagesFromACursorHoldEveryMessageOnceInSequenceOrder)
{
    std::vector<std::string> sent;
    for (int i = 0; i < 10; ++i)
        sent.push_back("m" + std::to_string(i)), send(sent.back());
    EXPECT_EQ(allPages(3), sent);
    EXPECT_EQ(allPages(10), sent);
    EXPECT_EQ(allPages(100), sent);
}

TEST_F(PeekPages, reusedSlotsStillComeInSequenceOrder)
{
    for (int i = 0; i < 6; ++i)
        send("old" + std::to_string(i));
    // Delete the first three: their slots are reused by the next sends, ahead of the rest.
    auto got = broker.receiveMessage({.queue = "q", .maxMessages = 3, .visibilityTimeout = 60});
    ASSERT_TRUE(got.ok());
    for (const ReceivedMessage& m : got->messages)
        ASSERT_TRUE(broker.deleteMessage("q", m.receiptHandle, Origin{"test"}).ok());
    for (int i = 0; i < 3; ++i)
        send("new" + std::to_string(i));
    const std::vector<std::string> expected{"old3", "old4", "old5", "new0", "new1", "new2"};
    EXPECT_EQ(allPages(2), expected);
    auto first = broker.peekMessages("q", {.limit = 1});
    ASSERT_TRUE(first.ok());
    ASSERT_EQ(first->size(), 1u);
    EXPECT_EQ(first->front().body, "old3");
}

TEST_F(PeekPages, theStateFilterAndTheOffsetApplyPastTheCursor)
{
    for (int i = 0; i < 6; ++i)
        send("m" + std::to_string(i));
    auto got = broker.receiveMessage({.queue = "q", .maxMessages = 2, .visibilityTimeout = 60});
    ASSERT_TRUE(got.ok()); // m0 and m1 in flight
    EXPECT_EQ(allPages(1, {.inFlight = false}), (std::vector<std::string>{"m2", "m3", "m4", "m5"}));
    auto page = broker.peekMessages("q", {.available = false});
    ASSERT_TRUE(page.ok());
    ASSERT_EQ(page->size(), 2u);
    EXPECT_EQ(page->back().body, "m1");
    auto skipped = broker.peekMessages("q", {.after = page->back().key.sequence, .offset = 2});
    ASSERT_TRUE(skipped.ok());
    ASSERT_EQ(skipped->size(), 2u);
    EXPECT_EQ(skipped->front().body, "m4");
}

TEST_F(PeekPages, aMessageIsPeekedByTheKeyOfItsEvent)
{
    collectEvents();
    const std::string id = send("x");
    ASSERT_EQ(events.size(), 1u);
    auto view = broker.peekMessage("q", events[0].key);
    ASSERT_TRUE(view.ok());
    EXPECT_EQ(view->messageId, id);
    auto got = broker.receiveMessage({.queue = "q", .maxMessages = 1});
    ASSERT_TRUE(got.ok());
    ASSERT_TRUE(broker.deleteMessage("q", got->messages[0].receiptHandle, Origin{"test"}).ok());
    EXPECT_FALSE(broker.peekMessage("q", events[0].key).ok()); // gone
}

} // namespace
} // namespace inflight::engine
