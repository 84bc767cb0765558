#pragma once

#include "engine/clock.h"
#include "engine/inline_text.h"
#include "engine/receipt.h"
#include "engine/types.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace inflight::engine {

enum class EventKind : std::uint8_t {
    QueueCreated,
    QueueChanged, // attributes or tags set
    QueueDeleted,
    QueuePurged, // count = messages removed
    MessageSent,
    MessageDeduplicated, // a FIFO duplicate was acknowledged and not enqueued
    DelayEnded,
    MessageReceived,   // receipt, receiveCount, deadline = visible-at
    VisibilityChanged, // deadline = new visible-at
    MessageReleased,   // visibility set to 0
    VisibilityExpired, // back to available; time = the deadline
    MessageDeleted,
    // A message moved: `queue` and `key` are where it was, `detail` the queue it is in now and
    // `relatedKey` its key there (isMove()). One event per move: the destination gets no
    // MessageSent of its own.
    MovedToDeadLetterQueue, // by the receive that would exceed the redrive policy's maximum
    MovedByTask,            // by a message move task (StartMessageMoveTask, redrive)
    RetentionExpired,
    MoveTaskProgress, // detail = task handle, count = moved so far
};

std::string_view eventKindName(EventKind kind);

// MovedToDeadLetterQueue and MovedByTask: the two kinds of "a message moved", of one shape.
constexpr bool isMove(EventKind kind)
{
    return kind == EventKind::MovedToDeadLetterQueue || kind == EventKind::MovedByTask;
}

// A queue's name as an event holds it: in the event, no heap (names of more than 15 characters,
// the usual kind, cost each event an allocation as a std::string).
using QueueNameText = InlineText<kMaxQueueNameLength>;

// One lifecycle event. Every state change leaves the engine as exactly one event. The queue's
// name, the message id and receipt are held in the event (InlineText), so the events of a
// message's life allocate nothing beyond details and origins too long for a std::string's own
// room.
struct Event {
    // Each member is set by its initializer below, and nothing more: a new event at the end of a
    // batch (emplace_back) is not first zeroed whole, as a value-initialized aggregate would be,
    // and the texts' unused room is left as it is (InlineText; their lengths start at 0).
    Event() noexcept {} // NOLINT(modernize-use-equals-default): that would zero it

    EventKind kind{};
    Millis time = 0; // engine time the change took effect (a deadline for expiries)
    std::uint32_t queueId = 0;
    QueueNameText queue;     // queue name
    MessageIdText messageId; // empty for queue-level events
    MessageKey key;          // the message in that queue (for peekMessage)
    MessageKey relatedKey;   // a move: the message's key in the queue it moved to (detail)
    // MovedByTask: the id the message has in the destination (a task sends it as a new message;
    // a dead-letter move keeps the id, and leaves this empty).
    MessageIdText relatedMessageId;
    ReceiptText receipt; // receive events: the new receipt handle; changes: the handle used
    std::uint32_t receiveCount = 0;
    Millis deadline = 0;    // visible-at or delivery time where one applies
    std::int64_t count = 0; // purged messages, moved-by-task count
    std::string detail{};   // DLQ or destination name, group id, task handle
    Origin origin{};        // who asked: "window", a client address, "engine" for expiries
    // The broker's number for it: 1 for its first event, then one up for each event it hands to
    // its sink, in order (Broker::eventsEmitted). Tells which events a call caused.
    std::uint64_t sequence = 0;
};

// Receives events in batches, after the engine call that produced them has finished and the
// engine is consistent. A sink must not call back into the broker. The batch is the sink's: it
// may move the events out, or swap the whole vector for an empty one of its own (what it leaves
// in `batch` is cleared and its room reused for the next batch). A sink taking
// std::span<const Event> or std::span<Event> works as well.
using EventSink = std::function<void(std::vector<Event>& batch)>;

} // namespace inflight::engine
