// The OCI Queue consumption profile (spec §6, §8 G.121–G.131, §9 item 10): defaults, GetMessages
// limits, long polling, visibility-0 peeks, the delivery-count DLQ, channels, UpdateMessage,
// batches, retention stamps, purge targets and the PutMessages rules.

#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

constexpr Millis kStart = 1'700'000'000'000;

class Oci : public EngineTest {
protected:
    SendResult put(const std::string& queue, const std::string& body,
                   std::optional<std::string> channel = std::nullopt)
    {
        return send(
            SendMessageRequest{.queue = queue, .body = body, .channelId = std::move(channel)});
    }

    // The name of the queue's built-in DLQ.
    std::string dlqOf(const std::string& queue)
    {
        auto view = broker.queueView(queue);
        EXPECT_TRUE(view.ok());
        return view.ok() ? view->deadLetterTarget : std::string();
    }
};

// A GetMessages request; short poll unless a timeout is given.
ReceiveRequest get(const std::string& queue, std::optional<std::int64_t> limit = std::nullopt,
                   std::optional<std::int64_t> visibility = std::nullopt,
                   std::optional<std::int64_t> timeout = 0)
{
    ReceiveRequest request;
    request.queue = queue;
    request.maxMessages = limit;
    request.visibilityTimeout = visibility;
    request.waitTimeSeconds = timeout;
    return request;
}

// ---- defaults (§6.2) ---------------------------------------------------------------------------

TEST_F(Oci, newQueueHasOciDefaults)
{
    const QueueRef ref = createOci("orders");
    EXPECT_EQ(ref.kind, QueueKind::Oci);
    EXPECT_EQ(broker.queueKind("orders").value(), QueueKind::Oci); // as getQueue says
    EXPECT_EQ(broker.queueKind("other").error().code, ErrorCode::QueueDoesNotExist);
    auto attributes = broker.getQueueAttributes("orders", {"All"});
    ASSERT_TRUE(attributes.ok());
    EXPECT_EQ(attributes->at("visibilityInSeconds"), "30");
    EXPECT_EQ(attributes->at("timeoutInSeconds"), "30");
    EXPECT_EQ(attributes->at("retentionInSeconds"),
              "86400"); // BrokerOptions::ociDefaultRetentionSeconds
    EXPECT_EQ(attributes->at("deadLetterQueueDeliveryCount"), "0");
    EXPECT_EQ(attributes->at("channelConsumptionLimit"), "100");
    EXPECT_EQ(attributes->at("maxMessageSizeInBytes"),
              "131072"); // BrokerOptions::ociMaxMessageSize
}

TEST_F(Oci, defaultRetentionFollowsBrokerOption)
{
    BrokerOptions options;
    options.ociDefaultRetentionSeconds = 3600;
    restart(options);
    createOci("orders");
    auto attributes = broker.getQueueAttributes("orders", {"retentionInSeconds"});
    ASSERT_TRUE(attributes.ok());
    EXPECT_EQ(attributes->at("retentionInSeconds"), "3600");
    const SendResult sent = put("orders", "m");
    EXPECT_EQ(sent.expiresAt, sent.sentAt + 3600 * kSecond);
}

TEST_F(Oci, receiveUsesQueueDefaultVisibilityOf30Seconds)
{
    createOci("orders");
    put("orders", "m");
    const auto first = receive(get("orders"));
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].visibleAt, kStart + 30 * kSecond);
    clock.advance(30 * kSecond - 1);
    EXPECT_TRUE(receive(get("orders")).empty());
    clock.advance(1);
    const auto again = receive(get("orders"));
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].receiveCount, 2u);
}

TEST_F(Oci, deliveryCountZeroMeansNoDeadLetterQueue)
{
    createOci("orders");
    put("orders", "m");
    for (std::uint32_t delivery = 1; delivery <= 25; ++delivery) {
        const auto got = receive(get("orders", 1, 1));
        ASSERT_EQ(got.size(), 1u) << "delivery " << delivery;
        EXPECT_EQ(got[0].receiveCount, delivery);
        clock.advance(kSecond);
    }
    EXPECT_EQ(stats(dlqOf("orders")).available, 0);
    EXPECT_EQ(broker.queueView("orders")->maxReceiveCount, 0);
}

// ---- GetMessages limit (§6.3, case 121) --------------------------------------------------------

TEST_F(Oci, limitAbove20IsInvalidParameterValue)
{
    createOci("orders");
    auto r = broker.receiveMessage(get("orders", 21));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().parameter, "limit");
}

TEST_F(Oci, limitBelowOneIsInvalidParameterValue)
{
    createOci("orders");
    auto r = broker.receiveMessage(get("orders", 0));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().parameter, "limit");
}

