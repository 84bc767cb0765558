#pragma once

#include "engine/types.h"

#include <string>

namespace inflight::engine {

// What a message carries: what its sender gave it and, after a dead-letter move, the queue it
// came from. The one value the stored message (Message::content / setContent), the peeked view
// (MessageView), the persisted record (MessageRecord) and the store's rows share, so a message's
// content is copied as one value, never field by field.
//
// SendMessageRequest keeps its own optional fields (a MessageGroupId that is absent is not one
// that is empty: the spec answers them differently), and becomes content in one place
// (broker_send.cpp) once it is valid.
struct MessageContent {
    std::string body{};
    MessageAttributes attributes{};
    MessageAttributes systemAttributes{}; // AWSTraceHeader if sent
    std::string groupId{};                // FIFO
    std::string deduplicationId{};        // FIFO
    std::string channelId{};              // OCI
    std::string deadLetterSourceArn{};    // set by a move to an SQS dead-letter queue
};

} // namespace inflight::engine
