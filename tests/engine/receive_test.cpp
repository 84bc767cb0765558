// ReceiveMessage, visibility, DeleteMessage and ChangeMessageVisibility through Broker on standard
// queues (plus FIFO's receipt-expiry rules): spec §1.1, §4.3–§4.7, §5.7, §5.8, §7, §8 C.53–C.83,
// §9 items 1–3. Time is a ManualClock; nothing sleeps.
#include "engine/broker.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace inflight::engine {
namespace {

constexpr Millis kT0 = 1'700'000'000'000;
constexpr Millis kHour = 3600 * kSecond;

const std::string kQueue = "q";
const std::string kFifo = "q.fifo";
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

MessageAttributeValue text(std::string value)
{
    return MessageAttributeValue{"String", std::move(value), {}};
}

std::vector<std::string> bodiesOf(const ReceiveResult& r)
{
    std::vector<std::string> out;
    for (const ReceivedMessage& m : r.messages)
        out.push_back(m.body);
    return out;
}

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

// What a long poll's callback saw.
struct Answer {
    int calls = 0;
    std::optional<Result<ReceiveResult>> result;

    bool emptyOk() const { return calls == 1 && result->ok() && (*result)->messages.empty(); }
    std::vector<std::string> bodies() const
    {
        if (!result || !result->ok())
            return {"<no result>"};
        return bodiesOf(result->value());
    }
};

// A clock, a broker and the setup steps the tests share. Setup failures are recorded, not fatal,
// so one broken step does not hide the other checks.
struct Env {
    ManualClock clock;
    Broker broker;

    explicit Env(BrokerOptions options = {}) : broker(clock, std::move(options)) {}

    void createQueue(const std::string& name, StringMap attributes = {})
    {
        if (name.ends_with(".fifo"))
            attributes["FifoQueue"] = "true";
        auto r = broker.createQueue(CreateQueueRequest{.name = name, .attributes = attributes});
        if (!r)
            ADD_FAILURE() << "createQueue " << name << ": " << describe(r.error());
    }

    std::string send(const std::string& body, std::optional<std::int64_t> delay = {},
                     MessageAttributes attributes = {}, const std::string& queue = kQueue)
    {
        SendMessageRequest r;
        r.queue = queue;
        r.body = body;
        r.delaySeconds = delay;
        r.attributes = std::move(attributes);
        auto sent = broker.sendMessage(r);
        if (!sent) {
            ADD_FAILURE() << "send " << body << ": " << describe(sent.error());
            return {};
        }
        return sent->messageId;
    }

    std::string sendFifo(const std::string& body, const std::string& group = "g")
    {
        SendMessageRequest r;
        r.queue = kFifo;
        r.body = body;
        r.groupId = group;
        r.deduplicationId = body;
        auto sent = broker.sendMessage(r);
        if (!sent) {
            ADD_FAILURE() << "send " << body << ": " << describe(sent.error());
            return {};
        }
        return sent->messageId;
    }

    ReceiveResult receive(const ReceiveRequest& request)
    {
        auto r = broker.receiveMessage(request);
        if (!r) {
            ADD_FAILURE() << "receive: " << describe(r.error());
            return {};
        }
        return std::move(r).value();
    }

    // Short poll of `max` messages with visibility `vt` (queue default when absent).
    ReceiveResult receive(std::int64_t max = 1, std::optional<std::int64_t> vt = {},
                          const std::string& queue = kQueue)
    {
        return receive(ReceiveRequest{
            .queue = queue, .maxMessages = max, .visibilityTimeout = vt, .waitTimeSeconds = 0});
    }

    // The receipt of the single message a receive returns ("" after recording a failure).
    std::string receiveHandle(std::optional<std::int64_t> vt = {},
                              const std::string& queue = kQueue)
    {
        ReceiveResult r = receive(1, vt, queue);
        if (r.messages.size() != 1) {
            ADD_FAILURE() << "expected one message, got " << r.messages.size();
            return {};
        }
        return r.messages[0].receiptHandle;
    }

    // "available/notVisible/delayed" as GetQueueAttributes reports them.
    std::string counters(const std::string& queue = kQueue)
    {
        auto a = broker.getQueueAttributes(queue,
                                           {"ApproximateNumberOfMessages",
                                            "ApproximateNumberOfMessagesNotVisible",
                                            "ApproximateNumberOfMessagesDelayed"});
        if (!a)
            return "error: " + describe(a.error());
        return (*a)["ApproximateNumberOfMessages"] + "/"
            + (*a)["ApproximateNumberOfMessagesNotVisible"] + "/"
            + (*a)["ApproximateNumberOfMessagesDelayed"];
    }

    QueueStats stats(const std::string& queue = kQueue)
    {
        auto s = broker.queueStats(queue);
        if (!s) {
            ADD_FAILURE() << describe(s.error());
            return {};
        }
        return *s;
    }

    // Moves the clock and lets the broker act on what became due (long polls, expiries).
    void advance(Millis ms)
    {
        clock.advance(ms);
        broker.advance();
    }

    // Starts a long poll whose answer lands in the returned Answer.
    std::pair<WaitId, std::shared_ptr<Answer>> longPoll(ReceiveRequest request)
    {
        auto answer = std::make_shared<Answer>();
        const WaitId id = broker.receiveMessageAsync(request, [answer](Result<ReceiveResult> r) {
            ++answer->calls;
            answer->result.emplace(std::move(r));
        });
        return {id, answer};
    }
};

ReceiveRequest waitFor(std::int64_t seconds, std::int64_t max = 1,
                       const std::string& queue = kQueue)
{
    return ReceiveRequest{.queue = queue, .maxMessages = max, .waitTimeSeconds = seconds};
}

// ================================================================================================
// §4.3 validation (C.53)
// ================================================================================================

TEST(ReceiveValidation, maxNumberOfMessagesMustBeBetweenOneAndTen)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    for (std::int64_t bad : {0, 11, -1}) {
        auto r = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .maxMessages = bad});
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue) << bad;
        EXPECT_EQ(r.error().message,
                  "Value " + std::to_string(bad)
                      + " for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 "
                        "and 10, if provided.");
    }
    EXPECT_EQ(env.counters(), "1/0/0") << "a rejected receive must not touch the message";
    for (std::int64_t good : {1, 10}) {
        auto r = env.broker.receiveMessage(
            ReceiveRequest{.queue = kQueue, .maxMessages = good, .visibilityTimeout = 0});
        EXPECT_TRUE(r.ok()) << good;
    }
}

TEST(ReceiveValidation, waitTimeSecondsMustBeBetweenZeroAndTwenty)
{
    Env env;
    env.createQueue(kQueue);
    for (std::int64_t bad : {-1, 21}) {
        auto r = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = bad});
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
        EXPECT_EQ(
            r.error().message,
            "Value " + std::to_string(bad)
                + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, "
                  "if provided.");
    }
    for (std::int64_t good : {0, 20}) {
        auto r
            = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = good});
        EXPECT_TRUE(r.ok()) << good;
    }
}

TEST(ReceiveValidation, longPollWithBadWaitTimeIsAnsweredAtOnceWithTheError)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 21});
    EXPECT_EQ(id, 0u);
    ASSERT_EQ(answer->calls, 1);
    ASSERT_FALSE(answer->result->ok());
    EXPECT_EQ(answer->result->error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
}

