#pragma once

#include "engine/broker.h"
#include "protocol/http_types.h"
#include "protocol/request_guard.h"
#include "protocol/request_summary.h"

#include <QString>

#include <functional>
#include <variant>

namespace inflight::protocol {

// A receive that found nothing yet and may wait (SQS long poll, OCI GetMessages with a timeout):
// the server runs `request` through the session's waiting receive and answers with
// respond(result), which formats it in the protocol of the original request.
struct DeferredReceive {
    engine::ReceiveRequest request;
    std::function<HttpResponse(const engine::Result<engine::ReceiveResult>&)> respond;
};

using Outcome = std::variant<HttpResponse, DeferredReceive>;

struct EndpointOptions {
    // Prefix of every QueueUrl we hand out: baseUrl + "/000000000000/" + name.
    QString baseUrl = QStringLiteral("http://127.0.0.1:9324");
};

// Turns one HTTP request into engine calls and their results into one HTTP response. Decides the
// protocol per request: a path under /20210201/ is OCI Queue REST; otherwise an `X-Amz-Target`
// header or an `application/x-amz-json*` content type means SQS AWS JSON 1.0, anything else SQS
// Query (form POST or GET with `Action=`). Never blocks; holds no state besides the base URL.
class Endpoint {
public:
    Endpoint(engine::Broker& broker, EndpointOptions options = {});

    // Requests go to `broker` from now on (a workspace switched in the running app).
    void setBroker(engine::Broker& broker) { m_broker = &broker; }
    // A trailing '/' is dropped.
    void setBaseUrl(const QString& baseUrl);
    QString baseUrl() const { return m_options.baseUrl; }
    // Who may send requests; every request passes RequestGuard::check() first.
    void setAccessPolicy(AccessPolicy policy) { m_guard.setPolicy(std::move(policy)); }
    const AccessPolicy& accessPolicy() const { return m_guard.policy(); }

    // Every error the engine or the decoding reports becomes an error response of the request's
    // protocol; handle() itself never fails. With `summary`, also fills it with what the traffic
    // log shows (request_summary.h); for a DeferredReceive, its maximum and wait, the server
    // adding what it received (summarizeReceived). Without one, nothing of it is computed.
    Outcome handle(const HttpRequest& request, RequestSummary* summary = nullptr);
    // The end of a DeferredReceive that handle() summarized, for that summary: the messages it got
    // (summarizeReceived) and, when none, why — explained from the engine now, as it is answered.
    void summarizeWaitEnded(const engine::Result<engine::ReceiveResult>& result,
                            RequestSummary& summary);
    // The guard alone, for requests another handler serves (the control API): Done when the
    // request may go on, else its answer.
    Admission checkAccess(const HttpRequest& request) const { return m_guard.check(request); }

private:
    Outcome route(const HttpRequest& request, RequestSummary* summary);

    engine::Broker* m_broker; // never null
    EndpointOptions m_options;
    RequestGuard m_guard;
};

} // namespace inflight::protocol
