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

// Unparsed bytes kept while a long poll (or an unwritten answer) holds the connection; beyond
// this we stop reading and the kernel's buffers hold the rest.
constexpr qsizetype kMaxBufferedInput = 256 * 1024;
// Bytes asked of the kernel per recv().
constexpr qsizetype kReceiveChunk = 64 * 1024;
// How long a refused upload may keep sending before we drop it.
constexpr int kDrainMillis = 2000;

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

HttpConnection::HttpConnection(int fd, IoWorker& worker, quint64 id, Clock::time_point now)
    : m_fd(fd), m_worker(worker), m_id(id), m_origin(peerOrigin(fd)), m_lastProgress(now)
{
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    m_parser.setContinueHandler([this] { write(continueResponse()); });
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
    m_drainUntil.reset();
    ::close(m_fd); // also leaves the worker's epoll set
    m_fd = -1;
    m_worker.closed(*this);
}

std::optional<HttpConnection::Clock::time_point> HttpConnection::deadline() const
{
    const ConnectionLimits& limits = m_worker.limits();
    switch (m_state) {
    case State::Reading:
    case State::Closing: {
        const Clock::time_point idle = m_lastProgress + limits.idleTimeout;
        if (m_state == State::Reading && m_parser.inHeaders())
            return std::min(idle, m_requestStarted + limits.headerTimeout);
        return idle;
    }
    case State::Draining: return m_drainUntil;
    case State::Waiting:
    case State::Closed: return std::nullopt;
    }
    return std::nullopt;
}

bool HttpConnection::isEvictable() const
{
    return (m_state == State::Reading && m_outputPos >= m_output.size())
        || m_state == State::Draining;
}

void HttpConnection::onDeadline()
{
    // Idle, too slow, or a refused upload that kept sending. Nothing is answered: a client that
    // went quiet is not reading, and one mid-request gets the closed connection it would get
    // from any server's timeout.
    finish();
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
        m_lastProgress = m_worker.now();
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
            m_lastProgress = m_worker.now();
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
        const bool wasInRequest = m_parser.inRequest();
        const HttpRequestParser::Step step
            = m_parser.parse(m_input.constData() + m_inputPos,
                             static_cast<std::size_t>(m_input.size() - m_inputPos));
        m_inputPos += static_cast<qsizetype>(step.consumed);
        if (!wasInRequest && m_parser.inRequest())
            m_requestStarted = m_worker.now();
        switch (step.status) {
        case HttpRequestParser::Status::NeedMore: break;
        case HttpRequestParser::Status::Request: dispatch(); break;
        case HttpRequestParser::Status::TooLarge: refuseTooLarge(); break;
        case HttpRequestParser::Status::Malformed: refuseMalformed(); break;
        }
    }
}

// ---- answering --------------------------------------------------------------------------------

void HttpConnection::dispatch()
{
    protocol::HttpRequest request = m_parser.takeRequest();
    request.origin = m_origin;
    m_state = State::Waiting;
    m_waitingKeepAlive = m_parser.keepAlive();
    m_waitingHead = request.method == "HEAD";
    m_worker.submit(m_id, std::move(request));
}

void HttpConnection::respond(const protocol::HttpResponse& response)
{
    if (m_state != State::Waiting)
        return;
    m_state = State::Reading;
    m_lastProgress = m_worker.now(); // the idle time starts with the answer
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
    if (!m_waitingHead) // a HEAD answer has the headers of the GET, not its body (RFC 9110 §9.3.2)
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
    m_waitingHead = false;
    write(serializeResponse(protocol::requestTooLarge(m_parser.partialRequest()), false));
    m_parser.reset();
    m_input.truncate(0);
    m_inputPos = 0;
    if (m_state != State::Draining)
        return; // the write failed
    if (m_outputPos >= m_output.size())
        ::shutdown(m_fd, SHUT_WR);
    m_drainUntil = m_worker.now() + std::chrono::milliseconds(kDrainMillis);
    updateInterest();
}

void HttpConnection::refuseMalformed()
{
    // Bytes that are not HTTP (or break its rules): answered in the protocol the request showed so
    // far, then the connection closes, since where a next request would start is unknown.
    m_waitingHead = false;
    const protocol::HttpResponse answer = protocol::malformedRequest(
        m_parser.partialRequest(), QString::fromUtf8(m_parser.errorReason()));
    m_parser.reset();
    m_input.truncate(0);
    m_inputPos = 0;
    send(answer, false);
}

} // namespace inflight::server
