#pragma once

#include "engine/clock.h"
#include "engine/message_content.h"
#include "engine/types.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace inflight::engine {

inline constexpr std::uint32_t kNoSlot = 0xffffffffu;

// Fields most messages never have, kept out of line so a plain message stays small.
struct MessageExtras {
    std::string groupId;
    std::string deduplicationId;
    std::string channelId;
    std::string deadLetterSourceArn;
    MessageAttributes systemAttributes; // AWSTraceHeader
};

struct FifoGroup;
struct Channel;

// Where a stored message is kept besides its slot: its FIFO group on a FIFO queue, its channel on
// a standard or OCI queue. The queue's kind says which, and never changes, so each caller names
// the one it means; one pointer, so a message stays the same size.
class MessageBucket {
public:
    void setGroup(FifoGroup& group) { m_group = &group; }
    void setChannel(Channel& channel) { m_channel = &channel; }
    FifoGroup& group() const { return *m_group; }   // FIFO queues
    Channel& channel() const { return *m_channel; } // standard and OCI queues

private:
    union {
        FifoGroup* m_group = nullptr;
        Channel* m_channel;
    };
};

// One stored message.
struct Message {
    std::uint64_t idHigh = 0;
    std::uint64_t idLow = 0;
    std::uint64_t sequence = 0; // 0 = free slot
    Millis sentAt = 0;
    Millis retentionBase = 0; // retention counts from here (sent, or DLQ arrival on FIFO)
    // deliver-at while Delayed (standard/OCI), visible-at while InFlight; while Available after a
    // receive: when it became visible again (the expiry, or the release time)
    Millis deadline = 0;
    Millis receivedAt = 0; // start of the current receive (the 12 h cap counts from here)
    Millis firstReceivedAt = 0;
    std::uint32_t receiveCount = 0;
    MessageState state = MessageState::Available;
    // For the explanations; both sit in what was padding, so a message stays the same size.
    ReturnCause returnCause = ReturnCause::None; // while Available after a receive
    std::uint16_t lastReceiveOrigin = 0;         // BrokerState::origins index of the last receive
    std::uint32_t next = kNoSlot;                // FIFO group order, or the free list
    std::uint32_t prev = kNoSlot;
    std::uint32_t receiptNonce = 0; // of the current receipt, so it can be shown again
    // ChangeMessageVisibility calls, modulo 2^16: the attempt-id replay check only asks whether
    // the count changed since the attempt. Half of what was a 32-bit count holds `sender`, so a
    // message stays the same size.
    std::uint16_t visibilityChanges = 0;
    std::uint16_t sender = 0; // BrokerState::senders index of its SenderId (0: the account id)
    MessageBucket bucket;
    std::string body;
    std::unique_ptr<MessageAttributes> attributes; // null when none
    std::unique_ptr<MessageExtras> extras;         // null when none

    MessageExtras& ensureExtras()
    {
        if (!extras)
            extras = std::make_unique<MessageExtras>();
        return *extras;
    }

    // The content as one value (a copy), and back: attributes and extras are kept out of line
    // only when there are any.
    MessageContent content() const
    {
        MessageContent c;
        c.body = body;
        if (attributes)
            c.attributes = *attributes;
        if (extras) {
            c.systemAttributes = extras->systemAttributes;
            c.groupId = extras->groupId;
            c.deduplicationId = extras->deduplicationId;
            c.channelId = extras->channelId;
            c.deadLetterSourceArn = extras->deadLetterSourceArn;
        }
        return c;
    }
    void setContent(MessageContent&& c)
    {
        body = std::move(c.body);
        attributes = c.attributes.empty()
            ? nullptr
            : std::make_unique<MessageAttributes>(std::move(c.attributes));
        if (c.groupId.empty() && c.deduplicationId.empty() && c.channelId.empty()
            && c.deadLetterSourceArn.empty() && c.systemAttributes.empty()) {
            extras.reset();
            return;
        }
        MessageExtras& x = ensureExtras();
        x.groupId = std::move(c.groupId);
        x.deduplicationId = std::move(c.deduplicationId);
        x.channelId = std::move(c.channelId);
        x.deadLetterSourceArn = std::move(c.deadLetterSourceArn);
        x.systemAttributes = std::move(c.systemAttributes);
    }
};

// Slot storage for one queue's messages: chunks that never move, a free list, O(1) look-up by
// slot. A slot is reused after its message leaves; the sequence tells the occupants apart.
class MessageStore {
public:
    static constexpr std::uint32_t kChunkBits = 12;
    static constexpr std::uint32_t kChunkSize = 1u << kChunkBits;

    // A free slot, now holding a default message with the given sequence.
    std::uint32_t allocate(std::uint64_t sequence)
    {
        std::uint32_t slot;
        if (m_freeHead != kNoSlot) {
            slot = m_freeHead;
            m_freeHead = at(slot).next;
        } else {
            if ((m_end & (kChunkSize - 1)) == 0 && (m_end >> kChunkBits) == m_chunks.size())
                m_chunks.push_back(std::make_unique<Message[]>(kChunkSize));
            slot = m_end++;
        }
        Message& m = at(slot);
        m.sequence = sequence;
        m.next = kNoSlot;
        m.prev = kNoSlot;
        ++m_size;
        return slot;
    }

    // Restoring: occupies exactly `slot` (which must be free) with `sequence`. Call
    // rebuildFreeList() once every message is placed.
    Message& place(std::uint32_t slot, std::uint64_t sequence)
    {
        while ((slot >> kChunkBits) >= m_chunks.size())
            m_chunks.push_back(std::make_unique<Message[]>(kChunkSize));
        if (slot >= m_end)
            m_end = slot + 1;
        Message& m = at(slot);
        m.sequence = sequence;
        m.next = kNoSlot;
        m.prev = kNoSlot;
        ++m_size;
        return m;
    }

    void rebuildFreeList()
    {
        m_freeHead = kNoSlot;
        for (std::uint32_t slot = m_end; slot-- > 0;) {
            if (at(slot).sequence == 0) {
                at(slot).next = m_freeHead;
                m_freeHead = slot;
            }
        }
    }

    bool occupied(std::uint32_t slot) const { return slot < m_end && at(slot).sequence != 0; }

    void release(std::uint32_t slot)
    {
        Message& m = at(slot);
        m = Message{};
        m.next = m_freeHead;
        m_freeHead = slot;
        --m_size;
    }

    Message& at(std::uint32_t slot)
    {
        return m_chunks[slot >> kChunkBits][slot & (kChunkSize - 1)];
    }
    const Message& at(std::uint32_t slot) const
    {
        return m_chunks[slot >> kChunkBits][slot & (kChunkSize - 1)];
    }

    // The message in `slot` if it is still the one with `sequence`, else null.
    Message* find(std::uint32_t slot, std::uint64_t sequence)
    {
        if (slot >= m_end)
            return nullptr;
        Message& m = at(slot);
        return m.sequence == sequence && sequence != 0 ? &m : nullptr;
    }

    std::uint32_t end() const { return m_end; } // slots [0, end) have been used
    std::size_t size() const { return m_size; }

    void clear()
    {
        m_chunks.clear();
        m_freeHead = kNoSlot;
        m_end = 0;
        m_size = 0;
    }

private:
    std::vector<std::unique_ptr<Message[]>> m_chunks;
    std::uint32_t m_freeHead = kNoSlot;
    std::uint32_t m_end = 0;
    std::size_t m_size = 0;
};

} // namespace inflight::engine
