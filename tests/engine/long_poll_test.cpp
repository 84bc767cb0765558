// Long polls through Broker (spec §4.3, §8 C.55, C.57): a receive that waits, answered when a
// message becomes available (a send, a release, a visibility expiry, the end of a delay) or empty
// at its deadline, the queue's default wait, cancelled waits and the order waiters are served in.
// Time is a ManualClock; nothing sleeps.
#include "engine/support/receive_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

class LongPoll : public ReceiveTest {};

// ================================================================================================
// §4.3 long polling (C.55, C.57)
// ================================================================================================

TEST_F(LongPoll, answeredAtOnceWhenMessagesExist)
{
    create(kQueue);
    send("a");
    send("b");
    auto [id, answer] = longPoll(waitFor(20, 10));
    EXPECT_EQ(id, 0u);
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

TEST_F(LongPoll, waitsWhileEmptyAndIsAnsweredBySend)
{
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(20, 10));
    EXPECT_NE(id, 0u);
    EXPECT_EQ(answer->calls, 0);
    EXPECT_EQ(broker.pendingWaits(), 1u);
    clock.advance(3 * kSecond);
    send("m");
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"m"})) << "does not wait to fill Max";
    EXPECT_EQ(broker.pendingWaits(), 0u);
    EXPECT_EQ(counters(), "0/1/0") << "the waiter received it";
    advance(20 * kSecond);
    EXPECT_EQ(answer->calls, 1) << "called exactly once";
}

TEST_F(LongPoll, delayedSendDoesNotAnswerUntilTheDelayEnds)
{
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(10));
    ASSERT_NE(id, 0u);
    send("late", 3);
    EXPECT_EQ(answer->calls, 0);
    advance(3 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    advance(1);
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"late"}));
}

TEST_F(LongPoll, answeredByARelease)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    auto [id, answer] = longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    EXPECT_EQ(answer->calls, 0);
    ASSERT_TRUE(broker.changeMessageVisibility(kQueue, h, 0, "test").ok());
    ASSERT_EQ(answer->calls, 1);
    ASSERT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
    EXPECT_EQ((*answer->result)->messages[0].receiveCount, 2u);
}

