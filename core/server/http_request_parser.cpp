#include "server/http_request_parser.h"

#include <cstring>
#include <utility>

namespace inflight::server {

namespace {

HttpRequestParser* self(llhttp_t* parser)
{
    return static_cast<HttpRequestParser*>(parser->data);
}

// "http://host:9324/path?x" → "/path?x"; "http://host" → "/". An origin-form target is kept.
QByteArray originForm(QByteArray target)
{
    const qsizetype scheme = target.indexOf("://");
    if (target.startsWith('/') || scheme <= 0)
        return target;
    const qsizetype path = target.indexOf('/', scheme + 3);
    const qsizetype query = target.indexOf('?', scheme + 3);
    if (path < 0 || (query >= 0 && query < path))
        return query < 0 ? QByteArrayLiteral("/") : '/' + target.mid(query);
    return target.mid(path);
}

} // namespace

const llhttp_settings_t& HttpRequestParser::settings()
{
    static const llhttp_settings_t instance = [] {
        llhttp_settings_t s;
        llhttp_settings_init(&s);
        s.on_message_begin = [](llhttp_t* p) { return self(p)->onMessageBegin(); };
        s.on_url = [](llhttp_t* p, const char* at, size_t n) { return self(p)->onUrl(at, n); };
        s.on_header_field
            = [](llhttp_t* p, const char* at, size_t n) { return self(p)->onHeaderField(at, n); };
        s.on_header_value
            = [](llhttp_t* p, const char* at, size_t n) { return self(p)->onHeaderValue(at, n); };
        s.on_header_value_complete = [](llhttp_t* p) { return self(p)->onHeaderValueComplete(); };
        s.on_headers_complete = [](llhttp_t* p) { return self(p)->onHeadersComplete(); };
        s.on_body = [](llhttp_t* p, const char* at, size_t n) { return self(p)->onBody(at, n); };
        s.on_message_complete = [](llhttp_t* p) { return self(p)->onMessageComplete(); };
        return s;
    }();
    return instance;
}

HttpRequestParser::HttpRequestParser()
{
    reset();
}

void HttpRequestParser::reset()
{
    llhttp_init(&m_parser, HTTP_REQUEST, &settings());
    m_parser.data = this;
    m_request = protocol::HttpRequest{};
    m_url.clear();
    m_field.clear();
    m_value.clear();
    m_reason.clear();
    m_headerBytes = 0;
    m_keepAlive = true;
    m_tooLarge = false;
    m_messageReady = false;
    m_inRequest = false;
    m_inHeaders = false;
}

HttpRequestParser::Step HttpRequestParser::parse(const char* data, std::size_t length)
{
    if (length == 0)
        return {Status::NeedMore, 0};
    const llhttp_errno_t error = llhttp_execute(&m_parser, data, length);
    if (error == HPE_OK)
        return {Status::NeedMore, length};
    if (error == HPE_PAUSED && m_messageReady) {
        // Paused right after a complete message: what follows is the next request.
        const auto consumed = static_cast<std::size_t>(llhttp_get_error_pos(&m_parser) - data);
        llhttp_resume(&m_parser);
        return {Status::Request, consumed};
    }
    if (m_tooLarge)
        return {Status::TooLarge, length};
    if (m_reason.isEmpty())
        m_reason = QByteArray(llhttp_get_error_reason(&m_parser));
    return {Status::Malformed, length};
}

protocol::HttpRequest HttpRequestParser::takeRequest()
{
    m_messageReady = false;
    return std::exchange(m_request, {});
}

// Method and target into m_request, from what llhttp has read of the request line.
void HttpRequestParser::takeTarget()
{
    if (m_url.isNull())
        return; // the request line broke before its target, or was taken already
    // llhttp's method names are static strings: no copy.
    const char* method = llhttp_method_name(static_cast<llhttp_method_t>(m_parser.method));
    m_request.method = QByteArray::fromRawData(method, qsizetype(std::strlen(method)));
    const QByteArray target = originForm(std::exchange(m_url, {}));
    const qsizetype question = target.indexOf('?');
    if (question < 0) {
        m_request.path = target;
    } else {
        m_request.path = target.left(question);
        m_request.query = target.mid(question + 1);
    }
}

int HttpRequestParser::fail(const char* reason)
{
    // What was read so far decides the protocol of the answer (a headers-too-large OCI request is
    // answered in OCI's terms).
    takeTarget();
    m_reason = QByteArray(reason);
    llhttp_set_error_reason(&m_parser, reason);
    return HPE_USER;
}

int HttpRequestParser::onMessageBegin()
{
    m_request = protocol::HttpRequest{};
    m_request.headers.reserve(16); // SDKs send about ten; one allocation for all of them
    m_url.clear();
    m_field.clear();
    m_value.clear();
    m_headerBytes = 0;
    m_tooLarge = false;
    m_messageReady = false;
    m_inRequest = true;
    m_inHeaders = true;
    return HPE_OK;
}

bool HttpRequestParser::addHeaderBytes(size_t length)
{
    m_headerBytes += static_cast<qsizetype>(length);
    return m_headerBytes <= kMaxHeaderBytes;
}

namespace {

// A header's name or value arrives in one piece unless a read split it: the first piece is made
// into the array at once (Qt's append to an empty array takes its general insert path). A piece
// of no bytes (an empty value) leaves the array null, as an append did: an empty Host is no Host.
void appendPiece(QByteArray& to, const char* at, size_t length)
{
    if (length == 0)
        return;
    if (to.isEmpty())
        to = QByteArray(at, static_cast<qsizetype>(length));
    else
        to.append(at, static_cast<qsizetype>(length));
}

} // namespace

int HttpRequestParser::onUrl(const char* at, size_t length)
{
    if (!addHeaderBytes(length))
        return fail("request headers are too large");
    m_url.append(at, static_cast<qsizetype>(length));
    return HPE_OK;
}

int HttpRequestParser::onHeaderField(const char* at, size_t length)
{
    if (!addHeaderBytes(length))
        return fail("request headers are too large");
    appendPiece(m_field, at, length);
    return HPE_OK;
}

int HttpRequestParser::onHeaderValue(const char* at, size_t length)
{
    if (!addHeaderBytes(length))
        return fail("request headers are too large");
    appendPiece(m_value, at, length);
    return HPE_OK;
}

int HttpRequestParser::onHeaderValueComplete()
{
    m_request.headers.append({std::exchange(m_field, {}), std::exchange(m_value, {})});
    return HPE_OK;
}

int HttpRequestParser::onHeadersComplete()
{
    m_inHeaders = false;
    takeTarget();

    // RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host.
    if (m_parser.http_major == 1 && m_parser.http_minor >= 1
        && m_request.header(QByteArrayLiteral("host")).isNull())
        return fail("an HTTP/1.1 request needs a Host header");

    const bool hasLength = (m_parser.flags & F_CONTENT_LENGTH) != 0;
    if (hasLength && m_parser.content_length > static_cast<quint64>(protocol::kMaxRequestBody)) {
        m_tooLarge = true; // refused before a byte of the body is read
        return -1;
    }
    if (hasLength)
        m_request.body.reserve(static_cast<qsizetype>(m_parser.content_length));

    const bool hasBody
        = (hasLength && m_parser.content_length > 0) || (m_parser.flags & F_CHUNKED) != 0;
    if (hasBody && m_onContinue
        && m_request.header(QByteArrayLiteral("expect")).toLower() == "100-continue")
        m_onContinue();
    return HPE_OK;
}

int HttpRequestParser::onBody(const char* at, size_t length)
{
    // Chunked bodies announce no length: count as they come.
    if (m_request.body.size() + static_cast<qsizetype>(length) > protocol::kMaxRequestBody) {
        m_tooLarge = true;
        return HPE_USER;
    }
    m_request.body.append(at, static_cast<qsizetype>(length));
    return HPE_OK;
}

int HttpRequestParser::onMessageComplete()
{
    m_keepAlive = llhttp_should_keep_alive(&m_parser) != 0 && m_parser.upgrade == 0;
    m_messageReady = true;
    m_inRequest = false;
    return HPE_PAUSED; // answer it before parsing what follows
}

} // namespace inflight::server
