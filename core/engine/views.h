#pragma once

#include "engine/clock.h"
#include "engine/message_content.h"
#include "engine/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace inflight::engine {

// Counts by state at the time of the call plus monotonic counters for charts.
struct QueueStats {
    std::int64_t available = 0;
    std::int64_t inFlight = 0;
    std::int64_t delayed = 0;
    std::int64_t sizeInBytes = 0; // bodies + attributes of stored messages
    // Monotonic since the queue was created.
    std::int64_t sent = 0;
    std::int64_t received = 0; // deliveries
    std::int64_t deleted = 0;
    std::int64_t visibilityExpired = 0;
    std::int64_t movedToDeadLetter = 0;
    std::int64_t retentionExpired = 0;
    std::int64_t purged = 0;
    std::int64_t deduplicated = 0;
    // Receives that returned no message: short polls that found none and long polls that ended
    // empty at their deadline (not failed receives, not waits the client gave up). Counted since
    // the engine started: a workspace does not store it (CloudWatch's NumberOfEmptyReceives).
    std::int64_t emptyReceives = 0;
    // How long the oldest stored message (available, in flight or delayed) has been in the
    // queue: now less its retention base (its send; in a standard DLQ its first send, in a FIFO
    // DLQ its arrival, as retention counts); 0 for an empty queue (CloudWatch's
    // ApproximateAgeOfOldestMessage).
    Millis oldestMessageAge = 0;
};

// A side-effect-free copy of one message: its content and where it stands.
struct MessageView : MessageContent {
    MessageKey key{};
    std::string messageId{};
    MessageState state = MessageState::Available;
    std::string sequenceNumber{}; // FIFO
    std::uint32_t receiveCount = 0;
    Millis sentAt = 0;
    Millis firstReceivedAt = 0; // 0 if never received
    Millis deliverAt = 0;       // end of delay (Delayed)
    Millis visibleAt = 0;       // end of visibility (InFlight)
    Millis receivedAt = 0;      // start of the current receive (12 h cap from here)
    Millis expiresAt = 0;       // retention deadline
    std::string receiptHandle;  // the current receipt (InFlight)
    // True when the next receive that reaches this message will move it to the DLQ instead.
    bool movesToDeadLetterOnNextReceive = false;
};

// Which messages a peek returns, in sequence order: those in the wanted states whose sequence
// is above `after` (a cursor: the last sequence of the page before; 0 = from the first), skipping
// `offset` of them, at most `limit`. A page costs a pass over the queue and a sort of the page,
// not of the queue.
struct PeekRequest {
    bool delayed = true;
    bool available = true;
    bool inFlight = true;
    std::uint64_t after = 0;
    std::size_t offset = 0; // in sequence order, after the state filter and the cursor
    std::size_t limit = SIZE_MAX;
};

// A FIFO group (or an OCI channel, with groupId = channel id).
struct GroupView {
    std::string groupId{};
    std::string headMessageId{}; // oldest stored message of the group
    MessageState headState = MessageState::Available;
    bool blocked = false;          // head in flight or delayed: nothing of the group is served
    std::string blockingMessageId; // the in-flight (or delayed) head
    Millis blockedUntil = 0;       // its visible-at or deliver-at
    std::int64_t waiting = 0;      // messages behind the head
    std::int64_t inFlight = 0;
};

struct QueueView {
    std::uint32_t id = 0;
    std::string name{};
    std::string arn{};
    QueueKind kind = QueueKind::Standard;
    StringMap attributes; // as GetQueueAttributes(All)
    StringMap tags{};
    QueueStats stats{};
    std::string deadLetterTarget;     // DLQ name from the redrive policy (OCI: built-in DLQ)
    std::int64_t maxReceiveCount = 0; // 0 = no DLQ
    std::vector<std::string> deadLetterSources{}; // queues whose DLQ this is
    bool isBuiltInDeadLetterQueue = false;        // an OCI queue's DLQ
};

} // namespace inflight::engine