TEST_F(Oci, limitOf20With30MessagesReturns20)
{
    createOci("orders");
    for (int i = 0; i < 30; ++i)
        put("orders", "m" + std::to_string(i));
    EXPECT_EQ(receive(get("orders", 20)).size(), 20u);
    EXPECT_EQ(receive(get("orders", 20)).size(), 10u);
}

TEST_F(Oci, limitAbsentReturnsOneMessage)
{
    createOci("orders");
    for (int i = 0; i < 3; ++i)
        put("orders", "m" + std::to_string(i));
    EXPECT_EQ(receive(get("orders")).size(), 1u);
}

TEST_F(Oci, clampLimitOptionClampsLimitTo20)
{
    BrokerOptions options;
    options.ociClampLimit = true;
    restart(options);
    createOci("orders");
    for (int i = 0; i < 30; ++i)
        put("orders", "m" + std::to_string(i));
    auto r = broker.receiveMessage(get("orders", 21));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->messages.size(), 20u);
}

// ---- timeoutInSeconds and visibilityInSeconds ranges (§6.3, case 123) --------------------------

TEST_F(Oci, timeoutInSecondsAbove30IsRejected)
{
    createOci("orders");
    auto r = broker.receiveMessage(get("orders", 1, std::nullopt, 31));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().parameter, "timeoutInSeconds");
    auto negative = broker.receiveMessage(get("orders", 1, std::nullopt, -1));
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().code, ErrorCode::InvalidParameterValue);
}

TEST_F(Oci, timeoutInSecondsOf30And0AreAccepted)
{
    createOci("orders");
    EXPECT_TRUE(broker.receiveMessage(get("orders", 1, std::nullopt, 30)).ok());
    EXPECT_TRUE(broker.receiveMessage(get("orders", 1, std::nullopt, 0)).ok());
}

TEST_F(Oci, visibilityInSecondsAbove43200IsRejected)
{
    createOci("orders");
    put("orders", "m");
    auto r = broker.receiveMessage(get("orders", 1, 43'201));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().parameter, "visibilityInSeconds");
    auto negative = broker.receiveMessage(get("orders", 1, -1));
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().code, ErrorCode::InvalidParameterValue);
}

TEST_F(Oci, visibilityInSecondsOf43200IsAccepted)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 43'200));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].visibleAt, kStart + 43'200 * kSecond);
}

// ---- long polling (§6.3) -----------------------------------------------------------------------

TEST_F(Oci, receiveWithoutTimeoutLongPollsFor30Seconds)
{
    createOci("orders");
    std::optional<Result<ReceiveResult>> answer;
    const WaitId id
        = broker.receiveMessageAsync(get("orders", 1, std::nullopt, std::nullopt),
                                     [&](Result<ReceiveResult> r) { answer = std::move(r); });
    EXPECT_NE(id, 0u);
    EXPECT_FALSE(answer.has_value());
    EXPECT_EQ(broker.pendingWaits(), 1u);
    EXPECT_EQ(broker.nextDeadline(), kStart + 30 * kSecond);

    clock.advance(30 * kSecond - 1);
    broker.advance();
    EXPECT_FALSE(answer.has_value());

    clock.advance(1);
    broker.advance();
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok());
    EXPECT_TRUE((*answer)->messages.empty());
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

TEST_F(Oci, queueTimeoutAttributeSetsTheDefaultWait)
{
    createOci("orders", {{"timeoutInSeconds", "5"}});
    std::optional<Result<ReceiveResult>> answer;
    broker.receiveMessageAsync(get("orders", 1, std::nullopt, std::nullopt),
                               [&](Result<ReceiveResult> r) { answer = std::move(r); });
    EXPECT_EQ(broker.nextDeadline(), kStart + 5 * kSecond);
    clock.advance(5 * kSecond);
    broker.advance();
    ASSERT_TRUE(answer.has_value());
    EXPECT_TRUE((*answer)->messages.empty());
}

TEST_F(Oci, longPollReturnsAsSoonAsAMessageArrives)
{
    createOci("orders");
    std::optional<Result<ReceiveResult>> answer;
    broker.receiveMessageAsync(get("orders", 5, std::nullopt, std::nullopt),
                               [&](Result<ReceiveResult> r) { answer = std::move(r); });
    clock.advance(7 * kSecond);
    put("orders", "late");
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok());
    EXPECT_EQ(bodiesOf((*answer)->messages), std::vector<std::string>{"late"});
}

