// The bytes of a response's head and of a whole response (http_wire.h).
#include "server/http_wire.h"

#include <gtest/gtest.h>

using inflight::protocol::HttpResponse;
using inflight::server::appendResponseHead;
using inflight::server::serializeResponse;

TEST(HttpWire, theHeadHoldsStatusHeadersTypeAndLengthAndLeavesOutFramingHeadersOfTheCodec)
{
    HttpResponse response;
    response.status = 400;
    response.contentType = "application/x-amz-json-1.0";
    response.headers = {{"x-amzn-RequestId", "abc"},
                        {"content-LENGTH", "999"}, // written by the server, not copied
                        {"Connection", "keep-alive"},
                        {"X-Empty", ""}};
    response.body = "{\"x\":1}";
    QByteArray out = "before|";
    appendResponseHead(out, response, true);
    EXPECT_EQ(out.toStdString(),
              "before|HTTP/1.1 400 Bad Request\r\nx-amzn-RequestId: abc\r\nX-Empty: \r\n"
              "Content-Type: application/x-amz-json-1.0\r\nContent-Length: 7\r\n\r\n");
    EXPECT_EQ(serializeResponse(response, false).toStdString(),
              "HTTP/1.1 400 Bad Request\r\nx-amzn-RequestId: abc\r\nX-Empty: \r\n"
              "Content-Type: application/x-amz-json-1.0\r\nContent-Length: 7\r\n"
              "Connection: close\r\n\r\n{\"x\":1}");
}

TEST(HttpWire, aResponseWithoutBodyHasNoTypeAndLengthZero)
{
    HttpResponse response;
    response.status = 204;
    EXPECT_EQ(serializeResponse(response, true).toStdString(),
              "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n");
}

TEST(HttpWire, headsAppendedOneAfterAnotherStayWhole)
{
    // The connection's buffer takes many heads in a row; each lands after the last.
    HttpResponse response;
    response.contentType = "text/plain";
    response.body = QByteArray(1234, 'x');
    QByteArray out;
    const QByteArray one = serializeResponse(response, true).chopped(1234);
    for (int i = 0; i < 1000; ++i)
        appendResponseHead(out, response, true);
    ASSERT_EQ(out.size(), 1000 * one.size());
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(out.mid(i * one.size(), one.size()), one) << i;
}
