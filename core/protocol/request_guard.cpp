#include "protocol/request_guard.h"

#include "protocol/credentials.h"
#include "protocol/error_mapping.h"
#include "protocol/oci_rest.h"
#include "protocol/sigv4.h"
#include "protocol/sqs_codec.h"
#include "text/ascii_case.h"

#include <algorithm>
#include <array>
#include <cstring>

#include <arpa/inet.h>

namespace inflight::protocol {

namespace {

// Client text quoted in a refusal is cut here: an answer never grows with what a client sends.
constexpr qsizetype kQuotedMax = 200;

QString quoted(const QByteArray& text)
{
    QString value = QString::fromUtf8(text.left(kQuotedMax));
    if (text.size() > kQuotedMax)
        value += QStringLiteral("…");
    return value;
}

bool contains(const QStringList& list, const QString& value)
{
    return std::any_of(list.begin(), list.end(), [&](const QString& item) {
        return item == QStringLiteral("*") || item.compare(value, Qt::CaseInsensitive) == 0;
    });
}

// Query actions that change nothing: a browser may GET these (a user typing a URL to look).
bool isReadOnlyAction(const QByteArray& action)
{
    static constexpr std::array<const char*, 6> kReadOnly = {"ListQueues",
                                                             "GetQueueUrl",
                                                             "GetQueueAttributes",
                                                             "ListQueueTags",
                                                             "ListDeadLetterSourceQueues",
                                                             "ListMessageMoveTasks"};
    return std::any_of(kReadOnly.begin(), kReadOnly.end(),
                       [&](const char* name) { return action == name; });
}

// The `Action` of a Query GET, percent-decoded ('+' is a space in forms). Empty if none.
QByteArray queryAction(const QByteArray& query)
{
    for (const QByteArray& pair : query.split('&')) {
        if (!pair.startsWith("Action="))
            continue;
        QByteArray value = pair.mid(7);
        value.replace('+', ' ');
        return QByteArray::fromPercentEncoding(value);
    }
    return {};
}

// The headers the checks read, found in one pass over the request's (every request pays for
// this, so no lookup by name per rule). Null where absent.
struct GuardedHeaders {
    const QByteArray* host = nullptr;
    const QByteArray* origin = nullptr;
    const QByteArray* fetchSite = nullptr;
    const QByteArray* userAgent = nullptr;
    const QByteArray* contentType = nullptr;
    const QByteArray* target = nullptr; // X-Amz-Target
    const QByteArray* preflightMethod = nullptr;

    explicit GuardedHeaders(const HttpRequest& request)
    {
        for (const auto& [name, value] : request.headers) {
            if (const QByteArray** slot = slotFor(name); slot && !*slot)
                *slot = &value; // the first of a name counts, as HttpRequest::header() has it
        }
    }

