#pragma once

#include "engine/broker_options.h"
#include "engine/error.h"
#include "engine/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::engine {

struct RedrivePolicy {
    std::string deadLetterTargetArn{};
    std::int64_t maxReceiveCount = 0;
};

struct RedriveAllowPolicy {
    enum class Permission : std::uint8_t { AllowAll, DenyAll, ByQueue };
    Permission permission = Permission::AllowAll;
    std::vector<std::string> sourceQueueArns{}; // ByQueue only, at most 10
};

enum class DeduplicationScope : std::uint8_t { Queue, MessageGroup };
enum class FifoThroughputLimit : std::uint8_t { PerQueue, PerMessageGroupId };

// The settable configuration of one queue, parsed and validated. Cross-queue rules of a redrive
// policy (target exists, same type, allowed by its RedriveAllowPolicy) are the broker's.
struct QueueConfig {
    QueueKind kind = QueueKind::Standard;

    std::int64_t visibilityTimeout = 30; // SQS VisibilityTimeout / OCI visibilityInSeconds
    std::int64_t delaySeconds = 0;       // SQS only
    std::int64_t messageRetentionPeriod = 345'600; // SQS / OCI retentionInSeconds
    std::int64_t maximumMessageSize = 1'048'576;   // SQS / OCI maxMessageSizeInBytes
    // SQS ReceiveMessageWaitTimeSeconds 0..20 / OCI timeoutInSeconds 0..30 (default 30)
    std::int64_t receiveMessageWaitTimeSeconds = 0;

    // FIFO only.
    bool contentBasedDeduplication = false;
    DeduplicationScope deduplicationScope = DeduplicationScope::Queue;
    FifoThroughputLimit fifoThroughputLimit = FifoThroughputLimit::PerQueue;

    // Present only when set; the *Json members hold the attribute value as GetQueueAttributes
    // returns it (AWS returns maxReceiveCount as a JSON number).
    std::optional<RedrivePolicy> redrivePolicy{};
    std::string redrivePolicyJson{};
    std::optional<RedriveAllowPolicy> redriveAllowPolicy{};
    std::string redriveAllowPolicyJson{};
    std::string policy{};                                       // JSON text, "" = none
    std::string kmsMasterKeyId{};                               // "" = none
    std::optional<std::int64_t> kmsDataKeyReusePeriodSeconds{}; // 60..86400, shown only when set
    bool sqsManagedSseEnabled = true;

    // OCI only.
    std::int64_t deadLetterQueueDeliveryCount = 0; // 0 = DLQ off, else 1..20
    std::int64_t channelConsumptionLimit = 100;    // 1..100
};

// Queue name rules (§1.3, §3.1): 1–80 chars of [A-Za-z0-9_-]; FIFO names end in ".fifo" (the
// suffix counts); a standard queue's name must not end in ".fifo". InvalidParameterValue.
Status validateQueueName(std::string_view name, QueueKind kind);

// Builds the configuration of a new queue from CreateQueue attributes (SQS names) or, when
// kind == Oci, from OCI names (retentionInSeconds 10..604800 default
// options.ociDefaultRetentionSeconds, visibilityInSeconds 1..43200 default 30, timeoutInSeconds
// 0..30 default 30, deadLetterQueueDeliveryCount 0..20, channelConsumptionLimit 1..100,
// maxMessageSizeInBytes 1024..1048576 default options.ociMaxMessageSize).
// The kind of an SQS queue comes from FifoQueue: "true" ⇒ Fifo; "false" or anything else on a
// would-be standard queue ⇒ InvalidAttributeName "Unknown Attribute FifoQueue.".
// Errors (§3.1): InvalidAttributeName for unknown or FIFO-only names on a standard queue (with
// the AWS texts), InvalidAttributeValue for out-of-range or malformed values and for a Policy /
// RedrivePolicy / RedriveAllowPolicy over 8,192 bytes or nested over 32 levels,
// InvalidParameterValue for a malformed RedrivePolicy / RedriveAllowPolicy (its message quotes at
// most kMaxExcerptBytes of the value).
Result<QueueConfig> configForCreate(const StringMap& attributes, bool oci,
                                    const BrokerOptions& options);

// SetQueueAttributes (§3.6): applies `attributes` to a copy of `current`. Read-only names ⇒
// InvalidAttributeName; FifoQueue=true on FIFO is a no-op, false ⇒ InvalidAttributeValue
// "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.";
// FifoQueue on standard ⇒ InvalidAttributeName "Unknown Attribute FifoQueue."; "" for
// RedrivePolicy / RedriveAllowPolicy / Policy / KmsMasterKeyId removes it. Only one SSE kind is
// active: a KmsMasterKeyId turns SqsManagedSseEnabled off, SqsManagedSseEnabled=true drops the key
// (both in one request ⇒ InvalidAttributeName, as on create). OCI queues accept
// visibilityInSeconds, timeoutInSeconds, deadLetterQueueDeliveryCount, channelConsumptionLimit,
// maxMessageSizeInBytes (retention is creation-only ⇒ InvalidAttributeName).
Result<QueueConfig> applyAttributes(const QueueConfig& current, const StringMap& attributes);

// The configuration's attributes as GetQueueAttributes(All) shows them, without the counters,
// timestamps and QueueArn (the broker adds those). Keys in §1.4 spelling; values strings;
// booleans lower-case. OCI queues use the OCI names.
StringMap formatAttributes(const QueueConfig& config);

// For an idempotent CreateQueue: the first attribute given in `attributes` whose value differs
// from the queue's current configuration (compared as normalised values, so "30" and "030" or a
// policy JSON with other spacing compare equal), or nullopt when all match.
std::optional<std::string> firstDifferingAttribute(const QueueConfig& current,
                                                   const StringMap& attributes);

// The queue name at the end of an SQS ARN ("arn:aws:sqs:region:account:name"), or nullopt if the
// text is not such an ARN.
std::optional<std::string> queueNameFromArn(std::string_view arn);

} // namespace inflight::engine
