// The invariants of queue.h, checked after every outermost broker call when a test asks for it
// (invariants.h). Reads only: a pass over each queue's messages, heaps and lists.
#include "engine/internal/broker_state.h"
#include "engine/invariants.h"

#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace inflight::engine {

namespace {

InvariantHook& hook()
{
    static InvariantHook installed;
    return installed;
}

// (slot, sequence, at) of a heap's entries, to look messages up in.
using EntryKey = std::tuple<std::uint32_t, std::uint64_t, Millis>;
std::set<EntryKey> entriesOf(const DeadlineHeap& heap)
{
    std::set<EntryKey> keys;
    heap.forEach([&](const DeadlineEntry& e) { keys.emplace(e.slot, e.sequence, e.at); });
    return keys;
}

struct Counts {
    std::int64_t available = 0;
    std::int64_t inFlight = 0;
    std::int64_t delayed = 0;
    std::int64_t bytes = 0;
    void add(const Message& m, std::int64_t size)
    {
        (m.state == MessageState::Available      ? available
             : m.state == MessageState::InFlight ? inFlight
                                                 : delayed)
            += 1;
        bytes += size;
    }
};

class Checker {
public:
    Checker(const BrokerState& state, const Queue& q) : m_state(state), m_q(q) {}

    void run()
    {
        const auto visibility = entriesOf(m_q.visibility);
        const auto delayed = entriesOf(m_q.delayed);
        const auto retention = entriesOf(m_q.retention);
        Counts all;
        std::unordered_map<const Channel*, Counts> byChannel;
        std::unordered_map<const FifoGroup*, std::int64_t> messagesOfGroup;
        std::set<std::pair<std::uint32_t, std::uint64_t>> availableEntries;
        if (!m_q.isFifo()) {
            forEachChannel([&](const Channel& c) {
                c.available.forEach([&](const AvailableQueue::Entry& e) {
                    availableEntries.emplace(e.slot, e.sequence);
                });
            });
        }
        for (std::uint32_t slot = 0; slot < m_q.store.end(); ++slot) {
            const Message& m = m_q.store.at(slot);
            if (m.sequence == 0)
                continue;
            const std::int64_t size = m_state.messageBytes(m);
            all.add(m, size);
            const std::string where = "message " + std::to_string(slot) + "/"
                + std::to_string(m.sequence) + " (" + std::string(messageStateName(m.state)) + ")";
            if (m.state == MessageState::InFlight
                && !visibility.count({slot, m.sequence, m.deadline}))
                fail("4", where + " has no visibility entry at its deadline");
            if (m.state == MessageState::Delayed
                && !delayed.count({slot, m.sequence, m_q.isFifo() ? m.sentAt : m.deadline}))
                fail("4", where + " has no delayed entry");
            if (!retention.count({slot, m.sequence, m.retentionBase}))
                fail("4", where + " has no retention entry at its retention base");
            if (m_q.isFifo()) {
                const std::string id = m.extras ? m.extras->groupId : std::string();
                const FifoGroup* group = m_q.groups.find(id);
                if (!group || &m.bucket.group() != group)
                    fail("3", where + " is not in the group of its group id \"" + id + "\"");
                else
                    ++messagesOfGroup[group];
            } else {
                const Channel* channel = &m.bucket.channel();
                if (!ownsChannel(channel)) {
                    fail("2", where + " is in a channel of another queue");
                    continue;
                }
                byChannel[channel].add(m, size);
                if (m.state == MessageState::Available
                    && !availableEntries.count({slot, m.sequence}))
                    fail("2", where + " is not in its channel's available queue");
            }
        }
        expect("1", all.available == m_q.availableCount, "availableCount", m_q.availableCount,
               all.available);
        expect("1", all.inFlight == m_q.inFlightCount, "inFlightCount", m_q.inFlightCount,
               all.inFlight);
        expect("1", all.delayed == m_q.delayedCount, "delayedCount", m_q.delayedCount, all.delayed);
        expect("1", all.bytes == m_q.bytes, "bytes", m_q.bytes, all.bytes);
        if (m_q.isFifo()) {
            checkGroups(messagesOfGroup);
            checkDeduplication();
        } else
            checkChannels(byChannel);
        for (std::uint64_t id : m_q.waiters)
            if (!m_state.waiters.count(id))
                fail("5", "long poll " + std::to_string(id) + " is unknown to the broker");
    }

private:
    template <class Fn>
    void forEachChannel(Fn fn) const
    {
        fn(m_q.defaultChannel);
        for (const auto& [id, channel] : m_q.channels)
            fn(*channel);
    }
    bool ownsChannel(const Channel* c) const
    {
        if (c == &m_q.defaultChannel)
            return true;
        const auto it = m_q.channels.find(c->id);
        return it != m_q.channels.end() && it->second.get() == c;
    }

