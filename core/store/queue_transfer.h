#pragma once

#include "engine/broker.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::store {

// JSON export and import of queues: definitions (kind, attributes, tags) and messages (body,
// attributes, AWSTraceHeader, FIFO group and deduplication ids, OCI channel, the sender's access
// key id that SenderId shows). One message per line,
// so an import error can name the line. Format:
//   {"format": "inflight-queues", "version": 1, "queues": [
//     {"name": "...", "kind": "standard|fifo|oci", "attributes": {...}, "tags": {...},
//      "messages": [
//        {"messageId": "...", "body": "...", "attributes": {"n": {"DataType": "String",
//         "StringValue": "v"}}, "groupId": "...", "deduplicationId": "...",
//         "senderId": "AKID...", ...},
//        ...]}]}
// Binary attribute values are base64 ("BinaryValue").

// Called every few thousand messages with how many are done of `total` (0 when unknown); return
// false to stop. An export stopped returns an error; an import stopped keeps what it sent.
using TransferProgress = std::function<bool(std::int64_t done, std::int64_t total)>;

struct ExportRequest {
    std::vector<std::string> queues; // empty: every queue but OCI built-in DLQs
    // Only these message ids (the window's selection); empty: all messages.
    std::vector<std::string> messageIds;
    TransferProgress progress;
};

// The export text, or the engine's error for an unknown queue.
engine::Result<std::string> exportQueues(engine::Broker& broker, const ExportRequest& request);

struct ImportRequest {
    // Import every message of the file into this queue (which must exist); empty: each queue of
    // the file into the queue of the same name, created from its definition when missing.
    std::string intoQueue;
    // New deduplication ids (so nothing is dropped as a duplicate) and, for messages without a
    // group going into a FIFO queue, the group "imported". Otherwise both are kept as exported.
    bool regenerateIds = false;
    engine::Origin origin = "import";
    TransferProgress progress;
};

// What an import did, once the file was accepted.
struct Imported {
    std::int64_t queuesCreated = 0;
    std::int64_t messages = 0;
    std::vector<std::string> refused; // messages the engine refused, with the reason
    bool stopped = false;             // the progress callback said stop: part was imported
};

// Checks the whole text first: bad JSON or a malformed entry imports nothing, and the error
// (InvalidParameterValue) says where: "line 12, column 5: ...". Then creates queues and sends the
// messages in order (as new messages: new ids, sent now).
engine::Result<Imported> importQueues(engine::Broker& broker, std::string_view json,
                                      const ImportRequest& request);

// "line L, column C" of a byte offset in `text` (1-based).
std::string lineAndColumn(std::string_view text, std::size_t offset);

} // namespace inflight::store
