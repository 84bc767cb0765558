// ReceiveMessage through Broker on standard queues: spec §1.1 (approximate counters), §4.3
// (validation, which messages a receive selects, what it does to each, the attributes it returns),
// §5.7 (retention) and the in-flight limit (§1.3 OverLimit), §8 C.53–C.63, C.81 and C.83. Long
// polls are in long_poll_test.cpp, visibility changes and deletes in visibility_delete_test.cpp.
// Time is a ManualClock; nothing sleeps.
#include "engine/support/receive_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

std::set<std::string> keysOf(const StringMap& map)
{
    std::set<std::string> out;
    for (const auto& [k, v] : map)
        out.insert(k);
    return out;
}

std::set<std::string> keysOf(const MessageAttributes& map)
{
    std::set<std::string> out;
    for (const auto& [k, v] : map)
        out.insert(k);
    return out;
}

class ReceiveValidation : public ReceiveTest {};
class ReceiveSelection : public ReceiveTest {};
class ReceiveEffects : public ReceiveTest {};
class ReceiveAttributes : public ReceiveTest {};
class Retention : public ReceiveTest {};
class ApproximateCounters : public ReceiveTest {};

// ================================================================================================
// §4.3 validation (C.53)
// ================================================================================================

TEST_F(ReceiveValidation, maxNumberOfMessagesMustBeBetweenOneAndTen)
{
    create(kQueue);
    send("m");
    for (std::int64_t bad : {0, 11, -1}) {
        auto r = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .maxMessages = bad});
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue) << bad;
        EXPECT_EQ(r.error().message,
                  "Value " + std::to_string(bad)
                      + " for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 "
                        "and 10, if provided.");
    }
    EXPECT_EQ(counters(), "1/0/0") << "a rejected receive must not touch the message";
    for (std::int64_t good : {1, 10}) {
        auto r = broker.receiveMessage(
            ReceiveRequest{.queue = kQueue, .maxMessages = good, .visibilityTimeout = 0});
        EXPECT_TRUE(r.ok()) << good;
    }
}

TEST_F(ReceiveValidation, waitTimeSecondsMustBeBetweenZeroAndTwenty)
{
    create(kQueue);
    for (std::int64_t bad : {-1, 21}) {
        auto r = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = bad});
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
        EXPECT_EQ(
            r.error().message,
            "Value " + std::to_string(bad)
                + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, "
                  "if provided.");
    }
    for (std::int64_t good : {0, 20}) {
        auto r = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = good});
        EXPECT_TRUE(r.ok()) << good;
    }
}

TEST_F(ReceiveValidation, longPollWithBadWaitTimeIsAnsweredAtOnceWithTheError)
{
    create(kQueue);
    auto [id, answer] = longPoll(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 21});
    EXPECT_EQ(id, 0u);
    ASSERT_EQ(answer->calls, 1);
    ASSERT_FALSE(answer->result->ok());
    EXPECT_EQ(answer->result->error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

TEST_F(ReceiveValidation, visibilityTimeoutMustBeBetweenZeroAnd43200)
{
    create(kQueue);
    send("m");
    for (std::int64_t bad : {-1, 43'201}) {
        auto r = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .visibilityTimeout = bad});
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue)
            << bad; // text UNCONFIRMED (§9.4)
    }
    EXPECT_EQ(counters(), "1/0/0");
    auto zero = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .visibilityTimeout = 0});
    ASSERT_TRUE(zero.ok());
    EXPECT_EQ(zero->messages.size(), 1u);
    auto max = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .visibilityTimeout = 43'200});
    ASSERT_TRUE(max.ok());
    ASSERT_EQ(max->messages.size(), 1u);
    EXPECT_EQ(max->messages[0].visibleAt, kT0 + 43'200 * kSecond);
}

