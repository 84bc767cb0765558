#pragma once

#include "protocol/http_types.h"

#include <QByteArray>

namespace inflight::server {

// The bytes of one HTTP/1.1 response: status line, the response's headers, Content-Type and
// Content-Length (always, so keep-alive clients know where it ends), `Connection: close` when the
// connection ends after it.
QByteArray serializeResponse(const protocol::HttpResponse& response, bool keepAlive);
// The same without the body: status line and headers, appended to `out` (which a connection
// reuses, so that answering allocates nothing; the body goes out from the response itself).
void appendResponseHead(QByteArray& out, const protocol::HttpResponse& response, bool keepAlive);

// A plain-text 503 with `Connection: close` for a client the server cannot keep (as many
// connections open as it may, none of them idle): written before a byte of its request is read, so
// there is no protocol to answer in.
QByteArray tooManyConnections();

// "HTTP/1.1 100 Continue" for a client that waits for it before sending its body.
QByteArray continueResponse();

} // namespace inflight::server
