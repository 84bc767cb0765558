#include "server/http_server.h"

#include "server/http_connection.h"
#include "session/session.h"

#include <QHostInfo>
#include <QTcpSocket>

#include <algorithm>

namespace inflight::server {

namespace {

// The host part of queue URLs. A wildcard address is reachable under the machine's name; a
// client elsewhere could not use "0.0.0.0".
QString urlHost(const QHostAddress& address)
{
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4
        || address == QHostAddress::AnyIPv6)
        return QHostInfo::localHostName();
    if (address.protocol() == QAbstractSocket::IPv6Protocol)
        return QLatin1Char('[') + address.toString() + QLatin1Char(']');
    return address.toString();
}

} // namespace

HttpServer::HttpServer(session::Session& session, QObject* parent)
    : QObject(parent), m_session(session), m_endpoint(session.broker())
{
    connect(&m_tcp, &QTcpServer::newConnection, this, &HttpServer::acceptConnections);
}

HttpServer::~HttpServer()
{
    dropConnections();
}

bool HttpServer::listen(const QHostAddress& address, quint16 port)
{
    const bool wasListening = m_tcp.isListening();
    if (wasListening) {
        m_tcp.close();
        dropConnections();
        m_baseUrl.clear();
    }
    if (!m_tcp.listen(address, port)) {
        m_error = m_tcp.errorString();
        if (wasListening)
            Q_EMIT listeningChanged();
        return false;
    }
    m_error.clear();
    m_baseUrl = QStringLiteral("http://%1:%2").arg(urlHost(address)).arg(m_tcp.serverPort());
    m_endpoint.setBaseUrl(m_baseUrl);
    Q_EMIT listeningChanged();
    return true;
}

void HttpServer::close()
{
    const bool wasListening = m_tcp.isListening();
    m_tcp.close();
    dropConnections();
    m_baseUrl.clear();
    if (wasListening)
        Q_EMIT listeningChanged();
}

QString HttpServer::baseUrl() const
{
    return m_baseUrl;
}

void HttpServer::acceptConnections()
{
    while (QTcpSocket* socket = m_tcp.nextPendingConnection()) {
        auto* connection = new HttpConnection(socket, m_endpoint, m_session, this);
        m_connections.push_back(connection);
        connect(connection, &HttpConnection::closed, this,
                [this, connection] { forget(connection); });
    }
}

void HttpServer::forget(HttpConnection* connection)
{
    const auto it = std::find(m_connections.begin(), m_connections.end(), connection);
    if (it == m_connections.end())
        return;
    m_connections.erase(it);
    connection->deleteLater(); // closed() may come from deep inside the connection's own code
}

void HttpServer::dropConnections()
{
    // abort() emits closed(), which calls forget(): work on a copy.
    const std::vector<HttpConnection*> connections = m_connections;
    for (HttpConnection* connection : connections)
        connection->abort();
    // Anything still listed (none expected) goes with the server.
    for (HttpConnection* connection : m_connections)
        delete connection;
    m_connections.clear();
}

} // namespace inflight::server