TEST_F(Oci, timeoutZeroReturnsAtOnce)
{
    createOci("orders");
    std::optional<Result<ReceiveResult>> answer;
    const WaitId id = broker.receiveMessageAsync(
        get("orders", 1, std::nullopt, 0), [&](Result<ReceiveResult> r) { answer = std::move(r); });
    EXPECT_EQ(id, 0u);
    ASSERT_TRUE(answer.has_value());
    EXPECT_TRUE((*answer)->messages.empty());
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

// ---- visibility 0: a peek that counts (§6.3) ---------------------------------------------------

TEST_F(Oci, visibilityZeroLeavesMessageVisibleButCountsTheDelivery)
{
    createOci("orders");
    put("orders", "m");
    const auto first = receive(get("orders", 1, 0));
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].receiveCount, 1u);
    const QueueStats counts = stats("orders");
    EXPECT_EQ(counts.available, 1);
    EXPECT_EQ(counts.inFlight, 0);
    const auto second = receive(get("orders", 1, 0));
    ASSERT_EQ(second.size(), 1u);
    EXPECT_EQ(second[0].receiveCount, 2u);
    EXPECT_EQ(second[0].messageId, first[0].messageId);
}

TEST_F(Oci, visibilityZeroNeverReturnsTheSameMessageTwiceInOneResponse)
{
    createOci("orders");
    put("orders", "a");
    put("orders", "b");
    const auto got = receive(get("orders", 20, 0));
    EXPECT_EQ(bodiesOf(got), (std::vector<std::string>{"a", "b"}));
}

TEST_F(Oci, visibilityZeroDeliveriesCountTowardsTheDeliveryLimit)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "2"}});
    put("orders", "m");
    EXPECT_EQ(receive(get("orders", 1, 0)).size(), 1u);
    EXPECT_EQ(receive(get("orders", 1, 0)).size(), 1u);
    EXPECT_TRUE(receive(get("orders", 1, 0)).empty());
    EXPECT_EQ(stats(dlqOf("orders")).available, 1);
}

// ---- delivery-count DLQ (§6.3, case 125) -------------------------------------------------------

TEST_F(Oci, messageDeliveredAtMostDeliveryCountTimesThenMovedToBuiltInDlq)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "2"}});
    put("orders", "poison");
    const auto first = receive(get("orders", 1, 10));
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].receiveCount, 1u);
    clock.advance(10 * kSecond);
    const auto second = receive(get("orders", 1, 10));
    ASSERT_EQ(second.size(), 1u); // the N-th delivery still happens
    EXPECT_EQ(second[0].receiveCount, 2u);
    clock.advance(10 * kSecond);
    EXPECT_TRUE(receive(get("orders", 1, 10)).empty());

    const std::string dlq = dlqOf("orders");
    ASSERT_FALSE(dlq.empty());
    EXPECT_EQ(stats(dlq).available, 1);
    const QueueStats source = stats("orders");
    EXPECT_EQ(source.available + source.inFlight + source.delayed, 0);
    EXPECT_EQ(source.movedToDeadLetter, 1);
    auto parked = broker.peekMessages(dlq);
    ASSERT_TRUE(parked.ok());
    ASSERT_EQ(parked->size(), 1u);
    EXPECT_EQ((*parked)[0].body, "poison");
}

TEST_F(Oci, deliveryCountOneMovesOnTheSecondReceive)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "1"}});
    put("orders", "m");
    EXPECT_EQ(receive(get("orders", 1, 10)).size(), 1u);
    clock.advance(10 * kSecond - 1);
    EXPECT_TRUE(receive(get("orders", 1, 10)).empty()); // still in flight
    EXPECT_EQ(stats(dlqOf("orders")).available, 0);
    clock.advance(1);
    EXPECT_TRUE(receive(get("orders", 1, 10)).empty()); // moved instead of delivered
    EXPECT_EQ(stats(dlqOf("orders")).available, 1);
}

TEST_F(Oci, dlqMoveContinuesWithTheNextMessage)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "1"}});
    put("orders", "poison");
    EXPECT_EQ(receive(get("orders", 1, 10)).size(), 1u);
    put("orders", "fresh");
    clock.advance(10 * kSecond);
    EXPECT_EQ(bodiesOf(receive(get("orders", 1, 10))), std::vector<std::string>{"fresh"});
}

TEST_F(Oci, dlqMoveInOneChannelDoesNotHideMessagesOfOtherChannels)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "1"}});
    put("orders", "poison", "a");
    auto first = get("orders", 1, 10);
    first.channelFilter = "a";
    EXPECT_EQ(receive(first).size(), 1u);
    clock.advance(10 * kSecond); // "poison" is available again, due for the DLQ
    put("orders", "good", "b");
    // Channel a is empty once its message moved; b has a message: a receive must not come back
    // empty-handed (§6.3: messages from a non-empty channel; §7A: move and keep filling).
    EXPECT_EQ(bodiesOf(receive(get("orders", 1, 10))), std::vector<std::string>{"good"});
    EXPECT_EQ(stats(dlqOf("orders")).available, 1);
}

