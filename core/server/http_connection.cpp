#include "server/http_connection.h"

#include "server/http_wire.h"
#include "server/io_worker.h"

#include <QHostAddress>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace inflight::server {

namespace {

// Request line plus headers. Far above what any SDK sends (a few KiB with SigV4).
constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
// Unparsed bytes kept while a long poll (or an unwritten answer) holds the connection; beyond
// this we stop reading and the kernel's buffers hold the rest.
constexpr qsizetype kMaxBufferedInput = 256 * 1024;
// Bytes asked of the kernel per recv().
constexpr qsizetype kReceiveChunk = 64 * 1024;
// How long a refused upload may keep sending before we drop it.
constexpr int kDrainMillis = 2000;

HttpConnection* self(llhttp_t* parser)
{
    return static_cast<HttpConnection*>(parser->data);
}

QString peerOrigin(int fd)
{
    sockaddr_storage storage{};
    socklen_t length = sizeof storage;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0)
        return QStringLiteral("unknown");
    QHostAddress address(reinterpret_cast<const sockaddr*>(&storage));
    quint16 port = 0;
    if (storage.ss_family == AF_INET)
        port = ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
    else if (storage.ss_family == AF_INET6)
        port = ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also unwraps ::ffff:a.b.c.d
    if (isV4)
        address = QHostAddress(v4);
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
        : address.toString();
    return host + QLatin1Char(':') + QString::number(port);
}

} // namespace

const llhttp_settings_t& HttpConnection::settings()
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

HttpConnection::HttpConnection(int fd, IoWorker& worker, quint64 id)
    : m_fd(fd), m_worker(worker), m_id(id), m_origin(peerOrigin(fd))
{
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    llhttp_init(&m_parser, HTTP_REQUEST, &settings());
    m_parser.data = this;
}

HttpConnection::~HttpConnection()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void HttpConnection::abort()
{
    finish();
}

void HttpConnection::finish()
{
    if (m_state == State::Closed)
        return;
    // The client is gone: a long poll of its must not take a message it can never receive.
    if (m_state == State::Waiting)
        m_worker.cancel(m_id);
    m_state = State::Closed;
    m_deadline.reset();
    ::close(m_fd); // also leaves the worker's epoll set
    m_fd = -1;
    m_worker.closed(*this);
}

void HttpConnection::onDeadline()
{
    finish(); // a refused upload that kept sending
}

// ---- socket events ------------------------------------------------------------------------------

void HttpConnection::onReadable()
{
    if (m_state == State::Closed)
        return;
    if (!receive())
        return; // closed on an error
    if (m_state == State::Reading)
        parseInput();
    if (m_peerClosed) {
        // Nothing more will come. A long poll or a refused upload ends here; answered requests
        // close once their answers are written.
        if (m_state == State::Waiting || m_state == State::Draining
            || m_outputPos >= m_output.size()) {
            finish();
            return;
        }
        m_state = State::Closing;
    }
    updateInterest();
}

