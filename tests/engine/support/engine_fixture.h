// What the engine tests (tests/engine/*_test.cpp) share: EngineTest, the fixture they derive from
// (a ManualClock, the Broker under test, the events it emitted, and the setup steps every topic
// takes: create a queue, send, receive, look at its stats and messages), and the assertions on a
// Result. A setup step that fails records the failure and returns an empty value, so one broken
// step does not hide the test's other checks.
#pragma once

#include "engine/broker.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace inflight::engine {

// Where EngineTest's clock starts unless a fixture says otherwise (ManualClock's own default):
// 2023-11-14 22:13:20 UTC.
inline constexpr Millis kEngineTestStart = 1'700'000'000'000;

// ---- assertions on a Result --------------------------------------------------------------------

template <class T>
::testing::AssertionResult succeeds(const Result<T>& result)
{
    if (result.ok())
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "failed with " << describe(result.error());
}

// The call failed with `code` and, when `message` is given, with exactly that message.
template <class T>
::testing::AssertionResult failsWith(const Result<T>& result, ErrorCode code,
                                     const std::optional<std::string>& message = std::nullopt)
{
    if (result.ok())
        return ::testing::AssertionFailure() << "succeeded; expected " << errorCodeName(code);
    const Error& error = result.error();
    if (error.code != code)
        return ::testing::AssertionFailure()
            << "failed with " << describe(error) << "; expected " << errorCodeName(code);
    if (message && error.message != *message)
        return ::testing::AssertionFailure()
            << "message was\n  \"" << error.message << "\"\nexpected\n  \"" << *message << "\"";
    return ::testing::AssertionSuccess();
}

// ---- message attribute values ------------------------------------------------------------------

inline MessageAttributeValue stringAttribute(std::string value, std::string dataType = "String")
{
    MessageAttributeValue v;
    v.dataType = std::move(dataType);
    v.stringValue = std::move(value);
    return v;
}

inline MessageAttributeValue binaryAttribute(std::string bytes, std::string dataType = "Binary")
{
    MessageAttributeValue v;
    v.dataType = std::move(dataType);
    v.binaryValue = std::move(bytes);
    return v;
}

// ---- what a receive or a peek returned ---------------------------------------------------------

inline std::vector<std::string> bodiesOf(const std::vector<ReceivedMessage>& messages)
{
    std::vector<std::string> bodies;
    for (const ReceivedMessage& m : messages)
        bodies.push_back(m.body);
    return bodies;
}

inline std::vector<std::string> bodiesOf(const std::vector<MessageView>& views)
{
    std::vector<std::string> bodies;
    for (const MessageView& v : views)
        bodies.push_back(v.body);
    return bodies;
}

// ---- the fixture -------------------------------------------------------------------------------

class EngineTest : public ::testing::Test {
protected:
    explicit EngineTest(Millis start = kEngineTestStart, BrokerOptions options = {})
        : clock(start), broker(m_broker.emplace(clock, std::move(options)))
    {
    }

    // Replaces the broker by a new one with `options` on the same clock (no queues, no messages;
    // `events` is kept). The new broker is built in the old one's place, so `broker` refers to it.
    void restart(BrokerOptions options = {})
    {
        m_broker.emplace(clock, std::move(options));
        if (m_collecting)
            collectEvents();
    }

    // From now on (and after a restart) every event the broker emits is appended to `events`.
    // Off until asked: a broker without a sink makes no events at all.
    void collectEvents()
    {
        m_collecting = true;
        broker.setEventSink([this](std::span<const Event> batch) {
            events.insert(events.end(), batch.begin(), batch.end());
        });
    }

    std::vector<Event> eventsOf(EventKind kind) const
    {
        std::vector<Event> result;
        for (const Event& e : events)
            if (e.kind == kind)
                result.push_back(e);
        return result;
    }

    // Moves the clock by `ms` and lets the broker act on what became due (long polls, expiries).
    void advance(Millis ms)
    {
        clock.advance(ms);
        broker.advance();
    }

    std::string arn(const std::string& name) const { return broker.arnForName(name); }

    // ---- queues ----

    Result<QueueRef> tryCreate(const std::string& name, const StringMap& attributes = {},
                               const StringMap& tags = {})
    {
        return broker.createQueue({.name = name, .attributes = attributes, .tags = tags});
    }