TEST_F(Oci, dlqMoveInOneChannelDoesNotDelayALongPoll)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "1"}});
    put("orders", "poison", "a");
    auto first = get("orders", 1, 10);
    first.channelFilter = "a";
    EXPECT_EQ(receive(first).size(), 1u);
    clock.advance(10 * kSecond);
    put("orders", "good", "b");
    std::optional<Result<ReceiveResult>> answer;
    broker.receiveMessageAsync(get("orders", 1, 10, std::nullopt),
                               [&](Result<ReceiveResult> r) { answer = std::move(r); });
    ASSERT_TRUE(answer.has_value())
        << "a long poll must return at once when a message is available";
    EXPECT_EQ(bodiesOf((*answer)->messages), std::vector<std::string>{"good"});
}

TEST_F(Oci, queueViewNamesTheBuiltInDlq)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "3"}});
    auto view = broker.queueView("orders");
    ASSERT_TRUE(view.ok());
    EXPECT_FALSE(view->deadLetterTarget.empty());
    EXPECT_EQ(view->maxReceiveCount, 3);
    EXPECT_FALSE(view->isBuiltInDeadLetterQueue);

    auto dlq = broker.queueView(view->deadLetterTarget);
    ASSERT_TRUE(dlq.ok());
    EXPECT_TRUE(dlq->isBuiltInDeadLetterQueue);
    EXPECT_EQ(dlq->deadLetterSources, std::vector<std::string>{"orders"});

    const auto all = broker.queues();
    const auto listed = std::find_if(all.begin(), all.end(), [&](const QueueView& q) {
        return q.name == view->deadLetterTarget;
    });
    ASSERT_NE(listed, all.end());
    EXPECT_TRUE(listed->isBuiltInDeadLetterQueue);

    auto names = broker.listQueues({});
    ASSERT_TRUE(names.ok());
    EXPECT_EQ(names->names, std::vector<std::string>{"orders"});
}

TEST_F(Oci, deletingTheQueueDeletesItsDlq)
{
    createOci("orders");
    const std::string dlq = dlqOf("orders");
    ASSERT_TRUE(broker.deleteQueue("orders", "test").ok());
    EXPECT_TRUE(broker.queues().empty());
    EXPECT_EQ(broker.queueView(dlq).error().code, ErrorCode::QueueDoesNotExist);
}

TEST_F(Oci, loweringDeliveryCountDoesNotMoveInFlightMessages)
{
    createOci("orders", {{"deadLetterQueueDeliveryCount", "5"}});
    put("orders", "m");
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(receive(get("orders", 1, 10)).size(), 1u);
        if (i < 2)
            clock.advance(10 * kSecond);
    }
    ASSERT_TRUE(
        broker.setQueueAttributes("orders", {{"deadLetterQueueDeliveryCount", "2"}}, "test").ok());
    auto peeked = broker.peekMessages("orders");
    ASSERT_TRUE(peeked.ok());
    ASSERT_EQ(peeked->size(), 1u);
    EXPECT_EQ((*peeked)[0].state, MessageState::InFlight);
    EXPECT_EQ(stats(dlqOf("orders")).available, 0);
    EXPECT_EQ(stats("orders").movedToDeadLetter, 0);

    // Once its visibility lapses, the next receive applies the new maximum.
    clock.advance(10 * kSecond);
    EXPECT_TRUE(receive(get("orders", 1, 10)).empty());
    EXPECT_EQ(stats(dlqOf("orders")).available, 1);
}

TEST_F(Oci, deliveryCountAbove20IsRejectedAtCreate)
{
    CreateQueueRequest request;
    request.name = "orders";
    request.oci = true;
    request.attributes = {{"deadLetterQueueDeliveryCount", "21"}};
    auto r = broker.createQueue(request);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidAttributeValue);
    request.attributes = {{"deadLetterQueueDeliveryCount", "20"}};
    EXPECT_TRUE(broker.createQueue(request).ok());
}

// ---- channels (§6.3) ---------------------------------------------------------------------------

TEST_F(Oci, channelIdPlacesTheMessageInThatChannel)
{
    createOci("orders");
    put("orders", "m", "eu");
    auto peeked = broker.peekMessages("orders");
    ASSERT_TRUE(peeked.ok());
    ASSERT_EQ(peeked->size(), 1u);
    EXPECT_EQ((*peeked)[0].channelId, "eu");
    auto stats = broker.channelStats("orders", "eu");
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->available, 1);
    const auto got = receive(get("orders"));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].channelId, "eu");
}

TEST_F(Oci, channelFilterReturnsOnlyThatChannel)
{
    createOci("orders");
    put("orders", "a1", "a");
    put("orders", "b1", "b");
    put("orders", "a2", "a");
    put("orders", "ab1", "ab");
    auto onlyB = get("orders", 20);
    onlyB.channelFilter = "b";
    EXPECT_EQ(bodiesOf(receive(onlyB)), std::vector<std::string>{"b1"});
    auto onlyA = get("orders", 20);
    onlyA.channelFilter = "a"; // exact match: not "ab"
    EXPECT_EQ(bodiesOf(receive(onlyA)), (std::vector<std::string>{"a1", "a2"}));
    auto unknown = get("orders", 20);
    unknown.channelFilter = "zz";
    EXPECT_TRUE(receive(unknown).empty());
}