TEST_F(LongPoll, answeredByAVisibilityExpiry)
{
    create(kQueue);
    send("m");
    receiveHandle(5);
    auto [id, answer] = longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    advance(5 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    advance(1);
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
}

TEST_F(LongPoll, endsEmptyExactlyAtTheWaitDeadline)
{
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    advance(5 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0) << "1 ms before the deadline: still waiting";
    EXPECT_EQ(broker.pendingWaits(), 1u);
    advance(1);
    EXPECT_TRUE(answer->emptyOk());
    EXPECT_EQ(broker.pendingWaits(), 0u);
    send("m");
    EXPECT_EQ(answer->calls, 1);
    EXPECT_EQ(counters(), "1/0/0");
}

TEST_F(LongPoll, sendJustBeforeTheWaitDeadlineAnswersWithoutAdvance)
{
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    clock.advance(5 * kSecond - 1); // no broker.advance(): the send sees the time itself
    send("m");
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
}

TEST_F(LongPoll, sendAtTheWaitDeadlineDoesNotAnswerAnEndedWait)
{
    // Lazy truth: at the deadline the wait is over, whether or not advance() ran; a message sent
    // then must stay in the queue, and the waiter ends empty.
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    clock.advance(5 * kSecond);
    send("m");
    EXPECT_TRUE(answer->emptyOk())
        << "calls=" << answer->calls << " bodies=" << answer->bodies().size();
    EXPECT_EQ(counters(), "1/0/0");
}

TEST_F(LongPoll, visibilityExpiryAfterTheWaitDeadlineDoesNotAnswerAnEndedWait)
{
    create(kQueue);
    send("m");
    receiveHandle(10);
    auto [id, answer] = longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    clock.advance(10 * kSecond); // wait ended at 5 s, the message came back at 10 s
    EXPECT_EQ(counters(), "1/0/0");
    EXPECT_TRUE(answer->emptyOk())
        << "calls=" << answer->calls << " bodies=" << answer->bodies().size();
}

TEST_F(LongPoll, nextDeadlineIncludesTheWaitDeadline)
{
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    EXPECT_LE(broker.nextDeadline(), kT0 + 5 * kSecond);
}

TEST_F(LongPoll, queueDefaultWaitAppliesWhenWaitTimeSecondsIsAbsent)
{
    // C.57
    create(kQueue, {{"ReceiveMessageWaitTimeSeconds", "2"}});
    auto [id, answer] = longPoll(ReceiveRequest{.queue = kQueue});
    EXPECT_NE(id, 0u);
    advance(2 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    advance(1);
    EXPECT_TRUE(answer->emptyOk());
}

TEST_F(LongPoll, explicitZeroWaitOverridesTheQueueDefault)
{
    // C.57
    create(kQueue, {{"ReceiveMessageWaitTimeSeconds", "2"}});
    auto [id, answer] = longPoll(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    EXPECT_EQ(id, 0u);
    EXPECT_TRUE(answer->emptyOk());
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

TEST_F(LongPoll, noWaitAnywhereIsAnsweredAtOnce)
{
    create(kQueue);
    auto [id, answer] = longPoll(ReceiveRequest{.queue = kQueue});
    EXPECT_EQ(id, 0u);
    EXPECT_TRUE(answer->emptyOk());
}

TEST_F(LongPoll, cancelledWaitIsNeverCalled)
{
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    EXPECT_TRUE(broker.cancelWait(id));
    EXPECT_FALSE(broker.cancelWait(id));
    EXPECT_EQ(broker.pendingWaits(), 0u);
    send("m");
    advance(10 * kSecond);
    EXPECT_EQ(answer->calls, 0);
    EXPECT_EQ(counters(), "1/0/0") << "the cancelled waiter took nothing";
}

TEST_F(LongPoll, waitersAreServedOldestFirst)
{
    create(kQueue);
    auto [id1, first] = longPoll(waitFor(20));
    clock.advance(1);
    auto [id2, second] = longPoll(waitFor(20));
    ASSERT_NE(id1, 0u);
    ASSERT_NE(id2, 0u);
    send("a");
    EXPECT_EQ(first->bodies(), (std::vector<std::string>{"a"}));
    EXPECT_EQ(second->calls, 0);
    send("b");
    EXPECT_EQ(second->bodies(), (std::vector<std::string>{"b"}));
    EXPECT_EQ(first->calls, 1);
}

TEST_F(LongPoll, deleteQueueEndsWaitersEmpty)
{
    create(kQueue);
    auto [id, answer] = longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    ASSERT_TRUE(broker.deleteQueue(kQueue, "test").ok());
    EXPECT_TRUE(answer->emptyOk());
    EXPECT_EQ(broker.pendingWaits(), 0u);
    advance(30 * kSecond);
    EXPECT_EQ(answer->calls, 1);
}

TEST_F(LongPoll, synchronousReceiveWithWaitReturnsAtOnce)
{
    create(kQueue);
    EXPECT_TRUE(receive(waitFor(20)).messages.empty());
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

TEST_F(LongPoll, answeredWaiterUsesItsOwnVisibilityTimeout)
{
    create(kQueue);
    auto [id, answer]
        = longPoll(ReceiveRequest{.queue = kQueue, .visibilityTimeout = 7, .waitTimeSeconds = 20});
    ASSERT_NE(id, 0u);
    clock.advance(2 * kSecond);
    send("m");
    ASSERT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
    EXPECT_EQ((*answer->result)->messages[0].visibleAt, kT0 + 9 * kSecond);
}

} // namespace
} // namespace inflight::engine