    // Creates the queue `request` describes (any kind, origin, tags); its reference.
    QueueRef create(const CreateQueueRequest& request)
    {
        auto created = broker.createQueue(request);
        if (!created.ok()) {
            ADD_FAILURE() << "setup: creating " << request.name
                          << " failed: " << describe(created.error());
            return QueueRef{request.name, broker.arnForName(request.name), QueueKind::Standard};
        }
        return std::move(created).value();
    }
    QueueRef create(const std::string& name, const StringMap& attributes = {},
                    const StringMap& tags = {})
    {
        return create(CreateQueueRequest{.name = name, .attributes = attributes, .tags = tags});
    }
    QueueRef createFifo(const std::string& name, StringMap attributes = {})
    {
        attributes["FifoQueue"] = "true";
        return create(CreateQueueRequest{.name = name, .attributes = std::move(attributes)});
    }
    QueueRef createOci(const std::string& name, StringMap attributes = {})
    {
        return create(
            CreateQueueRequest{.name = name, .attributes = std::move(attributes), .oci = true});
    }

    // ---- messages ----

    // Sends `request`; what the broker answered.
    SendResult send(const SendMessageRequest& request)
    {
        auto sent = broker.sendMessage(request);
        if (!sent.ok()) {
            ADD_FAILURE() << "setup: send to " << request.queue
                          << " failed: " << describe(sent.error());
            return {};
        }
        return std::move(sent).value();
    }
    SendResult send(const std::string& queue, const std::string& body,
                    std::optional<std::int64_t> delaySeconds = std::nullopt,
                    const Origin& origin = {})
    {
        return send(SendMessageRequest{
            .queue = queue, .body = body, .delaySeconds = delaySeconds, .origin = origin});
    }
    // Without `dedup` the queue must have ContentBasedDeduplication.
    SendResult sendFifo(const std::string& queue, const std::string& body, const std::string& group,
                        std::optional<std::string> dedup = std::nullopt, const Origin& origin = {})
    {
        return send(SendMessageRequest{.queue = queue,
                                       .body = body,
                                       .deduplicationId = std::move(dedup),
                                       .groupId = group,
                                       .origin = origin});
    }

    // Receives as `request` asks; the messages returned.
    std::vector<ReceivedMessage> receive(const ReceiveRequest& request)
    {
        auto received = broker.receiveMessage(request);
        if (!received.ok()) {
            ADD_FAILURE() << "setup: receive from " << request.queue
                          << " failed: " << describe(received.error());
            return {};
        }
        return std::move(received).value().messages;
    }
    // A short poll of up to `max` messages with `visibility` (the queue's default when absent).
    std::vector<ReceivedMessage> receive(const std::string& queue, std::int64_t max = 1,
                                         std::optional<std::int64_t> visibility = std::nullopt,
                                         const Origin& origin = {})
    {
        return receive(ReceiveRequest{.queue = queue,
                                      .maxMessages = max,
                                      .visibilityTimeout = visibility,
                                      .waitTimeSeconds = 0,
                                      .origin = origin});
    }

    // ---- looking ----

    QueueStats stats(const std::string& queue)
    {
        auto got = broker.queueStats(queue);
        if (!got.ok()) {
            ADD_FAILURE() << "setup: stats of " << queue << " failed: " << describe(got.error());
            return {};
        }
        return *got;
    }

    std::vector<MessageView> peek(const std::string& queue, const PeekRequest& request = {})
    {
        auto got = broker.peekMessages(queue, request);
        if (!got.ok()) {
            ADD_FAILURE() << "setup: peek at " << queue << " failed: " << describe(got.error());
            return {};
        }
        return *got;
    }

    // GetQueueAttributes(All).
    StringMap allAttributes(const std::string& queue)
    {
        auto got = broker.getQueueAttributes(queue, {"All"});
        if (!got.ok()) {
            ADD_FAILURE() << "setup: GetQueueAttributes(All) on " << queue
                          << " failed: " << describe(got.error());
            return {};
        }
        return *got;
    }
    // One attribute as GetQueueAttributes(All) shows it; "<absent>" when not shown.
    std::string attribute(const std::string& queue, const std::string& name)
    {
        const StringMap all = allAttributes(queue);
        const auto it = all.find(name);
        return it == all.end() ? "<absent>" : it->second;
    }
    // "available/notVisible/delayed" as GetQueueAttributes reports them ("error: …" if it fails).
    std::string counters(const std::string& queue)
    {
        auto got = broker.getQueueAttributes(queue,
                                             {"ApproximateNumberOfMessages",
                                              "ApproximateNumberOfMessagesNotVisible",
                                              "ApproximateNumberOfMessagesDelayed"});
        if (!got.ok())
            return "error: " + describe(got.error());
        return (*got)["ApproximateNumberOfMessages"] + "/"
            + (*got)["ApproximateNumberOfMessagesNotVisible"] + "/"
            + (*got)["ApproximateNumberOfMessagesDelayed"];
    }

private:
    std::optional<Broker> m_broker; // declared before `broker`, which refers to what it holds
    bool m_collecting = false;

protected:
    ManualClock clock;
    Broker& broker;
    std::vector<Event> events;
};

} // namespace inflight::engine
