// ChangeMessageVisibility and DeleteMessage through Broker, and their batches: what a receipt
// handle does once its message was received, on standard queues and FIFO's receipt-expiry rules
// (spec §4.4–§4.7, §5.8, §8 C.65–C.77, §9 items 1–3). Time is a ManualClock; nothing sleeps.
#include "engine/support/receive_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

constexpr Millis kHour = 3600 * kSecond;

const std::string kCapReason
    = " for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the "
      "message is beyond the limit [43200 seconds]";

std::string invalidHandleText(const std::string& handle)
{
    return "The input receipt handle \"" + handle + "\" is not a valid receipt handle.";
}

std::string foreignHandleText(const std::string& handle)
{
    return "The receipt handle \"" + handle + "\" is not valid for this queue.";
}

std::string expiredHandleText(const std::string& handle)
{
    return "Value " + handle
        + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.";
}

std::string deletedMessageText(const std::string& handle)
{
    return "Value " + handle
        + " for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not "
          "available for "
          "visibility timeout change.";
}

class ChangeVisibility : public ReceiveTest {};
class DeleteMessage : public ReceiveTest {};
class DeleteMessageBatch : public ReceiveTest {};
class ChangeVisibilityBatch : public ReceiveTest {};

// ================================================================================================
// §4.6 ChangeMessageVisibility (C.65–C.71)
// ================================================================================================

TEST_F(ChangeVisibility, newTimeoutCountsFromTheCall)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle(30);
    clock.advance(20 * kSecond);
    auto changed = broker.changeMessageVisibility(kQueue, h, 15, "test");
    ASSERT_TRUE(changed.ok()) << describe(changed.error());
    EXPECT_EQ(changed->visibleAt, kT0 + 35 * kSecond);
    clock.advance(15 * kSecond - 1);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(1);
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(ChangeVisibility, newTimeoutReplacesTheRemainingTime)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle(30);
    clock.advance(10 * kSecond);
    ASSERT_TRUE(broker.changeMessageVisibility(kQueue, h, 5, "test").ok());
    clock.advance(5 * kSecond - 1);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(1);
    EXPECT_EQ(receive(1).messages.size(), 1u) << "visible 5 s after the call, not 20 + 5 s";
}

TEST_F(ChangeVisibility, zeroReleasesForOneReceive)
{
    // C.65: the next receive gets it, the one after gets nothing (default VT on the new receipt).
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    clock.advance(1 * kSecond);
    auto released = broker.changeMessageVisibility(kQueue, h, 0, "test");
    ASSERT_TRUE(released.ok());
    EXPECT_EQ(released->visibleAt, kT0 + 1 * kSecond);
    EXPECT_EQ(counters(), "1/0/0");
    ReceiveResult next = receive(1);
    ASSERT_EQ(next.messages.size(), 1u);
    EXPECT_EQ(next.messages[0].receiveCount, 2u);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(30 * kSecond - 1);
    EXPECT_TRUE(receive(1).messages.empty());
}

TEST_F(ChangeVisibility, changeAppliesToThisReceiptOnly)
{
    // After an extended receipt lapses, the next receive uses the queue default again.
    create(kQueue, {{"VisibilityTimeout", "10"}});
    send("m");
    const std::string h = receiveHandle();
    ASSERT_TRUE(broker.changeMessageVisibility(kQueue, h, 100, "test").ok());
    clock.advance(100 * kSecond);
    ReceiveResult again = receive(1);
    ASSERT_EQ(again.messages.size(), 1u);
    EXPECT_EQ(again.messages[0].visibleAt, kT0 + 110 * kSecond);
}

