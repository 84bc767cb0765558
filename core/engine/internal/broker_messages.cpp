// Message bookkeeping: where a stored message sits (channel or FIFO group, heaps) and the
// per-state counters. The rules that decide when to call these live in the other broker_*.cpp.
#include "engine/internal/broker_state.h"
#include "engine/receipt.h"

#include <charconv>

namespace inflight::engine {

namespace {

void adjustState(Queue& q, Channel* channel, MessageState state, int delta)
{
    switch (state) {
    case MessageState::Available:
        q.availableCount += delta;
        if (channel)
            channel->availableCount += delta;
        break;
    case MessageState::InFlight:
        q.inFlightCount += delta;
        if (channel)
            channel->inFlightCount += delta;
        break;
    case MessageState::Delayed:
        q.delayedCount += delta;
        if (channel)
            channel->delayedCount += delta;
        break;
    }
}

} // namespace

Channel& BrokerState::channelFor(Queue& q, const std::string& channelId)
{
    if (channelId.empty())
        return q.defaultChannel;
    auto& slot = q.channels[channelId];
    if (!slot) {
        slot = std::make_unique<Channel>();
        slot->id = channelId;
    }
    return *slot;
}

FifoGroup& BrokerState::groupFor(Queue& q, const std::string& groupId)
{
    return q.groups.findOrCreate(groupId);
}

void BrokerState::updateServable(Queue& q, FifoGroup& g)
{
    const bool servable = g.head != kNoSlot && q.store.at(g.head).state == MessageState::Available;
    if (servable && !g.servable)
        q.servableGroups.pushBack(&g);
    else if (!servable && g.servable)
        q.servableGroups.remove(&g);
}

Millis BrokerState::deliverAt(const Queue& q, const Message& m) const
{
    return q.isFifo() ? m.sentAt + q.config.delaySeconds * kSecond : m.deadline;
}

bool BrokerState::isDelayDue(const Queue& q, const Message& m, Millis now) const
{
    return deliverAt(q, m) <= now;
}

std::string BrokerState::messageId(const Message& m) const
{
    return formatMessageId(m.idHigh, m.idLow);
}

SequenceNumberText BrokerState::sequenceNumber(std::uint64_t sequence) const
{
    // 20 decimal digits, strictly increasing, like AWS's 128-bit sequence numbers.
    // 10^19 + the sequence has exactly 20 digits for any sequence below 8 * 10^18.
    SequenceNumberText text;
    char* digits = text.resize(kSequenceNumberLength);
    std::to_chars(digits, digits + kSequenceNumberLength,
                  std::uint64_t{10'000'000'000'000'000'000ULL} + sequence);
    return text;
}

std::int64_t BrokerState::messageBytes(const Message& m) const
{
    std::int64_t size = static_cast<std::int64_t>(m.body.size());
    if (m.attributes)
        for (const auto& [name, value] : *m.attributes)
            size
                += static_cast<std::int64_t>(name.size() + value.dataType.size()
                                             + value.stringValue.size() + value.binaryValue.size());
    return size;
}

std::uint32_t BrokerState::storeMessage(Queue& q, NewMessage&& n, Millis now)
{
    const std::uint64_t sequence = q.nextSequence++;
    const std::uint32_t slot = q.store.allocate(sequence);
    Message& m = q.store.at(slot);
    m.idHigh = n.idHigh;
    m.idLow = n.idLow;
    m.sentAt = n.sentAt;
    m.retentionBase = n.retentionBase;
    m.receiveCount = n.receiveCount;
    m.firstReceivedAt = n.firstReceivedAt;
    m.sender = n.sender;
    m.setContent(std::move(n.content));
    m.deadline = q.isFifo() ? 0 : n.deliverAt;
    const bool delayed = q.isFifo() ? !isDelayDue(q, m, now) : n.deliverAt > now;
    attachMessage(q, slot, m, delayed ? MessageState::Delayed : MessageState::Available);
    return slot;
}

void BrokerState::attachMessage(Queue& q, std::uint32_t slot, Message& m, MessageState state)
{
    const std::int64_t bytes = messageBytes(m);
    q.bytes += bytes;
    q.retention.push(m.retentionBase, slot, m.sequence);

    Channel* channel = nullptr;
    FifoGroup* group = nullptr;
    if (q.isFifo()) {
        group = &groupFor(q, m.extras ? m.extras->groupId : std::string());
        m.bucket.setGroup(*group);
        m.prev = group->tail;
        m.next = kNoSlot;
        if (group->tail != kNoSlot)
            q.store.at(group->tail).next = slot;
        else
            group->head = slot;
        group->tail = slot;
        ++group->count;
    } else {
        channel = &channelFor(q, m.extras ? m.extras->channelId : std::string());
        m.bucket.setChannel(*channel);
        channel->bytes += bytes;
    }

    switch (state) {
    case MessageState::Delayed:
        m.state = MessageState::Delayed;
        adjustState(q, channel, MessageState::Delayed, +1);
        q.delayed.push(q.isFifo() ? m.sentAt : m.deadline, slot, m.sequence);
        break;
    case MessageState::InFlight:
        m.state = MessageState::InFlight;
        adjustState(q, channel, MessageState::InFlight, +1);
        if (group)
            ++group->inFlight;
        q.visibility.push(m.deadline, slot, m.sequence);
        if (group)
            updateServable(q, *group);
        break;
    case MessageState::Available:
        m.state = MessageState::Delayed; // so makeAvailable counts the transition once
        adjustState(q, channel, MessageState::Delayed, +1);
        makeAvailable(q, slot, m, false);
        break;
    }
}

void BrokerState::makeAvailable(Queue& q, std::uint32_t slot, Message& m, bool returned)
{
    Channel* channel = q.isFifo() ? nullptr : &m.bucket.channel();
    if (m.state != MessageState::Available) {
        adjustState(q, channel, m.state, -1);
        if (m.state == MessageState::InFlight && q.isFifo())
            --m.bucket.group().inFlight;
        m.state = MessageState::Available;
        adjustState(q, channel, MessageState::Available, +1);
    }
    if (q.isFifo()) {
        updateServable(q, m.bucket.group());
        return;
    }
    if (returned)
        channel->available.pushReturned(slot, m.sequence);
    else
        channel->available.pushNew(slot, m.sequence);
    if (q.isOci() && !channel->inRing)
        q.channelRing.pushBack(channel);
}

void BrokerState::removeMessage(Queue& q, std::uint32_t slot, Message& m)
{
    const std::int64_t bytes = messageBytes(m);
    q.bytes -= bytes;
    if (q.isFifo()) {
        FifoGroup& g = m.bucket.group();
        adjustState(q, nullptr, m.state, -1);
        if (m.state == MessageState::InFlight)
            --g.inFlight;
        (m.prev != kNoSlot ? q.store.at(m.prev).next : g.head) = m.next;
        (m.next != kNoSlot ? q.store.at(m.next).prev : g.tail) = m.prev;
        --g.count;
        if (g.count == 0) {
            q.servableGroups.remove(&g);
            q.store.release(slot);
            q.groups.erase(g);
            return;
        }
        q.store.release(slot);
        updateServable(q, g);
        return;
    }
    Channel& channel = m.bucket.channel();
    adjustState(q, &channel, m.state, -1);
    channel.bytes -= bytes;
    q.store.release(slot);
    if (channel.availableCount == 0) {
        // Its remaining entries are all stale; drop them so memory follows the content.
        channel.available.clear();
        q.channelRing.remove(&channel);
    }
    if (&channel != &q.defaultChannel && channel.availableCount == 0 && channel.inFlightCount == 0
        && channel.delayedCount == 0) {
        q.channels.erase(channel.id);
    }
}

void BrokerState::purgeMessages(Queue& q)
{
    q.store.clear();
    q.delayed.clear();
    q.visibility.clear();
    q.retention.clear();
    q.channelRing.clear();
    q.defaultChannel = Channel{};
    q.channels.clear();
    q.servableGroups.clear();
    q.groups.clear();
    q.dedup.clear();
    q.attempts.clear();
    q.attemptExpiry.clear();
    q.availableCount = q.inFlightCount = q.delayedCount = q.bytes = 0;
}

} // namespace inflight::engine