TEST_F(Oci, receivesWithoutFilterTakeTurnsAmongNonEmptyChannels)
{
    createOci("orders");
    for (int i = 0; i < 3; ++i) {
        put("orders", "a" + std::to_string(i), "a");
        put("orders", "b" + std::to_string(i), "b");
    }
    std::multiset<std::string> channels;
    for (int i = 0; i < 2; ++i) {
        const auto got = receive(get("orders", 1));
        ASSERT_EQ(got.size(), 1u);
        channels.insert(got[0].channelId);
    }
    EXPECT_EQ(channels, (std::multiset<std::string>{"a", "b"}));
    for (int i = 0; i < 4; ++i) {
        const auto got = receive(get("orders", 1));
        ASSERT_EQ(got.size(), 1u);
        channels.insert(got[0].channelId);
    }
    EXPECT_EQ(channels.count("a"), 3u);
    EXPECT_EQ(channels.count("b"), 3u);
}

TEST_F(Oci, messagesWithoutChannelTakeTheirTurnToo)
{
    createOci("orders");
    put("orders", "x");
    put("orders", "a1", "a");
    put("orders", "y");
    put("orders", "a2", "a");
    std::multiset<std::string> channels;
    for (int i = 0; i < 2; ++i) {
        const auto got = receive(get("orders", 1));
        ASSERT_EQ(got.size(), 1u);
        channels.insert(got[0].channelId);
    }
    EXPECT_EQ(channels, (std::multiset<std::string>{"", "a"}));
}

TEST_F(Oci, longPollWithChannelFilterWaitsForThatChannel)
{
    createOci("orders");
    std::optional<Result<ReceiveResult>> answer;
    auto request = get("orders", 5, std::nullopt, 20);
    request.channelFilter = "b";
    broker.receiveMessageAsync(request, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    put("orders", "a1", "a");
    EXPECT_FALSE(answer.has_value());
    clock.advance(kSecond);
    put("orders", "b1", "b");
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(bodiesOf((*answer)->messages), std::vector<std::string>{"b1"});
    EXPECT_EQ(stats("orders").available, 1);
}

TEST_F(Oci, channelStatsCountsOneChannel)
{
    createOci("orders");
    put("orders", "12345", "a");
    put("orders", "123", "a");
    put("orders", "x", "b");
    auto onlyA = get("orders", 1);
    onlyA.channelFilter = "a";
    ASSERT_EQ(receive(onlyA).size(), 1u);

    auto a = broker.channelStats("orders", "a");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->available, 1);
    EXPECT_EQ(a->inFlight, 1);
    EXPECT_EQ(a->sizeInBytes, 8);
    auto b = broker.channelStats("orders", "b");
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->available, 1);
    EXPECT_EQ(b->inFlight, 0);
    EXPECT_EQ(b->sizeInBytes, 1);
}

TEST_F(Oci, listChannelsListsNonEmptyChannelsByPrefixSorted)
{
    createOci("orders");
    put("orders", "m", "beta");
    put("orders", "m", "alpha");
    put("orders", "m", "alp2");
    put("orders", "m", "gamma");
    auto all = broker.listChannels("orders", "");
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(*all, (std::vector<std::string>{"alp2", "alpha", "beta", "gamma"}));
    auto alp = broker.listChannels("orders", "alp");
    ASSERT_TRUE(alp.ok());
    EXPECT_EQ(*alp, (std::vector<std::string>{"alp2", "alpha"}));

    auto onlyBeta = get("orders", 1);
    onlyBeta.channelFilter = "beta";
    const auto got = receive(onlyBeta);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.deleteMessage("orders", got[0].receiptHandle, "test").ok());
    auto after = broker.listChannels("orders", "");
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(*after, (std::vector<std::string>{"alp2", "alpha", "gamma"}));
}

TEST_F(Oci, channelWithOnlyInFlightMessagesIsStillListed)
{
    createOci("orders");
    put("orders", "m", "a");
    ASSERT_EQ(receive(get("orders", 1, 60)).size(), 1u);
    auto listed = broker.listChannels("orders", "");
    ASSERT_TRUE(listed.ok());
    EXPECT_EQ(*listed, std::vector<std::string>{"a"});
}

// ---- UpdateMessage / DeleteMessage (§6.4, case 127) --------------------------------------------

TEST_F(Oci, updateVisibilitySetsVisibleAtFromNow)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 30));
    ASSERT_EQ(got.size(), 1u);
    clock.advance(10 * kSecond);
    auto changed = broker.changeMessageVisibility("orders", got[0].receiptHandle, 120, "test");
    ASSERT_TRUE(changed.ok());
    const Millis expected = kStart + 10 * kSecond + 120 * kSecond;
    EXPECT_EQ(changed->visibleAt, expected);
    EXPECT_EQ(changed->messageId, got[0].messageId);

    clock.set(expected - 1);
    EXPECT_TRUE(receive(get("orders")).empty());
    clock.set(expected);
    EXPECT_EQ(receive(get("orders")).size(), 1u);
}