TEST_F(ChangeVisibility, totalVisibilityIsCappedAtTwelveHoursFromTheReceive)
{
    // C.67
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    clock.advance(10 * kSecond);

    auto tooLong = broker.changeMessageVisibility(kQueue, h, 43'200, "test");
    ASSERT_FALSE(tooLong.ok());
    EXPECT_EQ(tooLong.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(tooLong.error().message, "Value 43200" + kCapReason);
    auto justOver = broker.changeMessageVisibility(kQueue, h, 43'191, "test");
    ASSERT_FALSE(justOver.ok());
    EXPECT_EQ(justOver.error().message, "Value 43191" + kCapReason);

    auto exactlyAtCap = broker.changeMessageVisibility(kQueue, h, 43'190, "test");
    ASSERT_TRUE(exactlyAtCap.ok()) << describe(exactlyAtCap.error());
    EXPECT_EQ(exactlyAtCap->visibleAt, kT0 + 43'200 * kSecond);

    clock.advance(11 * kHour - 10 * kSecond); // t = 11 h; extending did not reset the cap
    auto late = broker.changeMessageVisibility(kQueue, h, 7200, "test");
    ASSERT_FALSE(late.ok());
    EXPECT_EQ(late.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(late.error().message, "Value 7200" + kCapReason);
    auto lateOver = broker.changeMessageVisibility(kQueue, h, 3601, "test");
    ASSERT_FALSE(lateOver.ok());
    EXPECT_EQ(lateOver.error().message, "Value 3601" + kCapReason);
    auto lateAtCap = broker.changeMessageVisibility(kQueue, h, 3600, "test");
    ASSERT_TRUE(lateAtCap.ok()) << describe(lateAtCap.error());
    EXPECT_EQ(lateAtCap->visibleAt, kT0 + 12 * kHour);
    EXPECT_EQ(counters(), "0/1/0") << "failed changes leave the message in flight";
}

TEST_F(ChangeVisibility, capIsMeasuredFromTheLatestReceive)
{
    create(kQueue);
    send("m");
    receiveHandle(10);
    clock.advance(10 * kSecond);
    const std::string h2 = receiveHandle(10); // received again at t = 10 s
    clock.advance(5 * kSecond);
    auto over = broker.changeMessageVisibility(kQueue, h2, 43'196, "test");
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().message, "Value 43196" + kCapReason);
    auto atCap = broker.changeMessageVisibility(kQueue, h2, 43'195, "test");
    ASSERT_TRUE(atCap.ok()) << describe(atCap.error());
    EXPECT_EQ(atCap->visibleAt, kT0 + 10 * kSecond + 43'200 * kSecond);
}

TEST_F(ChangeVisibility, timeoutOutsideZeroTo43200IsInvalidParameterValue)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    for (std::int64_t bad : {-1, 43'201}) {
        auto r = broker.changeMessageVisibility(kQueue, h, bad, "test");
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue) << bad;
    }
}

TEST_F(ChangeVisibility, missingTimeoutIsMissingParameter)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    auto r = broker.changeMessageVisibility(kQueue, h, std::nullopt, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::MissingParameter);
    EXPECT_EQ(r.error().message, "The request must contain the parameter VisibilityTimeout.");
}

TEST_F(ChangeVisibility, garbageHandleIsReceiptHandleIsInvalid)
{
    // C.69
    create(kQueue);
    for (const std::string handle : {"INVALID", "garbage"}) {
        auto r = broker.changeMessageVisibility(kQueue, handle, 60, "test");
        ASSERT_FALSE(r.ok()) << handle;
        EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
        EXPECT_EQ(r.error().message, invalidHandleText(handle));
    }
}

TEST_F(ChangeVisibility, anotherQueuesHandleIsNotValidForThisQueue)
{
    create(kQueue);
    create("other");
    send("m");
    const std::string h = receiveHandle();
    auto r = broker.changeMessageVisibility("other", h, 0, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(r.error().message, foreignHandleText(h));
    EXPECT_EQ(counters(), "0/1/0") << "the message in its own queue is untouched";
}

TEST_F(ChangeVisibility, deletedMessageIsNotAvailableForChange)
{
    // C.71
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    ASSERT_TRUE(broker.changeMessageVisibility(kQueue, h, 42, "test").ok());
    ASSERT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    auto r = broker.changeMessageVisibility(kQueue, h, 42, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, deletedMessageText(h));
}

TEST_F(ChangeVisibility, expiredStandardReceiptSucceedsAndChangesNothing)
{
    // §4.6 / §9.2: 200 recorded; the recommended (default) choice is a no-op.
    create(kQueue);
    send("m");
    const std::string h = receiveHandle(5);
    clock.advance(5 * kSecond);
    auto r = broker.changeMessageVisibility(kQueue, h, 60, "test");
    ASSERT_TRUE(r.ok()) << describe(r.error());
    EXPECT_EQ(counters(), "1/0/0") << "the message stays visible";
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(ChangeVisibility, expiredStandardReceiptRehidesWhenConfigured)
{
    BrokerOptions options;
    options.expiredReceiptChangeRehides = true;
    restart(options);
    create(kQueue);
    send("m");
    const std::string h = receiveHandle(5);
    clock.advance(5 * kSecond);
    auto r = broker.changeMessageVisibility(kQueue, h, 60, "test");
    ASSERT_TRUE(r.ok()) << describe(r.error());
    EXPECT_EQ(r->visibleAt, kT0 + 65 * kSecond);
    EXPECT_EQ(counters(), "0/1/0");
    clock.advance(60 * kSecond - 1);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(1);
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(ChangeVisibility, olderReceiptAfterReReceiveIsANoOp)
{
    create(kQueue);
    send("m");
    const std::string h1 = receiveHandle(5);
    clock.advance(5 * kSecond);
    receiveHandle(10); // h2: visible again at t = 15 s
    clock.advance(1 * kSecond);
    auto extend = broker.changeMessageVisibility(kQueue, h1, 100, "test");
    ASSERT_TRUE(extend.ok()) << describe(extend.error());
    auto release = broker.changeMessageVisibility(kQueue, h1, 0, "test");
    ASSERT_TRUE(release.ok()) << describe(release.error());
    EXPECT_EQ(counters(), "0/1/0") << "the old receipt did not release the message";
    clock.advance(9 * kSecond - 1);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(1);
    EXPECT_EQ(receive(1).messages.size(), 1u) << "the old receipt did not extend the new receive";
}

TEST_F(ChangeVisibility, fifoExpiredReceiptHasExpired)
{
    // §4.6 leaves FIFO expired receipts on Change UNCONFIRMED; the engine answers as Delete does.
    createFifo(kFifo);
    sendFifo("m");
    const std::string h = receiveHandle(1, kFifo);
    clock.advance(1 * kSecond);
    auto r = broker.changeMessageVisibility(kFifo, h, 5, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h));
    EXPECT_EQ(counters(kFifo), "1/0/0");
}

TEST_F(ChangeVisibility, fifoOlderReceiptAfterReReceiveHasExpired)
{
    // §4.6 recommendation for a stale FIFO receipt.
    createFifo(kFifo);
    sendFifo("m");
    const std::string h1 = receiveHandle(1, kFifo);
    clock.advance(1 * kSecond);
    const std::string h2 = receiveHandle(30, kFifo);
    auto r = broker.changeMessageVisibility(kFifo, h1, 0, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h1));
    EXPECT_EQ(counters(kFifo), "0/1/0");
    EXPECT_TRUE(broker.changeMessageVisibility(kFifo, h2, 0, "test").ok());
    EXPECT_EQ(counters(kFifo), "1/0/0");
}

TEST_F(ChangeVisibility, fifoZeroReleasesTheGroup)
{
    createFifo(kFifo);
    sendFifo("a");
    sendFifo("b");
    const std::string h = receiveHandle(30, kFifo);
    EXPECT_TRUE(receive(10, {}, kFifo).messages.empty())
        << "group blocked while its head is in flight";
    ASSERT_TRUE(broker.changeMessageVisibility(kFifo, h, 0, "test").ok());
    EXPECT_EQ(bodiesOf(receive(10, {}, kFifo)), (std::vector<std::string>{"a", "b"}));
}

// ================================================================================================
// §4.4 DeleteMessage (C.69, C.73, C.75, C.77)
// ================================================================================================

TEST_F(DeleteMessage, inFlightReceiptDeletes)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    ASSERT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    EXPECT_EQ(counters(), "0/0/0");
    EXPECT_EQ(stats().deleted, 1);
    clock.advance(30 * kSecond);
    EXPECT_TRUE(receive(1).messages.empty());
}

TEST_F(DeleteMessage, garbageHandleIsReceiptHandleIsInvalid)
{
    create(kQueue);
    for (const std::string handle : {"garbage", "INVALID", "AQEBgarbage"}) {
        auto r = broker.deleteMessage(kQueue, handle, "test");
        ASSERT_FALSE(r.ok()) << handle;
        EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
        EXPECT_EQ(r.error().message, invalidHandleText(handle));
    }
}

TEST_F(DeleteMessage, anotherQueuesHandleIsNotValidForThisQueue)
{
    create(kQueue);
    create("other");
    send("m");
    send("x", {}, {}, "other");
    const std::string h = receiveHandle();
    auto r = broker.deleteMessage("other", h, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(r.error().message, foreignHandleText(h));
    EXPECT_EQ(counters(), "0/1/0");
    EXPECT_EQ(counters("other"), "1/0/0");
}

TEST_F(DeleteMessage, standardExpiredHandleStillDeletes)
{
    // C.73
    create(kQueue, {{"VisibilityTimeout", "1"}});
    send("m");
    const std::string h = receiveHandle();
    clock.advance(2 * kSecond);
    ASSERT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    EXPECT_EQ(counters(), "0/0/0");
    EXPECT_TRUE(receive(1).messages.empty());
}

TEST_F(DeleteMessage, standardOlderReceiptDeletes)
{
    // C.75
    create(kQueue, {{"VisibilityTimeout", "1"}});
    send("m");
    const std::string h1 = receiveHandle();
    clock.advance(1 * kSecond);
    receiveHandle(); // h2
    ASSERT_TRUE(broker.deleteMessage(kQueue, h1, "test").ok());
    EXPECT_EQ(counters(), "0/0/0");
    clock.advance(1 * kSecond);
    EXPECT_TRUE(receive(1).messages.empty());
}

TEST_F(DeleteMessage, strictStaleReceiptModeKeepsMessageOnOlderReceipt)
{
    BrokerOptions options;
    options.staleReceiptDeletes = false;
    restart(options);
    create(kQueue, {{"VisibilityTimeout", "1"}});
    send("m");
    const std::string h1 = receiveHandle();
    clock.advance(1 * kSecond);
    const std::string h2 = receiveHandle();
    ASSERT_TRUE(broker.deleteMessage(kQueue, h1, "test").ok());
    EXPECT_EQ(counters(), "0/1/0") << "the older receipt did not delete";
    clock.advance(1 * kSecond);
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(DeleteMessage, strictStaleReceiptModeKeepsMessageOnExpiredReceipt)
{
    // BrokerOptions::staleReceiptDeletes: "a stale receipt (expired, or older than the latest
    // receive) still deletes the message ... false = strict: such a delete is a no-op."
    BrokerOptions options;
    options.staleReceiptDeletes = false;
    restart(options);
    create(kQueue, {{"VisibilityTimeout", "1"}});
    send("m");
    const std::string h = receiveHandle();
    clock.advance(2 * kSecond);
    ASSERT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    EXPECT_EQ(counters(), "1/0/0") << "an expired receipt is stale: strict mode keeps the message";
}

TEST_F(DeleteMessage, repeatedDeleteSucceeds)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle();
    ASSERT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    ASSERT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    ASSERT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    EXPECT_EQ(stats().deleted, 1);
}

TEST_F(DeleteMessage, deleteAfterRetentionExpirySucceeds)
{
    create(kQueue, {{"MessageRetentionPeriod", "60"}, {"VisibilityTimeout", "10"}});
    send("m");
    const std::string h = receiveHandle();
    clock.advance(60 * kSecond);
    EXPECT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
    EXPECT_EQ(stats().deleted, 0) << "retention removed it, not the delete";
}

TEST_F(DeleteMessage, fifoExpiredHandleHasExpired)
{
    createFifo(kFifo);
    sendFifo("m");
    const std::string h = receiveHandle(1, kFifo);
    clock.advance(1 * kSecond);
    auto r = broker.deleteMessage(kFifo, h, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h));
    EXPECT_EQ(bodiesOf(receive(1, {}, kFifo)), (std::vector<std::string>{"m"})) << "not deleted";
}

TEST_F(DeleteMessage, fifoHandleDeletesUntilItsVisibilityEnds)
{
    createFifo(kFifo);
    sendFifo("m");
    const std::string h = receiveHandle(1, kFifo);
    clock.advance(1 * kSecond - 1);
    ASSERT_TRUE(broker.deleteMessage(kFifo, h, "test").ok());
    EXPECT_EQ(counters(kFifo), "0/0/0");
}

TEST_F(DeleteMessage, fifoDeleteAfterExtensionSucceeds)
{
    // C.77
    createFifo(kFifo);
    sendFifo("m");
    const std::string h = receiveHandle(1, kFifo);
    ASSERT_TRUE(broker.changeMessageVisibility(kFifo, h, 5, "test").ok());
    clock.advance(1500);
    ASSERT_TRUE(broker.deleteMessage(kFifo, h, "test").ok());
    EXPECT_TRUE(receive(1, {}, kFifo).messages.empty());
    clock.advance(10 * kSecond);
    EXPECT_TRUE(receive(1, {}, kFifo).messages.empty());
}

TEST_F(DeleteMessage, fifoDeleteAfterExtensionLapsedHasExpired)
{
    createFifo(kFifo);
    sendFifo("m");
    const std::string h = receiveHandle(1, kFifo);
    ASSERT_TRUE(broker.changeMessageVisibility(kFifo, h, 5, "test").ok());
    clock.advance(5 * kSecond);
    auto r = broker.deleteMessage(kFifo, h, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, expiredHandleText(h));
}

TEST_F(DeleteMessage, fifoZeroVisibilityReceiptCannotDelete)
{
    createFifo(kFifo);
    sendFifo("m");
    const std::string h = receiveHandle(0, kFifo);
    auto r = broker.deleteMessage(kFifo, h, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h));
    EXPECT_EQ(counters(kFifo), "1/0/0");
}

TEST_F(DeleteMessage, fifoOlderReceiptAfterReReceiveHasExpired)
{
    createFifo(kFifo);
    sendFifo("m");
    const std::string h1 = receiveHandle(1, kFifo);
    clock.advance(1 * kSecond);
    const std::string h2 = receiveHandle(30, kFifo);
    auto r = broker.deleteMessage(kFifo, h1, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, expiredHandleText(h1));
    EXPECT_EQ(counters(kFifo), "0/1/0");
    EXPECT_TRUE(broker.deleteMessage(kFifo, h2, "test").ok());
    EXPECT_EQ(counters(kFifo), "0/0/0");
}

TEST_F(DeleteMessage, strictMessageNotInflightRejectsExpiredReceipt)
{
    // §9.1: never seen on AWS; BrokerOptions::strictMessageNotInflight opts in.
    BrokerOptions options;
    options.strictMessageNotInflight = true;
    restart(options);
    create(kQueue);
    send("m");
    send("n");
    const std::string h = receiveHandle(5);
    const std::string inFlight = receiveHandle(60);
    clock.advance(5 * kSecond);
    auto del = broker.deleteMessage(kQueue, h, "test");
    ASSERT_FALSE(del.ok());
    EXPECT_EQ(del.error().code, ErrorCode::MessageNotInflight);
    auto change = broker.changeMessageVisibility(kQueue, h, 10, "test");
    ASSERT_FALSE(change.ok());
    EXPECT_EQ(change.error().code, ErrorCode::MessageNotInflight);
    EXPECT_EQ(counters(), "1/1/0");
    EXPECT_TRUE(broker.deleteMessage(kQueue, inFlight, "test").ok())
        << "an in-flight receipt still deletes";
    EXPECT_EQ(counters(), "1/0/0");
}

TEST_F(DeleteMessage, withoutStrictModeExpiredReceiptIsNeverMessageNotInflight)
{
    create(kQueue);
    send("m");
    const std::string h = receiveHandle(5);
    clock.advance(5 * kSecond);
    EXPECT_TRUE(broker.changeMessageVisibility(kQueue, h, 10, "test").ok());
    EXPECT_TRUE(broker.deleteMessage(kQueue, h, "test").ok());
}

// ================================================================================================
// §4.5, §4.7 batches
// ================================================================================================

TEST_F(DeleteMessageBatch, reportsPartialFailuresPerEntry)
{
    create(kQueue);
    send("a");
    send("b");
    const std::string ha = receiveHandle();
    const std::string hb = receiveHandle();
    auto r = broker.deleteMessageBatch(
        kQueue, {{"a", ha, {}}, {"bad", "garbage", {}}, {"b", hb, {}}}, "test");
    ASSERT_TRUE(r.ok()) << describe(r.error());
    ASSERT_EQ(r->successful.size(), 2u);
    EXPECT_EQ(r->successful[0].id, "a");
    EXPECT_EQ(r->successful[1].id, "b");
    ASSERT_EQ(r->failed.size(), 1u);
    EXPECT_EQ(r->failed[0].id, "bad");
    EXPECT_EQ(r->failed[0].error.code, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(r->failed[0].error.message, invalidHandleText("garbage"));
    EXPECT_TRUE(r->failed[0].senderFault);
    EXPECT_EQ(r->succeededInOrder, (std::vector<bool>{true, false, true}));
    EXPECT_EQ(counters(), "0/0/0");
}

TEST_F(DeleteMessageBatch, fifoExpiredEntryFailsAlone)
{
    createFifo(kFifo);
    sendFifo("a", "g1");
    sendFifo("b", "g2");
    const std::string ha = receiveHandle(1, kFifo);
    clock.advance(1 * kSecond);
    const std::string hb = receiveHandle(30, kFifo);
    ASSERT_NE(ha, hb);
    auto r = broker.deleteMessageBatch(kFifo, {{"x", ha, {}}, {"y", hb, {}}}, "test");
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->failed.size(), 1u);
    EXPECT_EQ(r->failed[0].id, "x");
    EXPECT_EQ(r->failed[0].error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r->failed[0].error.message, expiredHandleText(ha));
    EXPECT_TRUE(r->failed[0].senderFault);
    ASSERT_EQ(r->successful.size(), 1u);
    EXPECT_EQ(r->successful[0].id, "y");
}

TEST_F(ChangeVisibilityBatch, reportsPartialFailuresPerEntry)
{
    create(kQueue);
    send("a");
    send("b");
    send("c");
    const std::string ha = receiveHandle();
    const std::string hb = receiveHandle();
    const std::string hc = receiveHandle();
    ASSERT_TRUE(broker.deleteMessage(kQueue, hc, "test").ok());
    auto r = broker.changeMessageVisibilityBatch(
        kQueue, {{"a", ha, 0}, {"bad", "garbage", 10}, {"b", hb, std::nullopt}, {"c", hc, 10}},
        "test");
    ASSERT_TRUE(r.ok()) << describe(r.error());
    ASSERT_EQ(r->successful.size(), 1u);
    EXPECT_EQ(r->successful[0].id, "a");
    ASSERT_EQ(r->failed.size(), 3u);
    EXPECT_EQ(r->failed[0].id, "bad");
    EXPECT_EQ(r->failed[0].error.code, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(r->failed[0].error.message, invalidHandleText("garbage"));
    EXPECT_EQ(r->failed[1].id, "b");
    EXPECT_EQ(r->failed[1].error.code, ErrorCode::MissingParameter);
    EXPECT_EQ(r->failed[2].id, "c");
    EXPECT_EQ(r->failed[2].error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r->failed[2].error.message, deletedMessageText(hc));
    for (const auto& f : r->failed)
        EXPECT_TRUE(f.senderFault) << f.id;
    EXPECT_EQ(r->succeededInOrder, (std::vector<bool>{true, false, false, false}));
    EXPECT_EQ(counters(), "1/1/0") << "a released, b still in flight";
}

TEST_F(ChangeVisibilityBatch, capAppliesPerEntry)
{
    create(kQueue);
    send("a");
    const std::string h = receiveHandle();
    clock.advance(10 * kSecond);
    auto r = broker.changeMessageVisibilityBatch(kQueue, {{"over", h, 43'200}, {"ok", h, 43'190}},
                                                 "test");
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->failed.size(), 1u);
    EXPECT_EQ(r->failed[0].id, "over");
    EXPECT_EQ(r->failed[0].error.message, "Value 43200" + kCapReason);
    ASSERT_EQ(r->successful.size(), 1u);
    EXPECT_EQ(r->successful[0].result.visibleAt, kT0 + 43'200 * kSecond);
}

// Whole-request batch rules shared by both receipt batches (§4.2 via §4.5/§4.7).
class ReceiptBatchRules : public ReceiveTest, public ::testing::WithParamInterface<bool> {
protected:
    void SetUp() override
    {
        create(kQueue);
        send("m");
        handle = receiveHandle();
    }

    // true: ChangeMessageVisibilityBatch (VT 0), false: DeleteMessageBatch.
    std::optional<Error> run(const std::vector<std::string>& ids)
    {
        std::vector<BatchReceiptEntry> entries;
        for (const std::string& id : ids)
            entries.push_back({id, handle, 0});
        if (GetParam()) {
            auto r = broker.changeMessageVisibilityBatch(kQueue, entries, "test");
            return r.ok() ? std::nullopt : std::optional<Error>(r.error());
        }
        auto r = broker.deleteMessageBatch(kQueue, entries, "test");
        return r.ok() ? std::nullopt : std::optional<Error>(r.error());
    }

    static std::vector<std::string> ids(int n)
    {
        std::vector<std::string> out;
        for (int i = 0; i < n; ++i)
            out.push_back("e" + std::to_string(i));
        return out;
    }

    std::string handle;
};

TEST_P(ReceiptBatchRules, elevenEntriesAreTooMany)
{
    auto e = run(ids(11));
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->code, ErrorCode::TooManyEntriesInBatchRequest);
    EXPECT_EQ(e->message, "Maximum number of entries per request are 10. You have sent 11.");
    EXPECT_EQ(counters(), "0/1/0") << "the whole request failed";
}

TEST_P(ReceiptBatchRules, tenEntriesAreAccepted)
{
    EXPECT_FALSE(run(ids(10)).has_value());
}

TEST_P(ReceiptBatchRules, noEntriesIsEmptyBatchRequest)
{
    auto e = run({});
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->code, ErrorCode::EmptyBatchRequest);
}

TEST_P(ReceiptBatchRules, repeatedIdsAreNotDistinct)
{
    auto e = run({"a", "b", "a"});
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->code, ErrorCode::BatchEntryIdsNotDistinct);
    EXPECT_EQ(counters(), "0/1/0");
}

TEST_P(ReceiptBatchRules, malformedIdIsInvalidBatchEntryId)
{
    for (const std::string& bad :
         std::vector<std::string>{"has space", std::string(81, 'x'), "", "a.b"}) {
        auto e = run({"ok", bad});
        ASSERT_TRUE(e.has_value()) << bad;
        EXPECT_EQ(e->code, ErrorCode::InvalidBatchEntryId) << bad;
        EXPECT_EQ(
            e->message,
            "A batch entry id can only contain alphanumeric characters, hyphens and underscores. "
            "It can be at most 80 letters long.");
    }
    EXPECT_EQ(counters(), "0/1/0");
    EXPECT_FALSE(run({std::string(80, 'x'), "A-z_09"}).has_value());
}

INSTANTIATE_TEST_SUITE_P(Batches, ReceiptBatchRules, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "changeMessageVisibilityBatch"
                                               : "deleteMessageBatch";
                         });

} // namespace
} // namespace inflight::engine
