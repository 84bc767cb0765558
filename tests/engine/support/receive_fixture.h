// The fixture of the receive tests (receive_test.cpp, visibility_delete_test.cpp,
// long_poll_test.cpp): ReceiveTest, whose setup steps work on the standard queue kQueue (or the
// FIFO queue kFifo) unless told otherwise, and what a long poll's callback saw.
#pragma once

#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace inflight::engine {

inline constexpr Millis kT0 = kEngineTestStart;

const std::string kQueue = "q";
const std::string kFifo = "q.fifo";

inline std::vector<std::string> bodiesOf(const ReceiveResult& r)
{
    return bodiesOf(r.messages);
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

// EngineTest's steps as the receive tests take them: on the standard queue kQueue unless told,
// a send answering the message id, a receive answering the whole ReceiveResult.
class ReceiveTest : public EngineTest {
protected:
    ReceiveTest() = default;
    explicit ReceiveTest(BrokerOptions options) : EngineTest(kT0, std::move(options)) {}

    // The message id.
    std::string send(const std::string& body, std::optional<std::int64_t> delay = {},
                     MessageAttributes attributes = {}, const std::string& queue = kQueue)
    {
        return EngineTest::send(SendMessageRequest{.queue = queue,
                                                   .body = body,
                                                   .delaySeconds = delay,
                                                   .attributes = std::move(attributes)})
            .messageId;
    }

    // To kFifo, deduplicated by the body; the message id.
    std::string sendFifo(const std::string& body, const std::string& group = "g")
    {
        return EngineTest::sendFifo(kFifo, body, group, body).messageId;
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

    std::string counters(const std::string& queue = kQueue) { return EngineTest::counters(queue); }
    QueueStats stats(const std::string& queue = kQueue) { return EngineTest::stats(queue); }

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

// A long poll of `seconds` for up to `max` messages.
inline ReceiveRequest waitFor(std::int64_t seconds, std::int64_t max = 1,
                              const std::string& queue = kQueue)
{
    return ReceiveRequest{.queue = queue, .maxMessages = max, .waitTimeSeconds = seconds};
}

} // namespace inflight::engine