    // What only browsers send: every browser's User-Agent starts with "Mozilla/", and current
    // ones add Sec-Fetch-Site to every request. No AWS SDK, CLI or curl sends either.
    // Sec-Fetch-Mode alone is not a browser's mark: Node's fetch (undici), Deno's and Bun's send
    // `sec-fetch-mode: cors` on every request, with no Sec-Fetch-Site and their own User-Agent,
    // and a browser never sends it without Sec-Fetch-Site.
    bool fromBrowser() const
    {
        return (userAgent && userAgent->startsWith("Mozilla/")) || fetchSite;
    }

private:
    const QByteArray** slotFor(const QByteArray& name)
    {
        const auto is = [&](const char* expected) {
            return text::equalsIgnoringAsciiCase(viewOf(name), expected);
        };
        switch (name.size()) {
        case 4: return is("host") ? &host : nullptr;
        case 6: return is("origin") ? &origin : nullptr;
        case 10: return is("user-agent") ? &userAgent : nullptr;
        case 12:
            return is("content-type") ? &contentType : (is("x-amz-target") ? &target : nullptr);
        case 14: return is("sec-fetch-site") ? &fetchSite : nullptr;
        case 29: return is("access-control-request-method") ? &preflightMethod : nullptr;
        default: return nullptr;
        }
    }
};

// The media type is the SDKs' form type (the Query protocol's every request): nothing to check.
bool isFormType(const QByteArray* contentType)
{
    return contentType
        && text::startsWithIgnoringAsciiCase(viewOf(*contentType),
                                             "application/x-www-form-urlencoded");
}

// The protocol as wireProtocol() decides it, from the headers already found.
WireProtocol protocolOf(const HttpRequest& request, const GuardedHeaders& headers)
{
    if (isControlPath(request.path))
        return WireProtocol::Control;
    if (oci::isOciPath(request.path))
        return WireProtocol::OciRest;
    if (headers.target && !headers.target->isEmpty())
        return WireProtocol::SqsJson;
    if (!headers.contentType || isFormType(headers.contentType))
        return WireProtocol::SqsQuery;
    return text::startsWithIgnoringAsciiCase(viewOf(headers.contentType->trimmed()),
                                             "application/x-amz-json")
        ? WireProtocol::SqsJson
        : WireProtocol::SqsQuery;
}

// The usual Host of a local client, answered without allocating: 127.0.0.1 or localhost, with or
// without a port.
bool isPlainLoopbackHost(const QByteArray& value)
{
    const qsizetype colon = value.indexOf(':');
    const QByteArrayView host = QByteArrayView(value).first(colon < 0 ? value.size() : colon);
    return host == QByteArrayView("127.0.0.1") || host == QByteArrayView("localhost");
}

// Media type without parameters, lower case: "Text/Plain; charset=utf-8" → "text/plain".
QByteArray mediaType(const QByteArray& contentType)
{
    const qsizetype semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.left(semicolon)).trimmed().toLower();
}

enum class IpLiteral { None, Loopback, Other };

// Whether `host` is an IPv4 or IPv6 address, and a loopback one (127/8, ::1, ::ffff:127/104).
IpLiteral ipLiteral(const QString& host)
{
    const QByteArray text = host.toLatin1();
    in_addr v4{};
    if (::inet_pton(AF_INET, text.constData(), &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127 ? IpLiteral::Loopback : IpLiteral::Other;
    in6_addr v6{};
    if (::inet_pton(AF_INET6, text.constData(), &v6) != 1)
        return IpLiteral::None;
    static const unsigned char kLoopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    static const unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(v6.s6_addr, kLoopback, 16) == 0
        || (std::memcmp(v6.s6_addr, kMapped, 12) == 0 && v6.s6_addr[12] == 127))
        return IpLiteral::Loopback;
    return IpLiteral::Other;
}

bool isOciGetMessages(const HttpRequest& request)
{
    return request.method == "GET" && request.path.endsWith("/messages");
}

} // namespace

QString hostOfHeader(const QByteArray& value)
{
    QByteArray host = value.trimmed();
    if (host.startsWith('[')) {
        const qsizetype end = host.indexOf(']');
        host = end < 0 ? host.mid(1) : host.mid(1, end - 1);
    } else if (host.count(':') == 1) {
        host.truncate(host.indexOf(':'));
    }
    while (host.endsWith('.'))
        host.chop(1);
    return QString::fromUtf8(host).toLower();
}

RequestGuard::RequestGuard(AccessPolicy policy, WallClock now)
    : m_policy(std::move(policy)), m_now(std::move(now))
{
    if (!m_now)
        m_now = [] { return std::chrono::system_clock::now(); };
}

bool RequestGuard::isOwnHost(const QString& host) const
{
    if (host == QStringLiteral("localhost") || host.endsWith(QStringLiteral(".localhost")))
        return true; // RFC 6761: always loopback; browsers resolve it themselves
    switch (ipLiteral(host)) {
    case IpLiteral::Loopback: return true;
    case IpLiteral::Other:
        if (m_policy.anyAddressIsOwn)
            return true; // listening on every address: any of the machine's is ours
        break;
    case IpLiteral::None: break;
    }
    return contains(m_policy.ownHosts, host) || contains(m_policy.allowedHosts, host);
}

bool RequestGuard::isAllowedOrigin(const QByteArray& origin, const HttpRequest& request) const
{
    const QString text = QString::fromUtf8(origin).trimmed();
    if (contains(m_policy.allowedOrigins, text))
        return true;
    // Our own origin (a page the endpoint served itself: it serves none, but a browser sends its
    // own origin on same-origin POSTs too).
    const QByteArray host = request.header(QByteArrayLiteral("host"));
    return !host.isEmpty()
        && text.compare(QStringLiteral("http://") + QString::fromUtf8(host), Qt::CaseInsensitive)
        == 0;
}

Admission RequestGuard::check(const HttpRequest& request) const
{
    const GuardedHeaders headers(request);
    // 1. DNS rebinding: the name the browser thinks it talks to.
    if (headers.host && !isPlainLoopbackHost(*headers.host)) {
        const QString host = hostOfHeader(*headers.host);
        if (!isOwnHost(host))
            return forbidden(request,
                             QStringLiteral("The Host header names %1, which is not this "
                                            "endpoint's address: refused, so that a web page "
                                            "cannot reach it by DNS rebinding. Start Inflight "
                                            "with --allow-host %1 to allow it.")
                                 .arg(quoted(host.toUtf8())));
    }

    // 2. Web pages: by Origin, or by what the browser says of the request's site.
    const QByteArray origin = headers.origin ? *headers.origin : QByteArray();
    const bool allowedOrigin = headers.origin && isAllowedOrigin(origin, request);
    if (headers.origin && !allowedOrigin)
        return forbidden(request,
                         QStringLiteral("Requests from the web page at %1 are refused: "
                                        "pages in a browser may not use this endpoint. "
                                        "Start Inflight with --allow-origin %1 to allow "
                                        "it.")
                             .arg(quoted(origin)));
    const QByteArray site = headers.fetchSite ? headers.fetchSite->toLower() : QByteArray();
    if (!allowedOrigin && (site == "cross-site" || site == "same-site"))
        return forbidden(request,
                         QStringLiteral("Requests a web page makes (Sec-Fetch-Site: %1) "
                                        "are refused: pages in a browser may not use "
                                        "this endpoint.")
                             .arg(quoted(site)));
    if (allowedOrigin && request.method == "OPTIONS" && headers.preflightMethod) {
        HttpResponse preflight;
        preflight.status = 204;
        preflight.headers = {
            {QByteArrayLiteral("Access-Control-Allow-Origin"), origin},
            {QByteArrayLiteral("Access-Control-Allow-Methods"),
             QByteArrayLiteral("GET, POST, PUT, DELETE, OPTIONS")},
            {QByteArrayLiteral("Access-Control-Allow-Headers"),
             request.header(QByteArrayLiteral("access-control-request-headers")).left(4096)},
            {QByteArrayLiteral("Access-Control-Max-Age"), QByteArrayLiteral("600")},
            {QByteArrayLiteral("Vary"), QByteArrayLiteral("Origin")},
        };
        return preflight;
    }

    // 3. What a page can send without a preflight, when no allowed origin vouches for it.
    const WireProtocol protocol = protocolOf(request, headers);
    if (!allowedOrigin && protocol == WireProtocol::SqsQuery && request.method == "POST"
        && headers.contentType && !isFormType(headers.contentType)) {
        const QByteArray type = mediaType(*headers.contentType);
        if (type == "text/plain" || type == "multipart/form-data")
            return forbidden(request,
                             QStringLiteral("A Query request must be a form "
                                            "(application/x-www-form-urlencoded), not %1: the "
                                            "other types a web page can send are refused.")
                                 .arg(quoted(type)));
    }
    if (!allowedOrigin && headers.fromBrowser()) {
        if (protocol == WireProtocol::SqsQuery && request.method == "GET") {
            const QByteArray action = queryAction(request.query);
            if (!action.isEmpty() && !isReadOnlyAction(action))
                return forbidden(request,
                                 QStringLiteral("%1 from a browser is refused: a GET from a web "
                                                "page must not change queues. SDKs send it as a "
                                                "POST.")
                                     .arg(quoted(action)));
        }
        if (protocol == WireProtocol::OciRest && isOciGetMessages(request))
            return forbidden(request,
                             QStringLiteral("GetMessages from a browser is refused: it "
                                            "receives messages, and a GET from a web "
                                            "page must not change queues."));
    }

    // 4. Signatures, when the user named keys.
    // (The control API has its own protection: loopback peers, or its bearer token.)
    if (m_policy.credentials
        && (protocol == WireProtocol::SqsJson || protocol == WireProtocol::SqsQuery)) {
        if (const WireStatus signature = checkSignature(request, *m_policy.credentials, m_now());
            !signature)
            return SqsResponder(protocol == WireProtocol::SqsJson ? SqsProtocol::Json
                                                                  : SqsProtocol::Query,
                                QString())
                .error(signature.error());
    }
    return engine::Done{};
}

void RequestGuard::decorate(const HttpRequest& request, HttpResponse& response) const
{
    if (m_policy.allowedOrigins.isEmpty())
        return; // the common case costs one test
    const QByteArray origin = request.header(QByteArrayLiteral("origin"));
    if (origin.isNull() || !isAllowedOrigin(origin, request))
        return;
    response.headers.append({QByteArrayLiteral("Access-Control-Allow-Origin"), origin});
    response.headers.append({QByteArrayLiteral("Access-Control-Expose-Headers"),
                             QByteArrayLiteral("x-amzn-RequestId, x-amzn-query-error, "
                                               "opc-request-id, opc-next-page")});
    response.headers.append({QByteArrayLiteral("Vary"), QByteArrayLiteral("Origin")});
}

} // namespace inflight::protocol
