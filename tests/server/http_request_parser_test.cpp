// HttpRequestParser: HTTP/1.1 requests out of a byte stream, bounded, with the rules it enforces
// beyond llhttp's grammar (Host, absolute-form targets).
#include "server/http_request_parser.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace inflight::server {
namespace {

using Status = HttpRequestParser::Status;

struct Parsed {
    Status status;
    std::size_t consumed;
};

Parsed parseAll(HttpRequestParser& parser, const std::string& bytes)
{
    const auto step = parser.parse(bytes.data(), bytes.size());
    return {step.status, step.consumed};
}

TEST(HttpRequestParser, ParsesAPostWithItsBody)
{
    HttpRequestParser parser;
    const std::string bytes = "POST / HTTP/1.1\r\nHost: 127.0.0.1:9324\r\nContent-Type: "
                              "application/x-www-form-urlencoded\r\nContent-Length: "
                              "17\r\n\r\nAction=ListQueues";
    const Parsed parsed = parseAll(parser, bytes);
    ASSERT_EQ(parsed.status, Status::Request);
    EXPECT_EQ(parsed.consumed, bytes.size());
    const protocol::HttpRequest request = parser.takeRequest();
    EXPECT_EQ(request.method, "POST");
    EXPECT_EQ(request.path, "/");
    EXPECT_EQ(request.body, "Action=ListQueues");
    EXPECT_EQ(request.header("host"), "127.0.0.1:9324");
    EXPECT_TRUE(parser.keepAlive());
    EXPECT_FALSE(parser.inRequest());
}

TEST(HttpRequestParser, StopsAfterEachRequestOfAPipeline)
{
    HttpRequestParser parser;
    const std::string first = "GET /a?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n";
    const std::string second = "GET /b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    const std::string bytes = first + second;
    auto step = parser.parse(bytes.data(), bytes.size());
    ASSERT_EQ(step.status, Status::Request);
    EXPECT_EQ(step.consumed, first.size());
    const auto a = parser.takeRequest();
    EXPECT_EQ(a.path, "/a");
    EXPECT_EQ(a.query, "x=1");
    step = parser.parse(bytes.data() + first.size(), second.size());
    ASSERT_EQ(step.status, Status::Request);
    EXPECT_EQ(parser.takeRequest().path, "/b");
    EXPECT_FALSE(parser.keepAlive());
}

TEST(HttpRequestParser, ABytewiseRequestIsInHeadersUntilTheyEnd)
{
    HttpRequestParser parser;
    const std::string bytes = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";
    for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
        const auto step = parser.parse(bytes.data() + i, 1);
        ASSERT_EQ(step.status, Status::NeedMore) << i;
        EXPECT_TRUE(parser.inRequest());
        EXPECT_TRUE(parser.inHeaders());
    }
    EXPECT_EQ(parser.parse(bytes.data() + bytes.size() - 1, 1).status, Status::Request);
    EXPECT_FALSE(parser.inHeaders());
}

TEST(HttpRequestParser, HeadersSplitAcrossReadsArriveWhole)
{
    // Every place a read can end: a name or value in two pieces is joined again.
    const std::string bytes = "POST /q HTTP/1.1\r\nHost: localhost:4566\r\n"
                              "Content-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n"
                              "\r\n{}";
    for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
        HttpRequestParser parser;
        ASSERT_EQ(parser.parse(bytes.data(), cut).status, Status::NeedMore) << cut;
        ASSERT_EQ(parser.parse(bytes.data() + cut, bytes.size() - cut).status, Status::Request)
            << cut;
        const auto request = parser.takeRequest();
        ASSERT_EQ(request.headers.size(), 3) << cut;
        EXPECT_EQ(request.headers[0].first, "Host") << cut;
        EXPECT_EQ(request.headers[0].second, "localhost:4566") << cut;
        EXPECT_EQ(request.headers[1].first, "Content-Type") << cut;
        EXPECT_EQ(request.headers[1].second, "application/x-amz-json-1.0") << cut;
        EXPECT_EQ(request.headers[2].second, "2") << cut;
        EXPECT_EQ(request.body, "{}") << cut;
    }
}

