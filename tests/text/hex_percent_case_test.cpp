// Hex digits, percent-coding (RFC 3986) and ASCII case, as SigV4's canonical requests, digests,
// message ids and HTTP header look-ups use them.

#include "text/ascii_case.h"
#include "text/hex.h"
#include "text/percent.h"

#include <gtest/gtest.h>

#include <string>

namespace inflight::text {
namespace {

TEST(Hex, writesTwoLowerCaseDigitsPerByteInOrder)
{
    const unsigned char bytes[] = {0x00, 0x0f, 0xa5, 0xff, 0x10};
    EXPECT_EQ(hexOf(bytes, sizeof bytes), "000fa5ff10");
    EXPECT_EQ(hexOf(std::string_view("\x01\xfe", 2)), "01fe");
    EXPECT_EQ(hexOf(std::string_view()), "");
}

TEST(Hex, readsADigitOfEitherCase)
{
    for (char c = '0'; c <= '9'; ++c)
        EXPECT_EQ(hexDigitValue(c), c - '0');
    EXPECT_EQ(hexDigitValue('a'), 10);
    EXPECT_EQ(hexDigitValue('F'), 15);
    for (const char c : std::string("gG/:@` \x80"))
        EXPECT_EQ(hexDigitValue(c), -1) << int(c);
}

TEST(Percent, keepsOnlyTheUnreservedCharacters)
{
    EXPECT_EQ(percentEncoded("AZaz09-._~"), "AZaz09-._~");
    EXPECT_EQ(percentEncoded("a b+c/d=e&f%"), "a%20b%2Bc%2Fd%3De%26f%25");
    EXPECT_EQ(percentEncoded("/path/a b", true), "/path/a%20b");
    EXPECT_EQ(percentEncoded("\xc3\xa9"), "%C3%A9"); // é in UTF-8, upper-case digits
}

TEST(Percent, decodesEscapesAndLeavesTheRestAsItIs)
{
    EXPECT_EQ(percentDecoded("a%20b%2bc"), "a b+c");
    EXPECT_EQ(percentDecoded("a+b"), "a+b"); // a space only in forms
    EXPECT_EQ(percentDecoded("100%"), "100%");
    EXPECT_EQ(percentDecoded("%zz%4"), "%zz%4");
    EXPECT_EQ(percentDecoded("%41"), "A");
    for (int byte = 0; byte < 256; ++byte) {
        const std::string one(1, static_cast<char>(byte));
        ASSERT_EQ(percentDecoded(percentEncoded(one)), one) << byte;
    }
}

TEST(AsciiCase, comparesLettersInEitherCaseAndNothingElse)
{
    EXPECT_TRUE(equalsIgnoringAsciiCase("Content-Type", "content-type"));
    EXPECT_FALSE(equalsIgnoringAsciiCase("Content-Type", "content-typ"));
    EXPECT_FALSE(equalsIgnoringAsciiCase("[", "{")); // 0x5B and 0x7B differ by the case bit only
    EXPECT_FALSE(equalsIgnoringAsciiCase("\xc3\x89", "\xc3\xa9")); // É and é: not ASCII
    EXPECT_TRUE(
        startsWithIgnoringAsciiCase("Application/X-Amz-Json-1.0", "application/x-amz-json"));
    EXPECT_FALSE(startsWithIgnoringAsciiCase("app", "application"));
    EXPECT_EQ(asciiLowercased("X-Amz-Date\xc3\x89"), "x-amz-date\xc3\x89");
}

} // namespace
} // namespace inflight::text
