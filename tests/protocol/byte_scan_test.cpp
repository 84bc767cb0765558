// The word-at-a-time tests the answers' printers skip plain text with (byte_scan.h): for every
// byte value at every place in a word, among neighbours of every kind, each test answers as a
// byte-by-byte look would.
#include "protocol/byte_scan.h"

#include <gtest/gtest.h>

#include <string>

namespace bytescan = inflight::protocol::bytescan;

TEST(ByteScan, eachTestAnswersAsAByteByByteLookWould)
{
    // Neighbours that sit next to the borders the tests compute across (borrows between bytes).
    const unsigned char fillers[] = {0x00, 0x1F, 0x20, 0x21, 0x3D, 0x7F, 0x80, 0xFF, 'a'};
    for (const unsigned char filler : fillers) {
        for (int value = 0; value < 256; ++value) {
            for (int place = 0; place < 8; ++place) {
                std::string bytes(8, char(filler));
                bytes[std::size_t(place)] = char(value);
                const std::uint64_t word = bytescan::load(bytes.data());
                bool high = false, below = false, quote = false, markup = false;
                for (const char c : bytes) {
                    const auto b = static_cast<unsigned char>(c);
                    high = high || b >= 0x80;
                    below = below || b < 0x20;
                    quote = quote || b == '"';
                    markup = markup || b == '<' || b == '>';
                }
                SCOPED_TRACE(std::to_string(filler) + " " + std::to_string(value) + " @"
                             + std::to_string(place));
                ASSERT_EQ(bytescan::anyHigh(word), high);
                ASSERT_EQ(bytescan::anyBelow(word, 0x20), below);
                ASSERT_EQ(bytescan::anyEqual(word, '"'), quote);
                ASSERT_EQ(bytescan::anyEqual(word | bytescan::kOnes * 0x02, 0x3E), markup);
            }
        }
    }
}