TEST_F(Oci, updateVisibilityCanShortenTheTimeout)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 300));
    ASSERT_EQ(got.size(), 1u);
    auto changed = broker.changeMessageVisibility("orders", got[0].receiptHandle, 5, "test");
    ASSERT_TRUE(changed.ok());
    EXPECT_EQ(changed->visibleAt, kStart + 5 * kSecond);
    clock.advance(5 * kSecond);
    EXPECT_EQ(receive(get("orders")).size(), 1u);
}

TEST_F(Oci, updateVisibilityHasNoTwelveHourCap)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 43'200));
    ASSERT_EQ(got.size(), 1u);
    clock.advance(11 * 3600 * kSecond);
    auto changed = broker.changeMessageVisibility("orders", got[0].receiptHandle, 43'200, "test");
    ASSERT_TRUE(changed.ok()) << describe(changed.error());
    EXPECT_EQ(changed->visibleAt, clock.now() + 43'200 * kSecond);
}

TEST_F(Oci, updateVisibilityAbove43200IsRejected)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 30));
    ASSERT_EQ(got.size(), 1u);
    auto changed = broker.changeMessageVisibility("orders", got[0].receiptHandle, 43'201, "test");
    ASSERT_FALSE(changed.ok());
    EXPECT_EQ(changed.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_TRUE(
        broker.changeMessageVisibility("orders", got[0].receiptHandle, 43'200, "test").ok());
}

TEST_F(Oci, updateVisibilityZeroMakesTheMessageAvailable)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 30));
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.changeMessageVisibility("orders", got[0].receiptHandle, 0, "test").ok());
    EXPECT_EQ(receive(get("orders")).size(), 1u);
}

TEST_F(Oci, updateWithGarbageReceiptIsReceiptHandleIsInvalid)
{
    createOci("orders");
    auto changed = broker.changeMessageVisibility("orders", "garbage", 60, "test");
    ASSERT_FALSE(changed.ok());
    EXPECT_EQ(changed.error().code, ErrorCode::ReceiptHandleIsInvalid);
    auto deleted = broker.deleteMessage("orders", "garbage", "test");
    ASSERT_FALSE(deleted.ok());
    EXPECT_EQ(deleted.error().code, ErrorCode::ReceiptHandleIsInvalid);
}

TEST_F(Oci, oldReceiptAfterRedeliveryIsResourceNotFound)
{
    createOci("orders");
    put("orders", "m");
    const auto first = receive(get("orders", 1, 10));
    ASSERT_EQ(first.size(), 1u);
    clock.advance(10 * kSecond);
    const auto second = receive(get("orders", 1, 10));
    ASSERT_EQ(second.size(), 1u);

    auto changed = broker.changeMessageVisibility("orders", first[0].receiptHandle, 60, "test");
    ASSERT_FALSE(changed.ok());
    EXPECT_EQ(changed.error().code, ErrorCode::ResourceNotFound);
    auto deleted = broker.deleteMessage("orders", first[0].receiptHandle, "test");
    ASSERT_FALSE(deleted.ok());
    EXPECT_EQ(deleted.error().code, ErrorCode::ResourceNotFound);
    EXPECT_EQ(stats("orders").inFlight, 1);

    EXPECT_TRUE(broker.deleteMessage("orders", second[0].receiptHandle, "test").ok());
    EXPECT_EQ(stats("orders").inFlight, 0);
}

TEST_F(Oci, lapsedReceiptStillUpdatesWhenNotDeliveredAgain)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 10));
    ASSERT_EQ(got.size(), 1u);
    clock.advance(11 * kSecond);
    auto changed = broker.changeMessageVisibility("orders", got[0].receiptHandle, 60, "test");
    ASSERT_TRUE(changed.ok());
    EXPECT_EQ(changed->visibleAt, clock.now() + 60 * kSecond);
    EXPECT_TRUE(receive(get("orders")).empty());
    const QueueStats counts = stats("orders");
    EXPECT_EQ(counts.available, 0);
    EXPECT_EQ(counts.inFlight, 1);
    clock.advance(60 * kSecond);
    EXPECT_EQ(receive(get("orders")).size(), 1u);
}

TEST_F(Oci, lapsedReceiptStillDeletesWhenNotDeliveredAgain)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 10));
    ASSERT_EQ(got.size(), 1u);
    clock.advance(11 * kSecond);
    EXPECT_TRUE(broker.deleteMessage("orders", got[0].receiptHandle, "test").ok());
    EXPECT_TRUE(receive(get("orders")).empty());
    EXPECT_EQ(stats("orders").available, 0);
}

