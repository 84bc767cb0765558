// Header look-ups (HttpRequest::header): names compared with ASCII letters folded and every other
// byte exactly, as a Qt case-insensitive compare of ASCII names does.
#include "protocol/http_types.h"

#include <gtest/gtest.h>

#include <string>

using inflight::protocol::HttpRequest;

TEST(HttpHeader, namesMatchWithLettersInEitherCase)
{
    HttpRequest request;
    request.headers = {{"Content-Type", "application/x-amz-json-1.0"},
                       {"X-AMZ-TARGET", "AmazonSQS.ReceiveMessage"},
                       {"content-type", "second"}};
    EXPECT_EQ(request.header("content-type"), "application/x-amz-json-1.0"); // the first
    EXPECT_EQ(request.header("CONTENT-TYPE"), "application/x-amz-json-1.0");
    EXPECT_EQ(request.header("x-amz-target"), "AmazonSQS.ReceiveMessage");
    EXPECT_EQ(request.header("X-Amz-Target"), "AmazonSQS.ReceiveMessage");
    EXPECT_TRUE(request.header("Content-Typ").isEmpty());
    EXPECT_TRUE(request.header("Content-Types").isEmpty());
    EXPECT_TRUE(request.header("").isEmpty());
}

TEST(HttpHeader, eachByteFoldsAsQtFoldsAsciiAndNoOtherByte)
{
    // Every pair of bytes in a one-byte name, then at the end of a longer one: a match exactly
    // when Qt's case-insensitive compare (the look-up before) says they are the same. Bytes that
    // differ only in bit 0x20 but are not letters ('@' and '`', '[' and '{', 0xC0 and 0xE0) are
    // different names.
    for (int a = 1; a < 256; ++a) {
        for (int b = 1; b < 256; ++b) {
            for (const std::string prefix : {"", "x-amz-"}) {
                const QByteArray stored = QByteArray::fromStdString(prefix + char(a));
                const QByteArray asked = QByteArray::fromStdString(prefix + char(b));
                const bool same = a == b
                    || (a < 0x80 && b < 0x80 && stored.compare(asked, Qt::CaseInsensitive) == 0);
                HttpRequest request;
                request.headers = {{stored, "value"}};
                ASSERT_EQ(request.header(asked) == "value", same)
                    << "stored byte " << a << ", asked byte " << b;
            }
        }
    }
}
