// ReceiveMessage / GetMessages: validation, selection (standard, OCI channels, FIFO groups with
// head-of-line blocking), the dead-letter move on the receive that would exceed the maximum,
// ReceiveRequestAttemptId replay, and long-poll waiters.
#include "engine/internal/broker_state.h"
#include "engine/message_validation.h"
#include "engine/receipt.h"

#include <algorithm>
#include <optional>

namespace inflight::engine {

namespace {

Error outOfRange(std::int64_t value, std::string_view parameter, std::string_view reason)
{
    return makeError(ErrorCode::InvalidParameterValue,
                     "Value " + std::to_string(value) + " for parameter " + std::string(parameter)
                         + " is invalid. Reason: " + std::string(reason),
                     std::string(parameter));
}

bool contains(const std::vector<std::string>& names, std::string_view name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

bool AttributeFilter::matches(const std::string& name) const
{
    if (all || contains(exact, name))
        return true;
    return std::any_of(prefixes.begin(), prefixes.end(),
                       [&](const std::string& p) { return name.compare(0, p.size(), p) == 0; });
}

AttributeFilter AttributeFilter::from(const std::vector<std::string>& names)
{
    AttributeFilter filter;
    for (const std::string& n : names) {
        if (n == "All" || n == ".*" || n == "*")
            filter.all = true;
        else if (n.size() > 2 && n.compare(n.size() - 2, 2, ".*") == 0)
            // "Hel.*" matches "Help.Me" and "Hello" (the AWS-recorded digest of §2.6).
            filter.prefixes.push_back(n.substr(0, n.size() - 2));
        else
            filter.exact.push_back(n);
    }
    return filter;
}

Result<ReceivePlan> BrokerState::planReceive(Queue& q, const ReceiveRequest& r)
{
    ReceivePlan plan;
    if (q.isOci()) {
        if (r.maxMessages) {
            std::int64_t limit = *r.maxMessages;
            if (limit > 20 && options.ociClampLimit)
                limit = 20;
            if (limit < 1 || limit > 20)
                return makeError(ErrorCode::InvalidParameterValue,
                                 "Invalid limit: " + std::to_string(*r.maxMessages)
                                     + ". The limit must be between 1 and 20.",
                                 "limit");
            plan.maxMessages = limit;
        }
        if (r.visibilityTimeout
            && (*r.visibilityTimeout < 0 || *r.visibilityTimeout > kMaxVisibilitySeconds))
            return makeError(ErrorCode::InvalidParameterValue,
                             "Invalid visibilityInSeconds: " + std::to_string(*r.visibilityTimeout)
                                 + ". It must be between 0 and 43200.",
                             "visibilityInSeconds");
        if (r.waitTimeSeconds && (*r.waitTimeSeconds < 0 || *r.waitTimeSeconds > 30))
            return makeError(ErrorCode::InvalidParameterValue,
                             "Invalid timeoutInSeconds: " + std::to_string(*r.waitTimeSeconds)
                                 + ". It must be between 0 and 30.",
                             "timeoutInSeconds");
        plan.channelFilter = r.channelFilter;
    } else {
        if (r.maxMessages) {
            if (*r.maxMessages < 1 || *r.maxMessages > 10)
                return outOfRange(*r.maxMessages, "MaxNumberOfMessages",
                                  "Must be between 1 and 10, if provided.");
            plan.maxMessages = *r.maxMessages;
        }
        if (r.visibilityTimeout
            && (*r.visibilityTimeout < 0 || *r.visibilityTimeout > kMaxVisibilitySeconds))
            return outOfRange(*r.visibilityTimeout, "VisibilityTimeout",
                              "Must be >= 0 and <= 43200, if provided.");
        if (r.waitTimeSeconds && (*r.waitTimeSeconds < 0 || *r.waitTimeSeconds > 20))
            return outOfRange(*r.waitTimeSeconds, "WaitTimeSeconds",
                              "Must be >= 0 and <= 20, if provided.");
        if (r.receiveRequestAttemptId) {
            if (!isValidTokenId(*r.receiveRequestAttemptId))
                return invalidTokenIdError("ReceiveRequestAttemptId", *r.receiveRequestAttemptId);
            // Standard queues ignore it (spec §5.3 recommendation).
            if (q.isFifo())
                plan.attemptId = *r.receiveRequestAttemptId;
        }
    }
    plan.visibility = r.visibilityTimeout.value_or(q.config.visibilityTimeout) * kSecond;
    plan.wait = r.waitTimeSeconds.value_or(q.config.receiveMessageWaitTimeSeconds) * kSecond;
    for (const std::string& n : r.systemAttributeNames) {
        if (n == "All")
            plan.allSystemAttributes = true;
        else
            plan.systemAttributeNames.push_back(n);
    }
    plan.messageAttributes = AttributeFilter::from(r.messageAttributeNames);
    plan.origin = r.origin;
    return plan;
}

Queue* BrokerState::deadLetterTarget(Queue& q)
{
    if (q.isOci()) {
        if (q.config.deadLetterQueueDeliveryCount <= 0)
            return nullptr;
        return findQueue(q.builtInDeadLetterName);
    }
    if (!q.config.redrivePolicy)
        return nullptr;
    Queue* target = findQueueByArn(q.config.redrivePolicy->deadLetterTargetArn);
    return target == &q ? nullptr : target;
}

std::int64_t BrokerState::maxReceiveCount(const Queue& q) const
{
    if (q.isOci())
        return q.config.deadLetterQueueDeliveryCount;
    return q.config.redrivePolicy ? q.config.redrivePolicy->maxReceiveCount : 0;
}

bool BrokerState::tryMoveToDeadLetter(Queue& q, std::uint32_t slot, Message& m, Millis now,
                                      const Origin& origin)
{
    const std::int64_t limit = maxReceiveCount(q);
    if (limit <= 0 || m.receiveCount < limit)
        return false;
    Queue* target = deadLetterTarget(q);
    if (!target)
        return false;

    NewMessage n;
    n.idHigh = m.idHigh;
    n.idLow = m.idLow;
    n.content = m.content();
    // The source queue, on SQS (OCI's built-in DLQ does not say).
    n.content.deadLetterSourceArn = q.isOci() ? std::string() : q.arn;
    // FIFO: the dedup id becomes the message id so distinct messages are not merged in the DLQ,
    // and retention restarts on arrival; standard keeps the original enqueue time (§5.4).
    n.content.deduplicationId = target->isFifo() ? messageId(m) : std::string();
    n.sentAt = m.sentAt;
    n.retentionBase = target->isFifo() ? now : m.retentionBase;
    n.deliverAt = now;
    n.receiveCount = m.receiveCount;
    n.firstReceivedAt = m.firstReceivedAt;
    n.sender = m.sender;
    const std::uint16_t lastReceiveOrigin = m.lastReceiveOrigin;

    ++q.counters.movedToDeadLetter;
    // The event names both ends: the source message (key) and its new place in the DLQ
    // (relatedKey), so that consumers of the stream (the workspace store) can follow it.
    std::optional<Event> moved;
    if (wantEvents()) {
        moved = messageEvent(EventKind::MovedToDeadLetterQueue, q, slot, m, now, origin);
        moved->detail = target->name;
    }
    removeMessage(q, slot, m);
    const std::uint64_t sequence = target->nextSequence;
    const std::uint32_t newSlot = storeMessage(*target, std::move(n), now);
    Message& arrived = target->store.at(newSlot);
    arrived.lastReceiveOrigin = lastReceiveOrigin;
    arrived.returnCause = ReturnCause::MovedHere;
    arrived.deadline = now; // available since (FIFO leaves it unused while available)
    if (moved) {
        moved->relatedKey = MessageKey{newSlot, sequence};
        emit(std::move(*moved));
    }
    if (!target->waiters.empty())
        serveWaiters(*target, now);
    return true;
}

ReceivedMessage BrokerState::describeReceived(Queue& q, std::uint32_t, Message& m,
                                              const ReceivePlan& plan, std::string_view receipt,
                                              std::string_view messageId) const
{
    ReceivedMessage out;
    out.messageId = messageId;
    out.receiptHandle = receipt;
    out.body = m.body;
    out.receiveCount = m.receiveCount;
    out.sentAt = m.sentAt;
    out.visibleAt = m.state == MessageState::InFlight ? m.deadline : m.receivedAt;
    out.expiresAt = m.retentionBase + q.retentionMillis();
    if (m.extras) {
        out.groupId = m.extras->groupId;
        out.channelId = m.extras->channelId;
    }
    if (m.attributes && !plan.messageAttributes.empty()) {
        for (const auto& [name, value] : *m.attributes)
            if (plan.messageAttributes.matches(name))
                out.attributes.emplace(name, value);
    }
    if (!plan.allSystemAttributes && plan.systemAttributeNames.empty())
        return out;
    auto want = [&](std::string_view name) {
        return plan.allSystemAttributes || contains(plan.systemAttributeNames, name);
    };
    if (want("ApproximateFirstReceiveTimestamp"))
        out.systemAttributes["ApproximateFirstReceiveTimestamp"]
            = std::to_string(m.firstReceivedAt);
    if (want("ApproximateReceiveCount"))
        out.systemAttributes["ApproximateReceiveCount"] = std::to_string(m.receiveCount);
    if (want("SenderId"))
        out.systemAttributes["SenderId"] = m.sender != 0 ? senderName(m.sender) : options.accountId;
    if (want("SentTimestamp"))
        out.systemAttributes["SentTimestamp"] = std::to_string(m.sentAt);
    if (m.extras) {
        const MessageExtras& x = *m.extras;
        if (!x.groupId.empty() && want("MessageGroupId"))
            out.systemAttributes["MessageGroupId"] = x.groupId;
        if (q.isFifo() && want("MessageDeduplicationId"))
            out.systemAttributes["MessageDeduplicationId"] = x.deduplicationId;
        if (auto it = x.systemAttributes.find("AWSTraceHeader");
            it != x.systemAttributes.end() && want("AWSTraceHeader"))
            out.systemAttributes["AWSTraceHeader"] = it->second.stringValue;
        if (!x.deadLetterSourceArn.empty() && want("DeadLetterQueueSourceArn"))
            out.systemAttributes["DeadLetterQueueSourceArn"] = x.deadLetterSourceArn;
    }
    if (q.isFifo() && want("SequenceNumber"))
        out.systemAttributes["SequenceNumber"] = sequenceNumber(m.sequence);
    return out;
}

ReceivedMessage BrokerState::deliver(Queue& q, std::uint32_t slot, Message& m,
                                     const ReceivePlan& plan, Millis now)
{
    ++m.receiveCount;
    if (m.firstReceivedAt == 0)
        m.firstReceivedAt = now;
    m.receivedAt = now;
    m.returnCause = ReturnCause::None;
    m.lastReceiveOrigin = internOrigin(plan.origin);
    ++q.counters.received;
    if (plan.visibility > 0) {
        Channel* channel = q.isFifo() ? nullptr : &m.bucket.channel();
        --q.availableCount;
        ++q.inFlightCount;
        if (channel) {
            --channel->availableCount;
            ++channel->inFlightCount;
        } else {
            ++m.bucket.group().inFlight;
        }
        m.state = MessageState::InFlight;
        m.deadline = now + plan.visibility;
        q.visibility.push(m.deadline, slot, m.sequence);
    }
    m.receiptNonce = static_cast<std::uint32_t>(random.next());
    const ReceiptToken token{q.id, slot, m.sequence, m.receiveCount};
    const ReceiptText receipt = encodeReceiptText(token, receiptKey, m.receiptNonce);
    receipts.remember(receipt, token, receiptKey); // the delete that follows finds it here
    if (wantEvents()) {
        Event& e = emitMessageEvent(EventKind::MessageReceived, q, slot, m, now, plan.origin);
        e.receipt = receipt;
        e.deadline = plan.visibility > 0 ? m.deadline : now;
        return describeReceived(q, slot, m, plan, receipt, e.messageId);
    }
    return describeReceived(q, slot, m, plan, receipt, formatMessageIdText(m.idHigh, m.idLow));
}

Result<ReceiveResult> BrokerState::receiveNow(Queue& q, const ReceivePlan& plan, bool longPoll,
                                              Millis now)
{
    ReceiveResult result;
    std::int64_t take = plan.maxMessages;

    if (q.isFifo()) {
        if (!plan.attemptId.empty()) {
            auto it = q.attempts.find(plan.attemptId);
            if (it != q.attempts.end() && it->second.expiresAt > now) {
                AttemptRecord& record = it->second;
                const bool unchanged
                    = std::all_of(record.items.begin(), record.items.end(), [&](const auto& item) {
                          const Message* m = q.store.find(item.slot, item.sequence);
                          return m && m->receiveCount == item.receiveCount
                              && m->state == MessageState::InFlight && m->deadline == item.visibleAt
                              && m->visibilityChanges == item.visibilityChanges;
                      });
                if (unchanged) {
                    // The same receive again: same messages and handles, visibility restarted.
                    for (auto& item : record.items) {
                        Message& m = q.store.at(item.slot);
                        if (plan.visibility > 0) {
                            m.deadline = now + plan.visibility;
                            q.visibility.push(m.deadline, item.slot, m.sequence);
                            item.visibleAt = m.deadline;
                        }
                        if (wantEvents()) {
                            Event& e = emitMessageEvent(EventKind::VisibilityChanged, q, item.slot,
                                                        m, now, plan.origin);
                            e.receipt = item.receipt;
                            e.detail = "ReceiveRequestAttemptId " + plan.attemptId + " replayed";
                        }
                        result.messages.push_back(
                            describeReceived(q, item.slot, m, plan, item.receipt,
                                             formatMessageIdText(m.idHigh, m.idLow)));
                    }
                    return result;
                }
                q.attempts.erase(it);
            }
        }
        const std::int64_t room = options.inFlightLimitFifo - q.inFlightCount;
        take = std::min(take, std::max<std::int64_t>(room, 0));
        const std::uint64_t stamp = ++q.receiveStamp;
        std::size_t budget = q.servableGroups.size();
        FifoGroup* g = q.servableGroups.front();
        while (g && static_cast<std::int64_t>(result.messages.size()) < take && budget-- > 0) {
            FifoGroup* nextGroup = g->ringNext;
            if (g->visitStamp == stamp) {
                g = nextGroup;
                continue;
            }
            g->visitStamp = stamp;
            bool erased = false;
            std::uint32_t slot = g->head;
            while (slot != kNoSlot && static_cast<std::int64_t>(result.messages.size()) < take) {
                Message& m = q.store.at(slot);
                if (m.state != MessageState::Available)
                    break;
                const std::uint32_t next = m.next;
                const bool last = g->count == 1;
                if (tryMoveToDeadLetter(q, slot, m, now, plan.origin)) {
                    if (last) {
                        erased = true;
                        break;
                    }
                    slot = next;
                    continue;
                }
                result.messages.push_back(deliver(q, slot, m, plan, now));
                slot = next;
            }
            if (!erased) {
                updateServable(q, *g);
                if (g->servable)
                    q.servableGroups.moveToBack(g);
            }
            g = nextGroup;
        }
        if (!plan.attemptId.empty() && !result.messages.empty()) {
            AttemptRecord record;
            record.expiresAt = now + options.receiveAttemptWindow;
            for (const ReceivedMessage& rm : result.messages) {
                auto token = decodeReceipt(rm.receiptHandle, receiptKey);
                const Message& m = q.store.at(token->slot);
                record.items.push_back({token->slot, token->sequence, token->receiveCount,
                                        m.deadline, m.visibilityChanges, rm.receiptHandle});
            }
            q.attempts[plan.attemptId] = std::move(record);
            q.attemptExpiry.emplace_back(now + options.receiveAttemptWindow, plan.attemptId);
        }
        return result;
    }

    if (!q.isOci() && q.inFlightCount >= options.inFlightLimitStandard) {
        if (longPoll)
            return result;
        return makeError(ErrorCode::OverLimit,
                         "The maximum number of in flight messages ("
                             + std::to_string(options.inFlightLimitStandard)
                             + ") has been reached.");
    }
    if (!q.isOci())
        take = std::min(take, options.inFlightLimitStandard - q.inFlightCount);

    Channel* channel = &q.defaultChannel;
    if (q.isOci()) {
        if (plan.channelFilter) {
            if (plan.channelFilter->empty()) {
                channel = &q.defaultChannel;
            } else {
                auto it = q.channels.find(*plan.channelFilter);
                if (it == q.channels.end())
                    return result;
                channel = it->second.get();
            }
        } else {
            channel = q.channelRing.front();
            if (!channel)
                return result;
        }
    }

    std::string channelId = channel->id;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> stillAvailable; // visibility 0
    if (!channel->available.empty())
        result.messages.reserve(static_cast<std::size_t>(std::max<std::int64_t>(take, 0)));
    while (static_cast<std::int64_t>(result.messages.size()) < take
           && !channel->available.empty()) {
        const AvailableQueue::Entry e = channel->available.front();
        channel->available.popFront();
        Message* m = q.store.find(e.slot, e.sequence);
        if (!m || m->state != MessageState::Available)
            continue;
        if (std::find(stillAvailable.begin(), stillAvailable.end(), std::pair{e.slot, e.sequence})
            != stillAvailable.end())
            continue; // never the same message twice in one response
        if (tryMoveToDeadLetter(q, e.slot, *m, now, plan.origin)) {
            const bool gone
                = channel != &q.defaultChannel && q.channels.find(channelId) == q.channels.end();
            if (gone || channel->availableCount == 0) {
                // Nothing left here: an unfiltered OCI receive moves on to the next non-empty
                // channel. Ends: each pass delivers or takes an emptied channel out of the ring.
                if (!q.isOci() || plan.channelFilter || !result.messages.empty()
                    || !(channel = q.channelRing.front()))
                    return result;
                channelId = channel->id;
            }
            continue;
        }
        result.messages.push_back(deliver(q, e.slot, *m, plan, now));
        if (plan.visibility == 0)
            stillAvailable.emplace_back(e.slot, e.sequence);
    }
    for (const auto& [slot, sequence] : stillAvailable)
        channel->available.pushReturned(slot, sequence);
    if (q.isOci()) {
        if (channel->availableCount > 0) {
            if (channel->inRing)
                q.channelRing.moveToBack(channel);
        } else {
            q.channelRing.remove(channel);
        }
    }
    return result;
}

WaitId BrokerState::addWaiter(Queue& q, ReceivePlan plan, ReceiveCallback done, Millis now)
{
    const WaitId id = nextWaitId++;
    Waiter w;
    w.id = id;
    w.queue = q.name;
    w.queueId = q.id;
    w.deadline = now + plan.wait;
    w.plan = std::move(plan);
    w.done = std::move(done);
    waiterDeadlines.emplace_back(w.deadline, id);
    std::push_heap(waiterDeadlines.begin(), waiterDeadlines.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
    q.waiters.push_back(id);
    waiters.emplace(id, std::move(w));
    return id;
}

void BrokerState::serveWaiters(Queue& q, Millis now)
{
    std::size_t turns = q.waiters.size();
    while (turns-- > 0 && q.availableCount > 0 && !q.waiters.empty()) {
        const WaitId id = q.waiters.front();
        q.waiters.pop_front();
        auto it = waiters.find(id);
        if (it == waiters.end())
            continue;
        if (it->second.deadline <= now) {
            // The wait ended before this call looked at the clock: empty, not this message.
            ++q.counters.emptyReceives;
            completions.emplace_back(std::move(it->second.done), ReceiveResult{});
            waiters.erase(it);
            continue;
        }
        Result<ReceiveResult> r = receiveNow(q, it->second.plan, true, now);
        if (!r.ok() || !r->messages.empty()) {
            completions.emplace_back(std::move(it->second.done), std::move(r));
            waiters.erase(it);
        } else {
            q.waiters.push_back(
                id); // nothing for this one (channel filter, blocked groups): keep waiting
        }
    }
}

void BrokerState::endWaiters(Queue& q)
{
    for (WaitId id : q.waiters) {
        auto it = waiters.find(id);
        if (it == waiters.end())
            continue;
        completions.emplace_back(std::move(it->second.done), ReceiveResult{});
        waiters.erase(it);
    }
    q.waiters.clear();
}

} // namespace inflight::engine
