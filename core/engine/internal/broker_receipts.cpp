// DeleteMessage and ChangeMessageVisibility (OCI DeleteMessage / UpdateMessage): what a receipt
// handle may still do once its visibility ran out or the message was received again (§4.4, §4.6,
// §6.4).
#include "engine/internal/broker_state.h"
#include "engine/receipt.h"

namespace inflight::engine {

namespace {

constexpr Millis kTotalVisibilityCap = kMaxVisibilitySeconds * kSecond;

struct Located {
    std::uint32_t slot = 0;
    Message* message = nullptr; // null: the message is gone (deleted, expired, moved, purged)
    bool current = false;       // the handle is from the latest receive
};

Result<Located> locate(Queue& q, std::string_view handle, ReceiptMemo& receipts, std::uint64_t key)
{
    const auto token = receipts.decode(handle, key);
    if (!token)
        return makeError(ErrorCode::ReceiptHandleIsInvalid,
                         "The input receipt handle \"" + std::string(handle)
                             + "\" is not a valid receipt handle.",
                         "ReceiptHandle");
    if (token->queueId != q.id)
        return makeError(ErrorCode::ReceiptHandleIsInvalid,
                         "The receipt handle \"" + std::string(handle)
                             + "\" is not valid for this queue.",
                         "ReceiptHandle");
    Located found;
    found.slot = token->slot;
    found.message = q.store.find(token->slot, token->sequence);
    if (found.message) {
        if (token->receiveCount > found.message->receiveCount || token->receiveCount == 0)
            return makeError(ErrorCode::ReceiptHandleIsInvalid,
                             "The input receipt handle \"" + std::string(handle)
                                 + "\" is not a valid receipt handle.",
                             "ReceiptHandle");
        found.current = token->receiveCount == found.message->receiveCount;
    }
    return found;
}

Error expiredHandle(std::string_view handle)
{
    return makeError(
        ErrorCode::InvalidParameterValue,
        "Value " + std::string(handle)
            + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.",
        "ReceiptHandle");
}

Error redelivered()
{
    return makeError(ErrorCode::ResourceNotFound,
                     "The receipt is no longer valid: the message was delivered again.", "receipt");
}

Error notInFlight(std::string_view handle)
{
    return makeError(ErrorCode::MessageNotInflight,
                     "The message referred to by receipt handle \"" + std::string(handle)
                         + "\" is not in flight.",
                     "ReceiptHandle");
}

} // namespace

Status BrokerState::deleteOne(Queue& q, std::string_view handle, Millis now, const Origin& origin)
{
    auto located = locate(q, handle, receipts, receiptKey);
    if (!located)
        return located.error();
    Message* m = located->message;
    if (!m)
        return Done{}; // already gone: deleting again succeeds (§4.4)
    const bool inFlight = m->state == MessageState::InFlight;
    if (q.isFifo()) {
        if (!located->current || !inFlight)
            return expiredHandle(handle);
    } else if (q.isOci()) {
        if (!located->current)
            return redelivered();
    } else if (!located->current) {
        if (!options.staleReceiptDeletes)
            return Done{};
    } else if (!inFlight) {
        if (options.strictMessageNotInflight)
            return notInFlight(handle);
        if (!options.staleReceiptDeletes)
            return Done{}; // an expired receipt is stale too
    }
    ++q.counters.deleted;
    if (wantEvents()) {
        Event& e = emitMessageEvent(EventKind::MessageDeleted, q, located->slot, *m, now, origin);
        e.receipt = handle;
    }
    const bool wasAtLimit
        = inFlight && !q.isOci() && q.inFlightCount >= options.inFlightLimitStandard;
    removeMessage(q, located->slot, *m);
    if ((wasAtLimit || q.isFifo()) && !q.waiters.empty())
        serveWaiters(q, now); // room below the in-flight limit, or a FIFO group unblocked
    return Done{};
}

Result<ChangeVisibilityResult> BrokerState::changeOne(Queue& q, std::string_view handle,
                                                      std::optional<std::int64_t> seconds,
                                                      Millis now, const Origin& origin)
{
    const std::string parameter = q.isOci() ? "visibilityInSeconds" : "VisibilityTimeout";
    if (!seconds)
        return makeError(ErrorCode::MissingParameter,
                         "The request must contain the parameter " + parameter + ".", parameter);
    if (*seconds < 0 || *seconds > kMaxVisibilitySeconds)
        return makeError(ErrorCode::InvalidParameterValue,
                         "Value " + std::to_string(*seconds) + " for parameter " + parameter
                             + " is invalid. Reason: Must be >= 0 and <= 43200, if provided.",
                         parameter);
    auto located = locate(q, handle, receipts, receiptKey);
    if (!located)
        return located.error();
    Message* m = located->message;
    if (!m && q.isOci())
        return makeError(ErrorCode::ResourceNotFound,
                         "The message of this receipt no longer exists.", "receipt");
    if (!m)
        return makeError(ErrorCode::InvalidParameterValue,
                         "Value " + std::string(handle)
                             + " for parameter ReceiptHandle is invalid. Reason: Message does not "
                               "exist or is not "
                               "available for visibility timeout change.",
                         "ReceiptHandle");
    const bool inFlight = m->state == MessageState::InFlight;
    ChangeVisibilityResult result;
    result.messageId = messageId(*m);
    result.visibleAt = inFlight ? m->deadline : now;

    bool apply = located->current && inFlight;
    if (!apply) {
        if (q.isFifo())
            return expiredHandle(handle);
        if (q.isOci()) {
            if (!located->current)
                return redelivered();
            apply = true; // lapsed but not delivered again: the receipt still holds (§6.4)
        } else if (options.strictMessageNotInflight) {
            return notInFlight(handle);
        } else if (located->current && options.expiredReceiptChangeRehides) {
            apply = true;
        } else {
            return result; // 200, nothing changes (§4.6 recommendation)
        }
    }

    const Millis visibility = *seconds * kSecond;
    if (!q.isOci() && now + visibility > m->receivedAt + kTotalVisibilityCap)
        return makeError(ErrorCode::InvalidParameterValue,
                         "Value " + std::to_string(*seconds)
                             + " for parameter VisibilityTimeout is invalid. Reason: Total "
                               "VisibilityTimeout for "
                               "the message is beyond the limit [43200 seconds]",
                         "VisibilityTimeout");

    ++m->visibilityChanges;
    if (visibility == 0) {
        if (inFlight) {
            makeAvailable(q, located->slot, *m, true);
            m->returnCause = ReturnCause::Released;
            m->deadline = now;
            if (wantEvents()) {
                Event& e = emitMessageEvent(EventKind::MessageReleased, q, located->slot, *m, now,
                                            origin);
                e.receipt = handle;
            }
            if (!q.waiters.empty())
                serveWaiters(q, now);
        }
        result.visibleAt = now;
        return result;
    }

    if (!inFlight) {
        // Re-hide a lapsed message (OCI, or the configurable ElasticMQ-like standard behaviour).
        Channel* channel = q.isFifo() ? nullptr : &m->bucket.channel();
        --q.availableCount;
        ++q.inFlightCount;
        if (channel) {
            --channel->availableCount;
            ++channel->inFlightCount;
            if (channel->availableCount == 0)
                q.channelRing.remove(channel);
        }
        m->state = MessageState::InFlight;
    }
    m->deadline = now + visibility;
    q.visibility.push(m->deadline, located->slot, m->sequence);
    result.visibleAt = m->deadline;
    if (wantEvents()) {
        Event& e
            = emitMessageEvent(EventKind::VisibilityChanged, q, located->slot, *m, now, origin);
        e.receipt = handle;
    }
    return result;
}

} // namespace inflight::engine
