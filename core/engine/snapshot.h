#pragma once

#include "engine/clock.h"
#include "engine/requests.h"
#include "engine/types.h"
#include "engine/views.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace inflight::engine {

// Plain records of everything the engine knows, for persistence: exported from a running broker
// and restored into an empty one, so that queues, messages in every state (with their deadlines,
// receipt handles and receive counts), deduplication and receive-attempt windows, move tasks and
// counters come back exactly. Receipt handles handed out before stay valid after a restore.

struct MessageRecord : MessageContent {
    std::uint32_t slot = 0;
    std::uint64_t sequence = 0;
    std::uint64_t idHigh = 0;
    std::uint64_t idLow = 0;
    MessageState state = MessageState::Available;
    Millis sentAt = 0;
    Millis retentionBase = 0;
    Millis deadline = 0; // deliver-at while Delayed (standard/OCI), visible-at while InFlight
    Millis receivedAt = 0;
    Millis firstReceivedAt = 0;
    std::uint32_t receiveCount = 0;
    std::uint32_t receiptNonce = 0;
    std::uint32_t visibilityChanges = 0;
    // For the explanations (explain.h): who made the last receive, and how an available message
    // became visible again.
    Origin lastReceiveOrigin{};
    ReturnCause returnCause = ReturnCause::None;
    // The sender's access key id (SendMessageRequest::senderId); empty: SenderId is the account id.
    std::string senderId{};
};

struct DeduplicationRecord {
    std::string key{}; // dedup id, or group + '\x1f' + dedup id for message-group scope
    Millis expiresAt = 0;
    std::uint64_t idHigh = 0;
    std::uint64_t idLow = 0;
    std::uint64_t sequence = 0;
};

// The part of a FIFO queue's deduplication window a store that keeps it does not have yet: the
// records made from a sequence on, and the sequence below which the window holds none (the
// records expire oldest first, so a store drops its rows below it).
struct DeduplicationTail {
    std::uint32_t queueId = 0;
    std::vector<DeduplicationRecord> records{}; // oldest first
    std::uint64_t keptFrom = 0;                 // the oldest record's sequence, or nextSequence
    std::uint64_t nextSequence = 0;             // the next message's: the next tail starts there
};

struct ReceiveAttemptRecord {
    struct Item {
        std::uint32_t slot = 0;
        std::uint64_t sequence = 0;
        std::uint32_t receiveCount = 0;
        Millis visibleAt = 0;
        std::uint32_t visibilityChanges = 0;
        std::string receipt{};
    };
    std::string attemptId{};
    Millis expiresAt = 0;
    std::vector<Item> items{};
};

struct QueueRecord {
    std::uint32_t id = 0;
    std::string name{};
    bool oci = false;
    // The settable configuration in CreateQueue form (GetQueueAttributes names for SQS queues,
    // OCI names for OCI queues), without counters and timestamps.
    StringMap attributes{};
    StringMap tags{};
    bool isBuiltInDeadLetter = false;
    std::string builtInDeadLetterName{};
    Millis createdAt = 0;
    Millis lastModifiedAt = 0;
    Millis lastPurgeAt = -1;
    std::uint64_t nextSequence = 1;
    QueueStats counters{}; // the monotonic members
    std::vector<DeduplicationRecord> deduplication{};
    std::vector<ReceiveAttemptRecord> attempts{};
};

struct MoveTaskRecord {
    std::string taskId{};
    std::string handle{};
    std::string sourceName{};
    std::string sourceArn{};
    std::string destinationArn{};
    std::optional<std::int64_t> maxMessagesPerSecond{};
    MoveTaskStatus status = MoveTaskStatus::Running;
    std::int64_t moved = 0;
    std::int64_t toMove = 0;
    Millis startedAt = 0;
    std::string failureReason{};
    Origin origin{};
};

struct BrokerRecord {
    std::uint32_t nextQueueId = 1;
    std::uint64_t randomState = 0;
    std::uint64_t receiptKey = 0;
    std::map<std::string, Millis> deletedAt{}; // re-create windows still open
    std::vector<MoveTaskRecord> moveTasks{};
};

} // namespace inflight::engine
