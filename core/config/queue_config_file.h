#pragma once

#include "engine/broker.h"
#include "engine/error.h"
#include "engine/requests.h"
#include "engine/types.h"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::config {

// ---- the file ----------------------------------------------------------------------------------
//
// A configuration file declares queues, with their attributes, tags, redrive policies and first
// messages, for `inflight --config FILE` (headless or in the window) and the control API. JSON in
// UTF-8, at most kMaxConfigBytes, nested at most kMaxConfigDepth deep:
//
//   {
//     "version": 1,                   optional; 1 is the only version
//     "queues": [                     required (may be empty)
//       {
//         "name": "orders",           required; CreateQueue's name rules
//         "type": "standard",         optional: "standard" | "fifo" | "oci"; by default "fifo"
//                                     for a name ending in ".fifo", else "standard" (a FIFO
//                                     queue's name must end in ".fifo", any other's must not)
//         "attributes": {             SQS queues: CreateQueue's attribute names and values, as
//           "VisibilityTimeout": 30,  strings, numbers or booleans; FifoQueue may be left out
//           "FifoQueue": true,        (the type sets it) but must agree with the type
//           "RedrivePolicy": {"deadLetterTargetArn": "orders-dlq", "maxReceiveCount": 3}
//         },                          RedrivePolicy, RedriveAllowPolicy and Policy: a JSON object
//                                     or its text. In deadLetterTargetArn and sourceQueueArns a
//                                     queue name may stand for its ARN. A dead-letter target is
//                                     in the file (anywhere) or an existing queue.
//         "options": {                OCI queues, instead of attributes: retentionInSeconds,
//           "deadLetterQueueDeliveryCount": 3     visibilityInSeconds, timeoutInSeconds,
//         },                          deadLetterQueueDeliveryCount, channelConsumptionLimit,
//                                     maxMessageSizeInBytes (values as for attributes)
//         "tags": {"team": "a"},      optional; values as strings, numbers or booleans
//         "messages": [               optional; sent when the queue is created (only then)
//           {
//             "body": "…",            required: a string, or an object or list (sent as its
//                                     compact JSON text)
//             "attributes": {         optional message attributes by name: a string is of
//               "kind": "order",      DataType String, a number of DataType Number; or the SQS
//               "count": 3,           form {"DataType": …, "StringValue": …} or
//               "raw": {"DataType": "Binary", "BinaryValue": "<base64>"}
//             },
//             "delaySeconds": 5,      SQS: an integer (or a string holding one)
//             "groupId": "g1",        SQS (MessageGroupId)
//             "deduplicationId": "d", SQS FIFO (MessageDeduplicationId)
//             "channel": "c1"         OCI (the channel id)
//           }
//         ]
//       }
//     ]
//   }
//
// Any other key, anywhere, is an error (so that a typo is not ignored), and so is a name repeated
// in one object, a queue declared twice and a cycle of redrive policies. Values are the engine's
// to judge: a file is refused with the engine's own message for what CreateQueue, TagQueue or
// SendMessage would refuse.

inline constexpr std::size_t kMaxConfigBytes = 16 * 1024 * 1024;
inline constexpr std::size_t kMaxConfigDepth = 32;

// Where something is in the file: 1-based line and column (columns count characters) of its first
// character, and its field path ("queues[1].attributes.VisibilityTimeout"; empty for the top
// level). Every error about a file starts "line L, column C, at PATH: ".
struct ConfigPosition {
    int line = 1;
    int column = 1;
    std::string path{};
};

struct ConfigMessage {
    engine::SendMessageRequest request{}; // `queue` set; applyQueueConfig sets `origin`
    ConfigPosition position{};            // the message's object
    // The position of each field given, by its name in the file ("body", "delaySeconds",
    // "groupId", "deduplicationId", "channel", "attributes").
    std::map<std::string, ConfigPosition> fields{};
};