TEST_F(Oci, deleteAfterPurgeSucceeds)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 30));
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.purgeQueue("orders", PurgeTarget::Normal, "test").ok());
    EXPECT_TRUE(broker.deleteMessage("orders", got[0].receiptHandle, "test").ok());
}

// ---- batches (§6.4, case 129) ------------------------------------------------------------------

TEST_F(Oci, deleteBatchReportsEachEntryInRequestOrder)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 30));
    ASSERT_EQ(got.size(), 1u);
    auto result = broker.deleteMessageBatch(
        "orders", {{"good", got[0].receiptHandle, std::nullopt}, {"bad", "garbage", std::nullopt}},
        "test");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->succeededInOrder, (std::vector<bool>{true, false}));
    ASSERT_EQ(result->successful.size(), 1u);
    EXPECT_EQ(result->successful[0].id, "good");
    ASSERT_EQ(result->failed.size(), 1u);
    EXPECT_EQ(result->failed[0].id, "bad");
    EXPECT_EQ(result->failed[0].error.code, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_FALSE(result->failed[0].error.message.empty());
    EXPECT_EQ(stats("orders").inFlight, 0);
}

TEST_F(Oci, deleteBatchWithGarbageFirstKeepsRequestOrder)
{
    createOci("orders");
    put("orders", "m");
    const auto got = receive(get("orders", 1, 30));
    ASSERT_EQ(got.size(), 1u);
    auto result = broker.deleteMessageBatch(
        "orders", {{"bad", "garbage", std::nullopt}, {"good", got[0].receiptHandle, std::nullopt}},
        "test");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->succeededInOrder, (std::vector<bool>{false, true}));
}

std::vector<BatchSendEntry> sendEntries(int n)
{
    std::vector<BatchSendEntry> entries;
    for (int i = 0; i < n; ++i) {
        BatchSendEntry e;
        e.id = "e" + std::to_string(i);
        e.message.body = "m" + std::to_string(i);
        entries.push_back(std::move(e));
    }
    return entries;
}

TEST_F(Oci, batchesAcceptUpTo20Entries)
{
    createOci("orders");
    auto sent = broker.sendMessageBatch("orders", sendEntries(20), "test");
    ASSERT_TRUE(sent.ok());
    EXPECT_EQ(sent->successful.size(), 20u);

    const auto got = receive(get("orders", 20, 60));
    ASSERT_EQ(got.size(), 20u);
    std::vector<BatchReceiptEntry> changes;
    std::vector<BatchReceiptEntry> deletes;
    for (std::size_t i = 0; i < got.size(); ++i) {
        changes.push_back({"c" + std::to_string(i), got[i].receiptHandle, 90});
        deletes.push_back({"d" + std::to_string(i), got[i].receiptHandle, std::nullopt});
    }
    auto changed = broker.changeMessageVisibilityBatch("orders", changes, "test");
    ASSERT_TRUE(changed.ok());
    EXPECT_EQ(changed->successful.size(), 20u);
    auto deleted = broker.deleteMessageBatch("orders", deletes, "test");
    ASSERT_TRUE(deleted.ok());
    EXPECT_EQ(deleted->successful.size(), 20u);
}

TEST_F(Oci, batchesOf21EntriesAreRejected)
{
    createOci("orders");
    auto sent = broker.sendMessageBatch("orders", sendEntries(21), "test");
    ASSERT_FALSE(sent.ok());
    EXPECT_EQ(sent.error().code, ErrorCode::TooManyEntriesInBatchRequest);

    std::vector<BatchReceiptEntry> entries;
    for (int i = 0; i < 21; ++i)
        entries.push_back({"e" + std::to_string(i), "garbage", 30});
    auto changed = broker.changeMessageVisibilityBatch("orders", entries, "test");
    ASSERT_FALSE(changed.ok());
    EXPECT_EQ(changed.error().code, ErrorCode::TooManyEntriesInBatchRequest);
    auto deleted = broker.deleteMessageBatch("orders", entries, "test");
    ASSERT_FALSE(deleted.ok());
    EXPECT_EQ(deleted.error().code, ErrorCode::TooManyEntriesInBatchRequest);
}

// ---- retention stamps (§6.5, case 131) ---------------------------------------------------------

TEST_F(Oci, sendResultExpiresAtIsSentAtPlusRetention)
{
    createOci("orders", {{"retentionInSeconds", "600"}});
    clock.advance(1234);
    const SendResult sent = put("orders", "m");
    EXPECT_EQ(sent.sentAt, kStart + 1234);
    EXPECT_EQ(sent.expiresAt, sent.sentAt + 600 * kSecond);
}