TEST(HttpRequestParser, EachHeaderReadsAsATerminatedStringAndChangesAlone)
{
    // Each name and value is followed by a '\0' as any QByteArray is, and a change to one does
    // not reach the others.
    HttpRequestParser parser;
    const std::string bytes = "POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Target: AmazonSQS.SendMessage"
                              "\r\nUser-Agent: aws-cli/2\r\nContent-Length: 0\r\n\r\n";
    ASSERT_EQ(parseAll(parser, bytes).status, Status::Request);
    protocol::HttpRequest request = parser.takeRequest();
    ASSERT_EQ(request.headers.size(), 4);
    for (const auto& [name, value] : request.headers) {
        EXPECT_EQ(std::strlen(name.constData()), std::size_t(name.size())) << name.constData();
        EXPECT_EQ(std::strlen(value.constData()), std::size_t(value.size())) << value.constData();
    }
    EXPECT_EQ(request.header("x-amz-target"), "AmazonSQS.SendMessage");
    request.headers[1].second.append(" and more");
    request.headers[0].second[0] = 'H';
    EXPECT_EQ(request.headers[0].second, "H");
    EXPECT_EQ(request.headers[1].first, "X-Amz-Target");
    EXPECT_EQ(request.headers[1].second, "AmazonSQS.SendMessage and more");
    EXPECT_EQ(request.headers[2].first, "User-Agent");
    EXPECT_EQ(request.headers[2].second, "aws-cli/2");

    // Each request of a connection has its own: the next one's headers do not touch these.
    const protocol::HttpRequest kept = std::move(request);
    ASSERT_EQ(parseAll(parser, "GET / HTTP/1.1\r\nHost: other\r\nUser-Agent: boto3\r\n\r\n").status,
              Status::Request);
    EXPECT_EQ(parser.takeRequest().header("User-Agent"), "boto3");
    EXPECT_EQ(kept.header("User-Agent"), "aws-cli/2");
    EXPECT_EQ(kept.header("Host"), "H");
}

TEST(HttpRequestParser, TheTrailersOfAChunkedBodyAreHeadersToo)
{
    HttpRequestParser parser;
    ASSERT_EQ(parseAll(parser,
                       "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n"
                       "\r\n2\r\n{}\r\n0\r\nX-Checksum: abc\r\n\r\n")
                  .status,
              Status::Request);
    const protocol::HttpRequest request = parser.takeRequest();
    EXPECT_EQ(request.body, "{}");
    EXPECT_EQ(request.header("Host"), "h");
    EXPECT_EQ(request.header("X-Checksum"), "abc");
}

TEST(HttpRequestParser, AMalformedRequestKeepsTheHeadersReadBeforeTheFault)
{
    // The answer to it is in the protocol those headers show (X-Amz-Target: JSON).
    HttpRequestParser parser;
    EXPECT_EQ(parseAll(parser,
                       "POST / HTTP/1.1\r\nHost: h\r\nX-Amz-Target: AmazonSQS.ListQueues"
                       "\r\nBad Header\r\n\r\n")
                  .status,
              Status::Malformed);
    EXPECT_EQ(parser.partialRequest().header("X-Amz-Target"), "AmazonSQS.ListQueues");
    EXPECT_EQ(parser.partialRequest().header("Host"), "h");

    HttpRequestParser large;
    EXPECT_EQ(parseAll(large,
                       "GET / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: A.B\r\nX-Big: "
                           + std::string(HttpRequestParser::kMaxHeaderBytes, 'a') + "\r\n\r\n")
                  .status,
              Status::Malformed);
    EXPECT_EQ(large.partialRequest().header("X-Amz-Target"), "A.B");
}

// RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
// request message that lacks a Host header field".
TEST(HttpRequestParser, RefusesAnHttp11RequestWithoutHost)
{
    HttpRequestParser parser;
    EXPECT_EQ(parseAll(parser, "GET / HTTP/1.1\r\nUser-Agent: x\r\n\r\n").status,
              Status::Malformed);
    EXPECT_NE(parser.errorReason().indexOf("Host"), -1);
    EXPECT_EQ(parser.partialRequest().method, "GET"); // enough to answer in its protocol
}

