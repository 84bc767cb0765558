// The fixture of the queue-level tests (queues_test.cpp: create, delete, get URL, list;
// queue_attributes_test.cpp: attributes, redrive policies, dead-letter sources, permissions;
// queue_purge_tags_test.cpp: purge and tags), and what more than one of them uses: the §1.3 ranges
// of the numeric attributes and the error texts.
#pragma once

#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {

const std::string kNoSuchQueue = "The specified queue does not exist.";
const std::string kSseConflict
    = "You can use one type of server-side encryption (SSE) at one time. You can either enable "
      "KMS SSE or SQS SSE.";

inline std::string repeat(const std::string& piece, std::size_t times)
{
    std::string text;
    for (std::size_t i = 0; i < times; ++i)
        text += piece;
    return text;
}

using Names = std::vector<std::string>;

struct RangeCase {
    std::string attribute;
    std::string value;
    bool accepted;
};

// §1.3 ranges, each end just inside and just outside (A.15).
inline const std::vector<RangeCase>& rangeCases()
{
    static const std::vector<RangeCase> cases = {
        {"VisibilityTimeout", "-1", false},
        {"VisibilityTimeout", "0", true},
        {"VisibilityTimeout", "43200", true},
        {"VisibilityTimeout", "43201", false},
        {"DelaySeconds", "-1", false},
        {"DelaySeconds", "0", true},
        {"DelaySeconds", "900", true},
        {"DelaySeconds", "901", false},
        {"MessageRetentionPeriod", "59", false},
        {"MessageRetentionPeriod", "60", true},
        {"MessageRetentionPeriod", "1209600", true},
        {"MessageRetentionPeriod", "1209601", false},
        {"MaximumMessageSize", "1023", false},
        {"MaximumMessageSize", "1024", true},
        {"MaximumMessageSize", "1048576", true},
        {"MaximumMessageSize", "1048577", false},
        {"ReceiveMessageWaitTimeSeconds", "-1", false},
        {"ReceiveMessageWaitTimeSeconds", "0", true},
        {"ReceiveMessageWaitTimeSeconds", "20", true},
        {"ReceiveMessageWaitTimeSeconds", "21", false},
        {"KmsDataKeyReusePeriodSeconds", "59", false},
        {"KmsDataKeyReusePeriodSeconds", "60", true},
        {"KmsDataKeyReusePeriodSeconds", "86400", true},
        {"KmsDataKeyReusePeriodSeconds", "86401", false},
        {"VisibilityTimeout", "abc", false},
        {"DelaySeconds", "1.5", false},
        {"MessageRetentionPeriod", "", false},
    };
    return cases;
}

// The queue-level tests' own steps: a FIFO send whose result the test checks, SetQueueAttributes,
// ListQueues and ListDeadLetterSourceQueues.
class QueuesTest : public EngineTest {
protected:
    Result<SendResult> trySendFifo(const std::string& queue, const std::string& body,
                                   const std::string& group, const std::string& dedup)
    {
        return broker.sendMessage(SendMessageRequest{
            .queue = queue, .body = body, .deduplicationId = dedup, .groupId = group});
    }

    Status set(const std::string& queue, const StringMap& attributes)
    {
        return broker.setQueueAttributes(queue, attributes, "test");
    }

    std::vector<std::string> listAll(const std::string& prefix = {})
    {
        ListQueuesRequest request;
        request.prefix = prefix;
        auto result = broker.listQueues(request);
        if (!result.ok()) {
            ADD_FAILURE() << "ListQueues failed: " << describe(result.error());
            return {};
        }
        EXPECT_EQ(result->nextToken, "") << "no NextToken without MaxResults";
        return result->names;
    }

    Result<ListQueuesResult> listPage(std::optional<std::int64_t> maxResults,
                                      const std::string& nextToken = {},
                                      const std::string& prefix = {})
    {
        ListQueuesRequest request;
        request.prefix = prefix;
        request.maxResults = maxResults;
        request.nextToken = nextToken;
        return broker.listQueues(request);
    }

    std::vector<std::string> deadLetterSources(const std::string& dlq)
    {
        auto result = broker.listDeadLetterSourceQueues(dlq, ListQueuesRequest{});
        if (!result.ok()) {
            ADD_FAILURE() << "ListDeadLetterSourceQueues failed: " << describe(result.error());
            return {};
        }
        EXPECT_EQ(result->nextToken, "") << "no NextToken without MaxResults";
        return result->names;
    }
};

} // namespace inflight::engine
