// base64 and base64url (RFC 4648) as the engine's receipts, the Query protocol's binary values and
// the workspace's exports use them: the RFC's vectors, a bit-by-bit reading of the RFC, and every
// text that is not the one encoding of its bytes refused.

#include "text/base64.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace inflight::text {
namespace {

const std::string kUrlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// ---- base64 ------------------------------------------------------------------------------------

struct Rfc4648Vector {
    const char* bytes;
    const char* base64;
    const char* base64Url;
};

void PrintTo(const Rfc4648Vector& v, std::ostream* os)
{
    *os << '"' << v.bytes << '"';
}

class Base64Rfc4648 : public testing::TestWithParam<Rfc4648Vector> {};

TEST_P(Base64Rfc4648, encodesAsTheRfcSays)
{
    EXPECT_EQ(base64Encode(GetParam().bytes), GetParam().base64);
    EXPECT_EQ(base64UrlEncode(GetParam().bytes), GetParam().base64Url);
}

TEST_P(Base64Rfc4648, decodesAsTheRfcSays)
{
    EXPECT_EQ(base64Decode(GetParam().base64), std::optional<std::string>(GetParam().bytes));
    EXPECT_EQ(base64UrlDecode(GetParam().base64Url), std::optional<std::string>(GetParam().bytes));
}

// RFC 4648 §10, plus the unpadded url form.
INSTANTIATE_TEST_SUITE_P(Section10, Base64Rfc4648,
                         testing::Values(Rfc4648Vector{"", "", ""},
                                         Rfc4648Vector{"f", "Zg==", "Zg"},
                                         Rfc4648Vector{"fo", "Zm8=", "Zm8"},
                                         Rfc4648Vector{"foo", "Zm9v", "Zm9v"},
                                         Rfc4648Vector{"foob", "Zm9vYg==", "Zm9vYg"},
                                         Rfc4648Vector{"fooba", "Zm9vYmE=", "Zm9vYmE"},
                                         Rfc4648Vector{"foobar", "Zm9vYmFy", "Zm9vYmFy"}));

TEST(Base64, usesTheRightAlphabetForBytesSixtyTwoAndSixtyThree)
{
    const std::string bytes("\xfb\xff\xbf", 3);
    EXPECT_EQ(base64Encode(bytes), "+/+/");
    EXPECT_EQ(base64UrlEncode(bytes), "-_-_");
    EXPECT_EQ(base64Decode("+/+/"), std::optional<std::string>(bytes));
    EXPECT_EQ(base64UrlDecode("-_-_"), std::optional<std::string>(bytes));
    EXPECT_FALSE(base64Decode("-_-_").has_value());
    EXPECT_FALSE(base64UrlDecode("+/+/").has_value());
}

TEST(Base64, roundTripsAllByteValuesAndLengths)
{
    std::string bytes;
    for (int i = 0; i < 256; ++i)
        bytes += static_cast<char>(i);
    for (std::size_t n = 0; n <= bytes.size(); ++n) {
        const std::string part = bytes.substr(0, n);
        ASSERT_EQ(base64Decode(base64Encode(part)), std::optional<std::string>(part)) << n;
        ASSERT_EQ(base64UrlDecode(base64UrlEncode(part)), std::optional<std::string>(part)) << n;
    }
}

// The codecs work group by group through tables; held here to a bit-by-bit reading of RFC 4648.
std::string referenceEncode(const std::string& bytes, const std::string& alphabet, bool pad)
{
    std::string bits;
    for (const char c : bytes)
        for (int b = 7; b >= 0; --b)
            bits += ((static_cast<unsigned char>(c) >> b) & 1) ? '1' : '0';
    while (bits.size() % 6 != 0)
        bits += '0';
    std::string text;
    for (std::size_t i = 0; i < bits.size(); i += 6)
        text += alphabet[std::stoi(bits.substr(i, 6), nullptr, 2)];
    while (pad && text.size() % 4 != 0)
        text += '=';
    return text;
}

TEST(Base64, encodesAsABitByBitReadingOfTheRfc)
{
    const std::string standard = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::mt19937_64 random(14);
    for (int i = 0; i < 3000; ++i) {
        std::string bytes(random() % 40, '\0');
        for (char& c : bytes)
            c = static_cast<char>(random());
        ASSERT_EQ(base64Encode(bytes), referenceEncode(bytes, standard, true));
        ASSERT_EQ(base64UrlEncode(bytes), referenceEncode(bytes, kUrlAlphabet, false));
    }
}

TEST(Base64, decodesEveryCharacterInEveryPlaceOfAGroup)
{
    // Each of the 256 byte values in each place of a group: only the alphabet's decode, each to
    // its value.
    for (int place = 0; place < 4; ++place)
        for (int c = 0; c < 256; ++c) {
            std::string text = "AAAA";
            text[place] = static_cast<char>(c);
            const auto at = kUrlAlphabet.find(static_cast<char>(c));
            const auto decoded = base64UrlDecode(text);
            ASSERT_EQ(decoded.has_value(), at != std::string::npos) << place << ' ' << c;
            if (!decoded)
                continue;
            const std::uint32_t group = static_cast<std::uint32_t>(at) << (18 - 6 * place);
            const std::string expected{static_cast<char>(group >> 16),
                                       static_cast<char>(group >> 8), static_cast<char>(group)};
            ASSERT_EQ(*decoded, expected) << place << ' ' << c;
        }
}

class Base64RejectsInvalid : public testing::TestWithParam<const char*> {};

TEST_P(Base64RejectsInvalid, standard)
{
    EXPECT_FALSE(base64Decode(GetParam()).has_value()) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Inputs, Base64RejectsInvalid,
                         testing::Values("Zg",                 // missing padding
                                         "Zg=",                // short padding
                                         "Zg===",              // too much padding
                                         "Z===",               // a lone sextet cannot make a byte
                                         "====",               // padding only
                                         "Zg==Zg==",           // padding in the middle
                                         "Z=g=",               // padding between data
                                         "Zm9v\n",             // line break
                                         "Zm 9v",              // space
                                         "Zm9*",               // character outside the alphabet
                                         "Zh==",               // non-zero bits under the padding
                                         "Zm9=",               // non-zero bits under the padding
                                         "Zm9vY-==",           // url alphabet in standard text
                                         "\xc3\xa9\xc3\xa9")); // non-ASCII

class Base64UrlRejectsInvalid : public testing::TestWithParam<const char*> {};

TEST_P(Base64UrlRejectsInvalid, url)
{
    EXPECT_FALSE(base64UrlDecode(GetParam()).has_value()) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Inputs, Base64UrlRejectsInvalid,
                         testing::Values("Z",      // a lone sextet cannot make a byte
                                         "Zm9vY",  // 5 characters: same
                                         "Zg==",   // padding is not part of the url form
                                         "Zm8=",   // same
                                         "Zh",     // non-zero trailing bits
                                         "Zm9",    // non-zero trailing bits
                                         "Zm9v+A", // standard alphabet
                                         "Zm9v/A", // standard alphabet
                                         "Zm.v")); // character outside the alphabet

TEST(Base64, decodesIntoFixedRoomOnlyTheTextOfThatManyBytes)
{
    const std::string bytes = "any carnal pleasure.";
    const std::string text = base64UrlEncode(bytes);
    std::vector<unsigned char> room(bytes.size());
    ASSERT_TRUE(base64UrlDecodeTo(text, room));
    EXPECT_EQ(std::string(room.begin(), room.end()), bytes);
    std::vector<unsigned char> shorter(bytes.size() - 1);
    EXPECT_FALSE(base64UrlDecodeTo(text, shorter));
    std::vector<unsigned char> longer(bytes.size() + 1);
    EXPECT_FALSE(base64UrlDecodeTo(text, longer));
    char encoded[64];
    base64UrlEncodeTo(room, encoded);
    EXPECT_EQ(std::string(encoded, base64UrlLength(room.size())), text);
}

TEST(Base64, longTextsAreDecodedWhole)
{
    std::string bytes;
    for (int i = 0; i < 100000; ++i)
        bytes += static_cast<char>(i * 31);
    EXPECT_EQ(base64Decode(base64Encode(bytes)), std::optional<std::string>(bytes));
    EXPECT_EQ(base64UrlDecode(base64UrlEncode(bytes)), std::optional<std::string>(bytes));
}

} // namespace
} // namespace inflight::text