TEST(HttpRequestParser, AnEmptyHostIsNoHostAndOtherEmptyValuesStayAbsent)
{
    // llhttp hands an empty value over as a piece of no bytes: the header is there, its value
    // null, as it always was (an empty Host is no Host).
    HttpRequestParser parser;
    EXPECT_EQ(parseAll(parser, "GET / HTTP/1.1\r\nHost:\r\n\r\n").status, Status::Malformed);
    EXPECT_NE(parser.errorReason().indexOf("Host"), -1);

    HttpRequestParser other;
    ASSERT_EQ(parseAll(other, "GET / HTTP/1.1\r\nHost: h\r\nOrigin:\r\n\r\n").status,
              Status::Request);
    EXPECT_TRUE(other.takeRequest().header("Origin").isNull());
}

TEST(HttpRequestParser, AcceptsAnHttp10RequestWithoutHost)
{
    HttpRequestParser parser;
    EXPECT_EQ(parseAll(parser, "GET / HTTP/1.0\r\n\r\n").status, Status::Request);
    EXPECT_FALSE(parser.keepAlive());
}

// RFC 9112 §3.2.2: a server must accept the absolute form; OCI SDKs behind proxies send it.
TEST(HttpRequestParser, RoutesAnAbsoluteFormTargetByItsPath)
{
    HttpRequestParser parser;
    ASSERT_EQ(parseAll(parser,
                       "GET http://127.0.0.1:9324/20210201/queues/jobs/stats?x=1 "
                       "HTTP/1.1\r\nHost: 127.0.0.1:9324\r\n\r\n")
                  .status,
              Status::Request);
    const auto request = parser.takeRequest();
    EXPECT_EQ(request.path, "/20210201/queues/jobs/stats");
    EXPECT_EQ(request.query, "x=1");

    HttpRequestParser bare;
    ASSERT_EQ(parseAll(bare,
                       "GET http://localhost:9324?Action=ListQueues HTTP/1.1\r\nHost: "
                       "localhost\r\n\r\n")
                  .status,
              Status::Request);
    const auto root = bare.takeRequest();
    EXPECT_EQ(root.path, "/");
    EXPECT_EQ(root.query, "Action=ListQueues");
}

TEST(HttpRequestParser, RefusesABodyOverTheLimitFromItsLength)
{
    HttpRequestParser parser;
    const std::string head = "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: "
        + std::to_string(protocol::kMaxRequestBody + 1) + "\r\n\r\n";
    EXPECT_EQ(parseAll(parser, head).status, Status::TooLarge);
}

TEST(HttpRequestParser, RefusesAChunkedBodyThatGrowsOverTheLimit)
{
    HttpRequestParser parser;
    EXPECT_EQ(parseAll(parser,
                       "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: "
                       "chunked\r\n\r\n")
                  .status,
              Status::NeedMore);
    const std::string chunk = "100000\r\n" + std::string(0x100000, 'a') + "\r\n";
    EXPECT_EQ(parseAll(parser, chunk).status, Status::NeedMore);
    EXPECT_EQ(parseAll(parser, chunk).status, Status::NeedMore);
    EXPECT_EQ(parseAll(parser, chunk).status, Status::TooLarge);
}

TEST(HttpRequestParser, RefusesHeadersOverTheLimit)
{
    HttpRequestParser parser;
    const std::string bytes = "GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: "
        + std::string(HttpRequestParser::kMaxHeaderBytes, 'a') + "\r\n\r\n";
    EXPECT_EQ(parseAll(parser, bytes).status, Status::Malformed);
    EXPECT_NE(parser.errorReason().indexOf("too large"), -1);
}

TEST(HttpRequestParser, AsksForContinueOnlyForABodyThatWaitsForIt)
{
    HttpRequestParser parser;
    int continues = 0;
    parser.setContinueHandler([&] { ++continues; });
    EXPECT_EQ(parseAll(parser,
                       "POST / HTTP/1.1\r\nHost: localhost\r\nExpect: "
                       "100-continue\r\nContent-Length: 2\r\n\r\n")
                  .status,
              Status::NeedMore);
    EXPECT_EQ(continues, 1);
    EXPECT_EQ(parseAll(parser, "ab").status, Status::Request);
}

TEST(HttpRequestParser, NotHttpIsMalformedAndResetStartsAgain)
{
    HttpRequestParser parser;
    EXPECT_EQ(parseAll(parser, "\x16\x03\x01 not http\r\n\r\n").status, Status::Malformed);
    EXPECT_FALSE(parser.errorReason().isEmpty());
    parser.reset();
    EXPECT_EQ(parseAll(parser, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").status,
              Status::Request);
}

} // namespace
} // namespace inflight::server
