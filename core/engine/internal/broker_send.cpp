// SendMessage / SendMessageBatch / OCI PutMessages: validation in the spec's order (§4.1, §4.2),
// FIFO deduplication (§5.2) and storing.
#include "engine/digest.h"
#include "engine/internal/broker_state.h"
#include "engine/message_validation.h"
#include "engine/receipt.h"

#include <tuple>

namespace inflight::engine {

namespace {

constexpr std::int64_t kMaxDelay = 900;

Error invalidForQueueType(std::string_view parameter, std::string_view value)
{
    return makeError(ErrorCode::InvalidParameterValue,
                     "Value " + std::string(value) + " for parameter " + std::string(parameter)
                         + " is invalid. Reason: The request include parameter that is not valid "
                           "for this queue type.",
                     std::string(parameter));
}

Error tooLarge(std::int64_t maximum, bool inBatch)
{
    return makeError(ErrorCode::InvalidParameterValue,
                     std::string(inBatch ? "One or more parameters cannot be validated."
                                         : "One or more parameters are invalid.")
                         + " Reason: Message must be shorter than " + std::to_string(maximum)
                         + " bytes.",
                     "MessageBody");
}

} // namespace

Result<SendResult> BrokerState::sendOne(Queue& q, const SendMessageRequest& r, bool inBatch,
                                        Millis now, const Origin& origin)
{
    if (!r.body || r.body->empty())
        return makeError(ErrorCode::MissingParameter,
                         "The request must contain the parameter MessageBody.", "MessageBody");
    const std::string& body = *r.body;
    const bool fifo = q.isFifo();
    if (q.isOci()) {
        if (r.delaySeconds && *r.delaySeconds != 0)
            return makeError(ErrorCode::InvalidParameterValue,
                             "OCI queues have no per-message delay.", "delaySeconds");
        if (r.groupId || r.deduplicationId)
            return makeError(ErrorCode::InvalidParameterValue,
                             "OCI queues have no message groups or deduplication ids.", "metadata");
        if (messageSize(body, r.attributes) > q.config.maximumMessageSize)
            return makeError(ErrorCode::InvalidParameterValue,
                             "The message is larger than the queue's limit of "
                                 + std::to_string(q.config.maximumMessageSize) + " bytes.",
                             "content");
    } else {
        if (!isValidMessageText(body))
            return makeError(
                ErrorCode::InvalidMessageContents,
                "Invalid binary character was found in the message body, the set of allowed "
                "characters "
                "is #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF",
                "MessageBody");
        if (Status s = validateMessageAttributes(r.attributes); !s)
            return s.error();
        if (Status s = validateMessageSystemAttributes(r.systemAttributes); !s)
            return s.error();
        if (messageSize(body, r.attributes) > q.config.maximumMessageSize)
            return tooLarge(q.config.maximumMessageSize, inBatch);
        if (r.delaySeconds) {
            const std::int64_t d = *r.delaySeconds;
            if (d < 0 || d > kMaxDelay)
                return makeError(ErrorCode::InvalidParameterValue,
                                 "Value " + std::to_string(d)
                                     + " for parameter DelaySeconds is invalid. Reason: "
                                       "DelaySeconds must be >= 0 "
                                       "and <= 900.",
                                 "DelaySeconds");
            if (fifo && d != 0)
                return invalidForQueueType("DelaySeconds", std::to_string(d));
        }
        if (fifo) {
            if (!r.groupId)
                return makeError(
                    inBatch ? ErrorCode::InvalidParameterValue : ErrorCode::MissingParameter,
                    "The request must contain the parameter MessageGroupId.", "MessageGroupId");
            if (!r.deduplicationId && !q.config.contentBasedDeduplication)
                return makeError(
                    ErrorCode::InvalidParameterValue,
                    "The queue should either have ContentBasedDeduplication enabled or "
                    "MessageDeduplicationId provided explicitly",
                    "MessageDeduplicationId");
        }
        if (r.groupId && !isValidTokenId(*r.groupId))
            return invalidTokenIdError("MessageGroupId", *r.groupId);
        if (r.deduplicationId) {
            if (!isValidTokenId(*r.deduplicationId))
                return invalidTokenIdError("MessageDeduplicationId", *r.deduplicationId);
            if (!fifo)
                return invalidForQueueType("MessageDeduplicationId", *r.deduplicationId);
        }
    }

    SendResult result;
    result.sentAt = now;
    // The message's content is copied before the window's look-up (a duplicate, the exception,
    // drops the copy): the copy is work the look-up's cache miss no longer waits behind.
    NewMessage n;
    n.content = MessageContent{.body = body,
                               .attributes = r.attributes,
                               .systemAttributes = r.systemAttributes,
                               .groupId = r.groupId.value_or(std::string()),
                               .deduplicationId = !fifo ? std::string()
                                   : r.deduplicationId  ? *r.deduplicationId
                                                        : sha256Hex(body),
                               .channelId = r.channelId.value_or(std::string())};
    // FIFO: this message's record in the deduplication window, made by the one look-up that also
    // finds a duplicate; filled in once the message is stored (nothing fails in between).
    DedupWindow::Record* dedupEntry = nullptr;
    if (fifo) {
        const std::string& dedupId = n.content.deduplicationId;
        std::string groupKey;
        std::string_view dedupKey = dedupId;
        if (q.config.deduplicationScope == DeduplicationScope::MessageGroup)
            dedupKey = groupKey = *r.groupId + '\x1f' + dedupId;
        expireWindows(q, now);
        bool fresh = false;
        const Millis expiresAt = now + options.deduplicationWindow;
        std::tie(dedupEntry, fresh) = q.dedup.insert(dedupKey, expiresAt);
        if (!fresh) {
            // A duplicate inside the window: acknowledged, not stored, answered with the original.
            const DedupWindow::Record& original = *dedupEntry;
            result.messageId = formatMessageId(original.idHigh, original.idLow);
            result.sequenceNumber = sequenceNumber(original.sequence);
            result.deduplicated = true;
            result.expiresAt = now + q.retentionMillis();
            ++q.counters.deduplicated;
            if (wantEvents()) {
                Event e = queueEvent(EventKind::MessageDeduplicated, q, now, origin);
                e.messageId = result.messageId;
                e.detail = dedupId;
                emit(std::move(e));
            }
            return result;
        }
    }

    n.idHigh = random.next();
    n.idLow = random.next();
    n.sentAt = now;
    n.retentionBase = now;
    n.deliverAt = now + r.delaySeconds.value_or(q.config.delaySeconds) * kSecond;
    n.sender = internSender(r.senderId);
    const std::uint64_t sequence = q.nextSequence;
    const std::uint32_t slot = storeMessage(q, std::move(n), now);
    const Message& m = q.store.at(slot);

    if (fifo) {
        result.sequenceNumber = sequenceNumber(sequence);
        dedupEntry->idHigh = m.idHigh;
        dedupEntry->idLow = m.idLow;
        dedupEntry->sequence = sequence;
    }
    result.expiresAt = m.retentionBase + q.retentionMillis();
    ++q.counters.sent;
    if (wantEvents()) {
        Event& e = emitMessageEvent(EventKind::MessageSent, q, slot, m, now, origin);
        e.deadline = deliverAt(q, m);
        result.messageId = e.messageId.view(); // formatted once, for both
    } else {
        result.messageId = messageId(m);
    }
    if (m.state == MessageState::Available && !q.waiters.empty())
        serveWaiters(q, now);
    return result;
}

} // namespace inflight::engine