void HttpConnection::onWritable()
{
    if (m_state == State::Closed)
        return;
    while (m_outputPos < m_output.size()) {
        const ssize_t n = ::send(m_fd, m_output.constData() + m_outputPos,
                                 static_cast<size_t>(m_output.size() - m_outputPos), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return; // still full; we are called again
        if (n < 0) {
            finish();
            return;
        }
        m_outputPos += n;
    }
    m_output.truncate(0);
    m_outputPos = 0;
    if (m_state == State::Closing) {
        finish();
        return;
    }
    if (m_state == State::Draining)
        ::shutdown(m_fd, SHUT_WR);
    if (m_state == State::Reading)
        parseInput(); // requests held back while the answer was pending
    updateInterest();
}

// Reads what the kernel has. False if the connection failed (and is closed now).
bool HttpConnection::receive()
{
    if (m_inputPos > 0 && m_inputPos == m_input.size()) {
        m_input.truncate(0); // keeps the capacity
        m_inputPos = 0;
    }
    for (;;) {
        if (m_state != State::Draining && m_input.size() - m_inputPos >= kMaxBufferedInput)
            return true; // enough held back; updateInterest() stops reading
        const qsizetype used = m_input.size();
        m_input.resize(used + kReceiveChunk);
        const ssize_t n = ::recv(m_fd, m_input.data() + used, kReceiveChunk, 0);
        m_input.resize(used + qMax<ssize_t>(n, 0));
        if (n > 0) {
            if (m_state == State::Draining) // refused: discard, never keep
                m_input.truncate(0);
            if (n < kReceiveChunk)
                return true;
            continue;
        }
        if (n == 0) {
            m_peerClosed = true;
            return true;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return true;
        finish(); // ECONNRESET and the like
        return false;
    }
}

void HttpConnection::updateInterest()
{
    if (m_state == State::Closed)
        return;
    const bool wantsWrite = m_outputPos < m_output.size();
    const bool wantsRead = !m_peerClosed && m_state != State::Closing
        && (m_state == State::Draining || m_input.size() - m_inputPos < kMaxBufferedInput);
    if (wantsRead == m_wantsRead && wantsWrite == m_wantsWrite)
        return;
    m_wantsRead = wantsRead;
    m_wantsWrite = wantsWrite;
    m_worker.watch(*this, wantsRead, wantsWrite);
}

// ---- parsing ----------------------------------------------------------------------------------

void HttpConnection::parseInput()
{
    // One request at a time: stop at a long poll, and while an answer still waits for the kernel.
    while (m_state == State::Reading && m_inputPos < m_input.size()
           && m_outputPos >= m_output.size()) {
        const char* data = m_input.constData() + m_inputPos;
        const auto length = static_cast<size_t>(m_input.size() - m_inputPos);
        const llhttp_errno_t error = llhttp_execute(&m_parser, data, length);
        if (error == HPE_OK) {
            m_inputPos = m_input.size();
        } else if (error == HPE_PAUSED && m_messageReady) {
            // Paused right after a complete message: what follows is the next request.
            m_inputPos += llhttp_get_error_pos(&m_parser) - data;
            llhttp_resume(&m_parser);
            dispatch();
        } else if (m_tooLarge) {
            refuseTooLarge();
        } else {
            send(malformedRequest(QByteArray(llhttp_get_error_reason(&m_parser))), false);
        }
    }
}

int HttpConnection::onMessageBegin()
{
    m_request = protocol::HttpRequest{};
    m_request.headers.reserve(16); // SDKs send about ten; one allocation for all of them
    m_url.clear();
    m_field.clear();
    m_value.clear();
    m_headerBytes = 0;
    m_tooLarge = false;
    m_messageReady = false;
    return HPE_OK;
}

bool HttpConnection::addHeaderBytes(size_t length)
{
    m_headerBytes += static_cast<qsizetype>(length);
    if (m_headerBytes <= kMaxHeaderBytes)
        return true;
    llhttp_set_error_reason(&m_parser, "request headers are too large");
    return false;
}

int HttpConnection::onUrl(const char* at, size_t length)
{
    if (!addHeaderBytes(length))
        return HPE_USER;
    m_url.append(at, static_cast<qsizetype>(length));
    return HPE_OK;
}

int HttpConnection::onHeaderField(const char* at, size_t length)
{
    if (!addHeaderBytes(length))
        return HPE_USER;
    m_field.append(at, static_cast<qsizetype>(length));
    return HPE_OK;
}

int HttpConnection::onHeaderValue(const char* at, size_t length)
{
    if (!addHeaderBytes(length))
        return HPE_USER;
    m_value.append(at, static_cast<qsizetype>(length));
    return HPE_OK;
}

int HttpConnection::onHeaderValueComplete()
{
    m_request.headers.append({std::exchange(m_field, {}), std::exchange(m_value, {})});
    return HPE_OK;
}

int HttpConnection::onHeadersComplete()
{
    // llhttp's method names are static strings: no copy.
    const char* method = llhttp_method_name(static_cast<llhttp_method_t>(m_parser.method));
    m_request.method = QByteArray::fromRawData(method, qsizetype(std::strlen(method)));
    const qsizetype question = m_url.indexOf('?');
    if (question < 0) {
        m_request.path = std::move(m_url);
    } else {
        m_request.path = m_url.left(question);
        m_request.query = m_url.mid(question + 1);
    }
    m_url.clear();
    m_request.origin = m_origin;

    const bool hasLength = (m_parser.flags & F_CONTENT_LENGTH) != 0;
    if (hasLength && m_parser.content_length > static_cast<quint64>(protocol::kMaxRequestBody)) {
        m_tooLarge = true; // refused before a byte of the body is read
        return -1;
    }
    if (hasLength)
        m_request.body.reserve(static_cast<qsizetype>(m_parser.content_length));

    const bool hasBody
        = (hasLength && m_parser.content_length > 0) || (m_parser.flags & F_CHUNKED) != 0;
    if (hasBody && m_request.header(QByteArrayLiteral("expect")).toLower() == "100-continue")
        write(continueResponse());
    return HPE_OK;
}

int HttpConnection::onBody(const char* at, size_t length)
{
    // Chunked bodies announce no length: count as they come.
    if (m_request.body.size() + static_cast<qsizetype>(length) > protocol::kMaxRequestBody) {
        m_tooLarge = true;
        return HPE_USER;
    }
    m_request.body.append(at, static_cast<qsizetype>(length));
    return HPE_OK;
}

int HttpConnection::onMessageComplete()
{
    m_keepAlive = llhttp_should_keep_alive(&m_parser) != 0 && m_parser.upgrade == 0;
    m_messageReady = true;
    return HPE_PAUSED; // answer it before parsing what follows
}

// ---- answering --------------------------------------------------------------------------------

void HttpConnection::dispatch()
{
    m_messageReady = false;
    m_state = State::Waiting;
    m_waitingKeepAlive = m_keepAlive;
    m_worker.submit(m_id, std::exchange(m_request, {}));
}

void HttpConnection::respond(const protocol::HttpResponse& response)
{
    if (m_state != State::Waiting)
        return;
    m_state = State::Reading;
    send(response, m_waitingKeepAlive);
    // Requests that arrived meanwhile (pipelined) are next.
    parseInput();
    if (m_state == State::Reading && m_peerClosed && m_outputPos >= m_output.size()) {
        finish();
        return;
    }
    updateInterest();
}

void HttpConnection::send(const protocol::HttpResponse& response, bool keepAlive)
{
    if (m_state == State::Closed)
        return;
    if (!keepAlive)
        m_state = State::Closing;
    // Head and body in one buffer that keeps its capacity: one contiguous send. (Head and body as
    // two parts of one sendmsg() measured a quarter slower on loopback.)
    m_head.truncate(0);
    appendResponseHead(m_head, response, keepAlive);
    m_head.append(response.body);
    write(m_head);
    if (m_state == State::Closing && m_outputPos >= m_output.size())
        finish();
}

void HttpConnection::write(const QByteArray& bytes)
{
    if (m_state == State::Closed)
        return;
    if (m_outputPos < m_output.size()) { // behind earlier bytes
        m_output.append(bytes);
        return;
    }
    qsizetype sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(m_fd, bytes.constData() + sent,
                                 static_cast<size_t>(bytes.size() - sent), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n < 0) {
            finish(); // the client is gone (EPIPE, ECONNRESET); we are deleted after this turn
            return;
        }
        sent += n;
    }
    if (sent < bytes.size()) {
        m_output = bytes.mid(sent);
        m_outputPos = 0;
        updateInterest();
    }
}

void HttpConnection::refuseTooLarge()
{
    // Answer, end our side, then discard (not keep) what still arrives until the client closes or
    // the drain time is up: closing with unread input would make the kernel send RST, and a client
    // still uploading could lose our answer.
    m_state = State::Draining;
    write(serializeResponse(protocol::requestTooLarge(m_request), false));
    m_request = protocol::HttpRequest{};
    m_request.headers.reserve(16); // SDKs send about ten; one allocation for all of them
    m_input.truncate(0);
    m_inputPos = 0;
    if (m_state != State::Draining)
        return; // the write failed
    if (m_outputPos >= m_output.size())
        ::shutdown(m_fd, SHUT_WR);
    m_deadline = Clock::now() + std::chrono::milliseconds(kDrainMillis);
    updateInterest();
}

} // namespace inflight::server