TEST(ReceiveValidation, visibilityTimeoutMustBeBetweenZeroAnd43200)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    for (std::int64_t bad : {-1, 43'201}) {
        auto r
            = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .visibilityTimeout = bad});
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue)
            << bad; // text UNCONFIRMED (§9.4)
    }
    EXPECT_EQ(env.counters(), "1/0/0");
    auto zero = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .visibilityTimeout = 0});
    ASSERT_TRUE(zero.ok());
    EXPECT_EQ(zero->messages.size(), 1u);
    auto max
        = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .visibilityTimeout = 43'200});
    ASSERT_TRUE(max.ok());
    ASSERT_EQ(max->messages.size(), 1u);
    EXPECT_EQ(max->messages[0].visibleAt, kT0 + 43'200 * kSecond);
}

TEST(ReceiveValidation, unknownQueueIsQueueDoesNotExist)
{
    Env env;
    auto r = env.broker.receiveMessage(ReceiveRequest{.queue = "nope"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::QueueDoesNotExist);
    EXPECT_EQ(r.error().message, "The specified queue does not exist.");
}

// ================================================================================================
// §4.3 selection (C.55)
// ================================================================================================

TEST(ReceiveSelection, emptyQueueReturnsNoMessagesOnShortAndLongPoll)
{
    Env env;
    env.createQueue(kQueue);
    EXPECT_TRUE(env.receive(10).messages.empty());
    EXPECT_TRUE(env.receive(waitFor(20, 10)).messages.empty());
}

TEST(ReceiveSelection, neverReturnsMoreThanMaxNumberOfMessages)
{
    Env env;
    env.createQueue(kQueue);
    for (int i = 0; i < 15; ++i)
        env.send("m" + std::to_string(i));
    EXPECT_EQ(env.receive(ReceiveRequest{.queue = kQueue}).messages.size(), 1u)
        << "default Max is 1";
    EXPECT_EQ(env.receive(10).messages.size(), 10u);
    EXPECT_EQ(env.receive(3).messages.size(), 3u);
    EXPECT_EQ(env.receive(10).messages.size(), 1u);
    EXPECT_EQ(env.receive(10).messages.size(), 0u);
}

TEST(ReceiveSelection, returnsAllAvailableUpToMaxImmediately)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    env.send("b");
    env.send("c");
    EXPECT_EQ(bodiesOf(env.receive(10)), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ReceiveSelection, returnsOldestAvailableFirst)
{
    Env env;
    env.createQueue(kQueue);
    for (const char* body : {"a", "b", "c", "d"})
        env.send(body);
    EXPECT_EQ(bodiesOf(env.receive(2)), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(bodiesOf(env.receive(2)), (std::vector<std::string>{"c", "d"}));
}

TEST(ReceiveSelection, returnsExpiredOlderMessageBeforeNewerOne)
{
    Env env;
    env.createQueue(kQueue);
    env.send("old");
    EXPECT_EQ(bodiesOf(env.receive(1, 5)), (std::vector<std::string>{"old"}));
    env.clock.advance(1 * kSecond);
    env.send("new");
    env.clock.advance(4 * kSecond); // "old" visible again, without advance(): lazy truth
    EXPECT_EQ(bodiesOf(env.receive(1)), (std::vector<std::string>{"old"}));
    EXPECT_EQ(bodiesOf(env.receive(1)), (std::vector<std::string>{"new"}));
}

TEST(ReceiveSelection, expiredOlderMessageComesFirstInOneResponse)
{
    Env env;
    env.createQueue(kQueue);
    env.send("old");
    env.receive(1, 5);
    env.send("new");
    env.clock.advance(5 * kSecond);
    EXPECT_EQ(bodiesOf(env.receive(10)), (std::vector<std::string>{"old", "new"}));
}

TEST(ReceiveSelection, neverReturnsDelayedMessagesUntilTheDelayEnds)
{
    Env env;
    env.createQueue(kQueue);
    env.send("late", 5);
    env.send("now");
    EXPECT_EQ(bodiesOf(env.receive(10, 0)), (std::vector<std::string>{"now"}));
    env.clock.advance(5 * kSecond - 1);
    EXPECT_EQ(bodiesOf(env.receive(10, 0)), (std::vector<std::string>{"now"}));
    env.clock.advance(1);
    EXPECT_EQ(bodiesOf(env.receive(10, 0)), (std::vector<std::string>{"late", "now"}));
}

TEST(ReceiveSelection, neverReturnsInFlightMessages)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    env.send("b");
    EXPECT_EQ(bodiesOf(env.receive(1)), (std::vector<std::string>{"a"}));
    EXPECT_EQ(bodiesOf(env.receive(10)), (std::vector<std::string>{"b"}));
    EXPECT_TRUE(env.receive(10).messages.empty());
}

// ================================================================================================
// §4.3 effects per returned message (C.59, C.61)
// ================================================================================================

TEST(ReceiveEffects, receiveHidesMessageUntilVisibilityTimeout)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    ReceiveResult first = env.receive(1, 10);
    ASSERT_EQ(first.messages.size(), 1u);
    EXPECT_EQ(first.messages[0].visibleAt, kT0 + 10 * kSecond);
    env.clock.advance(10 * kSecond - 1);
    EXPECT_TRUE(env.receive(10).messages.empty()) << "1 ms before the deadline: still hidden";
    env.clock.advance(1);
    EXPECT_EQ(bodiesOf(env.receive(10)), (std::vector<std::string>{"m"}))
        << "at the deadline: visible";
}

TEST(ReceiveEffects, queueVisibilityTimeoutAppliesWhenReceiveGivesNone)
{
    Env env;
    env.createQueue(kQueue, {{"VisibilityTimeout", "7"}});
    env.send("m");
    ReceiveResult first = env.receive(1);
    ASSERT_EQ(first.messages.size(), 1u);
    EXPECT_EQ(first.messages[0].visibleAt, kT0 + 7 * kSecond);
    env.clock.advance(7 * kSecond - 1);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(1);
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST(ReceiveEffects, eachReceiveGivesNewReceiptHandle)
{
    // C.59: second receive returns nothing; after 30 s the message comes back with a different
    // handle and ApproximateReceiveCount=2.
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    ReceiveResult first
        = env.receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(first.messages.size(), 1u);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(30 * kSecond);
    ReceiveResult second
        = env.receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(second.messages.size(), 1u);
    EXPECT_EQ(second.messages[0].messageId, first.messages[0].messageId);
    EXPECT_NE(second.messages[0].receiptHandle, first.messages[0].receiptHandle);
    EXPECT_EQ(second.messages[0].systemAttributes["ApproximateReceiveCount"], "2");
    for (const ReceiveResult* r : {&first, &second}) {
        EXPECT_FALSE(r->messages[0].receiptHandle.empty());
        EXPECT_LE(r->messages[0].receiptHandle.size(), 1024u); // §1.2
    }
}

TEST(ReceiveEffects, receiveCountGrowsAndFirstReceiveTimestampStays)
{
    // C.61
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    env.clock.advance(1 * kSecond);
    const ReceiveRequest all{.queue = kQueue, .systemAttributeNames = {"All"}};
    ReceiveResult first = env.receive(all);
    ASSERT_EQ(first.messages.size(), 1u);
    StringMap a1 = first.messages[0].systemAttributes;
    EXPECT_EQ(first.messages[0].receiveCount, 1u);
    EXPECT_EQ(a1["ApproximateReceiveCount"], "1");
    EXPECT_EQ(a1["SentTimestamp"], std::to_string(kT0));
    EXPECT_EQ(a1["ApproximateFirstReceiveTimestamp"], std::to_string(kT0 + 1 * kSecond));
    EXPECT_EQ(first.messages[0].sentAt, kT0);

    env.clock.advance(30 * kSecond);
    ReceiveResult second = env.receive(all);
    ASSERT_EQ(second.messages.size(), 1u);
    StringMap a2 = second.messages[0].systemAttributes;
    EXPECT_EQ(second.messages[0].receiveCount, 2u);
    EXPECT_EQ(a2["ApproximateReceiveCount"], "2");
    EXPECT_EQ(a2["ApproximateFirstReceiveTimestamp"], std::to_string(kT0 + 1 * kSecond));
    EXPECT_EQ(a2["SentTimestamp"], std::to_string(kT0));
}

TEST(ReceiveEffects, zeroVisibilityLeavesMessageReceivableAtOnce)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    ReceiveResult first = env.receive(10, 0);
    EXPECT_EQ(bodiesOf(first), (std::vector<std::string>{"m"})) << "never twice in one response";
    EXPECT_EQ(env.counters(), "1/0/0");
    ReceiveResult second = env.receive(10, 0);
    ASSERT_EQ(second.messages.size(), 1u);
    EXPECT_EQ(second.messages[0].receiveCount, 2u);
    EXPECT_NE(second.messages[0].receiptHandle, first.messages[0].receiptHandle);
}

