// The fixture of the dead-letter tests (dead_letter_test.cpp: redrive on receive;
// move_task_test.cpp: message move tasks): source queues with a RedrivePolicy, receives that ask
// for every attribute, and the move-task calls.
#pragma once

#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {

inline std::string redrivePolicy(const std::string& deadLetterArn, std::int64_t maxReceiveCount)
{
    return R"({"deadLetterTargetArn":")" + deadLetterArn + R"(","maxReceiveCount":)"
        + std::to_string(maxReceiveCount) + "}";
}

class DeadLetterTest : public EngineTest {
protected:
    DeadLetterTest() { collectEvents(); }

    // A source queue whose RedrivePolicy targets `deadLetter` (which must exist).
    void createSource(const std::string& name, const std::string& deadLetter,
                      std::int64_t maxReceiveCount, StringMap attributes = {})
    {
        attributes["RedrivePolicy"] = redrivePolicy(arn(deadLetter), maxReceiveCount);
        if (name.ends_with(".fifo"))
            createFifo(name, std::move(attributes));
        else
            create(name, std::move(attributes));
    }

    // A short poll asking for every system and message attribute.
    std::vector<ReceivedMessage> receive(const std::string& queue, std::int64_t maxMessages = 1,
                                         std::optional<std::int64_t> visibilityTimeout
                                         = std::nullopt)
    {
        return EngineTest::receive(ReceiveRequest{.queue = queue,
                                                  .maxMessages = maxMessages,
                                                  .visibilityTimeout = visibilityTimeout,
                                                  .waitTimeSeconds = 0,
                                                  .systemAttributeNames = {"All"},
                                                  .messageAttributeNames = {"All"}});
    }

    Result<std::string> startTask(const std::string& sourceArn,
                                  std::optional<std::string> destinationArn = std::nullopt,
                                  std::optional<std::int64_t> rate = std::nullopt)
    {
        StartMoveTaskRequest request;
        request.sourceArn = sourceArn;
        request.destinationArn = std::move(destinationArn);
        request.maxMessagesPerSecond = rate;
        return broker.startMessageMoveTask(request);
    }

    std::string startTaskOk(const std::string& sourceArn,
                            std::optional<std::string> destinationArn = std::nullopt,
                            std::optional<std::int64_t> rate = std::nullopt)
    {
        auto r = startTask(sourceArn, std::move(destinationArn), rate);
        if (!r.ok()) {
            ADD_FAILURE() << "start move task: " << describe(r.error());
            return {};
        }
        return *r;
    }

    std::vector<MoveTaskInfo> listTasks(const std::string& sourceArn,
                                        std::optional<std::int64_t> maxResults = 10)
    {
        auto r = broker.listMessageMoveTasks(sourceArn, maxResults);
        if (!r.ok()) {
            ADD_FAILURE() << "list move tasks: " << describe(r.error());
            return {};
        }
        return *r;
    }

    MoveTaskInfo latestTask(const std::string& sourceArn)
    {
        const auto tasks = listTasks(sourceArn, 1);
        if (tasks.empty()) {
            ADD_FAILURE() << "no move task for " << sourceArn;
            return {};
        }
        return tasks.front();
    }

    // Puts `count` (<= 10) messages into the DLQ `dlq` through its source `source`
    // (maxReceiveCount 1): all are received once with visibility 0, the next receive moves them.
    void fillDeadLetterQueue(const std::string& source, const std::string& dlq, int count,
                             const std::string& prefix = "m")
    {
        ASSERT_LE(count, 10);
        for (int i = 0; i < count; ++i)
            send(source, prefix + std::to_string(i));
        ASSERT_EQ(receive(source, 10, 0).size(), static_cast<std::size_t>(count));
        EXPECT_TRUE(receive(source, 10, 0).empty());
        ASSERT_EQ(stats(dlq).available, count);
    }
};

} // namespace inflight::engine
