#pragma once

#include "protocol/http_types.h"
#include "protocol/request_summary.h"
#include "traffic/client_identity.h"
#include "traffic/traffic_record.h"

#include <cstdint>

namespace inflight::traffic {

// Where the server makes a request's record (HttpServer, with a TrafficLog attached).

// The record of `request` as it arrived: its client, protocol, operation, queue, headers and body
// (cut later by the log), taken from the request, which has been answered or deferred and is not
// read again. `waiting` for a long poll not answered yet.
TrafficRecord arrival(protocol::HttpRequest&& request, const ClientIdentities::Known& client,
                      const QString& address, const protocol::RequestSummary& summary,
                      std::int64_t wallTimeMs, std::int64_t engineTimeMs, bool waiting);
// The same with the client identified here and `request.origin` as its address (one request
// alone: tests, tools).
TrafficRecord arrival(const protocol::HttpRequest& request, const protocol::RequestSummary& summary,
                      std::int64_t wallTimeMs, std::int64_t engineTimeMs, bool waiting);
// Completes `record` with its answer: status, error code and message (read from the answer, in
// whichever protocol it speaks), request id, headers, body, the outcome sentence and the
// summary's explanation.
void answered(TrafficRecord& record, const protocol::HttpResponse& response,
              const protocol::RequestSummary& summary, std::int64_t latencyUs);
// Completes a waiting `record` whose client closed the connection first.
void hungUp(TrafficRecord& record, std::int64_t latencyUs);

// The one-line outcome: "sent 1", "received 4 of max 10", "empty after a 20 s long poll",
// "deleted 3, 1 failed: ReceiptHandleIsInvalid", or for an error "QueueDoesNotExist".
QString outcomeText(const protocol::RequestSummary& summary, int status, const QString& errorCode);

// An error answer's code and message in its own protocol: SQS JSON `__type` (its suffix) and
// `message`, Query `<Code>` and `<Message>`, OCI and control `code` and `message`.
struct WireError {
    QString code;
    QString message;
};
WireError wireError(const protocol::HttpResponse& response);

} // namespace inflight::traffic
