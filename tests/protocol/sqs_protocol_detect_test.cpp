// Which SQS protocol a request speaks (detectSqsProtocol): JSON with an X-Amz-Target header or an
// application/x-amz-json media type in either case after leading whitespace, else Query. The
// media type is compared in place; these tests hold it to the trimmed, lowered copy it replaced.
#include "protocol/sqs_codec.h"

#include <gtest/gtest.h>

#include <random>

namespace inflight::protocol {
namespace {

HttpRequest withContentType(const QByteArray& contentType)
{
    HttpRequest request;
    request.method = "POST";
    request.path = "/";
    request.headers.append(qMakePair(QByteArray("Content-Type"), contentType));
    return request;
}

SqsProtocol reference(const QByteArray& contentType)
{
    return contentType.trimmed().toLower().startsWith("application/x-amz-json")
        ? SqsProtocol::Json
        : SqsProtocol::Query;
}

TEST(SqsProtocolDetect, mediaTypesInEitherCaseAfterWhitespace)
{
    EXPECT_EQ(detectSqsProtocol(withContentType("application/x-amz-json-1.0")), SqsProtocol::Json);
    EXPECT_EQ(detectSqsProtocol(withContentType("Application/X-Amz-JSON-1.0")), SqsProtocol::Json);
    EXPECT_EQ(detectSqsProtocol(withContentType(" \t\r\n\v\fapplication/x-amz-json-1.1; a=b")),
              SqsProtocol::Json);
    EXPECT_EQ(detectSqsProtocol(withContentType("application/x-www-form-urlencoded")),
              SqsProtocol::Query);
    EXPECT_EQ(detectSqsProtocol(withContentType("application/x-amz-jso")), SqsProtocol::Query);
    EXPECT_EQ(detectSqsProtocol(withContentType("\x85"
                                                "application/x-amz-json-1.0")),
              SqsProtocol::Query); // not whitespace
    EXPECT_EQ(detectSqsProtocol(withContentType("")), SqsProtocol::Query);
    EXPECT_EQ(detectSqsProtocol(HttpRequest{}), SqsProtocol::Query);

    HttpRequest target = withContentType("application/x-www-form-urlencoded");
    target.headers.append(
        qMakePair(QByteArray("x-amz-target"), QByteArray("AmazonSQS.SendMessage")));
    EXPECT_EQ(detectSqsProtocol(target), SqsProtocol::Json);
}

TEST(SqsProtocolDetect, answersAsTheTrimmedLoweredCopyDid)
{
    const QByteArray type = "application/x-amz-json-1.0";
    const QByteArray others = " \t\r\n\v\f\x85\xa0aAxX-/.;";
    std::mt19937 random(9);
    for (int i = 0; i < 20000; ++i) {
        QByteArray contentType;
        for (int lead = int(random() % 4); lead > 0; --lead)
            contentType += others[int(random() % others.size())];
        const int keep = int(random() % (type.size() + 1));
        for (int at = 0; at < keep; ++at) {
            const char c = type[at];
            contentType
                += random() % 3 == 0 ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        }
        if (random() % 5 == 0 && !contentType.isEmpty())
            contentType[int(random() % contentType.size())] = others[int(random() % others.size())];
        ASSERT_EQ(detectSqsProtocol(withContentType(contentType)), reference(contentType))
            << contentType.toHex().toStdString();
    }
}

} // namespace
} // namespace inflight::protocol