TEST(ReceiveEffects, zeroVisibilityNeverReturnsAMessageTwiceInOneResponse)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    env.send("b");
    EXPECT_EQ(bodiesOf(env.receive(10, 0)), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(bodiesOf(env.receive(10, 0)), (std::vector<std::string>{"a", "b"}));
}

TEST(ReceiveEffects, queueVisibilityTimeoutZeroLeavesMessageAvailable)
{
    Env env;
    env.createQueue(kQueue, {{"VisibilityTimeout", "0"}});
    env.send("m");
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
    EXPECT_EQ(env.counters(), "1/0/0");
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST(ReceiveEffects, receiveVisibilityIsNotRemembered)
{
    // The value given on receive applies to that receive only (§4.3, §5.8).
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    env.receive(1, 5);
    env.clock.advance(5 * kSecond);
    ReceiveResult second = env.receive(1); // queue default 30 s
    ASSERT_EQ(second.messages.size(), 1u);
    EXPECT_EQ(second.messages[0].visibleAt, kT0 + 35 * kSecond);
    env.clock.advance(30 * kSecond - 1);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(1);
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

// ================================================================================================
// §4.3 output attribute filtering (C.63, §2.6)
// ================================================================================================

TEST(ReceiveAttributes, noSystemAttributesUnlessAsked)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    ReceiveResult r = env.receive(1);
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_TRUE(r.messages[0].systemAttributes.empty());
}

TEST(ReceiveAttributes, singleSystemAttributeNameReturnsJustThatOne)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    ReceiveResult r
        = env.receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"SenderId"}});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(keysOf(r.messages[0].systemAttributes), (std::set<std::string>{"SenderId"}));
    EXPECT_FALSE(r.messages[0].systemAttributes["SenderId"].empty());
}

TEST(ReceiveAttributes, allOnStandardQueueReturnsExactlyTheFourAttributes)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    ReceiveResult r = env.receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(keysOf(r.messages[0].systemAttributes),
              (std::set<std::string>{"ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount",
                                     "SenderId", "SentTimestamp"}));
}

TEST(ReceiveAttributes, allIncludesAwsTraceHeaderWhenSent)
{
    Env env;
    env.createQueue(kQueue);
    const std::string trace
        = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    SendMessageRequest send;
    send.queue = kQueue;
    send.body = "m";
    send.systemAttributes = {{"AWSTraceHeader", text(trace)}};
    ASSERT_TRUE(env.broker.sendMessage(send).ok());
    ReceiveResult r = env.receive(ReceiveRequest{.queue = kQueue, .systemAttributeNames = {"All"}});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(keysOf(r.messages[0].systemAttributes),
              (std::set<std::string>{"AWSTraceHeader", "ApproximateFirstReceiveTimestamp",
                                     "ApproximateReceiveCount", "SenderId", "SentTimestamp"}));
    EXPECT_EQ(r.messages[0].systemAttributes["AWSTraceHeader"], trace);
    EXPECT_TRUE(r.messages[0].attributes.empty()) << "system attributes are not message attributes";
}

TEST(ReceiveAttributes, systemAttributeNameListsAreUnited)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    ReceiveResult two
        = env.receive(ReceiveRequest{.queue = kQueue,
                                     .visibilityTimeout = 0,
                                     .systemAttributeNames = {"SenderId", "SentTimestamp"}});
    ASSERT_EQ(two.messages.size(), 1u);
    EXPECT_EQ(keysOf(two.messages[0].systemAttributes),
              (std::set<std::string>{"SenderId", "SentTimestamp"}));

    ReceiveResult broad = env.receive(ReceiveRequest{
        .queue = kQueue, .visibilityTimeout = 0, .systemAttributeNames = {"SenderId", "All"}});
    ASSERT_EQ(broad.messages.size(), 1u);
    EXPECT_EQ(keysOf(broad.messages[0].systemAttributes),
              (std::set<std::string>{"ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount",
                                     "SenderId", "SentTimestamp"}))
        << "All wins (AWS returned the broader set)";
}

class MessageAttributeFilter : public ::testing::Test {
protected:
    void SetUp() override
    {
        env.createQueue(kQueue);
        env.send("m", {},
                 {{"Foo", text("1")},
                  {"Foo.Bar", text("2")},
                  {"FooBar", text("3")},
                  {"Bar", text("4")}});
    }

    std::set<std::string> returnedFor(std::vector<std::string> names)
    {
        ReceiveResult r = env.receive(ReceiveRequest{
            .queue = kQueue, .visibilityTimeout = 0, .messageAttributeNames = std::move(names)});
        if (r.messages.size() != 1) {
            ADD_FAILURE() << "expected one message";
            return {"<none>"};
        }
        return keysOf(r.messages[0].attributes);
    }

    Env env;
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
    ReceiveResult r = env.receive(ReceiveRequest{.queue = kQueue, .visibilityTimeout = 0});
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_TRUE(r.messages[0].attributes.empty());
    EXPECT_EQ(r.messages[0].md5OfMessageAttributes(), "");
}