struct ConfigQueue {
    std::string name{};
    engine::QueueKind kind = engine::QueueKind::Standard;
    // CreateQueue attributes (OCI queues: the OCI option names) as the engine's strings; FIFO
    // queues have FifoQueue=true. RedrivePolicy and RedriveAllowPolicy may name queues where ARNs
    // go (withQueueArns resolves them).
    engine::StringMap attributes{};
    engine::StringMap tags{};
    std::vector<ConfigMessage> messages{};
    // The queue RedrivePolicy sends to ("" if none), by name, and where the file says so (its
    // deadLetterTargetArn, or the whole policy when given as text).
    std::string deadLetterTarget{};
    ConfigPosition deadLetterTargetPosition{};

    ConfigPosition position{};     // the entry's object
    ConfigPosition namePosition{}; // its name's value
    ConfigPosition typePosition{}; // its type's value, else the name's
    ConfigPosition tagsPosition{}; // its tags' object, else the entry's
    // Each attribute's value and name (OCI: each option's), by attribute name.
    std::map<std::string, ConfigPosition> attributePositions{};
    std::map<std::string, ConfigPosition> attributeNamePositions{};
};

// A parsed, checked configuration file.
struct QueueConfigFile {
    std::vector<ConfigQueue> queues{}; // in file order
    // Indexes into `queues`: every queue after the file's queue its RedrivePolicy names, otherwise
    // in file order.
    std::vector<std::size_t> creationOrder{};
};

// Parses and checks the whole file without touching any broker: JSON syntax, the shape above,
// queue names and types, each queue's attributes as CreateQueue checks them on its own (not yet
// whether the dead-letter target exists), duplicate queues and redrive cycles. Errors:
// InvalidParameterValue "line L, column C, at PATH: …" at the offending value, at the key where a
// key is the problem, at the object that misses a required key (PATH then names the key), at the
// parser's position for malformed JSON; its `parameter` is PATH. A file over kMaxConfigBytes or
// nested deeper than kMaxConfigDepth is refused before it is parsed.
engine::Result<QueueConfigFile> parseQueueConfig(std::string_view json);

struct ConfigApplied {
    int queuesCreated = 0;
    int queuesUpdated = 0;   // existing queues the file changed (attributes or tags)
    int queuesUnchanged = 0; // existing queues that already were as the file says
    int messagesSent = 0;    // stored (a FIFO duplicate inside the window is not)
};

// Applies a parsed file to `broker`, all or nothing: every step first runs on a scratch broker
// with the same options, clock and queues (without their messages); a refusal there is returned
// (positioned at the entry, attribute, tag or message concerned) and `broker` is not changed.
// Then, queues in creationOrder (a dead-letter target before its sources):
//  - a new queue is created with the file's attributes and tags, then its messages are sent;
//  - an existing queue (of the same type, else an error at the entry's type or name) gets the
//    file's attributes that differ from its own (SetQueueAttributes) and tags that differ
//    (TagQueue), and no messages: loading a file twice, or at every start on a workspace, neither
//    duplicates messages nor emits changes. Attributes and tags the file does not name are left
//    as they are. An OCI queue's retentionInSeconds can only be set at creation (else an error).
// A dead-letter target neither in the file nor existing is an error at deadLetterTargetPosition.
// Every engine call carries `origin`.
engine::Result<ConfigApplied> applyQueueConfig(engine::Broker& broker,
                                               const QueueConfigFile& config,
                                               const engine::Origin& origin);

// `attributes` with the queue names a file may give in RedrivePolicy (deadLetterTargetArn) and
// RedriveAllowPolicy (sourceQueueArns) replaced by arnFor(name). A value that already is an ARN
// (starts "arn:") stays, as does a policy that is not a JSON object (the engine refuses it).
engine::StringMap withQueueArns(const engine::StringMap& attributes,
                                const std::function<std::string(const std::string&)>& arnFor);

} // namespace inflight::config
