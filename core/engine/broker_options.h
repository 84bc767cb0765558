#pragma once

#include "engine/clock.h"

#include <cstdint>
#include <string>

namespace inflight::engine {

// Engine-wide settings. Defaults reproduce AWS; the UNCONFIRMED points of the spec are switches
// here (docs/BEHAVIOUR.md lists each choice).
struct BrokerOptions {
    std::string region = "us-east-1";
    std::string accountId = "000000000000";

    std::int64_t inFlightLimitStandard = 120'000; // short poll at the limit: OverLimit
    std::int64_t inFlightLimitFifo = 120'000;     // at the limit: nothing returned, no error

    Millis purgeInterval = 60 * kSecond; // one PurgeQueue per queue per interval
    Millis recreateDelay = 60 * kSecond; // QueueDeletedRecently window
    Millis deduplicationWindow = 300 * kSecond;
    Millis receiveAttemptWindow = 300 * kSecond;

    // Standard queues: a stale receipt (expired, or older than the latest receive) still deletes
    // the message, as AWS does in practice. false = "strict": such a delete is a no-op.
    bool staleReceiptDeletes = true;
    // Standard queues: ChangeMessageVisibility with an expired receipt of a message not received
    // since returns 200 and changes nothing (recommended); true re-hides the message (ElasticMQ).
    bool expiredReceiptChangeRehides = false;
    // Return MessageNotInflight when a valid handle's message is not in flight (never seen on AWS).
    bool strictMessageNotInflight = false;

    // OCI: GetMessages limit above 20 is an InvalidParameter error (false) or clamped (true).
    bool ociClampLimit = false;
    std::int64_t ociMaxMessageSize = 128 * 1024; // UNCONFIRMED in the spec
    std::int64_t ociDefaultRetentionSeconds = 86'400;

    // Seeds the generator for message ids and receipt nonces (fixed for reproducible tests).
    std::uint64_t seed = 0x1f1e5eedULL;
};

} // namespace inflight::engine