TEST_F(Oci, receivedMessageCarriesExpiresAtAndVisibleAt)
{
    createOci("orders", {{"retentionInSeconds", "600"}});
    const SendResult sent = put("orders", "m");
    clock.advance(5 * kSecond);
    const auto got = receive(get("orders", 1, 45));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].sentAt, sent.sentAt);
    EXPECT_EQ(got[0].expiresAt, sent.sentAt + 600 * kSecond);
    EXPECT_EQ(got[0].visibleAt, clock.now() + 45 * kSecond);
}

TEST_F(Oci, messageIsGoneExactlyAtItsExpiry)
{
    createOci("orders", {{"retentionInSeconds", "60"}});
    const SendResult sent = put("orders", "m");
    clock.set(sent.expiresAt - 1);
    EXPECT_EQ(stats("orders").available, 1);
    clock.set(sent.expiresAt);
    EXPECT_EQ(stats("orders").available, 0);
    EXPECT_TRUE(receive(get("orders")).empty());
}

TEST_F(Oci, retentionIsCreationOnly)
{
    createOci("orders");
    auto r = broker.setQueueAttributes("orders", {{"retentionInSeconds", "600"}}, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidAttributeName);
}

// ---- purge (§6.3, §6.4) ------------------------------------------------------------------------

class OciPurge : public Oci {
protected:
    void SetUp() override
    {
        createOci("orders", {{"deadLetterQueueDeliveryCount", "1"}});
        put("orders", "poison");
        ASSERT_EQ(receive(get("orders", 1, 10)).size(), 1u);
        clock.advance(10 * kSecond);
        ASSERT_TRUE(receive(get("orders", 1, 10)).empty()); // moved to the DLQ
        put("orders", "a");
        put("orders", "b");
        dlq = dlqOf("orders");
        ASSERT_EQ(stats(dlq).available, 1);
        ASSERT_EQ(stats("orders").available, 2);
    }
    std::string dlq;
};

TEST_F(OciPurge, normalPurgesOnlyTheQueue)
{
    ASSERT_TRUE(broker.purgeQueue("orders", PurgeTarget::Normal, "test").ok());
    EXPECT_EQ(stats("orders").available, 0);
    EXPECT_EQ(stats(dlq).available, 1);
}

TEST_F(OciPurge, deadLetterPurgesOnlyTheDlq)
{
    ASSERT_TRUE(broker.purgeQueue("orders", PurgeTarget::DeadLetter, "test").ok());
    EXPECT_EQ(stats("orders").available, 2);
    EXPECT_EQ(stats(dlq).available, 0);
}

TEST_F(OciPurge, bothPurgesQueueAndDlq)
{
    ASSERT_TRUE(broker.purgeQueue("orders", PurgeTarget::Both, "test").ok());
    EXPECT_EQ(stats("orders").available, 0);
    EXPECT_EQ(stats(dlq).available, 0);
}

TEST_F(OciPurge, purgeHasNoSixtySecondLimit)
{
    ASSERT_TRUE(broker.purgeQueue("orders", PurgeTarget::Normal, "test").ok());
    put("orders", "c");
    auto again = broker.purgeQueue("orders", PurgeTarget::Normal, "test");
    ASSERT_TRUE(again.ok()) << describe(again.error());
    EXPECT_EQ(stats("orders").available, 0);
}

// ---- PutMessages rules (§6, §6.4) --------------------------------------------------------------

TEST_F(Oci, perMessageDelayIsRejected)
{
    createOci("orders");
    SendMessageRequest request;
    request.queue = "orders";
    request.body = "m";
    request.delaySeconds = 5;
    auto r = broker.sendMessage(request);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(stats("orders").sent, 0);
}

TEST_F(Oci, messageGroupIdIsRejected)
{
    createOci("orders");
    SendMessageRequest request;
    request.queue = "orders";
    request.body = "m";
    request.groupId = "g";
    auto r = broker.sendMessage(request);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
}

TEST_F(Oci, deduplicationIdIsRejected)
{
    createOci("orders");
    SendMessageRequest request;
    request.queue = "orders";
    request.body = "m";
    request.deduplicationId = "d";
    auto r = broker.sendMessage(request);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
}

TEST_F(Oci, messageLargerThanMaxMessageSizeIsRejected)
{
    createOci("orders", {{"maxMessageSizeInBytes", "1024"}});
    SendMessageRequest request;
    request.queue = "orders";
    request.body = std::string(1024, 'x');
    EXPECT_TRUE(broker.sendMessage(request).ok());
    request.body = std::string(1025, 'x');
    auto r = broker.sendMessage(request);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
}

TEST_F(Oci, defaultMaxMessageSizeFollowsBrokerOption)
{
    createOci("orders");
    SendMessageRequest request;
    request.queue = "orders";
    request.body = std::string(128 * 1024, 'x');
    EXPECT_TRUE(broker.sendMessage(request).ok());
    request.body = std::string(128 * 1024 + 1, 'x');
    auto r = broker.sendMessage(request);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
}

} // namespace
} // namespace inflight::engine
