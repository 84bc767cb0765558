#pragma once

#include "engine/clock.h"
#include "engine/error.h"
#include "engine/types.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

namespace inflight::sim {

using engine::Millis;

// ---- what an actor is told to do ---------------------------------------------------------------
//
// Plain values: the scenario file reads and writes them (scenario.h gives each field's JSON
// name), the window edits them, Simulation::addActor runs them. Times are engine milliseconds.

class SimRandom;

// A time drawn once per message: fixed, uniform in [a, b], or exponential with mean a.
struct Duration {
    enum class Kind : std::uint8_t { Fixed, Uniform, Exponential };
    Kind kind = Kind::Fixed;
    Millis a = 0; // the fixed time, the uniform minimum, the exponential mean
    Millis b = 0; // the uniform maximum

    // Whole milliseconds; draws once from `random` unless fixed.
    Millis draw(SimRandom& random) const;
    friend bool operator==(const Duration&, const Duration&) = default;
};

enum class Arrivals : std::uint8_t {
    Constant, // evenly spaced: send k at start + k / rate
    Poisson,  // exponential gaps with mean 1 / rate (a Poisson process)
};

// Extra messages at once, on top of the rate: `messages` at start + first, then every `every`.
struct Bursts {
    Millis every = 60'000;
    std::int64_t messages = 10;
    Millis first = 60'000;
    friend bool operator==(const Bursts&, const Bursts&) = default;
};

// A message attribute; `value` is a template (message_template.h) for String and Number types
// and the raw bytes for Binary types.
struct AttributeTemplate {
    std::string dataType = "String";
    std::string value{};
    friend bool operator==(const AttributeTemplate&, const AttributeTemplate&) = default;
};

struct ProducerSpec {
    std::string name{};  // unique in the simulation; 1..80 of [A-Za-z0-9_.-]
    std::string queue{}; // the queue sent to
    double rate = 1.0;   // messages per engine second (bursts come on top); 0 < rate <= 100000
    Arrivals arrivals = Arrivals::Constant;
    std::optional<Bursts> bursts{};
    std::optional<std::int64_t> total{}; // messages, bursts included, retries not; none: unbounded
    std::string body = "message {n}";    // template
    std::map<std::string, AttributeTemplate> attributes{};
    std::optional<std::string> groupId{};         // template; FIFO queues need it
    std::optional<std::string> deduplicationId{}; // template; FIFO; none: content-based
    std::optional<std::string> channel{};         // template; OCI queues
    // After each message stored, the same request (body, ids, attributes) is sent once more with
    // this probability, `retryAfter` later: a FIFO queue acknowledges it as a duplicate inside its
    // deduplication window, a standard queue stores it again.
    double retryProbability = 0.0;
    Millis retryAfter = 1'000;
    std::int64_t delaySeconds = 0; // SQS standard queues
    // Messages per SendMessageBatch (OCI PutMessages); 1 = SendMessage. A constant rate sends a
    // batch every batchSize / rate seconds; a Poisson one batches with that mean gap.
    std::int64_t batchSize = 1;
    Millis startAfter = 0; // after start() (the scenario's first start)
    bool autoStart = true; // addActor starts it
    friend bool operator==(const ProducerSpec&, const ProducerSpec&) = default;
};

enum class Outcome : std::uint8_t { Succeed, Fail, Crash, Release };

// What becomes of a message once processed, by probability (they add up to 1).
struct Outcomes {
    double succeed = 1.0; // DeleteMessage
    double fail = 0.0;    // nothing: the message comes back when its visibility timeout ends
    double crash = 0.0;   // the worker stops for crashDowntime and forgets everything it holds
    double release = 0.0; // ChangeMessageVisibility 0: back at once
    friend bool operator==(const Outcomes&, const Outcomes&) = default;
};

// While a worker holds messages (the one it processes and those of the same receive waiting
// behind it), at every `every` after the receive it sets their visibility timeout to `extendBy`
// seconds from then (ChangeMessageVisibility), never past `maximum` seconds after the receive:
// the k-th heartbeat asks min(extendBy, ⌊(maximum·1000 − elapsed) / 1000⌋) seconds, elapsed
// being the time since the receive, for each message whose visible-at that moves later. The
// heartbeats end when that is 0 or the worker holds nothing more.
struct Heartbeat {
    std::int64_t extendBy = 30; // seconds
    Millis every = 20'000;
    std::int64_t maximum = 300; // seconds after the receive
    friend bool operator==(const Heartbeat&, const Heartbeat&) = default;
};

struct ReceiveSettings {
    std::int64_t maxMessages = 1;                    // SQS 1..10, OCI 1..20 (limit)
    std::optional<std::int64_t> waitTimeSeconds{};   // none: the queue's; SQS 0..20, OCI 0..30
    std::optional<std::int64_t> visibilityTimeout{}; // none: the queue's; 0..43200
    std::optional<std::string> channelFilter{};      // OCI
    // FIFO: each receive carries a ReceiveRequestAttemptId; with lostAnswerProbability an answer
    // with messages is taken as lost and the same receive (same attempt id) is made again 1 s
    // later, which the queue answers with the same messages and receipts.
    bool attemptIds = false;
    double lostAnswerProbability = 0.0;
    // Before the next receive after an empty one or an error; none: 1 s for a receive that does
    // not wait, 0 for a long poll (at least 1 ms whenever the empty answer came at once).
    std::optional<Millis> idle{};
    friend bool operator==(const ReceiveSettings&, const ReceiveSettings&) = default;
};

struct ConsumerSpec {
    std::string name{};
    std::string queue{};
    std::int64_t workers = 1; // 1..1000, each receiving and processing on its own
    ReceiveSettings receive{};
    Duration processing{Duration::Kind::Fixed, 1'000, 0}; // per message, one after another
    Outcomes outcomes{};
    Millis crashDowntime = 30'000;
    // ECMAScript regular expression: a body it matches (anywhere) always fails (poison).
    std::optional<std::string> poison{};
    std::optional<Heartbeat> heartbeat{};
    Millis startAfter = 0;
    bool autoStart = true;
    friend bool operator==(const ConsumerSpec&, const ConsumerSpec&) = default;
};

using ActorSpec = std::variant<ProducerSpec, ConsumerSpec>;

const std::string& actorName(const ActorSpec& spec);
const std::string& actorQueue(const ActorSpec& spec);

// ---- checks ------------------------------------------------------------------------------------
//
// Errors are InvalidParameterValue with the field's path inside the actor as parameter
// ("rate", "receive.maxMessages", "outcomes.fail", "attributes.kind") — the scenario reader
// turns it into a line and column.

// The spec on its own: names, ranges, templates, the poison pattern.
engine::Status checkActorSpec(const ActorSpec& spec);

// What a spec needs to know of its queue.
struct QueueFacts {
    engine::QueueKind kind = engine::QueueKind::Standard;
    bool contentBasedDeduplication = false;
};

// The spec against its queue: a FIFO queue needs a group id (and a deduplication id unless it
// deduplicates by content) and has no delay; OCI queues have neither groups, deduplication nor
// delays, standard and FIFO queues no channels; batch and receive limits by kind.
engine::Status checkActorFits(const ActorSpec& spec, const QueueFacts& queue);

} // namespace inflight::sim
