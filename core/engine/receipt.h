#pragma once

#include "engine/inline_text.h"

#include <cstdint>
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

// decodeReceipt with a memory of the last handles it decoded: a batch's handles are decoded twice
// in a row (the traffic log notes where each stood, then the delete or change runs), and a
// decode (base64 and a keyed checksum, both OpenSSL's) costs many times a look here. The answer is
// decodeReceipt's in every case: a handle is remembered with the key it was decoded with, and only
// when it decoded.
class ReceiptMemo {
public:
    std::optional<ReceiptToken> decode(std::string_view handle, std::uint64_t key);

private:
    struct Entry {
        std::uint64_t key = 0;
        ReceiptToken token;
        bool used = false;
        char handle[kReceiptLength]{};
    };
    // Direct-mapped by the handle's last eight characters (its checksum's, random): one entry
    // looked at per decode. Ten handles of a batch share an entry now and then (about 0.7 of a
    // pair per batch at 64), which only costs the later of them a decode again.
    static constexpr std::size_t kEntries = 64;
    Entry m_entries[kEntries];
};

// A message id in UUID form ("8f0c1a9e-5b7d-4c1e-9a3f-2d6b7e8f9a0b"), from 128 random bits
// (version 4 and variant bits set).
std::string formatMessageId(std::uint64_t high, std::uint64_t low);
MessageIdText formatMessageIdText(std::uint64_t high, std::uint64_t low);

} // namespace inflight::engine
