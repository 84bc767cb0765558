// Receipt handles (§1.2, §4.4, §7A) and message ids.

#include "engine/receipt.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

constexpr std::uint64_t kKey = 0x0123456789abcdefULL;

const std::string kUrlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

ReceiptToken sampleToken()
{
    return ReceiptToken{7, 42, 123456789012345ULL, 3};
}

// ---- receipt handles ---------------------------------------------------------------------------

TEST(Receipt, roundTripsManyRandomTokens)
{
    std::mt19937_64 random(20240611);
    for (int i = 0; i < 20000; ++i) {
        const ReceiptToken token{static_cast<std::uint32_t>(random()),
                                 static_cast<std::uint32_t>(random()), random(),
                                 static_cast<std::uint32_t>(random())};
        const std::string handle = encodeReceipt(token, kKey, static_cast<std::uint32_t>(random()));
        const auto decoded = decodeReceipt(handle, kKey);
        ASSERT_TRUE(decoded.has_value()) << handle;
        ASSERT_EQ(*decoded, token) << handle;
    }
}

TEST(Receipt, roundTripsExtremeFieldValues)
{
    for (const ReceiptToken& token :
         {ReceiptToken{0, 0, 0, 0}, ReceiptToken{UINT32_MAX, UINT32_MAX, UINT64_MAX, UINT32_MAX}}) {
        const auto decoded = decodeReceipt(encodeReceipt(token, kKey, 0), kKey);
        ASSERT_TRUE(decoded.has_value());
        EXPECT_EQ(*decoded, token);
    }
}

TEST(Receipt, handleIsUrlSafeShortAndLooksLikeAws)
{
    const std::string handle = encodeReceipt(sampleToken(), kKey, 99);
    EXPECT_LE(handle.size(), 1024u); // §1.2
    EXPECT_EQ(handle.find_first_not_of(kUrlAlphabet), std::string::npos) << handle;
    EXPECT_EQ(handle.rfind("AQEB", 0), 0u) << handle;
}

// Handles given out before layout 2 (SipHash-1-3) are signed with SipHash-2-4 and must still work
// on a workspace reopened by a newer Inflight. This one was made by the layout-1 encoder.
TEST(Receipt, decodesAHandleOfTheEarlierLayout)
{
    const std::string layout1 = "AQEBAQAAAAcAAAAqAABwSIYN33kAAAADAAAAB9V_SWvuFFJK";
    const auto decoded = decodeReceipt(layout1, kKey);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, sampleToken());
    EXPECT_FALSE(decodeReceipt(layout1, kKey + 1).has_value());
    // New handles are of layout 2: the same token and nonce give another handle.
    const std::string layout2 = encodeReceipt(sampleToken(), kKey, 7);
    EXPECT_NE(layout2, layout1);
    EXPECT_EQ(layout2.rfind("AQEBAg", 0), 0u) << layout2; // the layout byte after "AQEB"
    EXPECT_EQ(decodeReceipt(layout2, kKey), decoded);
}

// Handles of layout 2 made by the encoder as it was before its loads and stores became whole
// words (session 21's, byte by byte): the same tokens give the same handles, and they decode.
TEST(Receipt, layoutTwoHandlesAreTheSameAsTheByteByByteEncoderMade)
{
    EXPECT_EQ(encodeReceipt(sampleToken(), kKey, 7),
              "AQEBAgAAAAcAAAAqAABwSIYN33kAAAADAAAAB_3AEkS6OEjo");
    const ReceiptToken high{0xfedcba98u, 0x89abcdefu, 0xfedcba9876543210ULL, 0x80000001u};
    const std::string handle = "AQEBAv7cupiJq83v_ty6mHZUMhCAAAAB3q2-7zYFWo_Y5uQC";
    EXPECT_EQ(encodeReceipt(high, kKey, 0xdeadbeefu), handle);
    EXPECT_EQ(decodeReceipt(handle, kKey), high);
}

TEST(Receipt, nonceMakesEveryReceiveOfTheSameTokenDistinct)
{
    const std::string a = encodeReceipt(sampleToken(), kKey, 1);
    const std::string b = encodeReceipt(sampleToken(), kKey, 2);
    EXPECT_NE(a, b);
    EXPECT_EQ(decodeReceipt(a, kKey), decodeReceipt(b, kKey));
}

TEST(Receipt, rejectsEverySingleCharacterEdit)
{
    const std::string handle = encodeReceipt(sampleToken(), kKey, 0xdeadbeef);
    // Substitutions with every other character that could appear in a URL or a form.
    const std::string candidates = kUrlAlphabet + "+/=. ~%";
    int tried = 0;
    for (std::size_t i = 0; i < handle.size(); ++i) {
        for (char c : candidates) {
            if (c == handle[i])
                continue;
            std::string edited = handle;
            edited[i] = c;
            ++tried;
            ASSERT_FALSE(decodeReceipt(edited, kKey).has_value())
                << "position " << i << " -> " << c;
        }
        // Deletions and insertions change the length.
        std::string deleted = handle;
        deleted.erase(i, 1);
        ASSERT_FALSE(decodeReceipt(deleted, kKey).has_value()) << "delete " << i;
        std::string inserted = handle;
        inserted.insert(i, 1, 'A');
        ASSERT_FALSE(decodeReceipt(inserted, kKey).has_value()) << "insert " << i;
    }
    EXPECT_GT(tried, 64 * 40);
}

