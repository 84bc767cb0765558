#include "server/http_connection.h"

#include "server/http_wire.h"
#include "session/session.h"

#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

namespace inflight::server {

namespace {

// Request line plus headers. Far above what any SDK sends (a few KiB with SigV4).
constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
// Bytes Qt may read ahead from the kernel while a long poll holds the connection.
constexpr qint64 kSocketReadBuffer = 256 * 1024;
// How long a refused upload may keep sending before we drop it.
constexpr int kDrainMillis = 2000;

HttpConnection* self(llhttp_t* parser)
{
    return static_cast<HttpConnection*>(parser->data);
}

QString peerOrigin(const QTcpSocket& socket)
{
    QHostAddress address = socket.peerAddress();
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also unwraps ::ffff:a.b.c.d
    if (isV4)
        address = QHostAddress(v4);
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
        : address.toString();
    return host + QLatin1Char(':') + QString::number(socket.peerPort());
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

HttpConnection::HttpConnection(QTcpSocket* socket, protocol::Endpoint& endpoint,
                               session::Session& session, QObject* parent)
    : QObject(parent), m_socket(socket), m_endpoint(endpoint), m_session(session)
{
    m_socket->setParent(this);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_socket->setReadBufferSize(kSocketReadBuffer);
    m_origin = peerOrigin(*m_socket);

    llhttp_init(&m_parser, HTTP_REQUEST, &settings());
    m_parser.data = this;

    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::readAndParse);
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::finish);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        // RemoteHostClosedError is followed by disconnected(); anything else ends the connection.
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            finish();
    });
    // Bytes may have arrived between accept and these connections.
    QMetaObject::invokeMethod(this, &HttpConnection::readAndParse, Qt::QueuedConnection);
}

HttpConnection::~HttpConnection()
{
    delete m_pending.data(); // cancels the engine wait
}

void HttpConnection::abort()
{
    if (m_state == State::Closed)
        return;
    m_socket->abort();
    finish();
}

void HttpConnection::finish()
{
    if (m_state == State::Closed)
        return;
    m_state = State::Closed;
    // The client is gone: its long poll must not take a message it can never receive.
    delete m_pending.data();
    m_respond = nullptr;
    Q_EMIT closed();
}

void HttpConnection::readAndParse()
{
    if (m_state == State::Draining) {
        m_socket->skip(m_socket->bytesAvailable());
        return;
    }
    while (m_state == State::Reading) {
        if (m_inputPos >= m_input.size()) {
            if (m_socket->bytesAvailable() <= 0) {
                m_input.clear();
                m_inputPos = 0;
                return;
            }
            m_input = m_socket->readAll();
            m_inputPos = 0;
        }
        parseBuffered();
    }
}

void HttpConnection::parseBuffered()
{
    const char* data = m_input.constData() + m_inputPos;
    const auto length = static_cast<size_t>(m_input.size() - m_inputPos);
    const llhttp_errno_t error = llhttp_execute(&m_parser, data, length);
    if (error == HPE_OK) {
        m_inputPos = m_input.size();
        return;
    }
    if (error == HPE_PAUSED && m_messageReady) {
        // Paused right after a complete message: the rest is the next request.
        m_inputPos += llhttp_get_error_pos(&m_parser) - data;
        llhttp_resume(&m_parser);
        dispatch();
        return;
    }
    if (m_tooLarge) {
        refuseTooLarge();
        return;
    }
    send(malformedRequest(QByteArray(llhttp_get_error_reason(&m_parser))), false);
}

// ---- llhttp callbacks -------------------------------------------------------------------------

int HttpConnection::onMessageBegin()
{
    m_request = protocol::HttpRequest{};
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
    m_request.method
        = QByteArray(llhttp_method_name(static_cast<llhttp_method_t>(m_parser.method)));
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
    if (hasBody && m_request.header(QByteArrayLiteral("expect")).toLower() == "100-continue") {
        m_socket->write(continueResponse());
        m_socket->flush();
    }
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
    const bool keepAlive = m_keepAlive;
    protocol::Outcome outcome = m_endpoint.handle(m_request);
    m_request = protocol::HttpRequest{};

    if (auto* response = std::get_if<protocol::HttpResponse>(&outcome)) {
        send(*response, keepAlive);
        return;
    }
    auto& deferred = std::get<protocol::DeferredReceive>(outcome);
    m_state = State::Waiting;
    m_respond = std::move(deferred.respond);
    m_respondKeepAlive = keepAlive;
    m_pending = m_session.receive(std::move(deferred.request));
    // finished() is always emitted from the event loop, even for an answer known at once.
    connect(m_pending.data(), &session::PendingReceive::finished, this,
            &HttpConnection::onReceiveFinished);
}

void HttpConnection::onReceiveFinished()
{
    session::PendingReceive* pending = m_pending.data();
    if (m_state != State::Waiting || pending == nullptr)
        return;
    const protocol::HttpResponse response = m_respond(pending->result());
    m_respond = nullptr;
    m_pending.clear();
    pending->deleteLater(); // we are inside its signal
    m_state = State::Reading;
    send(response, m_respondKeepAlive);
    // Requests that arrived meanwhile (pipelined, or buffered by Qt) are next.
    readAndParse();
}

void HttpConnection::send(const protocol::HttpResponse& response, bool keepAlive)
{
    if (m_state == State::Closed)
        return;
    m_socket->write(serializeResponse(response, keepAlive));
    m_socket->flush(); // write now rather than on the next event-loop turn
    if (!keepAlive) {
        m_state = State::Closing;
        m_socket->disconnectFromHost(); // after the answer is written
    }
}

void HttpConnection::refuseTooLarge()
{
    if (m_state == State::Closed)
        return;
    m_socket->write(serializeResponse(protocol::requestTooLarge(m_request), false));
    m_socket->flush();
    // Closing with unread input makes the kernel send RST, and a client still uploading may then
    // lose our answer. Instead: answer, end our side, and discard (not keep) what still arrives
    // until the client closes or the drain time is up.
    m_state = State::Draining;
    m_request = protocol::HttpRequest{};
    const auto shutdownWrite = [socket = QPointer<QTcpSocket>(m_socket)] {
        if (socket && socket->bytesToWrite() == 0 && socket->socketDescriptor() >= 0)
            ::shutdown(static_cast<int>(socket->socketDescriptor()), SHUT_WR);
    };
    if (m_socket->bytesToWrite() == 0)
        shutdownWrite();
    else
        connect(m_socket, &QTcpSocket::bytesWritten, this, shutdownWrite);
    QTimer::singleShot(kDrainMillis, this, &HttpConnection::abort);
    m_socket->skip(m_socket->bytesAvailable());
}

} // namespace inflight::server
