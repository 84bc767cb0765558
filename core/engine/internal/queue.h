#pragma once

#include "engine/internal/available_queue.h"
#include "engine/internal/deadline_heap.h"
#include "engine/internal/dedup_window.h"
#include "engine/internal/fifo_groups.h"
#include "engine/internal/message_store.h"
#include "engine/queue_config.h"
#include "engine/views.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace inflight::engine {

// A channel holds the available messages of a standard queue (one channel, id "") or of one OCI
// channel, in sequence order. Non-empty channels of an OCI queue take turns (fair pick).
struct Channel {
    std::string id;
    AvailableQueue available;
    std::int64_t availableCount = 0;
    std::int64_t inFlightCount = 0;
    std::int64_t delayedCount = 0;
    std::int64_t bytes = 0;
    // Round-robin ring of channels with available messages.
    bool inRing = false;
    Channel* ringPrev = nullptr;
    Channel* ringNext = nullptr;
};

// An intrusive ring (doubly linked list) of T with ringPrev/ringNext/flag members.
template <class T, bool T::*Flag>
class Ring {
public:
    T* front() const { return m_head; }
    std::size_t size() const { return m_size; }
    void pushBack(T* item)
    {
        item->*Flag = true;
        item->ringNext = nullptr;
        item->ringPrev = m_tail;
        if (m_tail)
            m_tail->ringNext = item;
        else
            m_head = item;
        m_tail = item;
        ++m_size;
    }
    void remove(T* item)
    {
        if (!(item->*Flag))
            return;
        (item->ringPrev ? item->ringPrev->ringNext : m_head) = item->ringNext;
        (item->ringNext ? item->ringNext->ringPrev : m_tail) = item->ringPrev;
        item->ringPrev = item->ringNext = nullptr;
        item->*Flag = false;
        --m_size;
    }
    void moveToBack(T* item)
    {
        remove(item);
        pushBack(item);
    }
    void clear()
    {
        while (m_head)
            remove(m_head);
    }

private:
    T* m_head = nullptr;
    T* m_tail = nullptr;
    std::size_t m_size = 0;
};

// A FIFO receive that can be replayed with the same ReceiveRequestAttemptId.
struct AttemptRecord {
    struct Item {
        std::uint32_t slot;
        std::uint64_t sequence;
        std::uint32_t receiveCount;
        Millis visibleAt;
        std::uint16_t visibilityChanges; // Message::visibilityChanges at the attempt
        std::string receipt;
    };
    Millis expiresAt = 0;
    std::vector<Item> items;
};

// One queue's whole state. Owned and driven by BrokerState; no behaviour of its own beyond
// bookkeeping helpers, so the rules live in one place.
//
// Invariants: what every broker call leaves true, checked after each one by the engine tests
// (invariants.h, broker_invariants.cpp). A stored message is a store slot with sequence != 0.
//   1. availableCount, inFlightCount and delayedCount are the numbers of stored messages in each
//      state; bytes is the sum of their sizes (BrokerState::messageBytes).
//   2. Standard and OCI: every stored message's bucket is a channel of this queue, whose counts
//      and bytes are those of its messages; every available message has an entry (slot,
//      sequence) in its channel's available queue; a channel is in channelRing exactly when it
//      says so (inRing), and channelRing holds as many.
//   3. FIFO: every stored message's bucket is the group of its group id; a group's list (head,
//      next ... tail, prev back) holds exactly its messages in increasing sequence, `count` of
//      them, `inFlight` of them in flight; a group is servable (and in servableGroups) exactly
//      when its head is available.
//   4. Heaps are lazy (stale entries are skipped when they reach the top) but never miss one: an
//      in-flight message has a visibility entry at its deadline; a delayed message a delayed
//      entry at its deadline (FIFO: at its sent time); every stored message a retention entry at
//      its retention base.
//   5. Every long poll in `waiters` is one BrokerState::waiters knows.
//   6. FIFO: the deduplication window's records are in the order they were made (expiry times
//      never decreasing, sequences increasing), each found by its key.
struct Queue {
    std::uint32_t id = 0;
    std::string name;
    std::string arn;
    QueueConfig config;
    StringMap tags;
    Millis createdAt = 0;
    Millis lastModifiedAt = 0;
    Millis lastPurgeAt = -1;
    bool isBuiltInDeadLetter = false;  // an OCI queue's DLQ
    std::string builtInDeadLetterName; // OCI: its DLQ's name

    MessageStore store;
    std::uint64_t nextSequence = 1;

    DeadlineHeap delayed; // standard/OCI key: deliver-at; FIFO key: sent-at (delay is the queue's)
    DeadlineHeap visibility; // key: visible-at
    DeadlineHeap retention;  // key: retention base

    Channel defaultChannel; // standard queues, and OCI messages without a channel
    std::unordered_map<std::string, std::unique_ptr<Channel>> channels; // OCI
    Ring<Channel, &Channel::inRing> channelRing;                        // OCI

    FifoGroups groups;                                    // FIFO
    Ring<FifoGroup, &FifoGroup::servable> servableGroups; // FIFO
    std::uint64_t receiveStamp = 0;

    DedupWindow dedup; // FIFO
    std::unordered_map<std::string, AttemptRecord> attempts;
    std::deque<std::pair<Millis, std::string>> attemptExpiry;

    std::deque<std::uint64_t> waiters; // long-poll receives, oldest first

    std::int64_t availableCount = 0;
    std::int64_t inFlightCount = 0;
    std::int64_t delayedCount = 0;
    std::int64_t bytes = 0;
    QueueStats counters; // only the monotonic members are used

    QueueKind kind() const { return config.kind; }
    bool isFifo() const { return config.kind == QueueKind::Fifo; }
    bool isOci() const { return config.kind == QueueKind::Oci; }
    Millis retentionMillis() const { return config.messageRetentionPeriod * kSecond; }
};

} // namespace inflight::engine
