// The reason behind every outcome (explain.h): read-only looks at a settled queue that turn the
// engine's counters, heaps and per-message facts into numbers and one sentence each.
#include "engine/internal/broker_state.h"
#include "engine/receipt.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace inflight::engine {

std::string formatDuration(Millis duration)
{
    const Millis d = std::max<Millis>(duration, 0);
    if (d < 60 * kSecond) {
        const Millis tenths = (d + 50) / 100;
        std::string s = std::to_string(tenths / 10);
        if (tenths % 10 != 0)
            s += "." + std::to_string(tenths % 10);
        return s + " s";
    }
    const Millis seconds = (d + kSecond / 2) / kSecond;
    auto pair = [](Millis big, const char* bigUnit, Millis small, const char* smallUnit) {
        std::string s = std::to_string(big) + " " + bigUnit;
        if (small != 0 || std::string_view(bigUnit) == "d")
            s += " " + std::to_string(small) + " " + smallUnit;
        return s;
    };
    if (seconds < 3600)
        return pair(seconds / 60, "min", seconds % 60, "s");
    if (seconds < 86'400)
        return pair(seconds / 3600, "h", seconds / 60 % 60, "min");
    return pair(seconds / 86'400, "d", seconds / 3600 % 24, "h");
}

std::string formatDateClockTime(Millis time)
{
    const std::chrono::sys_days day{std::chrono::floor<std::chrono::days>(
        std::chrono::sys_time<std::chrono::milliseconds>(std::chrono::milliseconds(time)))};
    const std::chrono::year_month_day date{day};
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02u-%02u ", int(date.year()), unsigned(date.month()),
                  unsigned(date.day()));
    return text + formatClockTime(time);
}

std::string formatClockTime(Millis time)
{
    const Millis seconds = ((time / kSecond) % 86'400 + 86'400) % 86'400;
    // Written into its eight characters (a delete batch's traffic record words one receipt's
    // deadline: three strings a field cost more than the rest of the sentence).
    std::string text = "00:00:00";
    const auto two = [&text](std::size_t at, Millis v) {
        text[at] = char('0' + v / 10);
        text[at + 1] = char('0' + v % 10);
    };
    two(0, seconds / 3600);
    two(3, seconds / 60 % 60);
    two(6, seconds % 60);
    return text;
}

namespace {

using Cause = EmptyReceiveExplanation::Cause;
using Standing = ReceiptExplanation::Standing;

std::string quoted(std::string_view s)
{
    return "`" + std::string(s) + "`";
}

std::string client(const Origin& origin)
{
    if (origin.empty())
        return {};
    std::string text;
    text.reserve(origin.size() + 12);
    text.append(" (client `").append(origin).append("`)");
    return text;
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator)
{
    std::string s;
    for (const std::string& p : parts) {
        if (!s.empty())
            s += separator;
        s += p;
    }
    return s;
}

// "0 available; 12 in flight (next visible in 4.2 s); 3 delayed (next in 10 s)"; the in-flight
// and delayed parts only when there are such messages.
std::string countsText(const EmptyReceiveExplanation& x, Millis now)
{
    std::string s = std::to_string(x.available) + " available";
    if (x.inFlight > 0) {
        s += "; " + std::to_string(x.inFlight) + " in flight";
        if (x.nextVisibleAt)
            s += " (next visible in " + formatDuration(*x.nextVisibleAt - now) + ")";
    }
    if (x.delayed > 0) {
        s += "; " + std::to_string(x.delayed) + " delayed";
        if (x.nextDeliverAt)
            s += " (next in " + formatDuration(*x.nextDeliverAt - now) + ")";
    }
    return s;
}

std::optional<Millis> nextVisibleAt(const Queue& q)
{
    // settle() leaves a valid entry on top of each heap.
    if (q.visibility.empty())
        return std::nullopt;
    return q.visibility.top().at;
}

std::optional<Millis> nextDeliverAt(const BrokerState& s, const Queue& q)
{
    if (q.delayed.empty())
        return std::nullopt;
    return s.deliverAt(q, q.store.at(q.delayed.top().slot));
}

// The first message of `g` that is not available and comes before `upTo`; without `upTo`, the
// first one that an available message comes after. kNoSlot if none.
std::uint32_t blockerOf(const Queue& q, const FifoGroup& g, std::uint32_t upTo = kNoSlot)
{
    std::uint32_t blocker = kNoSlot;
    for (std::uint32_t slot = g.head; slot != kNoSlot; slot = q.store.at(slot).next) {
        if (slot == upTo)
            return blocker;
        if (q.store.at(slot).state != MessageState::Available) {
            if (blocker == kNoSlot)
                blocker = slot;
        } else if (blocker != kNoSlot && upTo == kNoSlot) {
            return blocker;
        }
    }
    return kNoSlot;
}

BlockedMessage describeBlocked(const BrokerState& s, const Queue& q, const FifoGroup& g,
                               std::uint32_t slot, std::uint32_t blockerSlot)
{
    const Message& m = q.store.at(slot);
    const Message& b = q.store.at(blockerSlot);
    BlockedMessage x;
    x.key = {slot, m.sequence};
    x.messageId = s.messageId(m);
    x.groupId = g.id;
    x.blockerKey = {blockerSlot, b.sequence};
    x.blockerMessageId = s.messageId(b);
    x.blockerState = b.state;
    x.blockedUntil = b.state == MessageState::InFlight ? b.deadline : s.deliverAt(q, b);
    const Millis now = s.clock.now();
    const std::string until
        = formatClockTime(x.blockedUntil) + " (in " + formatDuration(x.blockedUntil - now) + ")";
    x.text = "blocked behind message " + x.blockerMessageId + " of group " + quoted(g.id) + ", ";
    if (b.state == MessageState::InFlight) {
        x.blockerReceive = b.receiveCount;
        x.blockerOrigin = s.originName(b.lastReceiveOrigin);
        x.text += "in flight until " + until + " by receive #" + std::to_string(b.receiveCount)
            + client(x.blockerOrigin);
    } else {
        x.text += "delayed until " + until;
    }
    return x;
}

// What a delete with the handle does (§4.4, §6.4, BrokerOptions), into x's delete members.
void decideDelete(const Queue& q, const BrokerOptions& options, ReceiptExplanation& x)
{
    if (x.standing == Standing::Current || (q.isOci() && x.standing != Standing::Stale)) {
        x.deleteSucceeds = x.deleteRemoves = true;
    } else if (q.isFifo()) {
        x.deleteError = ErrorCode::InvalidParameterValue;
    } else if (q.isOci()) {
        x.deleteError = ErrorCode::ResourceNotFound;
    } else if (x.standing == Standing::Lapsed && options.strictMessageNotInflight) {
        x.deleteError = ErrorCode::MessageNotInflight;
    } else {
        x.deleteSucceeds = true;
        x.deleteRemoves = options.staleReceiptDeletes;
    }
}

// decideDelete's decision in words.
std::string deleteEffect(const ReceiptExplanation& x)
{
    if (x.standing == Standing::Current
        || (x.queueKind == QueueKind::Oci && x.standing != Standing::Stale))
        return "a delete with it deletes the message";
    if (x.queueKind == QueueKind::Fifo)
        return "FIFO queues reject it: a delete fails with InvalidParameterValue (the receipt "
               "handle has expired)";
    if (x.queueKind == QueueKind::Oci)
        return "OCI queues reject it: the message was delivered again";
    if (x.deleteError == ErrorCode::MessageNotInflight)
        return "a delete fails with MessageNotInflight (strict mode)";
    return std::string("standard queues accept it: ")
        + (x.deleteRemoves ? "a delete with it deletes the message"
                           : "a delete with it succeeds but keeps the message");
}

} // namespace

Result<EmptyReceiveExplanation> Broker::explainEmptyReceive(const ReceiveRequest& request)
{
    CallScope scope(*m_state);
    BrokerState& s = *m_state;
    const Millis now = clock().now();
    auto found = s.settledQueue(request.queue, now);
    if (!found)
        return found.error();
    Queue& q = **found;
    auto plan = s.planReceive(q, request);
    if (!plan)
        return plan.error();

    EmptyReceiveExplanation x;
    x.available = q.availableCount;
    x.inFlight = q.inFlightCount;
    x.delayed = q.delayedCount;
    x.nextVisibleAt = nextVisibleAt(q);
    x.nextDeliverAt = nextDeliverAt(s, q);
    x.longPollWait = plan->wait;
    const std::string longPoll = " of " + formatDuration(plan->wait);

    if (q.isOci() && plan->channelFilter) {
        x.channel = *plan->channelFilter;
        const Channel* c = nullptr;
        if (x.channel->empty())
            c = &q.defaultChannel;
        else if (auto it = q.channels.find(*x.channel); it != q.channels.end())
            c = it->second.get();
        x.available = c ? c->availableCount : 0;
        x.inFlight = c ? c->inFlightCount : 0;
        x.delayed = c ? c->delayedCount : 0;
        x.availableElsewhere = q.availableCount - x.available;
        // The queue-wide deadlines say nothing about this channel.
        x.nextVisibleAt.reset();
        x.nextDeliverAt.reset();
        if (x.available > 0) {
            x.text = "channel " + quoted(*x.channel) + ": " + countsText(x, now)
                + ": a receive now returns messages";
            return x;
        }
        x.cause = Cause::ChannelEmpty;
        x.text = x.inFlight + x.delayed == 0
            ? "channel " + quoted(*x.channel) + " is empty"
            : "channel " + quoted(*x.channel) + ": " + countsText(x, now);
        if (x.availableElsewhere > 0)
            x.text += "; " + std::to_string(x.availableElsewhere) + " available in other channels";
    } else if (!q.isOci()
               && q.inFlightCount >= (q.isFifo() ? s.options.inFlightLimitFifo
                                                 : s.options.inFlightLimitStandard)) {
        x.cause = Cause::InFlightLimit;
        x.inFlightLimit
            = q.isFifo() ? s.options.inFlightLimitFifo : s.options.inFlightLimitStandard;
        x.text = "in-flight limit reached: " + std::to_string(x.inFlight) + " in flight, limit "
            + std::to_string(x.inFlightLimit);
        if (x.nextVisibleAt)
            x.text += " (next visible in " + formatDuration(*x.nextVisibleAt - now) + ")";
        x.text += "; " + std::to_string(x.available) + " available held back";
        if (!q.isFifo())
            x.text += plan->wait > 0
                ? "; a long poll" + longPoll + " ends empty instead of OverLimit"
                : "; a short poll fails with OverLimit";
        return x;
    } else if (x.available > 0 && q.isFifo() && q.servableGroups.size() == 0) {
        x.cause = Cause::FifoGroupsBlocked;
        std::vector<std::pair<std::uint64_t, const FifoGroup*>> groups;
        bool inFlightHeads = false, delayedHeads = false;
        for (const auto& g : q.groups) {
            const std::uint32_t blocker = blockerOf(q, *g);
            if (blocker == kNoSlot)
                continue;
            const Message& b = q.store.at(blocker);
            (b.state == MessageState::InFlight ? inFlightHeads : delayedHeads) = true;
            groups.emplace_back(q.store.at(g->head).sequence, g.get());
        }
        std::sort(groups.begin(), groups.end());
        for (const auto& [sequence, g] : groups)
            x.blockingGroups.push_back(g->id);
        const char* heads = inFlightHeads && delayedHeads ? "in-flight or delayed"
            : delayedHeads                                ? "delayed"
                                                          : "in-flight";
        x.text = std::to_string(x.available) + " available, all behind " + heads
            + " heads of groups " + joined(x.blockingGroups, ", ");
        if (inFlightHeads && x.nextVisibleAt)
            x.text += " (next visible in " + formatDuration(*x.nextVisibleAt - now) + ")";
    } else if (x.available > 0) {
        x.text = std::to_string(x.available) + " available: a receive now returns messages";
        return x;
    } else if (x.inFlight + x.delayed == 0) {
        x.cause = Cause::QueueEmpty;
        x.text = "0 available; the queue is empty";
    } else {
        x.cause = x.delayed == 0 ? Cause::AllInFlight
            : x.inFlight == 0    ? Cause::AllDelayed
                                 : Cause::InFlightAndDelayed;
        x.text = countsText(x, now);
    }
    if (plan->wait > 0)
        x.text += "; a long poll" + longPoll + " ends empty unless one becomes receivable";
    return x;
}

Result<MessageExplanation> Broker::explainMessage(std::string_view queue, MessageKey key)
{
    CallScope scope(*m_state);
    BrokerState& s = *m_state;
    const Millis now = clock().now();
    auto found = s.settledQueue(queue, now);
    if (!found)
        return found.error();
    Queue& q = **found;
    const Message* stored = q.store.find(key.slot, key.sequence);
    if (!stored)
        return makeError(ErrorCode::ResourceNotFound, "The message is no longer in the queue.",
                         "MessageKey");
    const Message& m = *stored;

    MessageExplanation x;
    x.key = key;
    x.messageId = s.messageId(m);
    x.state = m.state;
    x.receiveCount = m.receiveCount;
    if (m.receiveCount > 0) {
        x.lastReceivedAt = m.receivedAt;
        x.lastReceiveOrigin = s.originName(m.lastReceiveOrigin);
    }
    x.expiresAt = m.retentionBase + q.retentionMillis();
    x.maxReceiveCount = s.maxReceiveCount(q);
    const Queue* target = s.deadLetterTarget(q);
    if (target && x.maxReceiveCount > 0) {
        x.deadLetterQueue = target->name;
        x.movesToDeadLetterOnNextReceive = m.receiveCount >= x.maxReceiveCount;
    }
    if (m.extras && !m.extras->deadLetterSourceArn.empty())
        x.deadLetterSourceQueue = queueNameFromArn(m.extras->deadLetterSourceArn).value_or("");
    if (q.isBuiltInDeadLetter)
        for (const auto& [name, other] : s.queues)
            if (other->builtInDeadLetterName == q.name)
                x.deadLetterSourceQueue = name;

    // A deadline a day or more away has its date: "retained until 09:31:20" read as today.
    auto at = [&](Millis t) {
        return (t - now >= 86'400 * kSecond ? formatDateClockTime(t) : formatClockTime(t)) + " (in "
            + formatDuration(t - now) + ")";
    };
    const std::string receive
        = "receive #" + std::to_string(m.receiveCount) + client(x.lastReceiveOrigin);
    std::vector<std::string> parts;
    switch (m.state) {
    case MessageState::Delayed:
        x.deliverAt = s.deliverAt(q, m);
        parts.push_back("delayed until " + at(x.deliverAt));
        break;
    case MessageState::InFlight:
        x.visibleAt = m.deadline;
        x.lastVisibilityTimeout = m.deadline - m.receivedAt;
        parts.push_back("in flight until " + at(x.visibleAt) + ": " + receive + " at "
                        + formatClockTime(m.receivedAt));
        break;
    case MessageState::Available:
        x.returnCause = m.receiveCount > 0 ? m.returnCause : ReturnCause::None;
        if (m.receiveCount == 0) {
            parts.push_back("available, never received");
        } else if (x.returnCause == ReturnCause::MovedHere) {
            x.visibleSince = m.deadline;
            parts.push_back(
                "available since " + formatClockTime(m.deadline) + ": moved here as a dead letter"
                + (x.deadLetterSourceQueue.empty() ? std::string()
                                                   : " from " + quoted(x.deadLetterSourceQueue))
                + " after " + std::to_string(m.receiveCount) + " receives");
        } else if (x.returnCause == ReturnCause::None) {
            parts.push_back("available: " + receive + " at " + formatClockTime(m.receivedAt)
                            + " used visibility timeout 0");
        } else {
            x.visibleSince = m.deadline;
            x.lastVisibilityTimeout = m.deadline - m.receivedAt;
            parts.push_back("visible again since " + formatClockTime(m.deadline) + ": "
                            + (x.returnCause == ReturnCause::VisibilityExpired
                                   ? "the " + formatDuration(x.lastVisibilityTimeout)
                                       + " visibility timeout of " + receive
                                       + " ran out without a delete"
                                   : "the visibility timeout of " + receive + " was set to 0 after "
                                       + formatDuration(x.lastVisibilityTimeout)));
        }
        if (q.isFifo()) {
            const auto& g = m.bucket.group();
            if (std::uint32_t b = blockerOf(q, g, key.slot); b != kNoSlot) {
                x.blockedBy = describeBlocked(s, q, g, key.slot, b);
                parts.push_back(x.blockedBy->text);
            }
        }
        break;
    }
    if (!x.deadLetterQueue.empty()) {
        std::string used = std::to_string(m.receiveCount) + " of "
            + std::to_string(x.maxReceiveCount) + " receives used";
        parts.push_back(x.movesToDeadLetterOnNextReceive
                            ? used + ": the next receive moves it to " + quoted(x.deadLetterQueue)
                            : used + " before " + quoted(x.deadLetterQueue));
    }
    if (!x.deadLetterSourceQueue.empty() && x.returnCause != ReturnCause::MovedHere)
        parts.push_back("moved here as a dead letter from " + quoted(x.deadLetterSourceQueue));
    parts.push_back("retained until " + at(x.expiresAt));
    x.text = joined(parts, "; ");
    return x;
}

namespace {

// Where `receiptHandle` stands in `q`, settled at `now`, into `x` (as made by default): in place,
// since a batch's explanations are made in the vector they are returned in (a move of one is a
// move of its four strings).
void explainIn(BrokerState& s, Queue& q, Millis now, std::string_view receiptHandle,
               ReceiptExplanation& x)
{
    x.queueKind = q.kind();
    x.now = now;
    const auto token = s.receipts.decode(receiptHandle, s.receiptKey);
    if (!token) {
        x.deleteError = ErrorCode::ReceiptHandleIsInvalid;
        return;
    }
    x.decoded = true;
    x.receive = token->receiveCount;
    if (token->queueId != q.id) {
        x.standing = Standing::OtherQueue;
        x.queue = q.name;
        x.deleteError = ErrorCode::ReceiptHandleIsInvalid;
        for (const auto& [name, other] : s.queues)
            if (other->id == token->queueId)
                x.otherQueue = name;
        return;
    }
    x.key = {token->slot, token->sequence};
    const Message* m = q.store.find(token->slot, token->sequence);
    if (!m) {
        x.standing = Standing::MessageGone;
        x.deleteSucceeds = true;
        return;
    }
    x.latestReceive = m->receiveCount;
    x.latestReceivedAt = m->receivedAt;
    x.latestReceiveOrigin = s.originName(m->lastReceiveOrigin);
    if (x.receive == 0 || x.receive > m->receiveCount) {
        x.deleteError = ErrorCode::ReceiptHandleIsInvalid;
        return;
    }
    x.deadline = m->deadline;
    x.returnCause = m->returnCause;
    if (x.receive < m->receiveCount)
        x.standing = Standing::Stale;
    else if (m->state == MessageState::InFlight)
        x.standing = Standing::Current;
    else
        x.standing = Standing::Lapsed;
    decideDelete(q, s.options, x);
}

} // namespace

Result<ReceiptExplanation> Broker::explainReceipt(std::string_view queue,
                                                  std::string_view receiptHandle)
{
    CallScope scope(*m_state);
    BrokerState& s = *m_state;
    const Millis now = clock().now();
    auto found = s.settledQueue(queue, now);
    if (!found)
        return found.error();
    ReceiptExplanation x;
    explainIn(s, **found, now, receiptHandle, x);
    return x;
}

Result<std::vector<ReceiptExplanation>> Broker::explainReceipts(
    std::string_view queue, std::span<const std::string_view> receiptHandles)
{
    CallScope scope(*m_state);
    BrokerState& s = *m_state;
    const Millis now = clock().now();
    auto found = s.settledQueue(queue, now);
    if (!found)
        return found.error();
    std::vector<ReceiptExplanation> explanations(receiptHandles.size());
    for (std::size_t i = 0; i < receiptHandles.size(); ++i)
        explainIn(s, **found, now, receiptHandles[i], explanations[i]);
    return explanations;
}

std::string ReceiptExplanation::standingText() const
{
    if (!decoded)
        return "not a receipt handle of this engine (malformed, edited, or from another broker)";
    const std::string ofReceive = "receipt of receive #" + std::to_string(receive);
    switch (standing) {
    case Standing::OtherQueue:
        return ofReceive + " of "
            + (otherQueue.empty() ? "a queue that no longer exists" : "queue " + quoted(otherQueue))
            + ", not of " + quoted(queue);
    case Standing::MessageGone:
        return ofReceive
            + " of a message no longer in the queue (deleted, moved, expired or purged)";
    case Standing::NotAHandle:
        return ofReceive + ", but the message was received " + std::to_string(latestReceive)
            + " times";
    case Standing::Stale:
        return ofReceive + ", used after receive #" + std::to_string(latestReceive)
            + client(latestReceiveOrigin) + " at " + formatClockTime(latestReceivedAt);
    case Standing::Current: {
        // One string, appended to (a delete batch's traffic record words its first receipt).
        std::string current;
        current.reserve(ofReceive.size() + latestReceiveOrigin.size() + 96);
        current.append(ofReceive)
            .append(client(latestReceiveOrigin))
            .append(", the latest; in flight until ")
            .append(formatClockTime(deadline))
            .append(" (in ")
            .append(formatDuration(deadline - now))
            .append(")");
        return current;
    }
    case Standing::Lapsed: break;
    }
    std::string about = ofReceive + client(latestReceiveOrigin) + ", the latest, but ";
    switch (returnCause) {
    case ReturnCause::VisibilityExpired:
        return about + "its visibility timeout ran out at " + formatClockTime(deadline);
    case ReturnCause::Released:
        return about + "its visibility timeout was set to 0 at " + formatClockTime(deadline);
    case ReturnCause::None:
    case ReturnCause::MovedHere: break;
    }
    return about + "it was received with visibility timeout 0";
}

std::string ReceiptExplanation::text() const
{
    switch (standing) {
    case Standing::MessageGone:
        return standingText() + "; a delete with it succeeds and changes nothing";
    case Standing::OtherQueue:
    case Standing::NotAHandle: return standingText();
    case Standing::Current:
    case Standing::Lapsed:
    case Standing::Stale: break;
    }
    std::string standingAndEffect = standingText();
    standingAndEffect.append("; ").append(deleteEffect(*this));
    return standingAndEffect;
}

Result<std::vector<BlockedMessage>> Broker::blockedMessages(std::string_view queue)
{
    CallScope scope(*m_state);
    BrokerState& s = *m_state;
    auto found = s.settledQueue(queue, clock().now());
    if (!found)
        return found.error();
    Queue& q = **found;
    std::vector<BlockedMessage> result;
    if (!q.isFifo())
        return result;
    std::vector<std::pair<std::uint64_t, const FifoGroup*>> groups;
    // A group blocks when its head is not available, or (an available head) behind a later
    // in-flight message.
    for (const auto& g : q.groups)
        if (g->head != kNoSlot
            && (q.store.at(g->head).state != MessageState::Available || g->inFlight > 0))
            groups.emplace_back(q.store.at(g->head).sequence, g.get());
    std::sort(groups.begin(), groups.end());
    for (const auto& [sequence, g] : groups) {
        std::uint32_t blocker = kNoSlot;
        for (std::uint32_t slot = g->head; slot != kNoSlot; slot = q.store.at(slot).next) {
            const Message& m = q.store.at(slot);
            if (m.state != MessageState::Available) {
                if (blocker == kNoSlot)
                    blocker = slot;
            } else if (blocker != kNoSlot) {
                result.push_back(describeBlocked(s, q, *g, slot, blocker));
            }
        }
    }
    return result;
}

} // namespace inflight::engine
