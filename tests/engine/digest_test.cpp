// MD5/SHA-256 digests of §2.6 and §5.2: every vector here was recorded against AWS or is the
// published test vector of the hash, so a framing or byte-order slip fails loudly.

#include "engine/digest.h"
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <string>

namespace inflight::engine {
namespace {

MessageAttributes helpHelloGeneral()
{
    return {
        {"Help.Me", stringAttribute("Me")},
        {"Hello", stringAttribute("There")},
        {"General", stringAttribute("Kenobi")},
    };
}

struct BodyVector {
    const char* body;
    const char* md5;
};

// Short names in test listings (gtest would print the raw bytes otherwise).
void PrintTo(const BodyVector& v, std::ostream* os)
{
    *os << '"' << v.body << '"';
}

class Md5OfMessageBody : public testing::TestWithParam<BodyVector> {};

TEST_P(Md5OfMessageBody, matchesAwsRecordedDigest)
{
    EXPECT_EQ(md5Hex(GetParam().body), GetParam().md5);
}

INSTANTIATE_TEST_SUITE_P(AwsVectors, Md5OfMessageBody,
                         testing::Values(BodyVector{"foobar", "3858f62230ac3c915f300c664312c63f"},
                                         BodyVector{"msg", "6e2baaf3b97dbeef01c0043275f9a0e7"},
                                         BodyVector{"test", "098f6bcd4621d373cade4e832627b4f6"},
                                         BodyVector{"", "d41d8cd98f00b204e9800998ecf8427e"}));

TEST(Digest, md5OfBodyHashesEmbeddedNulBytes)
{
    // The body is bytes, not a C string: a NUL must not truncate what is hashed.
    EXPECT_EQ(md5Hex(std::string_view("a\0b", 3)), "70350f6027bce3713f6b76473084309b");
}

TEST(Digest, md5OfBodySpanningManyBlocks)
{
    // 1,000,000 × 'a' is the RFC 1321-style long-input check; exercises multi-block input.
    EXPECT_EQ(md5Hex(std::string(1000000, 'a')), "7707d6ae4e027c70eea2a935c2296f21");
}

TEST(Digest, md5OfStringAttributeMyAttribute)
{
    EXPECT_EQ(md5OfMessageAttributes({{"MyAttribute", stringAttribute("foobar")}}),
              "adb59cd4678ea5a855436b949cd07ab6");
}

TEST(Digest, md5OfStringAttributeFoo)
{
    EXPECT_EQ(md5OfMessageAttributes({{"Foo", stringAttribute("Bar")}}),
              "ae7155c6026991b6d54b11589678bf9c");
}

TEST(Digest, md5OfThreeAttributesSortsByName)
{
    EXPECT_EQ(md5OfMessageAttributes(helpHelloGeneral()), "4c360f3fdafd970e05fae2f149d997f5");
}

TEST(Digest, md5OfBinaryAttributeUsesTransportByteTwoAndRawBytes)
{
    const std::string bytes = "traceparent\x1e"
                              "00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01";
    EXPECT_EQ(md5OfMessageAttributes({{"attr1", binaryAttribute(bytes)}}),
              "8cbe4db156db8a94db8b801b7addb984");
}

TEST(Digest, md5OfFilteredAttributesHelloGeneral)
{
    // MessageAttributeNames=[Hello, General]: the digest covers only what is returned.
    MessageAttributes all = helpHelloGeneral();
    MessageAttributes returned{{"Hello", all.at("Hello")}, {"General", all.at("General")}};
    EXPECT_EQ(md5OfMessageAttributes(returned), "fca026605781cb4126a1e9044df24232");
}

TEST(Digest, md5OfFilteredAttributesHelPrefix)
{
    // MessageAttributeNames=[Hel.*] selects Help.Me and Hello, not General.
    MessageAttributes all = helpHelloGeneral();
    MessageAttributes returned{{"Help.Me", all.at("Help.Me")}, {"Hello", all.at("Hello")}};
    EXPECT_EQ(md5OfMessageAttributes(returned), "83fee93c1bcd8b9a5a923ffacdc636c7");
}

TEST(Digest, md5OfCustomNumberTypeHashesFullTypeString)
{
    // The custom suffix is part of the hashed DataType, and Number travels as a string (byte 1).
    // Computed with an independent implementation of §2.6.
    EXPECT_EQ(md5OfMessageAttributes({{"count", stringAttribute("42", "Number.int")}}),
              "1e9b7ed68a1fc24c052ff8db3df46449");
    // Accepted by the JavaScript SDK v3's client-side MD5 check against an emulator.
    EXPECT_EQ(md5OfMessageAttributes(
                  {{"UserId", stringAttribute("1234567890123456789012", "Number.bigint")}}),
              "797ab158d73dcb5242dedc4412c8e855");
}

TEST(Digest, md5OfCustomBinaryTypeStillUsesTransportByteTwo)
{
    const std::string bytes = "traceparent\x1e"
                              "00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01";
    const std::string plain = md5OfMessageAttributes({{"attr1", binaryAttribute(bytes)}});
    const std::string custom
        = md5OfMessageAttributes({{"attr1", binaryAttribute(bytes, "Binary.png")}});
    // Same bytes under a different type string must digest differently ...
    EXPECT_NE(custom, plain);
    // ... and the binary value, not the (empty) string value, must be what is hashed.
    EXPECT_NE(custom, md5OfMessageAttributes({{"attr1", binaryAttribute("", "Binary.png")}}));
}

TEST(Digest, md5OfSystemAttributesUsesSameAlgorithm)
{
    // MD5OfMessageSystemAttributes for AWSTraceHeader, accepted by the JS SDK v3's check.
    EXPECT_EQ(md5OfMessageAttributes({{"AWSTraceHeader", stringAttribute("some-trace-id")}}),
              "fdce4f2818803f2f73becc09a54792c0");
}

TEST(Digest, md5OfNoAttributesIsEmpty)
{
    EXPECT_EQ(md5OfMessageAttributes({}), "");
}

TEST(Digest, md5OfLargeAttributeSetMatchesSmallFraming)
{
    // Large sets take a different buffer path; the framing must not change with size.
    const std::string big(5000, 'v');
    const MessageAttributes attributes{{"a", stringAttribute(big)}};
    std::string framed;
    framed += std::string("\0\0\0\1a", 5);
    framed += std::string("\0\0\0\6String", 10);
    framed += '\1';
    framed += std::string("\0\0\x13\x88", 4);
    framed += big;
    EXPECT_EQ(md5OfMessageAttributes(attributes), md5Hex(framed));
}

TEST(Digest, sha256OfKnownStrings)
{
    // FIPS 180-2 vectors: content-based deduplication ids are these 64 hex characters.
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

} // namespace
} // namespace inflight::engine