    void checkChannels(const std::unordered_map<const Channel*, Counts>& byChannel)
    {
        std::size_t inRing = 0;
        forEachChannel([&](const Channel& c) {
            const auto it = byChannel.find(&c);
            const Counts counts = it == byChannel.end() ? Counts{} : it->second;
            const std::string name = "channel \"" + c.id + "\" ";
            expect("2", counts.available == c.availableCount, name + "availableCount",
                   c.availableCount, counts.available);
            expect("2", counts.inFlight == c.inFlightCount, name + "inFlightCount", c.inFlightCount,
                   counts.inFlight);
            expect("2", counts.delayed == c.delayedCount, name + "delayedCount", c.delayedCount,
                   counts.delayed);
            expect("2", counts.bytes == c.bytes, name + "bytes", c.bytes, counts.bytes);
            inRing += c.inRing ? 1 : 0;
        });
        expect("2", inRing == m_q.channelRing.size(), "channelRing size",
               std::int64_t(m_q.channelRing.size()), std::int64_t(inRing));
    }

    // The window's records in the order they were made: expiring no sooner than the one before,
    // with greater sequences (expiry pops the front; a store reads the newest back to a sequence),
    // and each found by its key.
    void checkDeduplication()
    {
        const DedupWindow::Record* previous = nullptr;
        m_q.dedup.forEach([&](const DedupWindow::Record& d) {
            if (previous && (d.expiresAt < previous->expiresAt || d.sequence <= previous->sequence))
                fail("6",
                     "deduplication record " + d.key + " (sequence " + std::to_string(d.sequence)
                         + ") is out of order");
            if (m_q.dedup.find(d.key) != &d)
                fail("6", "deduplication record " + d.key + " is not found by its key");
            previous = &d;
        });
    }

    void checkGroups(const std::unordered_map<const FifoGroup*, std::int64_t>& messagesOfGroup)
    {
        std::size_t servable = 0;
        for (const auto& group : m_q.groups) {
            const FifoGroup& g = *group;
            const std::string name = "group \"" + g.id + "\" ";
            std::int64_t listed = 0;
            std::int64_t inFlight = 0;
            std::uint64_t previousSequence = 0;
            std::uint32_t previous = kNoSlot;
            for (std::uint32_t slot = g.head; slot != kNoSlot && listed <= g.count;) {
                const Message& m = m_q.store.at(slot);
                if (m.sequence == 0 || m.sequence <= previousSequence || m.prev != previous) {
                    fail("3", name + "list is broken at slot " + std::to_string(slot));
                    break;
                }
                ++listed;
                inFlight += m.state == MessageState::InFlight ? 1 : 0;
                previousSequence = m.sequence;
                previous = slot;
                slot = m.next;
            }
            if (previous != g.tail)
                fail("3", name + "tail is not the list's last message");
            const auto counted = messagesOfGroup.find(&g);
            const std::int64_t messages = counted == messagesOfGroup.end() ? 0 : counted->second;
            expect("3", listed == g.count && messages == g.count, name + "count", g.count, listed);
            expect("3", inFlight == g.inFlight, name + "inFlight", g.inFlight, inFlight);
            const bool headAvailable
                = g.head != kNoSlot && m_q.store.at(g.head).state == MessageState::Available;
            if (headAvailable != g.servable)
                fail("3",
                     name
                         + (g.servable ? "is servable without an available head"
                                       : "has an available head but is not servable"));
            servable += g.servable ? 1 : 0;
        }
        expect("3", servable == m_q.servableGroups.size(), "servableGroups size",
               std::int64_t(m_q.servableGroups.size()), std::int64_t(servable));
    }

    void expect(const char* rule, bool holds, const std::string& what, std::int64_t kept,
                std::int64_t counted)
    {
        if (!holds)
            fail(rule,
                 what + " is " + std::to_string(kept) + ", counted " + std::to_string(counted));
    }
    void fail(const char* rule, const std::string& what)
    {
        hook()("queue " + m_q.name + ", invariant " + rule + ": " + what);
    }

    const BrokerState& m_state;
    const Queue& m_q;
};

} // namespace

void setInvariantHook(InvariantHook installed)
{
    hook() = std::move(installed);
}

void BrokerState::checkInvariants() const
{
    if (!hook())
        return;
    // A pass per call over a queue of thousands of messages makes a long test quadratic: those
    // are checked after every 256th call instead.
    constexpr std::uint32_t kLargeQueue = 1'024;
    const bool checkLarge = ++invariantChecks % 256 == 0;
    for (const auto& [name, q] : queues)
        if (checkLarge || q->store.end() <= kLargeQueue)
            Checker(*this, *q).run();
}

} // namespace inflight::engine
