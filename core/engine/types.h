#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace inflight::engine {

// Which service's rules a queue follows; fixed at creation.
enum class QueueKind : std::uint8_t { Standard, Fifo, Oci };

// Where a message is in its life, evaluated against the clock at the time of the call.
enum class MessageState : std::uint8_t { Delayed, Available, InFlight };

// How a received message that is available again got there (kept for the explanations).
enum class ReturnCause : std::uint8_t {
    None,              // never received, in flight, or received with visibility 0
    VisibilityExpired, // the visibility timeout ran out without a delete
    Released,          // ChangeMessageVisibility / UpdateMessage with 0
    MovedHere,         // arrived as a dead letter from its source queue
};

std::string_view queueKindName(QueueKind kind);    // "standard", "fifo", "oci"
std::string_view messageStateName(MessageState s); // "delayed", "available", "in flight"

// One message attribute. dataType is the full type string ("String", "Number.int",
// "Binary.png"); for String/Number types stringValue holds the value, for Binary types
// binaryValue holds the raw bytes (not base64).
struct MessageAttributeValue {
    std::string dataType{};
    std::string stringValue{};
    std::string binaryValue{};

    bool isBinary() const;
    friend bool operator==(const MessageAttributeValue&, const MessageAttributeValue&) = default;
};

// Ordered by name in byte order, which is the order the MD5 digest needs.
using MessageAttributes = std::map<std::string, MessageAttributeValue>;

// Attribute maps as the SQS API carries them (queue attributes, system attributes, tags).
using StringMap = std::map<std::string, std::string>;

// Identifies one stored message of a queue for O(1) look-up (stable while it stays there).
struct MessageKey {
    std::uint32_t slot = 0;
    std::uint64_t sequence = 0;
    friend bool operator==(const MessageKey&, const MessageKey&) = default;
};

// The longest queue name of every kind (spec §1.3: 1 to 80 characters); the engine refuses longer
// ones on create and on restore, so an event can hold a queue's name in itself.
constexpr std::size_t kMaxQueueNameLength = 80;

// Where a request came from, shown in the event log and message timeline: "window",
// "127.0.0.1:53412", "simulation". Empty means unknown.
using Origin = std::string;

} // namespace inflight::engine
