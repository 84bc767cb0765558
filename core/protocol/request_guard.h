#pragma once

#include "engine/error.h"
#include "protocol/http_types.h"

#include <QString>
#include <QStringList>

#include <chrono>
#include <functional>
#include <memory>

namespace inflight::protocol {

class CredentialStore;

// Who may use the endpoint. It listens on the user's own machine, so every web page the user's
// browser shows can reach it: without these rules a page could create, purge and delete queues
// with a form or an <img>, and read answers by DNS rebinding.
struct AccessPolicy {
    // Origins (`scheme://host[:port]`, as browsers send them) whose pages may call the endpoint,
    // e.g. a web app under development; "*" allows every page. Their requests get CORS headers.
    QStringList allowedOrigins;
    // Names that `Host` may carry besides loopback addresses, `localhost` and the endpoint's own
    // hosts (below); "*" any. For a proxy, a tunnel or a container name.
    QStringList allowedHosts;
    // Set by the server: the names it is reached by (its listen address; for a wildcard address
    // the machine's name), and whether any IP literal is its own (listening on a wildcard).
    QStringList ownHosts;
    bool anyAddressIsOwn = false;
    // When set, every SQS request must be signed (AWS Signature Version 4) by one of these keys.
    std::shared_ptr<const CredentialStore> credentials;
};

// What the guard decides of a request: Done when it goes on to the codecs (or the control API),
// else the guard's own answer to it, to send as it is: a refusal, or the answer to an allowed
// origin's preflight.
using Admission = engine::Result<engine::Done, HttpResponse>;

// The checks every request passes before the codecs see it (Endpoint::handle runs it first):
// 1. `Host` names the endpoint (loopback, `localhost`, its own or an allowed host): refuses DNS
//    rebinding, where a foreign name resolves to 127.0.0.1 and the page may read the answers.
// 2. A request with an `Origin` (browsers send it with every POST and every fetch) comes from an
//    allowed origin or the endpoint's own; a `Sec-Fetch-Site` of `cross-site` or `same-site`
//    (another port of localhost is the same site) is refused likewise, which covers the GETs of
//    <img>, <script> and links that carry no Origin.
// 3. Query requests a page could send without a CORS preflight are refused: a POST whose body is
//    `text/plain` or `multipart/form-data` (no SDK sends those), and a GET from a browser
//    (a `Mozilla/` user agent or Sec-Fetch headers) for an action that changes anything; OCI
//    GetMessages from a browser likewise (it receives).
// 4. With credentials, SQS requests must carry a valid SigV4 signature (sigv4.h); OCI REST is not
//    signed this way and is not checked.
// An allowed origin's preflight (OPTIONS with Access-Control-Request-Method) is answered here.
// Refusals are 403 `AccessDenied` in SQS, 401 `NotAuthenticated` in OCI (protocol::forbidden), with
// a message that names the option that would allow the request.
class RequestGuard {
public:
    using WallClock = std::function<std::chrono::system_clock::time_point()>;

    // `now` is the wall clock that signatures' times are checked against (the engine's clock may
    // run at another speed; a client signs with the real time).
    explicit RequestGuard(AccessPolicy policy = {}, WallClock now = {});

    void setPolicy(AccessPolicy policy) { m_policy = std::move(policy); }
    const AccessPolicy& policy() const { return m_policy; }

    // Done: the request goes on to the codecs. Otherwise its answer: a refusal, or the answer to
    // an allowed origin's preflight.
    Admission check(const HttpRequest& request) const;
    // Adds what an allowed origin's page needs to read `response` (Access-Control-Allow-Origin,
    // the headers it may read). Nothing for other requests.
    void decorate(const HttpRequest& request, HttpResponse& response) const;

private:
    bool isOwnHost(const QString& host) const;
    bool isAllowedOrigin(const QByteArray& origin, const HttpRequest& request) const;

    AccessPolicy m_policy;
    WallClock m_now;
};

// The host of a `Host` header value, without port, brackets or a final dot, in lower case:
// "LocalHost.:9324" → "localhost", "[::1]:9324" → "::1".
QString hostOfHeader(const QByteArray& value);

} // namespace inflight::protocol