TEST(ReceiveAttributes, digestCoversOnlyTheReturnedAttributes)
{
    // §2.6 vectors recorded against AWS.
    Env env;
    env.createQueue(kQueue);
    env.send("m", {},
             {{"Help.Me", text("Me")}, {"Hello", text("There")}, {"General", text("Kenobi")}});
    auto digestFor = [&](std::vector<std::string> names) {
        ReceiveResult r = env.receive(ReceiveRequest{
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
// §4.6 ChangeMessageVisibility (C.65–C.71)
// ================================================================================================

TEST(ChangeVisibility, newTimeoutCountsFromTheCall)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle(30);
    env.clock.advance(20 * kSecond);
    auto changed = env.broker.changeMessageVisibility(kQueue, h, 15);
    ASSERT_TRUE(changed.ok()) << describe(changed.error());
    EXPECT_EQ(changed->visibleAt, kT0 + 35 * kSecond);
    env.clock.advance(15 * kSecond - 1);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(1);
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST(ChangeVisibility, newTimeoutReplacesTheRemainingTime)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle(30);
    env.clock.advance(10 * kSecond);
    ASSERT_TRUE(env.broker.changeMessageVisibility(kQueue, h, 5).ok());
    env.clock.advance(5 * kSecond - 1);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(1);
    EXPECT_EQ(env.receive(1).messages.size(), 1u) << "visible 5 s after the call, not 20 + 5 s";
}

TEST(ChangeVisibility, zeroReleasesForOneReceive)
{
    // C.65: the next receive gets it, the one after gets nothing (default VT on the new receipt).
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    env.clock.advance(1 * kSecond);
    auto released = env.broker.changeMessageVisibility(kQueue, h, 0);
    ASSERT_TRUE(released.ok());
    EXPECT_EQ(released->visibleAt, kT0 + 1 * kSecond);
    EXPECT_EQ(env.counters(), "1/0/0");
    ReceiveResult next = env.receive(1);
    ASSERT_EQ(next.messages.size(), 1u);
    EXPECT_EQ(next.messages[0].receiveCount, 2u);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(30 * kSecond - 1);
    EXPECT_TRUE(env.receive(1).messages.empty());
}

TEST(ChangeVisibility, changeAppliesToThisReceiptOnly)
{
    // After an extended receipt lapses, the next receive uses the queue default again.
    Env env;
    env.createQueue(kQueue, {{"VisibilityTimeout", "10"}});
    env.send("m");
    const std::string h = env.receiveHandle();
    ASSERT_TRUE(env.broker.changeMessageVisibility(kQueue, h, 100).ok());
    env.clock.advance(100 * kSecond);
    ReceiveResult again = env.receive(1);
    ASSERT_EQ(again.messages.size(), 1u);
    EXPECT_EQ(again.messages[0].visibleAt, kT0 + 110 * kSecond);
}

TEST(ChangeVisibility, totalVisibilityIsCappedAtTwelveHoursFromTheReceive)
{
    // C.67
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    env.clock.advance(10 * kSecond);

    auto tooLong = env.broker.changeMessageVisibility(kQueue, h, 43'200);
    ASSERT_FALSE(tooLong.ok());
    EXPECT_EQ(tooLong.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(tooLong.error().message, "Value 43200" + kCapReason);
    auto justOver = env.broker.changeMessageVisibility(kQueue, h, 43'191);
    ASSERT_FALSE(justOver.ok());
    EXPECT_EQ(justOver.error().message, "Value 43191" + kCapReason);

    auto exactlyAtCap = env.broker.changeMessageVisibility(kQueue, h, 43'190);
    ASSERT_TRUE(exactlyAtCap.ok()) << describe(exactlyAtCap.error());
    EXPECT_EQ(exactlyAtCap->visibleAt, kT0 + 43'200 * kSecond);

    env.clock.advance(11 * kHour - 10 * kSecond); // t = 11 h; extending did not reset the cap
    auto late = env.broker.changeMessageVisibility(kQueue, h, 7200);
    ASSERT_FALSE(late.ok());
    EXPECT_EQ(late.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(late.error().message, "Value 7200" + kCapReason);
    auto lateOver = env.broker.changeMessageVisibility(kQueue, h, 3601);
    ASSERT_FALSE(lateOver.ok());
    EXPECT_EQ(lateOver.error().message, "Value 3601" + kCapReason);
    auto lateAtCap = env.broker.changeMessageVisibility(kQueue, h, 3600);
    ASSERT_TRUE(lateAtCap.ok()) << describe(lateAtCap.error());
    EXPECT_EQ(lateAtCap->visibleAt, kT0 + 12 * kHour);
    EXPECT_EQ(env.counters(), "0/1/0") << "failed changes leave the message in flight";
}

TEST(ChangeVisibility, capIsMeasuredFromTheLatestReceive)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    env.receiveHandle(10);
    env.clock.advance(10 * kSecond);
    const std::string h2 = env.receiveHandle(10); // received again at t = 10 s
    env.clock.advance(5 * kSecond);
    auto over = env.broker.changeMessageVisibility(kQueue, h2, 43'196);
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().message, "Value 43196" + kCapReason);
    auto atCap = env.broker.changeMessageVisibility(kQueue, h2, 43'195);
    ASSERT_TRUE(atCap.ok()) << describe(atCap.error());
    EXPECT_EQ(atCap->visibleAt, kT0 + 10 * kSecond + 43'200 * kSecond);
}

TEST(ChangeVisibility, timeoutOutsideZeroTo43200IsInvalidParameterValue)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    for (std::int64_t bad : {-1, 43'201}) {
        auto r = env.broker.changeMessageVisibility(kQueue, h, bad);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue) << bad;
    }
}

TEST(ChangeVisibility, missingTimeoutIsMissingParameter)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    auto r = env.broker.changeMessageVisibility(kQueue, h, std::nullopt);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::MissingParameter);
    EXPECT_EQ(r.error().message, "The request must contain the parameter VisibilityTimeout.");
}

TEST(ChangeVisibility, garbageHandleIsReceiptHandleIsInvalid)
{
    // C.69
    Env env;
    env.createQueue(kQueue);
    for (const std::string handle : {"INVALID", "garbage"}) {
        auto r = env.broker.changeMessageVisibility(kQueue, handle, 60);
        ASSERT_FALSE(r.ok()) << handle;
        EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
        EXPECT_EQ(r.error().message, invalidHandleText(handle));
    }
}

TEST(ChangeVisibility, anotherQueuesHandleIsNotValidForThisQueue)
{
    Env env;
    env.createQueue(kQueue);
    env.createQueue("other");
    env.send("m");
    const std::string h = env.receiveHandle();
    auto r = env.broker.changeMessageVisibility("other", h, 0);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(r.error().message, foreignHandleText(h));
    EXPECT_EQ(env.counters(), "0/1/0") << "the message in its own queue is untouched";
}

TEST(ChangeVisibility, deletedMessageIsNotAvailableForChange)
{
    // C.71
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    ASSERT_TRUE(env.broker.changeMessageVisibility(kQueue, h, 42).ok());
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    auto r = env.broker.changeMessageVisibility(kQueue, h, 42);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, deletedMessageText(h));
}

TEST(ChangeVisibility, expiredStandardReceiptSucceedsAndChangesNothing)
{
    // §4.6 / §9.2: 200 recorded; the recommended (default) choice is a no-op.
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle(5);
    env.clock.advance(5 * kSecond);
    auto r = env.broker.changeMessageVisibility(kQueue, h, 60);
    ASSERT_TRUE(r.ok()) << describe(r.error());
    EXPECT_EQ(env.counters(), "1/0/0") << "the message stays visible";
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST(ChangeVisibility, expiredStandardReceiptRehidesWhenConfigured)
{
    BrokerOptions options;
    options.expiredReceiptChangeRehides = true;
    Env env(options);
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle(5);
    env.clock.advance(5 * kSecond);
    auto r = env.broker.changeMessageVisibility(kQueue, h, 60);
    ASSERT_TRUE(r.ok()) << describe(r.error());
    EXPECT_EQ(r->visibleAt, kT0 + 65 * kSecond);
    EXPECT_EQ(env.counters(), "0/1/0");
    env.clock.advance(60 * kSecond - 1);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(1);
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST(ChangeVisibility, olderReceiptAfterReReceiveIsANoOp)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h1 = env.receiveHandle(5);
    env.clock.advance(5 * kSecond);
    env.receiveHandle(10); // h2: visible again at t = 15 s
    env.clock.advance(1 * kSecond);
    auto extend = env.broker.changeMessageVisibility(kQueue, h1, 100);
    ASSERT_TRUE(extend.ok()) << describe(extend.error());
    auto release = env.broker.changeMessageVisibility(kQueue, h1, 0);
    ASSERT_TRUE(release.ok()) << describe(release.error());
    EXPECT_EQ(env.counters(), "0/1/0") << "the old receipt did not release the message";
    env.clock.advance(9 * kSecond - 1);
    EXPECT_TRUE(env.receive(1).messages.empty());
    env.clock.advance(1);
    EXPECT_EQ(env.receive(1).messages.size(), 1u)
        << "the old receipt did not extend the new receive";
}

TEST(ChangeVisibility, fifoExpiredReceiptHasExpired)
{
    // §4.6 leaves FIFO expired receipts on Change UNCONFIRMED; the engine answers as Delete does.
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h = env.receiveHandle(1, kFifo);
    env.clock.advance(1 * kSecond);
    auto r = env.broker.changeMessageVisibility(kFifo, h, 5);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h));
    EXPECT_EQ(env.counters(kFifo), "1/0/0");
}

TEST(ChangeVisibility, fifoOlderReceiptAfterReReceiveHasExpired)
{
    // §4.6 recommendation for a stale FIFO receipt.
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h1 = env.receiveHandle(1, kFifo);
    env.clock.advance(1 * kSecond);
    const std::string h2 = env.receiveHandle(30, kFifo);
    auto r = env.broker.changeMessageVisibility(kFifo, h1, 0);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h1));
    EXPECT_EQ(env.counters(kFifo), "0/1/0");
    EXPECT_TRUE(env.broker.changeMessageVisibility(kFifo, h2, 0).ok());
    EXPECT_EQ(env.counters(kFifo), "1/0/0");
}

TEST(ChangeVisibility, fifoZeroReleasesTheGroup)
{
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("a");
    env.sendFifo("b");
    const std::string h = env.receiveHandle(30, kFifo);
    EXPECT_TRUE(env.receive(10, {}, kFifo).messages.empty())
        << "group blocked while its head is in flight";
    ASSERT_TRUE(env.broker.changeMessageVisibility(kFifo, h, 0).ok());
    EXPECT_EQ(bodiesOf(env.receive(10, {}, kFifo)), (std::vector<std::string>{"a", "b"}));
}

// ================================================================================================
// §4.4 DeleteMessage (C.69, C.73, C.75, C.77)
// ================================================================================================

TEST(DeleteMessage, inFlightReceiptDeletes)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    EXPECT_EQ(env.counters(), "0/0/0");
    EXPECT_EQ(env.stats().deleted, 1);
    env.clock.advance(30 * kSecond);
    EXPECT_TRUE(env.receive(1).messages.empty());
}

TEST(DeleteMessage, garbageHandleIsReceiptHandleIsInvalid)
{
    Env env;
    env.createQueue(kQueue);
    for (const std::string handle : {"garbage", "INVALID", "AQEBgarbage"}) {
        auto r = env.broker.deleteMessage(kQueue, handle);
        ASSERT_FALSE(r.ok()) << handle;
        EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
        EXPECT_EQ(r.error().message, invalidHandleText(handle));
    }
}

TEST(DeleteMessage, anotherQueuesHandleIsNotValidForThisQueue)
{
    Env env;
    env.createQueue(kQueue);
    env.createQueue("other");
    env.send("m");
    env.send("x", {}, {}, "other");
    const std::string h = env.receiveHandle();
    auto r = env.broker.deleteMessage("other", h);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(r.error().message, foreignHandleText(h));
    EXPECT_EQ(env.counters(), "0/1/0");
    EXPECT_EQ(env.counters("other"), "1/0/0");
}

TEST(DeleteMessage, standardExpiredHandleStillDeletes)
{
    // C.73
    Env env;
    env.createQueue(kQueue, {{"VisibilityTimeout", "1"}});
    env.send("m");
    const std::string h = env.receiveHandle();
    env.clock.advance(2 * kSecond);
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    EXPECT_EQ(env.counters(), "0/0/0");
    EXPECT_TRUE(env.receive(1).messages.empty());
}

TEST(DeleteMessage, standardOlderReceiptDeletes)
{
    // C.75
    Env env;
    env.createQueue(kQueue, {{"VisibilityTimeout", "1"}});
    env.send("m");
    const std::string h1 = env.receiveHandle();
    env.clock.advance(1 * kSecond);
    env.receiveHandle(); // h2
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h1).ok());
    EXPECT_EQ(env.counters(), "0/0/0");
    env.clock.advance(1 * kSecond);
    EXPECT_TRUE(env.receive(1).messages.empty());
}