TEST(Receipt, rejectsGarbage)
{
    for (const char* garbage : {"garbage", "", "INVALID", "AQEB", "SQS/BACKDOOR/ACCESS"})
        EXPECT_FALSE(decodeReceipt(garbage, kKey).has_value()) << garbage;
}

TEST(Receipt, rejectsRandomStringsOfTheRightShape)
{
    const std::size_t length = encodeReceipt(sampleToken(), kKey, 0).size();
    std::mt19937_64 random(7);
    for (int i = 0; i < 20000; ++i) {
        std::string text = "AQEB"; // even with the right prefix and length
        while (text.size() < length)
            text += kUrlAlphabet[random() % kUrlAlphabet.size()];
        ASSERT_FALSE(decodeReceipt(text, kKey).has_value()) << text;
    }
}

TEST(Receipt, rejectsHandleMadeWithAnotherKey)
{
    const std::string handle = encodeReceipt(sampleToken(), kKey, 5);
    EXPECT_FALSE(decodeReceipt(handle, kKey + 1).has_value());
    EXPECT_FALSE(decodeReceipt(handle, 0).has_value());
    EXPECT_FALSE(decodeReceipt(encodeReceipt(sampleToken(), 0, 5), kKey).has_value());
}

TEST(Receipt, rejectsPaddedOrStandardAlphabetForm)
{
    const std::string handle = encodeReceipt(sampleToken(), kKey, 5);
    EXPECT_FALSE(decodeReceipt(handle + "=", kKey).has_value());
    EXPECT_FALSE(decodeReceipt(" " + handle, kKey).has_value());
}

// ---- the memo of decoded handles ----------------------------------------------------------------

// The memo answers as decodeReceipt does, for handles it has seen and has not, edited ones (in the
// checksum's characters the look-up starts with, and elsewhere), other keys and garbage, in an
// order that puts handles in each other's entries many times.
TEST(ReceiptMemo, answersAsDecodeReceiptDoes)
{
    std::mt19937_64 random(99);
    std::vector<std::string> handles;
    for (int i = 0; i < 40; ++i)
        handles.push_back(encodeReceipt(ReceiptToken{std::uint32_t(1 + i % 3), std::uint32_t(i),
                                                     random(), std::uint32_t(1 + i % 5)},
                                        kKey, std::uint32_t(random())));
    ReceiptMemo memo;
    int decoded = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string handle = handles[random() % handles.size()];
        switch (random() % 6) {
        case 0: handle[handle.size() - 1 - random() % 8] ^= 1; break; // the tail edited
        case 1: handle[random() % (handle.size() - 8)] ^= 1; break;   // the rest edited
        case 2: handle.pop_back(); break;
        default: break;
        }
        const std::uint64_t key = random() % 8 == 0 ? kKey + 1 : kKey;
        const auto expected = decodeReceipt(handle, key);
        ASSERT_EQ(memo.decode(handle, key), expected) << handle << " key " << key;
        decoded += expected.has_value();
    }
    EXPECT_GT(decoded, 5000); // most of them valid: the memo's hits are tested, not only misses
    EXPECT_FALSE(memo.decode("garbage", kKey).has_value());
    EXPECT_FALSE(memo.decode("", kKey).has_value());
}

// Two valid handles that share the memo's entry (the memo picks it from the last eight characters,
// as receipt.cpp does): each answer stays its own as they push each other out, under either key.
TEST(ReceiptMemo, handlesThatShareAnEntryPushEachOtherOut)
{
    const auto entryOf = [](const std::string& handle) {
        std::uint64_t tail;
        std::memcpy(&tail, handle.data() + handle.size() - sizeof tail, sizeof tail);
        return (tail * 0x9e3779b97f4a7c15ULL) >> 54;
    };
    std::mt19937_64 random(7);
    std::vector<std::string> byEntry(1024);
    std::string a, b;
    for (std::uint32_t slot = 0; a.empty(); ++slot) {
        const std::string handle
            = encodeReceipt(ReceiptToken{1, slot, random(), 1}, kKey, std::uint32_t(random()));
        std::string& seen = byEntry[entryOf(handle)];
        if (seen.empty())
            seen = handle;
        else
            a = seen, b = handle;
    }
    ReceiptMemo memo;
    for (int round = 0; round < 3; ++round) {
        for (const std::string& handle : {a, b, a, a, b, b, a}) {
            ASSERT_EQ(memo.decode(handle, kKey), decodeReceipt(handle, kKey));
            ASSERT_TRUE(memo.decode(handle, kKey).has_value());
        }
        // Under another key neither decodes, whatever the entry holds; then both do again.
        EXPECT_FALSE(memo.decode(a, kKey + 1).has_value());
        EXPECT_EQ(memo.decode(a, kKey), decodeReceipt(a, kKey));
        // A's last eight characters on another handle's body: not A's answer.
        std::string forged = b;
        forged.replace(forged.size() - 8, 8, a.substr(a.size() - 8));
        EXPECT_EQ(memo.decode(forged, kKey), decodeReceipt(forged, kKey));
        EXPECT_FALSE(memo.decode(forged, kKey).has_value());
    }
    EXPECT_NE(memo.decode(a, kKey)->slot, memo.decode(b, kKey)->slot);
}