TEST_F(ReceiveValidation, unknownQueueIsQueueDoesNotExist)
{
    auto r = broker.receiveMessage(ReceiveRequest{.queue = "nope"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::QueueDoesNotExist);
    EXPECT_EQ(r.error().message, "The specified queue does not exist.");
}

// ================================================================================================
// §4.3 selection (C.55)
// ================================================================================================

TEST_F(ReceiveSelection, emptyQueueReturnsNoMessagesOnShortAndLongPoll)
{
    create(kQueue);
    EXPECT_TRUE(receive(10).messages.empty());
    EXPECT_TRUE(receive(waitFor(20, 10)).messages.empty());
}

TEST_F(ReceiveSelection, neverReturnsMoreThanMaxNumberOfMessages)
{
    create(kQueue);
    for (int i = 0; i < 15; ++i)
        send("m" + std::to_string(i));
    EXPECT_EQ(receive(ReceiveRequest{.queue = kQueue}).messages.size(), 1u) << "default Max is 1";
    EXPECT_EQ(receive(10).messages.size(), 10u);
    EXPECT_EQ(receive(3).messages.size(), 3u);
    EXPECT_EQ(receive(10).messages.size(), 1u);
    EXPECT_EQ(receive(10).messages.size(), 0u);
}

TEST_F(ReceiveSelection, returnsAllAvailableUpToMaxImmediately)
{
    create(kQueue);
    send("a");
    send("b");
    send("c");
    EXPECT_EQ(bodiesOf(receive(10)), (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(ReceiveSelection, returnsOldestAvailableFirst)
{
    create(kQueue);
    for (const char* body : {"a", "b", "c", "d"})
        send(body);
    EXPECT_EQ(bodiesOf(receive(2)), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(bodiesOf(receive(2)), (std::vector<std::string>{"c", "d"}));
}

TEST_F(ReceiveSelection, returnsExpiredOlderMessageBeforeNewerOne)
{
    create(kQueue);
    send("old");
    EXPECT_EQ(bodiesOf(receive(1, 5)), (std::vector<std::string>{"old"}));
    clock.advance(1 * kSecond);
    send("new");
    clock.advance(4 * kSecond); // "old" visible again, without advance(): lazy truth
    EXPECT_EQ(bodiesOf(receive(1)), (std::vector<std::string>{"old"}));
    EXPECT_EQ(bodiesOf(receive(1)), (std::vector<std::string>{"new"}));
}

TEST_F(ReceiveSelection, expiredOlderMessageComesFirstInOneResponse)
{
    create(kQueue);
    send("old");
    receive(1, 5);
    send("new");
    clock.advance(5 * kSecond);
    EXPECT_EQ(bodiesOf(receive(10)), (std::vector<std::string>{"old", "new"}));
}

TEST_F(ReceiveSelection, neverReturnsDelayedMessagesUntilTheDelayEnds)
{
    create(kQueue);
    send("late", 5);
    send("now");
    EXPECT_EQ(bodiesOf(receive(10, 0)), (std::vector<std::string>{"now"}));
    clock.advance(5 * kSecond - 1);
    EXPECT_EQ(bodiesOf(receive(10, 0)), (std::vector<std::string>{"now"}));
    clock.advance(1);
    EXPECT_EQ(bodiesOf(receive(10, 0)), (std::vector<std::string>{"late", "now"}));
}

TEST_F(ReceiveSelection, neverReturnsInFlightMessages)
{
    create(kQueue);
    send("a");
    send("b");
    EXPECT_EQ(bodiesOf(receive(1)), (std::vector<std::string>{"a"}));
    EXPECT_EQ(bodiesOf(receive(10)), (std::vector<std::string>{"b"}));
    EXPECT_TRUE(receive(10).messages.empty());
}

// ================================================================================================
// §4.3 effects per returned message (C.59, C.61)
// ================================================================================================

TEST_F(ReceiveEffects, receiveHidesMessageUntilVisibilityTimeout)
{
    create(kQueue);
    send("m");
    ReceiveResult first = receive(1, 10);
    ASSERT_EQ(first.messages.size(), 1u);
    EXPECT_EQ(first.messages[0].visibleAt, kT0 + 10 * kSecond);
    clock.advance(10 * kSecond - 1);
    EXPECT_TRUE(receive(10).messages.empty()) << "1 ms before the deadline: still hidden";
    clock.advance(1);
    EXPECT_EQ(bodiesOf(receive(10)), (std::vector<std::string>{"m"})) << "at the deadline: visible";
}

TEST_F(ReceiveEffects, queueVisibilityTimeoutAppliesWhenReceiveGivesNone)
{
    create(kQueue, {{"VisibilityTimeout", "7"}});
    send("m");
    ReceiveResult first = receive(1);
    ASSERT_EQ(first.messages.size(), 1u);
    EXPECT_EQ(first.messages[0].visibleAt, kT0 + 7 * kSecond);
    clock.advance(7 * kSecond - 1);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(1);
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(ReceiveEffects, eachReceiveGivesNewReceiptHandle)
{
    // C.59: second receive returns nothing; after 30 s the message comes back with a different
    // handle and ApproximateReceiveCount=2.
    create(kQueue);
    send("m");
    ReceiveResult first = receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(first.messages.size(), 1u);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(30 * kSecond);
    ReceiveResult second
        = receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(second.messages.size(), 1u);
    EXPECT_EQ(second.messages[0].messageId, first.messages[0].messageId);
    EXPECT_NE(second.messages[0].receiptHandle, first.messages[0].receiptHandle);
    EXPECT_EQ(second.messages[0].systemAttributes["ApproximateReceiveCount"], "2");
    for (const ReceiveResult* r : {&first, &second}) {
        EXPECT_FALSE(r->messages[0].receiptHandle.empty());
        EXPECT_LE(r->messages[0].receiptHandle.size(), 1024u); // §1.2
    }
}

TEST_F(ReceiveEffects, receiveCountGrowsAndFirstReceiveTimestampStays)
{
    // C.61
    create(kQueue);
    send("m");
    clock.advance(1 * kSecond);
    const ReceiveRequest all{.queue = kQueue, .systemAttributeNames = {"All"}};
    ReceiveResult first = receive(all);
    ASSERT_EQ(first.messages.size(), 1u);
    StringMap a1 = first.messages[0].systemAttributes;
    EXPECT_EQ(first.messages[0].receiveCount, 1u);
    EXPECT_EQ(a1["ApproximateReceiveCount"], "1");
    EXPECT_EQ(a1["SentTimestamp"], std::to_string(kT0));
    EXPECT_EQ(a1["ApproximateFirstReceiveTimestamp"], std::to_string(kT0 + 1 * kSecond));
    EXPECT_EQ(first.messages[0].sentAt, kT0);

    clock.advance(30 * kSecond);
    ReceiveResult second = receive(all);
    ASSERT_EQ(second.messages.size(), 1u);
    StringMap a2 = second.messages[0].systemAttributes;
    EXPECT_EQ(second.messages[0].receiveCount, 2u);
    EXPECT_EQ(a2["ApproximateReceiveCount"], "2");
    EXPECT_EQ(a2["ApproximateFirstReceiveTimestamp"], std::to_string(kT0 + 1 * kSecond));
    EXPECT_EQ(a2["SentTimestamp"], std::to_string(kT0));
}

TEST_F(ReceiveEffects, zeroVisibilityLeavesMessageReceivableAtOnce)
{
    create(kQueue);
    send("m");
    ReceiveResult first = receive(10, 0);
    EXPECT_EQ(bodiesOf(first), (std::vector<std::string>{"m"})) << "never twice in one response";
    EXPECT_EQ(counters(), "1/0/0");
    ReceiveResult second = receive(10, 0);
    ASSERT_EQ(second.messages.size(), 1u);
    EXPECT_EQ(second.messages[0].receiveCount, 2u);
    EXPECT_NE(second.messages[0].receiptHandle, first.messages[0].receiptHandle);
}

TEST_F(ReceiveEffects, zeroVisibilityNeverReturnsAMessageTwiceInOneResponse)
{
    create(kQueue);
    send("a");
    send("b");
    EXPECT_EQ(bodiesOf(receive(10, 0)), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(bodiesOf(receive(10, 0)), (std::vector<std::string>{"a", "b"}));
}

TEST_F(ReceiveEffects, queueVisibilityTimeoutZeroLeavesMessageAvailable)
{
    create(kQueue, {{"VisibilityTimeout", "0"}});
    send("m");
    EXPECT_EQ(receive(1).messages.size(), 1u);
    EXPECT_EQ(counters(), "1/0/0");
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(ReceiveEffects, receiveVisibilityIsNotRemembered)
{
    // The value given on receive applies to that receive only (§4.3, §5.8).
    create(kQueue);
    send("m");
    receive(1, 5);
    clock.advance(5 * kSecond);
    ReceiveResult second = receive(1); // queue default 30 s
    ASSERT_EQ(second.messages.size(), 1u);
    EXPECT_EQ(second.messages[0].visibleAt, kT0 + 35 * kSecond);
    clock.advance(30 * kSecond - 1);
    EXPECT_TRUE(receive(1).messages.empty());
    clock.advance(1);
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

// ================================================================================================
// §4.3 output attribute filtering (C.63, §2.6)
// ================================================================================================

TEST_F(ReceiveAttributes, noSystemAttributesUnlessAsked)
{
    create(kQueue);
    send("m");
    ReceiveResult r = receive(1);
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_TRUE(r.messages[0].systemAttributes.empty());
}

TEST_F(ReceiveAttributes, singleSystemAttributeNameReturnsJustThatOne)
{
    create(kQueue);
    send("m");
    ReceiveResult r
        = receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"SenderId"}});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(keysOf(r.messages[0].systemAttributes), (std::set<std::string>{"SenderId"}));
    EXPECT_FALSE(r.messages[0].systemAttributes["SenderId"].empty());
}

TEST_F(ReceiveAttributes, allOnStandardQueueReturnsExactlyTheFourAttributes)
{
    create(kQueue);
    send("m");
    ReceiveResult r = receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(keysOf(r.messages[0].systemAttributes),
              (std::set<std::string>{"ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount",
                                     "SenderId", "SentTimestamp"}));
}

TEST_F(ReceiveAttributes, allIncludesAwsTraceHeaderWhenSent)
{
    create(kQueue);
    const std::string trace
        = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    SendMessageRequest send;
    send.queue = kQueue;
    send.body = "m";
    send.systemAttributes = {{"AWSTraceHeader", stringAttribute(trace)}};
    ASSERT_TRUE(broker.sendMessage(send).ok());
    ReceiveResult r = receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(keysOf(r.messages[0].systemAttributes),
              (std::set<std::string>{"AWSTraceHeader", "ApproximateFirstReceiveTimestamp",
                                     "ApproximateReceiveCount", "SenderId", "SentTimestamp"}));
    EXPECT_EQ(r.messages[0].systemAttributes["AWSTraceHeader"], trace);
    EXPECT_TRUE(r.messages[0].attributes.empty()) << "system attributes are not message attributes";
}

TEST_F(ReceiveAttributes, systemAttributeNameListsAreUnited)
{
    create(kQueue);
    send("m");
    ReceiveResult two
        = receive(ReceiveRequest{.queue = kQueue,
                                 .visibilityTimeout = 0,
                                 .systemAttributeNames = {"SenderId", "SentTimestamp"}});
    ASSERT_EQ(two.messages.size(), 1u);
    EXPECT_EQ(keysOf(two.messages[0].systemAttributes),
              (std::set<std::string>{"SenderId", "SentTimestamp"}));

    ReceiveResult broad = receive(ReceiveRequest{
        .queue = kQueue, .visibilityTimeout = 0, .systemAttributeNames = {"SenderId", "All"}});
    ASSERT_EQ(broad.messages.size(), 1u);
    EXPECT_EQ(keysOf(broad.messages[0].systemAttributes),
              (std::set<std::string>{"ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount",
                                     "SenderId", "SentTimestamp"}))
        << "All wins (AWS returned the broader set)";
}

class MessageAttributeFilter : public ReceiveTest {
protected:
    void SetUp() override
    {
        create(kQueue);
        send("m", {},
             {{"Foo", stringAttribute("1")},
              {"Foo.Bar", stringAttribute("2")},
              {"FooBar", stringAttribute("3")},
              {"Bar", stringAttribute("4")}});
    }

    std::set<std::string> returnedFor(std::vector<std::string> names)
    {
        ReceiveResult r = receive(ReceiveRequest{
            .queue = kQueue, .visibilityTimeout = 0, .messageAttributeNames = std::move(names)});
        if (r.messages.size() != 1) {
            ADD_FAILURE() << "expected one message";
            return {"<none>"};
        }
        return keysOf(r.messages[0].attributes);
    }
};

TEST_F(MessageAttributeFilter, exactNameReturnsThatAttribute)
{
    EXPECT_EQ(returnedFor({"Bar"}), (std::set<std::string>{"Bar"}));
    EXPECT_EQ(returnedFor({"Foo"}), (std::set<std::string>{"Foo"}));
    EXPECT_EQ(returnedFor({"Bar", "Foo.Bar"}), (std::set<std::string>{"Bar", "Foo.Bar"}));
}

TEST_F(MessageAttributeFilter, allDotStarAndStarReturnEveryAttribute)
{
    const std::set<std::string> every{"Bar", "Foo", "Foo.Bar", "FooBar"};
    EXPECT_EQ(returnedFor({"All"}), every);
    EXPECT_EQ(returnedFor({".*"}), every);
    EXPECT_EQ(returnedFor({"*"}), every);
}

TEST_F(MessageAttributeFilter, prefixPatternReturnsNamesStartingWithThePrefix)
{
    EXPECT_EQ(returnedFor({"Foo.*"}), (std::set<std::string>{"Foo", "Foo.Bar", "FooBar"}));
    EXPECT_EQ(returnedFor({"Ba.*"}), (std::set<std::string>{"Bar"}));
}

TEST_F(MessageAttributeFilter, nonMatchingNamesAreIgnored)
{
    EXPECT_EQ(returnedFor({"Nope"}), (std::set<std::string>{}));
    EXPECT_EQ(returnedFor({"Nope", "Bar", "Zed.*"}), (std::set<std::string>{"Bar"}));
}

TEST_F(MessageAttributeFilter, emptyListReturnsNoneAndNoDigest)
{
    ReceiveResult r = receive(ReceiveRequest{.queue = kQueue, .visibilityTimeout = 0});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_TRUE(r.messages[0].attributes.empty());
    EXPECT_EQ(r.messages[0].md5OfMessageAttributes(), "");
}

TEST_F(ReceiveAttributes, digestCoversOnlyTheReturnedAttributes)
{
    // §2.6 vectors recorded against AWS.
    create(kQueue);
    send("m", {},
         {{"Help.Me", stringAttribute("Me")},
          {"Hello", stringAttribute("There")},
          {"General", stringAttribute("Kenobi")}});
    auto digestFor = [&](std::vector<std::string> names) {
        ReceiveResult r = receive(ReceiveRequest{
            .queue = kQueue, .visibilityTimeout = 0, .messageAttributeNames = std::move(names)});
        return r.messages.size() == 1 ? r.messages[0].md5OfMessageAttributes()
                                      : std::string("<no message>");
    };
    EXPECT_EQ(digestFor({"All"}), "4c360f3fdafd970e05fae2f149d997f5");
    EXPECT_EQ(digestFor({"Hello", "General"}), "fca026605781cb4126a1e9044df24232");
    EXPECT_EQ(digestFor({"Hel.*"}), "83fee93c1bcd8b9a5a923ffacdc636c7");
    EXPECT_EQ(digestFor({}), "");
}

// ================================================================================================
// §5.7 retention
// ================================================================================================

TEST_F(Retention, messageExpiresWhenItsAgeReachesTheRetentionPeriod)
{
    create(kQueue, {{"MessageRetentionPeriod", "60"}});
    send("m");
    clock.advance(60 * kSecond - 1);
    EXPECT_EQ(counters(), "1/0/0") << "1 ms before: present";
    clock.advance(1);
    EXPECT_EQ(counters(), "0/0/0") << "at age == MessageRetentionPeriod: gone";
    EXPECT_TRUE(receive(10).messages.empty());
    EXPECT_EQ(stats().retentionExpired, 1);
}

TEST_F(Retention, messageJustBeforeRetentionIsStillReceivable)
{
    create(kQueue, {{"MessageRetentionPeriod", "60"}});
    send("m");
    clock.advance(60 * kSecond - 1);
    ReceiveResult r = receive(1);
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].expiresAt, kT0 + 60 * kSecond);
}

TEST_F(Retention, inFlightMessageExpiresToo)
{
    create(kQueue, {{"MessageRetentionPeriod", "60"}});
    send("m");
    clock.advance(10 * kSecond);
    const std::string h = receiveHandle(3600);
    clock.advance(50 * kSecond - 1);
    EXPECT_EQ(counters(), "0/1/0");
    clock.advance(1);
    EXPECT_EQ(counters(), "0/0/0");
    EXPECT_EQ(stats().retentionExpired, 1);
    EXPECT_TRUE(broker.deleteMessage(kQueue, h, "test").ok())
        << "deleting it afterwards with its handle: 200";
}

TEST_F(Retention, ageCountsFromTheOriginalSendNotTheDelay)
{
    create(kQueue, {{"MessageRetentionPeriod", "60"}});
    send("m", 30);
    clock.advance(60 * kSecond);
    EXPECT_EQ(counters(), "0/0/0");
}

// ================================================================================================
// In-flight limit (C.81)
// ================================================================================================

class InFlightLimit : public ReceiveTest {
protected:
    static BrokerOptions limited()
    {
        BrokerOptions options;
        options.inFlightLimitStandard = 3;
        return options;
    }

    void SetUp() override
    {
        create(kQueue);
        for (int i = 0; i < 5; ++i)
            send("m" + std::to_string(i));
        for (int i = 0; i < 3; ++i)
            handles.push_back(receiveHandle());
    }

    InFlightLimit() : ReceiveTest(limited()) {}

    std::vector<std::string> handles;
};

TEST_F(InFlightLimit, shortPollAtTheLimitIsOverLimit)
{
    EXPECT_EQ(counters(), "2/3/0");
    auto r = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::OverLimit);
    EXPECT_EQ(counters(), "2/3/0");
}

TEST_F(InFlightLimit, shortPollBelowTheLimitWorks)
{
    ASSERT_TRUE(broker.deleteMessage(kQueue, handles[0], "test").ok());
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(InFlightLimit, longPollAtTheLimitEndsEmptyAtTheDeadline)
{
    auto sync = broker.receiveMessage(waitFor(1));
    ASSERT_TRUE(sync.ok()) << describe(sync.error());
    EXPECT_TRUE(sync->messages.empty());

    auto [id, answer] = longPoll(waitFor(1));
    EXPECT_NE(id, 0u);
    EXPECT_EQ(answer->calls, 0);
    advance(1 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    advance(1);
    EXPECT_TRUE(answer->emptyOk());
}

TEST_F(InFlightLimit, receiveWorksAgainAfterADelete)
{
    ASSERT_TRUE(broker.deleteMessage(kQueue, handles[1], "test").ok());
    EXPECT_EQ(receive(1).messages.size(), 1u) << "room for one more";
    auto r = broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::OverLimit);
}

TEST_F(InFlightLimit, asyncReceiveWithoutWaitIsAnsweredWithOverLimit)
{
    auto [id, answer] = longPoll(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    EXPECT_EQ(id, 0u);
    ASSERT_EQ(answer->calls, 1);
    ASSERT_FALSE(answer->result->ok());
    EXPECT_EQ(answer->result->error().code, ErrorCode::OverLimit);
}

TEST_F(InFlightLimit, visibilityExpiryMakesRoomAgain)
{
    clock.advance(30 * kSecond);
    EXPECT_EQ(counters(), "5/0/0");
    EXPECT_EQ(receive(1).messages.size(), 1u);
}

TEST_F(InFlightLimit, waitingLongPollIsServedWhenADeleteMakesRoom)
{
    auto [id, answer] = longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    ASSERT_TRUE(broker.deleteMessage(kQueue, handles[2], "test").ok());
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies().size(), 1u);
}

// ================================================================================================
// §1.1 approximate counters (C.83)
// ================================================================================================

TEST_F(ApproximateCounters, followReceivesAndVisibilityExpiry)
{
    create(kQueue);
    for (int i = 0; i < 6; ++i)
        send("m" + std::to_string(i));
    EXPECT_EQ(counters(), "6/0/0");
    receive(1);
    EXPECT_EQ(counters(), "5/1/0");
    clock.advance(30 * kSecond);
    EXPECT_EQ(counters(), "6/0/0");
}

TEST_F(ApproximateCounters, countDelayedMessagesSeparately)
{
    create(kQueue);
    send("now");
    send("late", 10);
    EXPECT_EQ(counters(), "1/0/1");
    receive(1);
    EXPECT_EQ(counters(), "0/1/1");
    clock.advance(10 * kSecond);
    EXPECT_EQ(counters(), "1/1/0");
}

TEST_F(ApproximateCounters, deleteAndReleaseUpdateCounters)
{
    create(kQueue);
    send("a");
    send("b");
    const std::string ha = receiveHandle();
    const std::string hb = receiveHandle();
    EXPECT_EQ(counters(), "0/2/0");
    ASSERT_TRUE(broker.deleteMessage(kQueue, ha, "test").ok());
    EXPECT_EQ(counters(), "0/1/0");
    ASSERT_TRUE(broker.changeMessageVisibility(kQueue, hb, 0, "test").ok());
    EXPECT_EQ(counters(), "1/0/0");
}

} // namespace
} // namespace inflight::engine