TEST(DeleteMessage, strictStaleReceiptModeKeepsMessageOnOlderReceipt)
{
    BrokerOptions options;
    options.staleReceiptDeletes = false;
    Env env(options);
    env.createQueue(kQueue, {{"VisibilityTimeout", "1"}});
    env.send("m");
    const std::string h1 = env.receiveHandle();
    env.clock.advance(1 * kSecond);
    const std::string h2 = env.receiveHandle();
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h1).ok());
    EXPECT_EQ(env.counters(), "0/1/0") << "the older receipt did not delete";
    env.clock.advance(1 * kSecond);
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST(DeleteMessage, strictStaleReceiptModeKeepsMessageOnExpiredReceipt)
{
    // BrokerOptions::staleReceiptDeletes: "a stale receipt (expired, or older than the latest
    // receive) still deletes the message ... false = strict: such a delete is a no-op."
    BrokerOptions options;
    options.staleReceiptDeletes = false;
    Env env(options);
    env.createQueue(kQueue, {{"VisibilityTimeout", "1"}});
    env.send("m");
    const std::string h = env.receiveHandle();
    env.clock.advance(2 * kSecond);
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    EXPECT_EQ(env.counters(), "1/0/0")
        << "an expired receipt is stale: strict mode keeps the message";
}

TEST(DeleteMessage, repeatedDeleteSucceeds)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    EXPECT_EQ(env.stats().deleted, 1);
}

TEST(DeleteMessage, deleteAfterRetentionExpirySucceeds)
{
    Env env;
    env.createQueue(kQueue, {{"MessageRetentionPeriod", "60"}, {"VisibilityTimeout", "10"}});
    env.send("m");
    const std::string h = env.receiveHandle();
    env.clock.advance(60 * kSecond);
    EXPECT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
    EXPECT_EQ(env.stats().deleted, 0) << "retention removed it, not the delete";
}

TEST(DeleteMessage, fifoExpiredHandleHasExpired)
{
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h = env.receiveHandle(1, kFifo);
    env.clock.advance(1 * kSecond);
    auto r = env.broker.deleteMessage(kFifo, h);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h));
    EXPECT_EQ(bodiesOf(env.receive(1, {}, kFifo)), (std::vector<std::string>{"m"}))
        << "not deleted";
}

