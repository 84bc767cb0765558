#pragma once

#include "engine/clock.h"
#include "engine/error.h"
#include "engine/receipt.h"
#include "engine/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {

// ---- queues ------------------------------------------------------------------------------------

struct CreateQueueRequest {
    std::string name{};
    // SQS attribute names (§1.3) for standard/FIFO queues; `FifoQueue=true` makes a FIFO queue.
    // OCI queues take OCI names: retentionInSeconds, visibilityInSeconds, timeoutInSeconds,
    // deadLetterQueueDeliveryCount, channelConsumptionLimit, maxMessageSizeInBytes.
    StringMap attributes{};
    StringMap tags{};
    // Set to create an OCI-profile queue; otherwise the kind follows `FifoQueue`.
    bool oci = false;
    Origin origin{};
};

struct QueueRef {
    std::string name{};
    std::string arn{};
    QueueKind kind = QueueKind::Standard;
};

struct ListQueuesRequest {
    std::string prefix{};
    std::optional<std::int64_t> maxResults{}; // 1..1000
    std::string nextToken{};
};

struct ListQueuesResult {
    std::vector<std::string> names{}; // lexicographic
    std::string nextToken{};          // non-empty iff maxResults was given and more remain
};

// OCI purge targets; SQS purges are always Normal.
enum class PurgeTarget : std::uint8_t { Normal, DeadLetter, Both };

// ---- messages ----------------------------------------------------------------------------------

struct SendMessageRequest {
    std::string queue{};
    // nullopt = parameter absent (MissingParameter); "" = present but empty.
    std::optional<std::string> body{};
    std::optional<std::int64_t> delaySeconds{};
    MessageAttributes attributes{};
    // Only AWSTraceHeader is accepted.
    MessageAttributes systemAttributes{};
    std::optional<std::string> deduplicationId{};
    std::optional<std::string> groupId{};
    std::optional<std::string> channelId{}; // OCI
    Origin origin{};
    // Who sent it, for the SenderId attribute: the access key id of the request's SigV4
    // credential scope; empty when the request carried none (SenderId is then the account id).
    std::string senderId{};
};

// Digests are not part of the result: whoever puts them on the wire computes them from the bytes
// it holds with digest.h, so the engine spends no time on them.
struct SendResult {
    MessageIdText messageId{};
    SequenceNumberText sequenceNumber{}; // FIFO only
    bool deduplicated = false;           // a duplicate: not enqueued, original id echoed
    Millis sentAt = 0;
    Millis expiresAt = 0; // retention deadline (OCI expireAfter)
};

struct BatchSendEntry {
    std::string id{};
    SendMessageRequest message{}; // its `queue` and `origin` are ignored, its `senderId` is not
};

template <class T>
struct BatchResult {
    struct Success {
        std::string id{};
        T result;
    };
    struct Failure {
        std::string id{};
        Error error{};
        bool senderFault = true;
    };
    std::vector<Success> successful{};
    std::vector<Failure> failed{};
    // Every entry in request order: true if it succeeded. (OCI answers in request order.)
    std::vector<bool> succeededInOrder{};
};

struct ReceiveRequest {
    std::string queue{};
    std::optional<std::int64_t> maxMessages;         // SQS 1..10 (default 1); OCI 1..20
    std::optional<std::int64_t> visibilityTimeout{}; // 0..43200; default the queue's
    std::optional<std::int64_t> waitTimeSeconds{};   // SQS 0..20, OCI 0..30; default the queue's
    // Union of AttributeNames and MessageSystemAttributeNames: "All" or single names.
    std::vector<std::string> systemAttributeNames{};
    // "All", ".*", "*", exact names or "Prefix.*".
    std::vector<std::string> messageAttributeNames{};
    std::optional<std::string> receiveRequestAttemptId{}; // FIFO
    std::optional<std::string> channelFilter{};           // OCI
    Origin origin{};
};

struct ReceivedMessage {
    MessageIdText messageId{};
    ReceiptText receiptHandle{};
    std::string body{};
    MessageAttributes attributes{}; // after MessageAttributeNames filtering
    StringMap systemAttributes{};   // only those asked for
    std::uint32_t receiveCount = 0; // after this receive (OCI deliveryCount)
    Millis sentAt = 0;
    Millis visibleAt = 0; // OCI visibleAfter
    Millis expiresAt = 0; // OCI expireAfter
    std::string groupId{};
    std::string channelId{};

    // Digests of §2.6, computed on request (the engine does not spend time on them otherwise).
    std::string md5OfBody() const;
    std::string md5OfMessageAttributes() const; // empty when `attributes` is empty
};

struct ReceiveResult {
    std::vector<ReceivedMessage> messages{};
};

struct ChangeVisibilityResult {
    std::string messageId{};
    Millis visibleAt = 0; // OCI visibleAfter
};

struct BatchReceiptEntry {
    std::string id{};
    std::string receiptHandle{};
    std::optional<std::int64_t> visibilityTimeout{}; // change-visibility batches only
};

// ---- move tasks --------------------------------------------------------------------------------

enum class MoveTaskStatus : std::uint8_t { Running, Completed, Cancelling, Cancelled, Failed };
std::string_view moveTaskStatusName(MoveTaskStatus s); // "RUNNING", ...

struct StartMoveTaskRequest {
    std::string sourceArn{};
    std::optional<std::string> destinationArn{};
    std::optional<std::int64_t> maxMessagesPerSecond{}; // 1..500
    Origin origin{};
};

struct MoveTaskInfo {
    std::string taskHandle; // only while Running (empty otherwise, as ListMessageMoveTasks shows)
    MoveTaskStatus status = MoveTaskStatus::Running;
    std::string sourceArn{};
    std::string destinationArn{};                       // empty if not given
    std::optional<std::int64_t> maxMessagesPerSecond{}; // only if given
    std::int64_t moved = 0;
    std::int64_t toMove = 0;
    Millis startedAt = 0;
    std::string failureReason{}; // Failed only
};

} // namespace inflight::engine
