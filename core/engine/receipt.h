#pragma once

#include "engine/inline_text.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace inflight::engine {

// What a receipt handle identifies: one receive of one message of one queue.
struct ReceiptToken {
    std::uint32_t queueId = 0;      // unique per queue instance, never reused
    std::uint32_t slot = 0;         // the message's storage slot in that queue
    std::uint64_t sequence = 0;     // the message's sequence in that queue
    std::uint32_t receiveCount = 0; // which receive (1 = first)
    friend bool operator==(const ReceiptToken&, const ReceiptToken&) = default;
};

// A receipt handle and a message id as an event carries them: in the event itself, no heap.
constexpr std::size_t kReceiptLength = 48;
constexpr std::size_t kMessageIdLength = 36;
using ReceiptText = InlineText<kReceiptLength>;
using MessageIdText = InlineText<kMessageIdLength>;
// A FIFO message's sequence number as the wire shows it: 20 decimal digits.
constexpr std::size_t kSequenceNumberLength = 20;
using SequenceNumberText = InlineText<kSequenceNumberLength>;

// Encodes a token as an opaque URL-safe string (base64url, no padding, 48 chars starting "AQEB"
// as AWS's do) carrying a keyed checksum, so random or edited strings do not decode. `nonce`
// makes handles unguessable.
std::string encodeReceipt(const ReceiptToken& token, std::uint64_t key, std::uint32_t nonce);
ReceiptText encodeReceiptText(const ReceiptToken& token, std::uint64_t key, std::uint32_t nonce);

// The token, or nullopt if `handle` is not a handle this engine (with this key) made.
std::optional<ReceiptToken> decodeReceipt(std::string_view handle, std::uint64_t key);

// decodeReceipt with a memory of the handles it last decoded or was told were made: a receive's
// handles come back in the delete (or visibility change) that follows moments later, and a batch's
// handles are decoded twice in a row (the traffic log notes where each stood, then the delete
// runs), where a decode -- base64 and a keyed checksum, both OpenSSL's, about 2,000 instructions --
// costs many times a look here (the figure: instructions per message received and deleted,
// docs/PERFORMANCE.md). The answer is decodeReceipt's in every case: a handle is remembered with
// the key it belongs to, and only when it is valid.
class ReceiptMemo {
public:
    std::optional<ReceiptToken> decode(std::string_view handle, std::uint64_t key);
    // `handle` is encodeReceiptText(token, key, ...): the receive that made it.
    void remember(std::string_view handle, const ReceiptToken& token, std::uint64_t key);

private:
    struct Entry {
        std::uint64_t key = 0;
        ReceiptToken token;
        bool used = false;
        char handle[kReceiptLength]{};
    };
    Entry& entryFor(std::string_view handle);
    // Direct-mapped by the handle's last eight characters (its checksum's, random): one entry
    // looked at per decode. The receives of 32 clients with ten handles each in flight share an
    // entry now and then, which only costs the later of them a decode again.
    static constexpr int kEntryBits = 10;
    static constexpr std::size_t kEntries = std::size_t{1} << kEntryBits;
    std::unique_ptr<Entry[]> m_entries = std::make_unique<Entry[]>(kEntries);
};

// A message id in UUID form ("8f0c1a9e-5b7d-4c1e-9a3f-2d6b7e8f9a0b"), from 128 random bits
// (version 4 and variant bits set).
std::string formatMessageId(std::uint64_t high, std::uint64_t low);
MessageIdText formatMessageIdText(std::uint64_t high, std::uint64_t low);

} // namespace inflight::engine