TEST(DeleteMessage, fifoHandleDeletesUntilItsVisibilityEnds)
{
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h = env.receiveHandle(1, kFifo);
    env.clock.advance(1 * kSecond - 1);
    ASSERT_TRUE(env.broker.deleteMessage(kFifo, h).ok());
    EXPECT_EQ(env.counters(kFifo), "0/0/0");
}

TEST(DeleteMessage, fifoDeleteAfterExtensionSucceeds)
{
    // C.77
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h = env.receiveHandle(1, kFifo);
    ASSERT_TRUE(env.broker.changeMessageVisibility(kFifo, h, 5).ok());
    env.clock.advance(1500);
    ASSERT_TRUE(env.broker.deleteMessage(kFifo, h).ok());
    EXPECT_TRUE(env.receive(1, {}, kFifo).messages.empty());
    env.clock.advance(10 * kSecond);
    EXPECT_TRUE(env.receive(1, {}, kFifo).messages.empty());
}

TEST(DeleteMessage, fifoDeleteAfterExtensionLapsedHasExpired)
{
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h = env.receiveHandle(1, kFifo);
    ASSERT_TRUE(env.broker.changeMessageVisibility(kFifo, h, 5).ok());
    env.clock.advance(5 * kSecond);
    auto r = env.broker.deleteMessage(kFifo, h);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, expiredHandleText(h));
}

TEST(DeleteMessage, fifoZeroVisibilityReceiptCannotDelete)
{
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h = env.receiveHandle(0, kFifo);
    auto r = env.broker.deleteMessage(kFifo, h);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, expiredHandleText(h));
    EXPECT_EQ(env.counters(kFifo), "1/0/0");
}

TEST(DeleteMessage, fifoOlderReceiptAfterReReceiveHasExpired)
{
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("m");
    const std::string h1 = env.receiveHandle(1, kFifo);
    env.clock.advance(1 * kSecond);
    const std::string h2 = env.receiveHandle(30, kFifo);
    auto r = env.broker.deleteMessage(kFifo, h1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, expiredHandleText(h1));
    EXPECT_EQ(env.counters(kFifo), "0/1/0");
    EXPECT_TRUE(env.broker.deleteMessage(kFifo, h2).ok());
    EXPECT_EQ(env.counters(kFifo), "0/0/0");
}

TEST(DeleteMessage, strictMessageNotInflightRejectsExpiredReceipt)
{
    // §9.1: never seen on AWS; BrokerOptions::strictMessageNotInflight opts in.
    BrokerOptions options;
    options.strictMessageNotInflight = true;
    Env env(options);
    env.createQueue(kQueue);
    env.send("m");
    env.send("n");
    const std::string h = env.receiveHandle(5);
    const std::string inFlight = env.receiveHandle(60);
    env.clock.advance(5 * kSecond);
    auto del = env.broker.deleteMessage(kQueue, h);
    ASSERT_FALSE(del.ok());
    EXPECT_EQ(del.error().code, ErrorCode::MessageNotInflight);
    auto change = env.broker.changeMessageVisibility(kQueue, h, 10);
    ASSERT_FALSE(change.ok());
    EXPECT_EQ(change.error().code, ErrorCode::MessageNotInflight);
    EXPECT_EQ(env.counters(), "1/1/0");
    EXPECT_TRUE(env.broker.deleteMessage(kQueue, inFlight).ok())
        << "an in-flight receipt still deletes";
    EXPECT_EQ(env.counters(), "1/0/0");
}

TEST(DeleteMessage, withoutStrictModeExpiredReceiptIsNeverMessageNotInflight)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle(5);
    env.clock.advance(5 * kSecond);
    EXPECT_TRUE(env.broker.changeMessageVisibility(kQueue, h, 10).ok());
    EXPECT_TRUE(env.broker.deleteMessage(kQueue, h).ok());
}

// ================================================================================================
// §4.5, §4.7 batches
// ================================================================================================

TEST(DeleteMessageBatch, reportsPartialFailuresPerEntry)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    env.send("b");
    const std::string ha = env.receiveHandle();
    const std::string hb = env.receiveHandle();
    auto r = env.broker.deleteMessageBatch(kQueue,
                                           {{"a", ha, {}}, {"bad", "garbage", {}}, {"b", hb, {}}});
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
    EXPECT_EQ(env.counters(), "0/0/0");
}

TEST(DeleteMessageBatch, fifoExpiredEntryFailsAlone)
{
    Env env;
    env.createQueue(kFifo);
    env.sendFifo("a", "g1");
    env.sendFifo("b", "g2");
    const std::string ha = env.receiveHandle(1, kFifo);
    env.clock.advance(1 * kSecond);
    const std::string hb = env.receiveHandle(30, kFifo);
    ASSERT_NE(ha, hb);
    auto r = env.broker.deleteMessageBatch(kFifo, {{"x", ha, {}}, {"y", hb, {}}});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->failed.size(), 1u);
    EXPECT_EQ(r->failed[0].id, "x");
    EXPECT_EQ(r->failed[0].error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r->failed[0].error.message, expiredHandleText(ha));
    EXPECT_TRUE(r->failed[0].senderFault);
    ASSERT_EQ(r->successful.size(), 1u);
    EXPECT_EQ(r->successful[0].id, "y");
}

TEST(ChangeVisibilityBatch, reportsPartialFailuresPerEntry)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    env.send("b");
    env.send("c");
    const std::string ha = env.receiveHandle();
    const std::string hb = env.receiveHandle();
    const std::string hc = env.receiveHandle();
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, hc).ok());
    auto r = env.broker.changeMessageVisibilityBatch(
        kQueue, {{"a", ha, 0}, {"bad", "garbage", 10}, {"b", hb, std::nullopt}, {"c", hc, 10}});
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
    EXPECT_EQ(env.counters(), "1/1/0") << "a released, b still in flight";
}

TEST(ChangeVisibilityBatch, capAppliesPerEntry)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    const std::string h = env.receiveHandle();
    env.clock.advance(10 * kSecond);
    auto r
        = env.broker.changeMessageVisibilityBatch(kQueue, {{"over", h, 43'200}, {"ok", h, 43'190}});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->failed.size(), 1u);
    EXPECT_EQ(r->failed[0].id, "over");
    EXPECT_EQ(r->failed[0].error.message, "Value 43200" + kCapReason);
    ASSERT_EQ(r->successful.size(), 1u);
    EXPECT_EQ(r->successful[0].result.visibleAt, kT0 + 43'200 * kSecond);
}

// Whole-request batch rules shared by both receipt batches (§4.2 via §4.5/§4.7).
class ReceiptBatchRules : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override
    {
        env.createQueue(kQueue);
        env.send("m");
        handle = env.receiveHandle();
    }

    // true: ChangeMessageVisibilityBatch (VT 0), false: DeleteMessageBatch.
    std::optional<Error> run(const std::vector<std::string>& ids)
    {
        std::vector<BatchReceiptEntry> entries;
        for (const std::string& id : ids)
            entries.push_back({id, handle, 0});
        if (GetParam()) {
            auto r = env.broker.changeMessageVisibilityBatch(kQueue, entries);
            return r.ok() ? std::nullopt : std::optional<Error>(r.error());
        }
        auto r = env.broker.deleteMessageBatch(kQueue, entries);
        return r.ok() ? std::nullopt : std::optional<Error>(r.error());
    }

    static std::vector<std::string> ids(int n)
    {
        std::vector<std::string> out;
        for (int i = 0; i < n; ++i)
            out.push_back("e" + std::to_string(i));
        return out;
    }

    Env env;
    std::string handle;
};

