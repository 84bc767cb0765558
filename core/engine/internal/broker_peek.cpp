// Side-effect-free views for the window: queues, messages, FIFO groups, OCI channels.
#include "engine/internal/broker_state.h"
#include "engine/receipt.h"

#include <algorithm>

namespace inflight::engine {

QueueStats BrokerState::stats(Queue& q, Millis now)
{
    QueueStats s = q.counters;
    s.available = q.availableCount;
    s.inFlight = q.inFlightCount;
    s.delayed = q.delayedCount;
    s.sizeInBytes = q.bytes;
    const Millis oldest = oldestRetentionBase(q);
    s.oldestMessageAge = oldest == kNoDeadline ? 0 : std::max<Millis>(now - oldest, 0);
    return s;
}

StringMap BrokerState::allAttributes(const Queue& q) const
{
    StringMap a = formatAttributes(q.config);
    a["ApproximateNumberOfMessages"] = std::to_string(q.availableCount);
    a["ApproximateNumberOfMessagesNotVisible"] = std::to_string(q.inFlightCount);
    a["ApproximateNumberOfMessagesDelayed"] = std::to_string(q.delayedCount);
    a["CreatedTimestamp"] = std::to_string(q.createdAt / kSecond);
    a["LastModifiedTimestamp"] = std::to_string(q.lastModifiedAt / kSecond);
    a["QueueArn"] = q.arn;
    return a;
}

MessageView BrokerState::view(Queue& q, std::uint32_t slot, const Message& m)
{
    MessageView v{m.content()};
    v.key = MessageKey{slot, m.sequence};
    v.messageId = messageId(m);
    v.state = m.state;
    if (q.isFifo())
        v.sequenceNumber = sequenceNumber(m.sequence);
    v.receiveCount = m.receiveCount;
    v.sentAt = m.sentAt;
    v.firstReceivedAt = m.firstReceivedAt;
    if (m.state == MessageState::Delayed)
        v.deliverAt = deliverAt(q, m);
    if (m.state == MessageState::InFlight) {
        v.visibleAt = m.deadline;
        v.receiptHandle
            = encodeReceipt({q.id, slot, m.sequence, m.receiveCount}, receiptKey, m.receiptNonce);
    }
    v.receivedAt = m.receivedAt;
    v.expiresAt = m.retentionBase + q.retentionMillis();
    const std::int64_t limit = maxReceiveCount(q);
    v.movesToDeadLetterOnNextReceive
        = limit > 0 && m.receiveCount >= limit && deadLetterTarget(q) != nullptr;
    return v;
}

} // namespace inflight::engine
