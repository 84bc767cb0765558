// FIFO queues through Broker: counting (§1.1), SequenceNumber (§1.2), the FIFO parts of
// SendMessage (§4.1), delivery order and head-of-line blocking (§5.1), deduplication (§5.2) and
// ReceiveRequestAttemptId (§5.3), with the §8 D cases 85–101 and the §9 choices 5 and 6.

#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace inflight::engine {
namespace {

constexpr char kQueue[] = "orders.fifo";
constexpr Millis kDedupWindow = 300 * kSecond;
constexpr Millis kAttemptWindow = 300 * kSecond;

// SHA-256 test vectors (FIPS 180-2 / well known), independent of the engine's digest code.
constexpr char kSha256Abc[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr char kSha256Hello[] = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

std::vector<std::string> handlesOf(const std::vector<ReceivedMessage>& messages)
{
    std::vector<std::string> handles;
    for (const ReceivedMessage& m : messages)
        handles.push_back(m.receiptHandle);
    return handles;
}

// The bodies of one group's messages, in response order.
std::vector<std::string> bodiesOfGroup(const std::vector<ReceivedMessage>& messages,
                                       const std::string& group)
{
    std::vector<std::string> bodies;
    for (const ReceivedMessage& m : messages)
        if (m.groupId == group)
            bodies.push_back(m.body);
    return bodies;
}

// True when each group's messages form one contiguous run in the response.
bool groupsAreContiguous(const std::vector<ReceivedMessage>& messages)
{
    std::set<std::string> finished;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        if (finished.count(messages[i].groupId))
            return false;
        if (i + 1 == messages.size() || messages[i + 1].groupId != messages[i].groupId)
            finished.insert(messages[i].groupId);
    }
    return true;
}

bool isDecimal(const std::string& s)
{
    return !s.empty()
        && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// a < b for decimal strings without leading zeros beyond a fixed width: compare as integers.
bool numericallyLess(const std::string& a, const std::string& b)
{
    const auto strip = [](const std::string& s) {
        const std::size_t first = s.find_first_not_of('0');
        return first == std::string::npos ? std::string("0") : s.substr(first);
    };
    const std::string x = strip(a);
    const std::string y = strip(b);
    if (x.size() != y.size())
        return x.size() < y.size();
    return x < y;
}

// The tests' queue is kQueue.
class FifoQueue : public EngineTest {
protected:
    FifoQueue() = default;
    explicit FifoQueue(BrokerOptions options) : EngineTest(kEngineTestStart, std::move(options)) {}

    void createFifo(StringMap attributes = {}, const std::string& name = kQueue)
    {
        ASSERT_EQ(EngineTest::createFifo(name, std::move(attributes)).kind, QueueKind::Fifo);
    }

    Result<SendResult> trySend(const std::string& group, const std::string& body,
                               std::optional<std::string> dedup)
    {
        SendMessageRequest request;
        request.queue = kQueue;
        request.body = body;
        request.groupId = group;
        request.deduplicationId = std::move(dedup);
        return broker.sendMessage(request);
    }

    // Sends with a deduplication id unique to the body.
    SendResult send(const std::string& group, const std::string& body)
    {
        return sendFifo(kQueue, body, group, "dedup-" + body);
    }
    SendResult sendDedup(const std::string& group, const std::string& body,
                         const std::string& dedup)
    {
        return sendFifo(kQueue, body, group, dedup);
    }
    // Relies on ContentBasedDeduplication.
    SendResult sendContent(const std::string& group, const std::string& body)
    {
        return sendFifo(kQueue, body, group);
    }

    static ReceiveRequest receiveRequest(std::int64_t max,
                                         std::optional<std::int64_t> visibility = std::nullopt,
                                         std::optional<std::string> attemptId = std::nullopt)
    {
        ReceiveRequest request;
        request.queue = kQueue;
        request.maxMessages = max;
        request.visibilityTimeout = visibility;
        request.receiveRequestAttemptId = std::move(attemptId);
        return request;
    }

    using EngineTest::receive; // receive(const ReceiveRequest&)
    std::vector<ReceivedMessage> receive(std::int64_t max,
                                         std::optional<std::int64_t> visibility = std::nullopt,
                                         std::optional<std::string> attemptId = std::nullopt)
    {
        return receive(receiveRequest(max, visibility, std::move(attemptId)));
    }
    std::vector<std::string> receiveBodies(std::int64_t max,
                                           std::optional<std::int64_t> visibility = std::nullopt,
                                           std::optional<std::string> attemptId = std::nullopt)
    {
        return bodiesOf(receive(max, visibility, std::move(attemptId)));
    }

    void deleteOk(const std::string& handle)
    {
        Status deleted = broker.deleteMessage(kQueue, handle, "test");
        EXPECT_TRUE(deleted.ok()) << describe(deleted.error());
    }
    void changeVisibilityOk(const std::string& handle, std::int64_t seconds)
    {
        auto changed = broker.changeMessageVisibility(kQueue, handle, seconds, "test");
        EXPECT_TRUE(changed.ok()) << describe(changed.error());
    }

    QueueStats stats() { return EngineTest::stats(kQueue); }
    StringMap counters()
    {
        auto attributes = broker.getQueueAttributes(kQueue,
                                                    {"ApproximateNumberOfMessages",
                                                     "ApproximateNumberOfMessagesNotVisible",
                                                     "ApproximateNumberOfMessagesDelayed"});
        if (!attributes.ok()) {
            ADD_FAILURE() << describe(attributes.error());
            return {};
        }
        return *attributes;
    }
};

using Bodies = std::vector<std::string>;

// ---- §5.1 order within a group -------------------------------------------------------------------

TEST_F(FifoQueue, deliveryOrderWithinGroupIsSendOrder)
{
    createFifo();
    // Bodies deliberately not in lexical order, groups interleaved.
    for (const char* body : {"g1-zulu", "g2-yankee", "g1-alpha", "g1-mike", "g2-bravo", "g1-echo"})
        send(std::string(body).substr(0, 2), body);

    const auto received = receive(10, 0);
    ASSERT_EQ(received.size(), 6u);
    EXPECT_EQ(bodiesOfGroup(received, "g1"), (Bodies{"g1-zulu", "g1-alpha", "g1-mike", "g1-echo"}));
    EXPECT_EQ(bodiesOfGroup(received, "g2"), (Bodies{"g2-yankee", "g2-bravo"}));
}

TEST_F(FifoQueue, batchEntriesAreEnqueuedInRequestOrder)
{
    createFifo();
    std::vector<BatchSendEntry> entries;
    for (const char* body : {"e5", "e3", "e1", "e4", "e2"}) {
        BatchSendEntry entry;
        entry.id = std::string("id-") + body;
        entry.message.body = body;
        entry.message.groupId = "g1";
        entry.message.deduplicationId = std::string("d-") + body;
        entries.push_back(std::move(entry));
    }
    auto sent = broker.sendMessageBatch(kQueue, entries, "test");
    ASSERT_TRUE(sent.ok()) << describe(sent.error());
    ASSERT_EQ(sent->successful.size(), 5u);
    for (std::size_t i = 1; i < sent->successful.size(); ++i)
        EXPECT_TRUE(numericallyLess(sent->successful[i - 1].result.sequenceNumber,
                                    sent->successful[i].result.sequenceNumber))
            << i;

    EXPECT_EQ(receiveBodies(10, 0), (Bodies{"e5", "e3", "e1", "e4", "e2"}));
}

// ---- §5.1 head-of-line blocking ------------------------------------------------------------------

// §8 D.85
TEST_F(FifoQueue, groupBlockedWhileHeadInFlight)
{
    createFifo({{"VisibilityTimeout", "1"}});
    for (const char* body : {"g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1", "g3-m1"})
        send(std::string(body).substr(0, 2), body);

    EXPECT_EQ(receiveBodies(2), (Bodies{"g1-m1", "g1-m2"}));
    EXPECT_EQ(receiveBodies(1), (Bodies{"g2-m1"}));

    clock.advance(1 * kSecond);
    const auto all = receive(10, 0);
    ASSERT_EQ(all.size(), 6u) << ::testing::PrintToString(bodiesOf(all));
    EXPECT_EQ(bodiesOfGroup(all, "g1"), (Bodies{"g1-m1", "g1-m2", "g1-m3", "g1-m4"}));
    EXPECT_TRUE(groupsAreContiguous(all)) << ::testing::PrintToString(bodiesOf(all));
    EXPECT_EQ(bodiesOfGroup(all, "g2"), (Bodies{"g2-m1"}));
    EXPECT_EQ(bodiesOfGroup(all, "g3"), (Bodies{"g3-m1"}));
}

TEST_F(FifoQueue, nothingOfGroupIsReturnedWhileHeadInFlight)
{
    createFifo();
    send("g1", "m1");
    send("g1", "m2");
    send("g1", "m3");
    ASSERT_EQ(receiveBodies(1), (Bodies{"m1"}));
    EXPECT_TRUE(receive(10).empty());
    EXPECT_TRUE(receive(10, 0).empty());
}

struct ExtensionCase {
    const char* extended;
    Bodies expected;
};

// Short names in test listings (gtest would print the raw bytes otherwise).
void PrintTo(const ExtensionCase& c, std::ostream* os)
{
    *os << c.extended;
}

class FifoSelectiveExtension : public FifoQueue,
                               public ::testing::WithParamInterface<ExtensionCase> {};

// §8 D.87: foo, bar, baz received together (VT 1), X extended to 4 s; 2.5 s later the others have
// expired and the group is served up to the first message still in flight.
TEST_P(FifoSelectiveExtension, headOfLineAfterSelectiveExtension)
{
    createFifo({{"VisibilityTimeout", "1"}});
    send("group1", "foo");
    send("group1", "bar");
    send("group1", "baz");
    const auto received = receive(5);
    ASSERT_EQ(bodiesOf(received), (Bodies{"foo", "bar", "baz"}));
    for (const ReceivedMessage& m : received)
        if (m.body == GetParam().extended)
            changeVisibilityOk(m.receiptHandle, 4);

    clock.advance(2500);
    EXPECT_EQ(receiveBodies(5), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Case87, FifoSelectiveExtension,
                         ::testing::Values(ExtensionCase{"foo", {}}, ExtensionCase{"bar", {"foo"}},
                                           ExtensionCase{"baz", {"foo", "bar"}}),
                         [](const auto& info) {
                             return std::string("extend_") + info.param.extended;
                         });

class FifoExtensionAtDeadline : public FifoQueue,
                                public ::testing::WithParamInterface<ExtensionCase> {};

// §5.1: A,B,C received together; X extended; the others expire. B extended ⇒ only A; A extended
// ⇒ nothing; C extended ⇒ A,B. Checked 1 ms before and exactly at the others' deadline.
TEST_P(FifoExtensionAtDeadline, groupServedUpToExtendedMessageOnceOthersExpire)
{
    createFifo({{"VisibilityTimeout", "30"}});
    send("g", "A");
    send("g", "B");
    send("g", "C");
    const auto received = receive(10);
    ASSERT_EQ(bodiesOf(received), (Bodies{"A", "B", "C"}));
    clock.advance(10 * kSecond);
    for (const ReceivedMessage& m : received)
        if (m.body == GetParam().extended)
            changeVisibilityOk(m.receiptHandle, 60);

    clock.advance(20 * kSecond - 1);
    EXPECT_TRUE(receive(10).empty()) << "1 ms before the visibility timeout";
    clock.advance(1);
    EXPECT_EQ(receiveBodies(10), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Section5_1, FifoExtensionAtDeadline,
                         ::testing::Values(ExtensionCase{"A", {}}, ExtensionCase{"B", {"A"}},
                                           ExtensionCase{"C", {"A", "B"}}),
                         [](const auto& info) {
                             return std::string("extend_") + info.param.extended;
                         });

TEST_F(FifoQueue, deletingOnlyHeadOfInFlightPairLeavesGroupBlocked)
{
    createFifo({{"VisibilityTimeout", "30"}});
    send("g", "A");
    send("g", "B");
    send("g", "C");
    const auto received = receive(2);
    ASSERT_EQ(bodiesOf(received), (Bodies{"A", "B"}));
    deleteOk(received[0].receiptHandle);

    EXPECT_TRUE(receive(10).empty()) << "B is still in flight";
    EXPECT_EQ(stats().available, 1);
    EXPECT_EQ(stats().inFlight, 1);

    clock.advance(30 * kSecond);
    EXPECT_EQ(receiveBodies(10), (Bodies{"B", "C"}));
}

TEST_F(FifoQueue, deletingInFlightHeadUnblocksGroup)
{
    createFifo();
    send("g1", "m1");
    send("g1", "m2");
    send("g1", "m3");
    const auto first = receive(1);
    ASSERT_EQ(bodiesOf(first), (Bodies{"m1"}));
    ASSERT_TRUE(receive(10).empty());

    deleteOk(first[0].receiptHandle);
    EXPECT_EQ(receiveBodies(10), (Bodies{"m2", "m3"}));
}

TEST_F(FifoQueue, releasingHeadWithVisibilityZeroUnblocksGroup)
{
    createFifo();
    send("g1", "m1");
    send("g1", "m2");
    const auto first = receive(1);
    ASSERT_EQ(bodiesOf(first), (Bodies{"m1"}));
    ASSERT_TRUE(receive(10).empty());

    changeVisibilityOk(first[0].receiptHandle, 0);
    const auto again = receive(10);
    EXPECT_EQ(bodiesOf(again), (Bodies{"m1", "m2"}));
    ASSERT_FALSE(again.empty());
    EXPECT_EQ(again[0].receiveCount, 2u);
}

TEST_F(FifoQueue, releasingOrDeletingNonHeadMessageLeavesGroupBlocked)
{
    createFifo();
    send("g1", "A");
    send("g1", "B");
    send("g1", "C");
    send("g1", "D");
    const auto received = receive(3);
    ASSERT_EQ(bodiesOf(received), (Bodies{"A", "B", "C"}));

    changeVisibilityOk(received[1].receiptHandle, 0);
    EXPECT_TRUE(receive(10).empty()) << "B released, but A is still in flight";
    deleteOk(received[2].receiptHandle);
    EXPECT_TRUE(receive(10).empty()) << "C deleted, but A is still in flight";

    deleteOk(received[0].receiptHandle);
    EXPECT_EQ(receiveBodies(10), (Bodies{"B", "D"}));
}

TEST_F(FifoQueue, headVisibilityExpiryUnblocksGroupExactlyAtDeadline)
{
    createFifo({{"VisibilityTimeout", "30"}});
    send("g1", "m1");
    send("g1", "m2");
    ASSERT_EQ(receiveBodies(1), (Bodies{"m1"}));

    clock.advance(30 * kSecond - 1);
    EXPECT_TRUE(receive(10).empty()) << "1 ms before the head's visibility ends";
    clock.advance(1);
    EXPECT_EQ(receiveBodies(10), (Bodies{"m1", "m2"}));
}

// ---- §5.1 batch composition ----------------------------------------------------------------------

TEST_F(FifoQueue, batchFillsFromOneGroupBeforeTheNext)
{
    createFifo();
    for (const char* body : {"g1-m1", "g2-m1", "g2-m2", "g3-m1", "g1-m2"})
        send(std::string(body).substr(0, 2), body);

    EXPECT_EQ(receiveBodies(3, 0), (Bodies{"g1-m1", "g1-m2", "g2-m1"}));
}

TEST_F(FifoQueue, groupIsFullyServedBeforeNextGroup)
{
    createFifo();
    for (const char* body : {"a-1", "b-1", "a-2", "b-2", "a-3", "b-3"})
        send(std::string(body).substr(0, 1), body);

    // Which group comes first is unspecified; whichever it is, all three of it come first.
    const auto received = receive(4);
    ASSERT_EQ(received.size(), 4u);
    const std::string first = received[0].groupId;
    const std::string other = first == "a" ? "b" : "a";
    EXPECT_EQ(bodiesOf(received), (Bodies{first + "-1", first + "-2", first + "-3", other + "-1"}));
}

TEST_F(FifoQueue, interleavedGroupsComeBackContiguous)
{
    createFifo();
    for (int i = 1; i <= 3; ++i)
        for (const char* group : {"a", "b", "c"})
            send(group, std::string(group) + "-" + std::to_string(i));

    const auto received = receive(10, 0);
    ASSERT_EQ(received.size(), 9u);
    EXPECT_TRUE(groupsAreContiguous(received)) << ::testing::PrintToString(bodiesOf(received));
    for (const char* group : {"a", "b", "c"}) {
        const std::string g = group;
        EXPECT_EQ(bodiesOfGroup(received, g), (Bodies{g + "-1", g + "-2", g + "-3"}));
    }
}

TEST_F(FifoQueue, visibilityZeroNeverReturnsSameMessageTwiceInOneResponse)
{
    createFifo();
    send("g1", "g1-m1");
    send("g1", "g1-m2");
    send("g2", "g2-m1");

    for (std::uint32_t round = 1; round <= 2; ++round) {
        const auto received = receive(10, 0);
        const auto bodies = bodiesOf(received);
        EXPECT_EQ(std::set<std::string>(bodies.begin(), bodies.end()).size(), bodies.size())
            << ::testing::PrintToString(bodies);
        EXPECT_EQ(received.size(), 3u) << ::testing::PrintToString(bodies);
        for (const ReceivedMessage& m : received)
            EXPECT_EQ(m.receiveCount, round) << m.body;
    }
}

// ---- §5.1 delay ------------------------------------------------------------------------------------

TEST_F(FifoQueue, delayedHeadBlocksItsGroup)
{
    createFifo({{"DelaySeconds", "10"}});
    send("g1", "m1");
    clock.advance(1 * kSecond);
    send("g1", "m2");

    clock.advance(9 * kSecond - 1);
    EXPECT_TRUE(receive(10).empty()) << "1 ms before the head's delay ends";
    EXPECT_EQ(stats().delayed, 2);
    EXPECT_EQ(counters()["ApproximateNumberOfMessagesDelayed"], "2");

    clock.advance(1);
    const auto head = receive(10);
    EXPECT_EQ(bodiesOf(head), (Bodies{"m1"})) << "m2 is still delayed";

    clock.advance(1 * kSecond);
    EXPECT_TRUE(receive(10).empty()) << "m2's delay ended, but the head is in flight";
    ASSERT_EQ(head.size(), 1u);
    deleteOk(head[0].receiptHandle);
    EXPECT_EQ(receiveBodies(10), (Bodies{"m2"}));
}

TEST_F(FifoQueue, delayedGroupDoesNotBlockOtherGroups)
{
    createFifo({{"DelaySeconds", "10"}});
    send("g1", "g1-m1");
    clock.advance(10 * kSecond);
    send("g2", "g2-m1");
    EXPECT_EQ(receiveBodies(10), (Bodies{"g1-m1"}));
}

// ---- §1.1 counting ---------------------------------------------------------------------------------

TEST_F(FifoQueue, messagesBehindInFlightHeadCountAsAvailable)
{
    createFifo();
    for (const char* group : {"g1", "g2", "g3"}) {
        send(group, std::string(group) + "-m1");
        send(group, std::string(group) + "-m2");
    }
    ASSERT_EQ(receive(1).size(), 1u);
    ASSERT_EQ(receive(1).size(), 1u);

    const QueueStats s = stats();
    EXPECT_EQ(s.available, 4);
    EXPECT_EQ(s.inFlight, 2);
    EXPECT_EQ(s.delayed, 0);
    StringMap c = counters();
    EXPECT_EQ(c["ApproximateNumberOfMessages"], "4");
    EXPECT_EQ(c["ApproximateNumberOfMessagesNotVisible"], "2");
    EXPECT_EQ(c["ApproximateNumberOfMessagesDelayed"], "0");
}

// §8 D.101
TEST_F(FifoQueue, emptyGroupCanBeReused)
{
    createFifo();
    send("g1", "m1");
    const auto first = receive(1);
    ASSERT_EQ(bodiesOf(first), (Bodies{"m1"}));
    deleteOk(first[0].receiptHandle);
    EXPECT_TRUE(receive(10).empty());

    send("g1", "m2");
    EXPECT_EQ(receiveBodies(10), (Bodies{"m2"}));
}

// ---- §8 D.89 receive count and system attributes ------------------------------------------------

TEST_F(FifoQueue, receiveCountAndSystemAttributesOnFifo)
{
    createFifo();
    const Millis sentAt = clock.now();
    const SendResult sent = sendDedup("g89", "body", "d-89");
    ASSERT_FALSE(sent.sequenceNumber.empty());

    ReceiveRequest request = receiveRequest(1, 0);
    request.systemAttributeNames = {"All"};
    clock.advance(2 * kSecond);
    const Millis firstReceive = clock.now();
    for (int count = 1; count <= 2; ++count) {
        const auto received = receive(request);
        ASSERT_EQ(received.size(), 1u) << "receive " << count;
        const StringMap& a = received[0].systemAttributes;
        EXPECT_EQ(a.at("ApproximateReceiveCount"), std::to_string(count));
        EXPECT_EQ(received[0].receiveCount, static_cast<std::uint32_t>(count));
        EXPECT_EQ(a.at("MessageGroupId"), "g89");
        EXPECT_EQ(a.at("MessageDeduplicationId"), "d-89");
        EXPECT_EQ(a.at("SequenceNumber"), sent.sequenceNumber);
        EXPECT_FALSE(a.at("SenderId").empty());
        EXPECT_EQ(a.at("SentTimestamp"), std::to_string(sentAt));
        EXPECT_EQ(a.at("ApproximateFirstReceiveTimestamp"), std::to_string(firstReceive));
        EXPECT_EQ(received[0].messageId, sent.messageId);
        clock.advance(1 * kSecond);
    }
}

// ---- §1.2 SequenceNumber ------------------------------------------------------------------------

TEST_F(FifoQueue, sequenceNumbersAreTwentyDigitsStrictlyIncreasingPerQueue)
{
    createFifo();
    std::vector<SendResult> sent;
    sent.push_back(send("g1", "a"));
    sent.push_back(send("g2", "b"));
    sent.push_back(send("g1", "c"));
    std::vector<BatchSendEntry> entries(2);
    entries[0].id = "e1";
    entries[0].message.body = "d";
    entries[0].message.groupId = "g3";
    entries[0].message.deduplicationId = "dedup-d";
    entries[1].id = "e2";
    entries[1].message.body = "e";
    entries[1].message.groupId = "g2";
    entries[1].message.deduplicationId = "dedup-e";
    auto batch = broker.sendMessageBatch(kQueue, entries, "test");
    ASSERT_TRUE(batch.ok()) << describe(batch.error());
    ASSERT_EQ(batch->successful.size(), 2u);
    for (const auto& success : batch->successful)
        sent.push_back(success.result);
    clock.advance(1 * kSecond);
    sent.push_back(send("g1", "f"));

    for (std::size_t i = 0; i < sent.size(); ++i) {
        EXPECT_EQ(sent[i].sequenceNumber.size(), 20u) << sent[i].sequenceNumber;
        EXPECT_TRUE(isDecimal(sent[i].sequenceNumber)) << sent[i].sequenceNumber;
        if (i > 0) {
            EXPECT_TRUE(numericallyLess(sent[i - 1].sequenceNumber, sent[i].sequenceNumber))
                << sent[i - 1].sequenceNumber << " then " << sent[i].sequenceNumber;
        }
    }

    // The system attribute on receive is the number the send returned.
    ReceiveRequest request = receiveRequest(10, 0);
    request.systemAttributeNames = {"SequenceNumber"};
    const auto received = receive(request);
    ASSERT_EQ(received.size(), sent.size());
    for (const ReceivedMessage& m : received) {
        const auto it = std::find_if(sent.begin(), sent.end(), [&](const SendResult& s) {
            return s.messageId == m.messageId;
        });
        ASSERT_NE(it, sent.end()) << m.body;
        EXPECT_EQ(m.systemAttributes.at("SequenceNumber"), it->sequenceNumber) << m.body;
        EXPECT_EQ(m.systemAttributes.size(), 1u) << "only the attribute asked for";
    }
}

TEST_F(FifoQueue, standardQueueHasNoSequenceNumber)
{
    CreateQueueRequest create;
    create.name = "plain";
    ASSERT_TRUE(broker.createQueue(create).ok());
    SendMessageRequest request;
    request.queue = "plain";
    request.body = "x";
    auto sent = broker.sendMessage(request);
    ASSERT_TRUE(sent.ok()) << describe(sent.error());
    EXPECT_TRUE(sent->sequenceNumber.empty());

    ReceiveRequest receiveAll;
    receiveAll.queue = "plain";
    receiveAll.systemAttributeNames = {"All"};
    auto received = broker.receiveMessage(receiveAll);
    ASSERT_TRUE(received.ok());
    ASSERT_EQ(received->messages.size(), 1u);
    EXPECT_EQ(received->messages[0].systemAttributes.count("SequenceNumber"), 0u);
    EXPECT_EQ(received->messages[0].systemAttributes.count("MessageDeduplicationId"), 0u);
}

// ---- §4.1 FIFO send validation ------------------------------------------------------------------

TEST_F(FifoQueue, nonZeroPerMessageDelayIsRejected)
{
    createFifo();
    for (std::int64_t delay : {1, 5, 900}) {
        SendMessageRequest request;
        request.queue = kQueue;
        request.body = "x";
        request.groupId = "g";
        request.deduplicationId = "d";
        request.delaySeconds = delay;
        auto sent = broker.sendMessage(request);
        ASSERT_FALSE(sent.ok()) << delay;
        EXPECT_EQ(sent.error().code, ErrorCode::InvalidParameterValue);
        EXPECT_EQ(sent.error().message,
                  "Value " + std::to_string(delay)
                      + " for parameter DelaySeconds is invalid. Reason: The request include "
                        "parameter that is not valid for this queue type.");
    }
    EXPECT_EQ(stats().available + stats().delayed, 0);
}

TEST_F(FifoQueue, delayCheckPrecedesMissingGroupId)
{
    createFifo();
    SendMessageRequest request;
    request.queue = kQueue;
    request.body = "x";
    request.delaySeconds = 5;
    auto sent = broker.sendMessage(request);
    ASSERT_FALSE(sent.ok());
    EXPECT_EQ(sent.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(sent.error().message,
              "Value 5 for parameter DelaySeconds is invalid. Reason: The "
              "request include parameter that is not valid for this queue type.");
}

TEST_F(FifoQueue, zeroPerMessageDelayIsAcceptedAndQueueDelayStillApplies)
{
    createFifo({{"DelaySeconds", "10"}});
    SendMessageRequest request;
    request.queue = kQueue;
    request.body = "x";
    request.groupId = "g";
    request.deduplicationId = "d";
    request.delaySeconds = 0;
    auto sent = broker.sendMessage(request);
    ASSERT_TRUE(sent.ok()) << describe(sent.error());
    EXPECT_EQ(stats().delayed, 1);

    clock.advance(10 * kSecond - 1);
    EXPECT_TRUE(receive(1).empty());
    clock.advance(1);
    EXPECT_EQ(receiveBodies(1), (Bodies{"x"}));
}

TEST_F(FifoQueue, missingGroupIdIsMissingParameter)
{
    createFifo();
    SendMessageRequest request;
    request.queue = kQueue;
    request.body = "x";
    request.deduplicationId = "d";
    auto sent = broker.sendMessage(request);
    ASSERT_FALSE(sent.ok());
    EXPECT_EQ(sent.error().code, ErrorCode::MissingParameter);
    EXPECT_EQ(sent.error().message, "The request must contain the parameter MessageGroupId.");

    request.deduplicationId.reset(); // both missing: the group is reported first
    auto both = broker.sendMessage(request);
    ASSERT_FALSE(both.ok());
    EXPECT_EQ(both.error().code, ErrorCode::MissingParameter);
    EXPECT_EQ(both.error().message, "The request must contain the parameter MessageGroupId.");
}

TEST_F(FifoQueue, missingDeduplicationIdWithoutContentBasedDedupIsInvalid)
{
    createFifo();
    auto sent = trySend("g", "x", std::nullopt);
    ASSERT_FALSE(sent.ok());
    EXPECT_EQ(sent.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(sent.error().message,
              "The queue should either have ContentBasedDeduplication enabled "
              "or MessageDeduplicationId provided explicitly");
    EXPECT_EQ(stats().available, 0);
}

struct TokenCase {
    const char* name;
    std::string value;
    bool valid;
};

void PrintTo(const TokenCase& c, std::ostream* os)
{
    *os << c.name;
}

const std::vector<TokenCase>& tokenCases()
{
    static const std::vector<TokenCase> cases = {
        {"empty", "", false},
        {"space", "group 123", false},
        {"len129", std::string(129, 'a'), false},
        {"nonAscii", "gr\xc3\xbcppe", false},
        {"len1", "a", true},
        {"len128", std::string(128, 'z'), true},
        {"punctuation", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", true},
    };
    return cases;
}

class FifoTokenFormat : public FifoQueue, public ::testing::WithParamInterface<TokenCase> {};

TEST_P(FifoTokenFormat, messageGroupIdFormat)
{
    createFifo();
    auto sent = trySend(GetParam().value, "x", "d");
    if (GetParam().valid) {
        EXPECT_TRUE(sent.ok()) << describe(sent.error());
        return;
    }
    ASSERT_FALSE(sent.ok());
    EXPECT_EQ(sent.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(sent.error().message,
              "Value " + GetParam().value
                  + " for parameter MessageGroupId is invalid. Reason: MessageGroupId can only "
                    "include alphanumeric and punctuation characters. 1 to 128 in length.");
}

TEST_P(FifoTokenFormat, messageDeduplicationIdFormat)
{
    createFifo();
    auto sent = trySend("g", "x", GetParam().value);
    if (GetParam().valid) {
        EXPECT_TRUE(sent.ok()) << describe(sent.error());
        return;
    }
    ASSERT_FALSE(sent.ok());
    EXPECT_EQ(sent.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(sent.error().message,
              "Value " + GetParam().value
                  + " for parameter MessageDeduplicationId is invalid. Reason: "
                    "MessageDeduplicationId can only include alphanumeric and punctuation "
                    "characters. 1 to 128 in length.");
}

// The spec gives no text for ReceiveRequestAttemptId; the code is InvalidParameterValue (§1.3).
TEST_P(FifoTokenFormat, receiveRequestAttemptIdFormat)
{
    createFifo();
    send("g", "x");
    auto received = broker.receiveMessage(receiveRequest(1, std::nullopt, GetParam().value));
    if (GetParam().valid) {
        ASSERT_TRUE(received.ok()) << describe(received.error());
        EXPECT_EQ(bodiesOf(received->messages), (Bodies{"x"}));
        return;
    }
    ASSERT_FALSE(received.ok());
    EXPECT_EQ(received.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_NE(received.error().message.find("ReceiveRequestAttemptId"), std::string::npos)
        << received.error().message;
    EXPECT_EQ(stats().inFlight, 0) << "a rejected receive delivers nothing";
}

INSTANTIATE_TEST_SUITE_P(Tokens, FifoTokenFormat, ::testing::ValuesIn(tokenCases()),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- §5.2 deduplication ------------------------------------------------------------------------

// §8 D.95, §9 item 6
TEST_F(FifoQueue, duplicateIsAcknowledgedWithOriginalIdAndSequenceNumber)
{
    createFifo();
    const SendResult first = sendDedup("g1", "first", "d");
    EXPECT_FALSE(first.deduplicated);
    clock.advance(1 * kSecond);
    const SendResult second = sendDedup("g1", "second", "d");

    EXPECT_TRUE(second.deduplicated);
    EXPECT_EQ(second.messageId, first.messageId);
    EXPECT_EQ(second.sequenceNumber, first.sequenceNumber);
    EXPECT_EQ(stats().available, 1);
    EXPECT_EQ(receiveBodies(10, 0), (Bodies{"first"}));
}

struct WindowCase {
    const char* name;
    Millis after;
    bool duplicate;
};

void PrintTo(const WindowCase& c, std::ostream* os)
{
    *os << c.name;
}

class FifoDedupWindow : public FifoQueue, public ::testing::WithParamInterface<WindowCase> {};

TEST_P(FifoDedupWindow, deduplicationWindowIsFiveMinutesFromFirstSend)
{
    createFifo();
    const SendResult first = sendDedup("g1", "first", "d");
    clock.advance(GetParam().after);
    const SendResult again = sendDedup("g1", "again", "d");

    EXPECT_EQ(again.deduplicated, GetParam().duplicate);
    if (GetParam().duplicate) {
        EXPECT_EQ(again.messageId, first.messageId);
        EXPECT_EQ(stats().available, 1);
    } else {
        EXPECT_NE(again.messageId, first.messageId);
        EXPECT_TRUE(numericallyLess(first.sequenceNumber, again.sequenceNumber));
        EXPECT_EQ(stats().available, 2);
    }
}

INSTANTIATE_TEST_SUITE_P(Window, FifoDedupWindow,
                         ::testing::Values(WindowCase{"immediately", 0, true},
                                           WindowCase{"oneMsBefore", kDedupWindow - 1, true},
                                           WindowCase{"exactlyAtWindow", kDedupWindow, false},
                                           WindowCase{"oneMsAfter", kDedupWindow + 1, false}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_F(FifoQueue, duplicateSendsDoNotExtendTheWindow)
{
    createFifo();
    const SendResult first = sendDedup("g1", "first", "d");
    clock.advance(200 * kSecond);
    EXPECT_TRUE(sendDedup("g1", "dup", "d").deduplicated);
    clock.advance(kDedupWindow - 200 * kSecond);
    const SendResult renewed = sendDedup("g1", "renewed", "d");
    EXPECT_FALSE(renewed.deduplicated) << "5 min after the first accepted send";
    EXPECT_NE(renewed.messageId, first.messageId);

    // The new window belongs to the renewed message.
    clock.advance(kDedupWindow - 1);
    const SendResult dup = sendDedup("g1", "dup2", "d");
    EXPECT_TRUE(dup.deduplicated);
    EXPECT_EQ(dup.messageId, renewed.messageId);
    EXPECT_EQ(dup.sequenceNumber, renewed.sequenceNumber);
}

// §8 D.91
TEST_F(FifoQueue, deduplicationSurvivesDelete)
{
    createFifo();
    const SendResult first = sendDedup("g1", "first", "d");
    const auto received = receive(1);
    ASSERT_EQ(bodiesOf(received), (Bodies{"first"}));
    deleteOk(received[0].receiptHandle);

    clock.advance(1 * kSecond);
    auto again = trySend("g1", "again", "d");
    ASSERT_TRUE(again.ok()) << describe(again.error());
    EXPECT_TRUE(again->deduplicated);
    EXPECT_EQ(again->messageId, first.messageId);
    EXPECT_TRUE(receive(10).empty());
    EXPECT_EQ(stats().available, 0);
}

TEST_F(FifoQueue, sameDeduplicationIdInAnotherGroupIsDuplicateWithQueueScope)
{
    createFifo();
    const SendResult first = sendDedup("g1", "first", "d");
    const SendResult other = sendDedup("g2", "other", "d");
    EXPECT_TRUE(other.deduplicated);
    EXPECT_EQ(other.messageId, first.messageId);
    EXPECT_EQ(receiveBodies(10, 0), (Bodies{"first"}));
}

// §8 D.93
TEST_F(FifoQueue, messageGroupScopeDeliversSameIdInAnotherGroup)
{
    createFifo(
        {{"DeduplicationScope", "messageGroup"}, {"FifoThroughputLimit", "perMessageGroupId"}});
    const SendResult first = sendDedup("group1", "first", "d");
    const auto received = receive(1);
    ASSERT_EQ(bodiesOf(received), (Bodies{"first"}));
    deleteOk(received[0].receiptHandle);

    const SendResult second = sendDedup("group2", "second", "d");
    EXPECT_FALSE(second.deduplicated);
    EXPECT_NE(second.messageId, first.messageId);
    EXPECT_EQ(receiveBodies(10), (Bodies{"second"}));

    // Within the same group the id is still a duplicate.
    const SendResult sameGroup = sendDedup("group1", "third", "d");
    EXPECT_TRUE(sameGroup.deduplicated);
    EXPECT_EQ(sameGroup.messageId, first.messageId);
}

TEST_F(FifoQueue, contentBasedDeduplicationIdIsSha256HexOfBody)
{
    createFifo({{"ContentBasedDeduplication", "true"}});
    sendContent("g1", "abc");
    ReceiveRequest request = receiveRequest(1);
    request.systemAttributeNames = {"MessageDeduplicationId"};
    const auto received = receive(request);
    ASSERT_EQ(received.size(), 1u);
    EXPECT_EQ(received[0].systemAttributes.at("MessageDeduplicationId"), kSha256Abc);
}

TEST_F(FifoQueue, explicitDeduplicationIdIsReturnedAsSystemAttribute)
{
    createFifo({{"ContentBasedDeduplication", "true"}});
    sendDedup("g1", "abc", "my-id");
    ReceiveRequest request = receiveRequest(1);
    request.systemAttributeNames = {"All"};
    const auto received = receive(request);
    ASSERT_EQ(received.size(), 1u);
    EXPECT_EQ(received[0].systemAttributes.at("MessageDeduplicationId"), "my-id");
}

TEST_F(FifoQueue, contentBasedDeduplicationIgnoresAttributes)
{
    createFifo({{"ContentBasedDeduplication", "true"}});
    SendMessageRequest request;
    request.queue = kQueue;
    request.body = "hello";
    request.groupId = "g1";
    request.attributes = {{"colour", MessageAttributeValue{"String", "red", ""}}};
    auto first = broker.sendMessage(request);
    ASSERT_TRUE(first.ok()) << describe(first.error());
    request.attributes = {{"colour", MessageAttributeValue{"String", "blue", ""}},
                          {"size", MessageAttributeValue{"Number", "3", ""}}};
    auto second = broker.sendMessage(request);
    ASSERT_TRUE(second.ok()) << describe(second.error());

    EXPECT_TRUE(second->deduplicated);
    EXPECT_EQ(second->messageId, first->messageId);
    EXPECT_EQ(stats().available, 1);

    // A different body is a different message.
    const SendResult other = sendContent("g1", "hello!");
    EXPECT_FALSE(other.deduplicated);
    EXPECT_EQ(stats().available, 2);
}

// §8 D.97
TEST_F(FifoQueue, explicitIdOverridesContentBasedDeduplication)
{
    createFifo({{"ContentBasedDeduplication", "true"}});
    const SendResult x = sendDedup("g1", "B", "x");
    const SendResult y = sendDedup("g1", "B", "y");
    EXPECT_FALSE(y.deduplicated);
    EXPECT_NE(y.messageId, x.messageId);
    // Without an explicit id the hash of B is the id, which is neither x nor y.
    const SendResult hashed = sendContent("g1", "B");
    EXPECT_FALSE(hashed.deduplicated);
    EXPECT_EQ(receiveBodies(10, 0), (Bodies{"B", "B", "B"}));

    // An explicit id repeated with another body is still a duplicate.
    const SendResult repeat = sendDedup("g1", "other body", "x");
    EXPECT_TRUE(repeat.deduplicated);
    EXPECT_EQ(repeat.messageId, x.messageId);
}

TEST_F(FifoQueue, explicitIdEqualToEarlierContentHashIsDuplicate)
{
    createFifo({{"ContentBasedDeduplication", "true"}});
    const SendResult hashed = sendContent("g1", "hello");
    const SendResult explicitId = sendDedup("g1", "something else", kSha256Hello);
    EXPECT_TRUE(explicitId.deduplicated);
    EXPECT_EQ(explicitId.messageId, hashed.messageId);
    EXPECT_EQ(explicitId.sequenceNumber, hashed.sequenceNumber);
    EXPECT_EQ(receiveBodies(10, 0), (Bodies{"hello"}));
}

TEST_F(FifoQueue, duplicateInsideOneBatchIsAcknowledgedWithFirstEntrysId)
{
    createFifo();
    std::vector<BatchSendEntry> entries(2);
    entries[0].id = "one";
    entries[0].message.body = "first";
    entries[0].message.groupId = "g1";
    entries[0].message.deduplicationId = "d";
    entries[1].id = "two";
    entries[1].message.body = "second";
    entries[1].message.groupId = "g1";
    entries[1].message.deduplicationId = "d";
    auto sent = broker.sendMessageBatch(kQueue, entries, "test");
    ASSERT_TRUE(sent.ok()) << describe(sent.error());
    ASSERT_EQ(sent->successful.size(), 2u);
    EXPECT_TRUE(sent->failed.empty());
    EXPECT_FALSE(sent->successful[0].result.deduplicated);
    EXPECT_TRUE(sent->successful[1].result.deduplicated);
    EXPECT_EQ(sent->successful[1].result.messageId, sent->successful[0].result.messageId);
    EXPECT_EQ(receiveBodies(10, 0), (Bodies{"first"}));
}

TEST_F(FifoQueue, purgeClearsDeduplicationHistory)
{
    createFifo();
    const SendResult first = sendDedup("g1", "first", "d");
    Status purged = broker.purgeQueue(kQueue, PurgeTarget::Normal, "test");
    ASSERT_TRUE(purged.ok()) << describe(purged.error());

    const SendResult again = sendDedup("g1", "again", "d");
    EXPECT_FALSE(again.deduplicated);
    EXPECT_NE(again.messageId, first.messageId);
    EXPECT_EQ(receiveBodies(10), (Bodies{"again"}));
}

// ---- §5.3 ReceiveRequestAttemptId ---------------------------------------------------------------

// §8 D.99
TEST_F(FifoQueue, retryWithSameAttemptIdReturnsSameMessagesAndHandles)
{
    createFifo();
    send("g1", "g1-a");
    send("g1", "g1-b");
    send("g2", "g2-a");
    const auto first = receive(5, std::nullopt, "A");
    ASSERT_EQ(first.size(), 3u);

    const auto replay = receive(5, std::nullopt, "A");
    EXPECT_EQ(bodiesOf(replay), bodiesOf(first));
    EXPECT_EQ(handlesOf(replay), handlesOf(first));

    EXPECT_TRUE(receive(5).empty()) << "without the token: nothing from those groups";
    EXPECT_TRUE(receive(5, std::nullopt, "B").empty()) << "another token is a new receive";
}

TEST_F(FifoQueue, attemptReplayRestartsVisibilityTimeout)
{
    createFifo({{"VisibilityTimeout", "30"}});
    send("g1", "a");
    send("g1", "b");
    const Millis t0 = clock.now();
    const auto first = receive(5, std::nullopt, "A");
    ASSERT_EQ(bodiesOf(first), (Bodies{"a", "b"}));

    clock.advance(20 * kSecond);
    const auto replay = receive(5, std::nullopt, "A");
    ASSERT_EQ(handlesOf(replay), handlesOf(first));
    for (const ReceivedMessage& m : replay)
        EXPECT_EQ(m.visibleAt, t0 + 50 * kSecond) << m.body;

    clock.advance(30 * kSecond - 1);
    EXPECT_TRUE(receive(5).empty()) << "the replay restarted the 30 s visibility";
    clock.advance(1);
    EXPECT_EQ(receiveBodies(5), (Bodies{"a", "b"}));
}

// §9 item 5: the engine's choice (spec recommendation): a replay is the same receive.
TEST_F(FifoQueue, attemptReplayDoesNotIncrementReceiveCount)
{
    createFifo({{"VisibilityTimeout", "30"}});
    send("g1", "a");
    ReceiveRequest request = receiveRequest(5, std::nullopt, "A");
    request.systemAttributeNames = {"ApproximateReceiveCount"};
    ASSERT_EQ(receive(request).size(), 1u);
    for (int i = 0; i < 2; ++i) {
        const auto replay = receive(request);
        ASSERT_EQ(replay.size(), 1u);
        EXPECT_EQ(replay[0].receiveCount, 1u);
        EXPECT_EQ(replay[0].systemAttributes.at("ApproximateReceiveCount"), "1");
    }
    clock.advance(30 * kSecond);
    request.receiveRequestAttemptId.reset();
    const auto next = receive(request);
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(next[0].systemAttributes.at("ApproximateReceiveCount"), "2");
}

TEST_F(FifoQueue, replayedHandlesStillDelete)
{
    createFifo();
    send("g1", "a");
    send("g1", "b");
    ASSERT_EQ(receive(5, std::nullopt, "A").size(), 2u);
    clock.advance(5 * kSecond);
    const auto replay = receive(5, std::nullopt, "A");
    ASSERT_EQ(replay.size(), 2u);
    for (const ReceivedMessage& m : replay)
        deleteOk(m.receiptHandle);
    EXPECT_EQ(stats().available + stats().inFlight, 0);
}

// After a modification the token is unknown (§5.3 recommendation; §9 item 5): a normal receive,
// which finds the g1 messages blocked and returns the g2 message sent since.
TEST_F(FifoQueue, attemptIdAfterDeleteActsAsUnknown)
{
    createFifo();
    send("g1", "a");
    send("g1", "b");
    const auto first = receive(5, std::nullopt, "A");
    ASSERT_EQ(bodiesOf(first), (Bodies{"a", "b"}));
    clock.advance(1 * kSecond);
    send("g2", "later");
    deleteOk(first[0].receiptHandle);

    const auto retry = receive(5, std::nullopt, "A");
    EXPECT_EQ(bodiesOf(retry), (Bodies{"later"}));
}

TEST_F(FifoQueue, attemptIdAfterVisibilityChangeActsAsUnknown)
{
    createFifo();
    send("g1", "a");
    send("g1", "b");
    const auto first = receive(5, std::nullopt, "A");
    ASSERT_EQ(bodiesOf(first), (Bodies{"a", "b"}));
    clock.advance(1 * kSecond);
    send("g2", "later");
    changeVisibilityOk(first[1].receiptHandle, 60);

    const auto retry = receive(5, std::nullopt, "A");
    EXPECT_EQ(bodiesOf(retry), (Bodies{"later"}));
}

// A ChangeMessageVisibility is a modification even when the new deadline equals the old one
// (received at t0 with 30 s, changed at t0+10 s to 20 s).
TEST_F(FifoQueue, attemptIdAfterVisibilityChangeToSameDeadlineActsAsUnknown)
{
    createFifo({{"VisibilityTimeout", "30"}});
    send("g1", "a");
    send("g1", "b");
    const auto first = receive(5, std::nullopt, "A");
    ASSERT_EQ(bodiesOf(first), (Bodies{"a", "b"}));
    clock.advance(10 * kSecond);
    send("g2", "later");
    changeVisibilityOk(first[0].receiptHandle, 20);

    const auto retry = receive(5, std::nullopt, "A");
    EXPECT_EQ(bodiesOf(retry), (Bodies{"later"}));
}

TEST_F(FifoQueue, attemptIdAfterReleaseActsAsUnknown)
{
    createFifo();
    send("g1", "a");
    send("g1", "b");
    const auto first = receive(5, std::nullopt, "A");
    ASSERT_EQ(first.size(), 2u);
    changeVisibilityOk(first[0].receiptHandle, 0);
    changeVisibilityOk(first[1].receiptHandle, 0);

    const auto retry = receive(5, std::nullopt, "A");
    ASSERT_EQ(bodiesOf(retry), (Bodies{"a", "b"}));
    for (std::size_t i = 0; i < retry.size(); ++i) {
        EXPECT_NE(retry[i].receiptHandle, first[i].receiptHandle) << "a new receive, new handles";
        EXPECT_EQ(retry[i].receiveCount, 2u);
    }
}

struct AttemptWindowCase {
    const char* name;
    Millis after;
    bool replays;
};

void PrintTo(const AttemptWindowCase& c, std::ostream* os)
{
    *os << c.name;
}

class FifoAttemptWindow : public FifoQueue,
                          public ::testing::WithParamInterface<AttemptWindowCase> {};

TEST_P(FifoAttemptWindow, attemptIdIsValidForFiveMinutesAfterTheReceive)
{
    createFifo({{"VisibilityTimeout", "600"}});
    send("g1", "a");
    send("g1", "b");
    const auto first = receive(5, std::nullopt, "A");
    ASSERT_EQ(bodiesOf(first), (Bodies{"a", "b"}));
    send("g2", "later");

    clock.advance(GetParam().after);
    const auto retry = receive(5, std::nullopt, "A");
    if (GetParam().replays) {
        EXPECT_EQ(bodiesOf(retry), (Bodies{"a", "b"}));
        EXPECT_EQ(handlesOf(retry), handlesOf(first));
    } else {
        EXPECT_EQ(bodiesOf(retry), (Bodies{"later"})) << "an expired token is a normal receive";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Window, FifoAttemptWindow,
    ::testing::Values(AttemptWindowCase{"oneMsBefore", kAttemptWindow - 1, true},
                      AttemptWindowCase{"exactlyAtWindow", kAttemptWindow, false},
                      AttemptWindowCase{"oneMsAfter", kAttemptWindow + 1, false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(FifoQueue, standardQueueIgnoresAttemptId)
{
    CreateQueueRequest create;
    create.name = "plain";
    ASSERT_TRUE(broker.createQueue(create).ok());
    for (const char* body : {"m1", "m2"}) {
        SendMessageRequest request;
        request.queue = "plain";
        request.body = body;
        ASSERT_TRUE(broker.sendMessage(request).ok());
    }
    ReceiveRequest request;
    request.queue = "plain";
    request.maxMessages = 1;
    request.receiveRequestAttemptId = "A";
    auto first = broker.receiveMessage(request);
    ASSERT_TRUE(first.ok()) << describe(first.error());
    auto second = broker.receiveMessage(request);
    ASSERT_TRUE(second.ok()) << describe(second.error());
    ASSERT_EQ(first->messages.size(), 1u);
    ASSERT_EQ(second->messages.size(), 1u);
    EXPECT_NE(second->messages[0].messageId, first->messages[0].messageId) << "no replay";
}

// ---- in-flight limit and fairness (§1.3, §4.3) -----------------------------------------------------

class FifoQueueInFlightLimit : public FifoQueue {
protected:
    static BrokerOptions limited()
    {
        BrokerOptions options;
        options.inFlightLimitFifo = 3;
        return options;
    }
    FifoQueueInFlightLimit() : FifoQueue(limited()) {}
};

TEST_F(FifoQueueInFlightLimit, atTheLimitNothingIsReturnedAndNoError)
{
    createFifo();
    for (const char* group : {"g1", "g2", "g3", "g4", "g5"})
        send(group, std::string(group) + "-m1");
    send("g1", "g1-m2");

    EXPECT_EQ(receive(2).size(), 2u);
    EXPECT_EQ(receive(10).size(), 1u) << "one below the limit: only one more";
    EXPECT_EQ(stats().inFlight, 3);

    auto atLimit = broker.receiveMessage(receiveRequest(10));
    ASSERT_TRUE(atLimit.ok()) << describe(atLimit.error());
    EXPECT_TRUE(atLimit->messages.empty());
    ReceiveRequest longPoll = receiveRequest(10);
    longPoll.waitTimeSeconds = 1;
    auto atLimitLong = broker.receiveMessage(longPoll);
    ASSERT_TRUE(atLimitLong.ok()) << describe(atLimitLong.error());
    EXPECT_TRUE(atLimitLong->messages.empty());
    EXPECT_EQ(stats().available, 3);
}

TEST_F(FifoQueueInFlightLimit, deletingBelowTheLimitAllowsReceiving)
{
    createFifo();
    for (const char* group : {"g1", "g2", "g3", "g4"})
        send(group, std::string(group) + "-m1");
    const auto first = receive(10);
    ASSERT_EQ(first.size(), 3u);
    ASSERT_TRUE(receive(10).empty());

    deleteOk(first[0].receiptHandle);
    EXPECT_EQ(receive(10).size(), 1u);
}

TEST_F(FifoQueue, thousandGroupsAreAllServedOverSuccessiveReceives)
{
    createFifo();
    constexpr int kGroups = 1000;
    for (int i = 0; i < kGroups; ++i)
        send("group-" + std::to_string(i), "m-" + std::to_string(i));

    std::set<std::string> served;
    for (int round = 0; round < kGroups / 10; ++round) {
        const auto received = receive(10);
        ASSERT_EQ(received.size(), 10u) << "round " << round;
        for (const ReceivedMessage& m : received)
            EXPECT_TRUE(served.insert(m.groupId).second) << m.groupId << " served twice";
    }
    EXPECT_EQ(served.size(), static_cast<std::size_t>(kGroups));
    EXPECT_TRUE(receive(10).empty());
    EXPECT_EQ(stats().inFlight, kGroups);
}

// ---- long poll on FIFO -------------------------------------------------------------------------

TEST_F(FifoQueue, longPollIsAnsweredWhenDeleteUnblocksGroup)
{
    createFifo();
    send("g1", "m1");
    send("g1", "m2");
    const auto head = receive(1);
    ASSERT_EQ(bodiesOf(head), (Bodies{"m1"}));

    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest request = receiveRequest(10);
    request.waitTimeSeconds = 20;
    const WaitId id = broker.receiveMessageAsync(
        request, [&](Result<ReceiveResult> r) { answer.emplace(std::move(r)); });
    EXPECT_NE(id, 0u);
    EXPECT_FALSE(answer.has_value()) << "the only group is blocked";

    send("g1", "m3");
    EXPECT_FALSE(answer.has_value()) << "a send to the blocked group does not answer";
    clock.advance(5 * kSecond);
    broker.advance();
    EXPECT_FALSE(answer.has_value());

    deleteOk(head[0].receiptHandle);
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok()) << describe(answer->error());
    EXPECT_EQ(bodiesOf((*answer)->messages), (Bodies{"m2", "m3"}));
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

TEST_F(FifoQueue, longPollIsAnsweredWhenHeadVisibilityExpires)
{
    createFifo({{"VisibilityTimeout", "30"}});
    send("g1", "m1");
    ASSERT_EQ(receive(1).size(), 1u);
    clock.advance(15 * kSecond);

    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest request = receiveRequest(10);
    request.waitTimeSeconds = 20;
    broker.receiveMessageAsync(request,
                               [&](Result<ReceiveResult> r) { answer.emplace(std::move(r)); });
    ASSERT_FALSE(answer.has_value());

    clock.advance(15 * kSecond - 1);
    broker.advance();
    EXPECT_FALSE(answer.has_value());
    clock.advance(1);
    broker.advance();
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok());
    ASSERT_EQ(bodiesOf((*answer)->messages), (Bodies{"m1"}));
    EXPECT_EQ((*answer)->messages[0].receiveCount, 2u);
}

TEST_F(FifoQueue, longPollIsAnsweredWhenSendReachesAnUnblockedGroup)
{
    createFifo();
    send("g1", "m1");
    ASSERT_EQ(receive(1).size(), 1u);

    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest request = receiveRequest(10);
    request.waitTimeSeconds = 20;
    broker.receiveMessageAsync(request,
                               [&](Result<ReceiveResult> r) { answer.emplace(std::move(r)); });
    ASSERT_FALSE(answer.has_value());

    send("g2", "other");
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok());
    EXPECT_EQ(bodiesOf((*answer)->messages), (Bodies{"other"}));
}

} // namespace
} // namespace inflight::engine