TEST_P(ReceiptBatchRules, elevenEntriesAreTooMany)
{
    auto e = run(ids(11));
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->code, ErrorCode::TooManyEntriesInBatchRequest);
    EXPECT_EQ(e->message, "Maximum number of entries per request are 10. You have sent 11.");
    EXPECT_EQ(env.counters(), "0/1/0") << "the whole request failed";
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
    EXPECT_EQ(env.counters(), "0/1/0");
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
    EXPECT_EQ(env.counters(), "0/1/0");
    EXPECT_FALSE(run({std::string(80, 'x'), "A-z_09"}).has_value());
}

INSTANTIATE_TEST_SUITE_P(Batches, ReceiptBatchRules, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "changeMessageVisibilityBatch"
                                               : "deleteMessageBatch";
                         });

// ================================================================================================
// §5.7 retention
// ================================================================================================

TEST(Retention, messageExpiresWhenItsAgeReachesTheRetentionPeriod)
{
    Env env;
    env.createQueue(kQueue, {{"MessageRetentionPeriod", "60"}});
    env.send("m");
    env.clock.advance(60 * kSecond - 1);
    EXPECT_EQ(env.counters(), "1/0/0") << "1 ms before: present";
    env.clock.advance(1);
    EXPECT_EQ(env.counters(), "0/0/0") << "at age == MessageRetentionPeriod: gone";
    EXPECT_TRUE(env.receive(10).messages.empty());
    EXPECT_EQ(env.stats().retentionExpired, 1);
}

TEST(Retention, messageJustBeforeRetentionIsStillReceivable)
{
    Env env;
    env.createQueue(kQueue, {{"MessageRetentionPeriod", "60"}});
    env.send("m");
    env.clock.advance(60 * kSecond - 1);
    ReceiveResult r = env.receive(1);
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].expiresAt, kT0 + 60 * kSecond);
}

TEST(Retention, inFlightMessageExpiresToo)
{
    Env env;
    env.createQueue(kQueue, {{"MessageRetentionPeriod", "60"}});
    env.send("m");
    env.clock.advance(10 * kSecond);
    const std::string h = env.receiveHandle(3600);
    env.clock.advance(50 * kSecond - 1);
    EXPECT_EQ(env.counters(), "0/1/0");
    env.clock.advance(1);
    EXPECT_EQ(env.counters(), "0/0/0");
    EXPECT_EQ(env.stats().retentionExpired, 1);
    EXPECT_TRUE(env.broker.deleteMessage(kQueue, h).ok())
        << "deleting it afterwards with its handle: 200";
}

TEST(Retention, ageCountsFromTheOriginalSendNotTheDelay)
{
    Env env;
    env.createQueue(kQueue, {{"MessageRetentionPeriod", "60"}});
    env.send("m", 30);
    env.clock.advance(60 * kSecond);
    EXPECT_EQ(env.counters(), "0/0/0");
}

// ================================================================================================
// In-flight limit (C.81)
// ================================================================================================

class InFlightLimit : public ::testing::Test {
protected:
    static BrokerOptions limited()
    {
        BrokerOptions options;
        options.inFlightLimitStandard = 3;
        return options;
    }

    void SetUp() override
    {
        env.createQueue(kQueue);
        for (int i = 0; i < 5; ++i)
            env.send("m" + std::to_string(i));
        for (int i = 0; i < 3; ++i)
            handles.push_back(env.receiveHandle());
    }

    Env env{limited()};
    std::vector<std::string> handles;
};

TEST_F(InFlightLimit, shortPollAtTheLimitIsOverLimit)
{
    EXPECT_EQ(env.counters(), "2/3/0");
    auto r = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::OverLimit);
    EXPECT_EQ(env.counters(), "2/3/0");
}

TEST_F(InFlightLimit, shortPollBelowTheLimitWorks)
{
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, handles[0]).ok());
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST_F(InFlightLimit, longPollAtTheLimitEndsEmptyAtTheDeadline)
{
    auto sync = env.broker.receiveMessage(waitFor(1));
    ASSERT_TRUE(sync.ok()) << describe(sync.error());
    EXPECT_TRUE(sync->messages.empty());

    auto [id, answer] = env.longPoll(waitFor(1));
    EXPECT_NE(id, 0u);
    EXPECT_EQ(answer->calls, 0);
    env.advance(1 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    env.advance(1);
    EXPECT_TRUE(answer->emptyOk());
}

TEST_F(InFlightLimit, receiveWorksAgainAfterADelete)
{
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, handles[1]).ok());
    EXPECT_EQ(env.receive(1).messages.size(), 1u) << "room for one more";
    auto r = env.broker.receiveMessage(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::OverLimit);
}

TEST_F(InFlightLimit, asyncReceiveWithoutWaitIsAnsweredWithOverLimit)
{
    auto [id, answer] = env.longPoll(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    EXPECT_EQ(id, 0u);
    ASSERT_EQ(answer->calls, 1);
    ASSERT_FALSE(answer->result->ok());
    EXPECT_EQ(answer->result->error().code, ErrorCode::OverLimit);
}

TEST_F(InFlightLimit, visibilityExpiryMakesRoomAgain)
{
    env.clock.advance(30 * kSecond);
    EXPECT_EQ(env.counters(), "5/0/0");
    EXPECT_EQ(env.receive(1).messages.size(), 1u);
}

TEST_F(InFlightLimit, waitingLongPollIsServedWhenADeleteMakesRoom)
{
    auto [id, answer] = env.longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, handles[2]).ok());
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies().size(), 1u);
}

// ================================================================================================
// §4.3 long polling (C.55, C.57)
// ================================================================================================

TEST(LongPoll, answeredAtOnceWhenMessagesExist)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    env.send("b");
    auto [id, answer] = env.longPoll(waitFor(20, 10));
    EXPECT_EQ(id, 0u);
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
}

TEST(LongPoll, waitsWhileEmptyAndIsAnsweredBySend)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(20, 10));
    EXPECT_NE(id, 0u);
    EXPECT_EQ(answer->calls, 0);
    EXPECT_EQ(env.broker.pendingWaits(), 1u);
    env.clock.advance(3 * kSecond);
    env.send("m");
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"m"})) << "does not wait to fill Max";
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
    EXPECT_EQ(env.counters(), "0/1/0") << "the waiter received it";
    env.advance(20 * kSecond);
    EXPECT_EQ(answer->calls, 1) << "called exactly once";
}

TEST(LongPoll, delayedSendDoesNotAnswerUntilTheDelayEnds)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(10));
    ASSERT_NE(id, 0u);
    env.send("late", 3);
    EXPECT_EQ(answer->calls, 0);
    env.advance(3 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    env.advance(1);
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"late"}));
}

TEST(LongPoll, answeredByARelease)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    const std::string h = env.receiveHandle();
    auto [id, answer] = env.longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    EXPECT_EQ(answer->calls, 0);
    ASSERT_TRUE(env.broker.changeMessageVisibility(kQueue, h, 0).ok());
    ASSERT_EQ(answer->calls, 1);
    ASSERT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
    EXPECT_EQ((*answer->result)->messages[0].receiveCount, 2u);
}

TEST(LongPoll, answeredByAVisibilityExpiry)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    env.receiveHandle(5);
    auto [id, answer] = env.longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    env.advance(5 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    env.advance(1);
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
}