// A receive tells the memo the handles it made; the delete that follows finds them there, and
// they answer as decodeReceipt does (a handle made under another key still decodes to nothing).
TEST(ReceiptMemo, remembersTheHandlesAReceiveMade)
{
    ReceiptMemo memo;
    std::vector<std::pair<ReceiptToken, std::string>> made;
    for (std::uint32_t slot = 0; slot < 320; ++slot) {
        const ReceiptToken token{2, slot, 1000u + slot, 1};
        const ReceiptText handle = encodeReceiptText(token, kKey, slot * 7919u);
        memo.remember(handle, token, kKey);
        made.emplace_back(token, handle.str());
    }
    for (const auto& [token, handle] : made) {
        EXPECT_EQ(memo.decode(handle, kKey), token);
        EXPECT_FALSE(memo.decode(handle, kKey + 1).has_value());
    }
}

// ---- message ids -------------------------------------------------------------------------------

TEST(MessageId, hasUuidVersionFourForm)
{
    const std::regex uuidV4(
        "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    std::mt19937_64 random(11);
    for (int i = 0; i < 1000; ++i) {
        const std::string id = formatMessageId(random(), random());
        ASSERT_TRUE(std::regex_match(id, uuidV4)) << id;
    }
    // All-ones and all-zeros bits still come out as version 4, variant 10xx.
    EXPECT_TRUE(std::regex_match(formatMessageId(0, 0), uuidV4)) << formatMessageId(0, 0);
    EXPECT_TRUE(std::regex_match(formatMessageId(UINT64_MAX, UINT64_MAX), uuidV4));
}

TEST(MessageId, keepsTheRandomBitsInOrder)
{
    EXPECT_EQ(formatMessageId(0x8f0c1a9e5b7d4c1eULL, 0x9a3f2d6b7e8f9a0bULL),
              "8f0c1a9e-5b7d-4c1e-9a3f-2d6b7e8f9a0b");
    EXPECT_EQ(formatMessageId(0, 0), "00000000-0000-4000-8000-000000000000");
    EXPECT_EQ(formatMessageId(UINT64_MAX, UINT64_MAX), "ffffffff-ffff-4fff-bfff-ffffffffffff");
}

TEST(MessageId, isTheBitsInHexDigitByDigit)
{
    // The formatter writes all 32 digits at once; each digit against the nibble it stands for.
    std::mt19937_64 random(13);
    for (int i = 0; i < 20000; ++i) {
        std::uint64_t high = random(), low = random();
        if (i % 7 == 0)
            high &= 0x0f0f0f0f0f0f0f0fULL; // digits 0-9 and a-f in every place, not by chance
        if (i % 11 == 0)
            low |= 0x9999999999999999ULL;
        const std::string id = formatMessageId(high, low);
        const std::uint64_t h = (high & ~std::uint64_t{0xf000}) | 0x4000;
        const std::uint64_t l = (low & ~(std::uint64_t{0xc} << 60)) | (std::uint64_t{0x8} << 60);
        std::string expected;
        for (int shift = 60; shift >= 0; shift -= 4)
            expected += "0123456789abcdef"[(h >> shift) & 0xf];
        for (int shift = 60; shift >= 0; shift -= 4)
            expected += "0123456789abcdef"[(l >> shift) & 0xf];
        for (const std::size_t dash : {8, 13, 18, 23})
            expected.insert(dash, "-");
        ASSERT_EQ(id, expected) << std::hex << high << ' ' << low;
    }
}

TEST(MessageId, differsForDifferentRandomBits)
{
    std::mt19937_64 random(12);
    std::set<std::string> ids;
    for (int i = 0; i < 10000; ++i)
        ids.insert(formatMessageId(random(), random()));
    EXPECT_EQ(ids.size(), 10000u);
}

TEST(ReceiptText, isTheReceiptStringHeldInPlace)
{
    const ReceiptToken token{3, 4, 5, 6};
    const ReceiptText text = encodeReceiptText(token, 99, 7);
    EXPECT_EQ(text.size(), kReceiptLength);
    EXPECT_EQ(text.str(), encodeReceipt(token, 99, 7));
    EXPECT_EQ(decodeReceipt(text, 99), token);
    EXPECT_EQ(formatMessageIdText(1, 2).str(), formatMessageId(1, 2));
}

} // namespace
} // namespace inflight::engine
