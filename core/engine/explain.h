#pragma once

// The reason behind an outcome, as values: why a receive comes back empty, why a FIFO message
// waits, where a message is in its life, what a receipt handle still does. Each explanation holds
// the numbers and ids it is made of, and one `text` sentence for a window or a control API.
// Durations in the text count from the broker's clock ("in 4.2 s"); absolute times are UTC
// "HH:MM:SS"; clients are the Origin strings of the requests.
#include "engine/clock.h"
#include "engine/error.h"
#include "engine/receipt.h"
#include "engine/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {

struct EmptyReceiveExplanation {
    enum class Cause : std::uint8_t {
        NotEmpty,           // a receive now would return messages
        QueueEmpty,         // nothing stored (in this channel, for a channel filter)
        AllInFlight,        // nothing available; some in flight, none delayed
        AllDelayed,         // nothing available; some delayed, none in flight
        InFlightAndDelayed, // nothing available; both in flight and delayed
        FifoGroupsBlocked,  // available messages, all behind in-flight or delayed group heads
        InFlightLimit,      // the queue's in-flight limit is reached (§1.3: OverLimit)
        ChannelEmpty,       // OCI channelFilter: nothing available in that channel
    };
    Cause cause = Cause::NotEmpty;
    // Of the queue, or of the filtered channel for ChannelEmpty.
    std::int64_t available = 0;
    std::int64_t inFlight = 0;
    std::int64_t delayed = 0;
    std::int64_t inFlightLimit = 0;          // InFlightLimit: the limit that applies
    std::optional<Millis> nextVisibleAt;     // earliest in-flight message's visible-at (queue-wide)
    std::optional<Millis> nextDeliverAt;     // earliest delayed message's end of delay (queue-wide)
    std::vector<std::string> blockingGroups; // FifoGroupsBlocked: by oldest head first
    std::optional<std::string> channel;      // the channel filter, if any
    std::int64_t availableElsewhere = 0;     // ChannelEmpty: available in the other channels
    Millis longPollWait = 0;                 // the request's effective wait (0: short poll)
    std::string text;
};

// An available FIFO message that a receive does not return because an earlier message of its
// group is in flight or delayed (§5.1 head-of-line blocking).
struct BlockedMessage {
    MessageKey key;
    std::string messageId;
    std::string groupId;
    MessageKey blockerKey; // the first not-available message of the group
    std::string blockerMessageId;
    MessageState blockerState = MessageState::InFlight;
    Millis blockedUntil = 0;          // the blocker's visible-at or end of delay
    std::uint32_t blockerReceive = 0; // InFlight: which receive holds it (its receive count)
    Origin blockerOrigin;             // InFlight: who made that receive
    std::string text;
};

struct MessageExplanation {
    MessageKey key;
    std::string messageId;
    MessageState state = MessageState::Available;
    Millis deliverAt = 0;    // Delayed: end of the delay
    Millis visibleAt = 0;    // InFlight: end of the visibility timeout
    Millis visibleSince = 0; // Available after a receive: when it became visible again
    ReturnCause returnCause = ReturnCause::None;
    std::uint32_t receiveCount = 0;
    Millis lastReceivedAt = 0;        // 0 if never received
    Origin lastReceiveOrigin;         // empty if unknown
    Millis lastVisibilityTimeout = 0; // from the last receive to its visible-at (or release)
    std::int64_t maxReceiveCount = 0; // 0: no dead-letter queue
    std::string deadLetterQueue;      // where the receive after the last allowed one moves it
    bool movesToDeadLetterOnNextReceive = false;
    Millis expiresAt = 0; // retention deadline
    // Its earlier life: the queue it was moved here from as a dead letter (SQS: from
    // DeadLetterQueueSourceArn; OCI: the queue whose built-in DLQ this is). The message id is kept.
    std::string deadLetterSourceQueue;
    std::optional<BlockedMessage> blockedBy; // FIFO: available but behind its group's head
    std::string text;
};

struct ReceiptExplanation {
    enum class Standing : std::uint8_t {
        Current,     // from the latest receive, message in flight
        Lapsed,      // from the latest receive, but its visibility timeout ran out or was 0
        Stale,       // from an earlier receive: the message was received again since
        MessageGone, // the message is no longer in the queue (deleted, moved, expired, purged)
        OtherQueue,  // a handle of another queue
        NotAHandle,  // not a handle this engine made
    };
    Standing standing = Standing::NotAHandle;
    std::uint32_t receive = 0;       // which receive made it (1 = first)
    std::uint32_t latestReceive = 0; // the message's receive count now
    MessageKey key;
    Millis latestReceivedAt = 0;
    Origin latestReceiveOrigin;
    std::string otherQueue; // OtherQueue: its queue, when it still exists
    // What DeleteMessage with this handle does now (§4.4, §6.4, BrokerOptions).
    bool deleteSucceeds = false; // the call returns success
    bool deleteRemoves = false;  // ... and removes the message
    std::optional<ErrorCode> deleteError;

    // What the texts are made of, as things stood when the explanation was made. The texts are
    // made only when asked for: the traffic log notes every receipt of a batch before it runs and
    // words one of them.
    bool decoded = false; // a handle this engine made (NotAHandle: or a receive beyond
                          // the message's count)
    std::string queue;    // OtherQueue: the queue it was used on
    QueueKind queueKind = QueueKind::Standard;
    Millis now = 0;
    Millis deadline = 0; // Current: in flight until; Lapsed: visible again since
    ReturnCause returnCause = ReturnCause::None; // Lapsed: why it is visible again

    // `text()` without what a delete does: which receive the handle is of and where that receive
    // stands (for a visibility change, which a delete's rules do not describe).
    std::string standingText() const;
    // Where the receipt stands and what a delete with it does.
    std::string text() const;
};

// "4.2 s", "10 s", "5 min 3 s", "2 h 5 min", "4 d 0 h"; negative durations count as 0.
std::string formatDuration(Millis duration);
// Engine time as UTC "HH:MM:SS".
std::string formatClockTime(Millis time);
// Engine time as UTC "YYYY-MM-DD HH:MM:SS" (a deadline a day or more away).
std::string formatDateClockTime(Millis time);

} // namespace inflight::engine