TEST(LongPoll, endsEmptyExactlyAtTheWaitDeadline)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    env.advance(5 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0) << "1 ms before the deadline: still waiting";
    EXPECT_EQ(env.broker.pendingWaits(), 1u);
    env.advance(1);
    EXPECT_TRUE(answer->emptyOk());
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
    env.send("m");
    EXPECT_EQ(answer->calls, 1);
    EXPECT_EQ(env.counters(), "1/0/0");
}

TEST(LongPoll, sendJustBeforeTheWaitDeadlineAnswersWithoutAdvance)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    env.clock.advance(5 * kSecond - 1); // no broker.advance(): the send sees the time itself
    env.send("m");
    ASSERT_EQ(answer->calls, 1);
    EXPECT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
}

TEST(LongPoll, sendAtTheWaitDeadlineDoesNotAnswerAnEndedWait)
{
    // Lazy truth: at the deadline the wait is over, whether or not advance() ran; a message sent
    // then must stay in the queue, and the waiter ends empty.
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    env.clock.advance(5 * kSecond);
    env.send("m");
    EXPECT_TRUE(answer->emptyOk())
        << "calls=" << answer->calls << " bodies=" << answer->bodies().size();
    EXPECT_EQ(env.counters(), "1/0/0");
}

TEST(LongPoll, visibilityExpiryAfterTheWaitDeadlineDoesNotAnswerAnEndedWait)
{
    Env env;
    env.createQueue(kQueue);
    env.send("m");
    env.receiveHandle(10);
    auto [id, answer] = env.longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    env.clock.advance(10 * kSecond); // wait ended at 5 s, the message came back at 10 s
    EXPECT_EQ(env.counters(), "1/0/0");
    EXPECT_TRUE(answer->emptyOk())
        << "calls=" << answer->calls << " bodies=" << answer->bodies().size();
}

TEST(LongPoll, nextDeadlineIncludesTheWaitDeadline)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    EXPECT_LE(env.broker.nextDeadline(), kT0 + 5 * kSecond);
}

TEST(LongPoll, queueDefaultWaitAppliesWhenWaitTimeSecondsIsAbsent)
{
    // C.57
    Env env;
    env.createQueue(kQueue, {{"ReceiveMessageWaitTimeSeconds", "2"}});
    auto [id, answer] = env.longPoll(ReceiveRequest{.queue = kQueue});
    EXPECT_NE(id, 0u);
    env.advance(2 * kSecond - 1);
    EXPECT_EQ(answer->calls, 0);
    env.advance(1);
    EXPECT_TRUE(answer->emptyOk());
}

TEST(LongPoll, explicitZeroWaitOverridesTheQueueDefault)
{
    // C.57
    Env env;
    env.createQueue(kQueue, {{"ReceiveMessageWaitTimeSeconds", "2"}});
    auto [id, answer] = env.longPoll(ReceiveRequest{.queue = kQueue, .waitTimeSeconds = 0});
    EXPECT_EQ(id, 0u);
    EXPECT_TRUE(answer->emptyOk());
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
}

TEST(LongPoll, noWaitAnywhereIsAnsweredAtOnce)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(ReceiveRequest{.queue = kQueue});
    EXPECT_EQ(id, 0u);
    EXPECT_TRUE(answer->emptyOk());
}

TEST(LongPoll, cancelledWaitIsNeverCalled)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(5));
    ASSERT_NE(id, 0u);
    EXPECT_TRUE(env.broker.cancelWait(id));
    EXPECT_FALSE(env.broker.cancelWait(id));
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
    env.send("m");
    env.advance(10 * kSecond);
    EXPECT_EQ(answer->calls, 0);
    EXPECT_EQ(env.counters(), "1/0/0") << "the cancelled waiter took nothing";
}

TEST(LongPoll, waitersAreServedOldestFirst)
{
    Env env;
    env.createQueue(kQueue);
    auto [id1, first] = env.longPoll(waitFor(20));
    env.clock.advance(1);
    auto [id2, second] = env.longPoll(waitFor(20));
    ASSERT_NE(id1, 0u);
    ASSERT_NE(id2, 0u);
    env.send("a");
    EXPECT_EQ(first->bodies(), (std::vector<std::string>{"a"}));
    EXPECT_EQ(second->calls, 0);
    env.send("b");
    EXPECT_EQ(second->bodies(), (std::vector<std::string>{"b"}));
    EXPECT_EQ(first->calls, 1);
}

TEST(LongPoll, deleteQueueEndsWaitersEmpty)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(waitFor(20));
    ASSERT_NE(id, 0u);
    ASSERT_TRUE(env.broker.deleteQueue(kQueue).ok());
    EXPECT_TRUE(answer->emptyOk());
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
    env.advance(30 * kSecond);
    EXPECT_EQ(answer->calls, 1);
}

TEST(LongPoll, synchronousReceiveWithWaitReturnsAtOnce)
{
    Env env;
    env.createQueue(kQueue);
    EXPECT_TRUE(env.receive(waitFor(20)).messages.empty());
    EXPECT_EQ(env.broker.pendingWaits(), 0u);
}

TEST(LongPoll, answeredWaiterUsesItsOwnVisibilityTimeout)
{
    Env env;
    env.createQueue(kQueue);
    auto [id, answer] = env.longPoll(
        ReceiveRequest{.queue = kQueue, .visibilityTimeout = 7, .waitTimeSeconds = 20});
    ASSERT_NE(id, 0u);
    env.clock.advance(2 * kSecond);
    env.send("m");
    ASSERT_EQ(answer->bodies(), (std::vector<std::string>{"m"}));
    EXPECT_EQ((*answer->result)->messages[0].visibleAt, kT0 + 9 * kSecond);
}

// ================================================================================================
// §1.1 approximate counters (C.83)
// ================================================================================================

TEST(ApproximateCounters, followReceivesAndVisibilityExpiry)
{
    Env env;
    env.createQueue(kQueue);
    for (int i = 0; i < 6; ++i)
        env.send("m" + std::to_string(i));
    EXPECT_EQ(env.counters(), "6/0/0");
    env.receive(1);
    EXPECT_EQ(env.counters(), "5/1/0");
    env.clock.advance(30 * kSecond);
    EXPECT_EQ(env.counters(), "6/0/0");
}

TEST(ApproximateCounters, countDelayedMessagesSeparately)
{
    Env env;
    env.createQueue(kQueue);
    env.send("now");
    env.send("late", 10);
    EXPECT_EQ(env.counters(), "1/0/1");
    env.receive(1);
    EXPECT_EQ(env.counters(), "0/1/1");
    env.clock.advance(10 * kSecond);
    EXPECT_EQ(env.counters(), "1/1/0");
}

TEST(ApproximateCounters, deleteAndReleaseUpdateCounters)
{
    Env env;
    env.createQueue(kQueue);
    env.send("a");
    env.send("b");
    const std::string ha = env.receiveHandle();
    const std::string hb = env.receiveHandle();
    EXPECT_EQ(env.counters(), "0/2/0");
    ASSERT_TRUE(env.broker.deleteMessage(kQueue, ha).ok());
    EXPECT_EQ(env.counters(), "0/1/0");
    ASSERT_TRUE(env.broker.changeMessageVisibility(kQueue, hb, 0).ok());
    EXPECT_EQ(env.counters(), "1/0/0");
}

} // namespace
} // namespace inflight::engine
