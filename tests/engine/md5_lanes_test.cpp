// md5HexTexts (md5_lanes.cpp, eight or four digests side by side) gives OpenSSL's digest for every
// length across the block boundaries, for batches of every size up to a receive's ten and past it,
// with inputs of different lengths in one batch, and for the RFC 1321 test suite: each way it can
// take (eight lanes where the CPU has AVX2, four, one by one) on its own.
#include "engine/digest.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

std::vector<Md5HexText> digestsOf(const std::vector<std::string>& inputs,
                                  Md5Lanes lanes = Md5Lanes::Widest)
{
    std::vector<std::string_view> views(inputs.begin(), inputs.end());
    std::vector<Md5HexText> out(inputs.size());
    md5HexTexts(views, out, lanes);
    return out;
}

constexpr Md5Lanes kEveryWay[] = {Md5Lanes::Widest, Md5Lanes::Four, Md5Lanes::One};

TEST(Md5Lanes, theRfc1321SuiteInOneBatch)
{
    const std::vector<std::string> inputs{
        "",
        "a",
        "abc",
        "message digest",
        "abcdefghijklmnopqrstuvwxyz",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        "12345678901234567890123456789012345678901234567890123456789012345678901234567890"};
    const char* expected[]
        = {"d41d8cd98f00b204e9800998ecf8427e", "0cc175b9c0f1b6a831c399e269772661",
           "900150983cd24fb0d6963f7d28e17f72", "f96b697d7cb7938d525a2f31aaf161d0",
           "c3fcd3d76192e4007dfb496cca67e13b", "d174ab98d277d9f5a5611c2c9f419d9f",
           "57edf4a22be3c955ac49da2e2107b67a"};
    for (const Md5Lanes lanes : kEveryWay) {
        const std::vector<Md5HexText> digests = digestsOf(inputs, lanes);
        for (std::size_t i = 0; i < inputs.size(); ++i)
            EXPECT_EQ(digests[i].view(), expected[i])
                << '"' << inputs[i] << "\" way " << int(lanes);
    }
}

TEST(Md5Lanes, everyLengthAcrossTheBlockBoundariesInBatchesOfEverySize)
{
    std::mt19937 random(1321);
    std::string bytes(300, '\0');
    for (char& c : bytes)
        c = char(random());
    for (std::size_t batch = 1; batch <= 13; ++batch) {
        for (std::size_t first = 0; first <= 200; first += batch) {
            std::vector<std::string> inputs;
            for (std::size_t i = 0; i < batch; ++i) // lengths first, first + 1, … (all differ)
                inputs.push_back(bytes.substr(i, first + i));
            for (const Md5Lanes lanes : kEveryWay) {
                const std::vector<Md5HexText> digests = digestsOf(inputs, lanes);
                for (std::size_t i = 0; i < batch; ++i)
                    ASSERT_EQ(digests[i].view(), md5HexText(inputs[i]).view())
                        << "batch " << batch << ", length " << inputs[i].size() << ", way "
                        << int(lanes);
            }
        }
    }
}

TEST(Md5Lanes, longAndShortSideBySide)
{
    // One lane runs 4,097 blocks while the others end after one or two.
    std::string large(256 * 1024 + 7, 'x');
    for (std::size_t i = 0; i < large.size(); i += 97)
        large[i] = char(i);
    const std::vector<std::string> inputs{
        "short",           large, std::string(64, 'b'), std::string(55, 'c'), std::string(56, 'd'),
        large.substr(1000)};
    for (const Md5Lanes lanes : kEveryWay) {
        const std::vector<Md5HexText> digests = digestsOf(inputs, lanes);
        for (std::size_t i = 0; i < inputs.size(); ++i)
            EXPECT_EQ(digests[i].view(), md5HexText(inputs[i]).view())
                << i << " way " << int(lanes);
    }
}

TEST(Md5Lanes, writesOnlyAsManyAsBothSpansHold)
{
    const std::vector<std::string_view> inputs{"a", "b", "c"};
    std::vector<Md5HexText> out(2);
    md5HexTexts(inputs, out);
    EXPECT_EQ(out[1].view(), md5HexText("b").view());
    std::vector<Md5HexText> more(5);
    md5HexTexts(inputs, more);
    EXPECT_EQ(more[2].view(), md5HexText("c").view());
    EXPECT_TRUE(more[3].empty());
    md5HexTexts({}, more); // nothing to do
}

} // namespace
} // namespace inflight::engine
