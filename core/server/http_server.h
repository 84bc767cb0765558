#pragma once

#include "protocol/endpoint.h"

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QTcpServer>

#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::server {

class HttpConnection;

// The SQS (JSON and Query) and OCI Queue REST endpoint over HTTP/1.1 with keep-alive. Every
// request goes to protocol::Endpoint against the session's broker, with the client's "ip:port" as
// its origin; long polls are held open through Session::receive() without blocking anything else
// on the event loop, and are cancelled when their client hangs up. Request bodies over
// protocol::kMaxRequestBody are refused before they are read. Lives on the session's thread.
class HttpServer : public QObject {
    Q_OBJECT
public:
    // `session` must outlive the server.
    explicit HttpServer(session::Session& session, QObject* parent = nullptr);
    ~HttpServer() override;

    // Starts listening (port 0 picks a free port; see serverPort()). When already listening, the
    // old socket and every open connection are closed first, so this also moves the endpoint.
    // False on failure, with errorString() saying why. Emits listeningChanged() when the state or
    // address changed.
    bool listen(const QHostAddress& address, quint16 port);
    // Stops listening and drops every connection (open long polls end without an answer).
    // Emits listeningChanged() if it was listening.
    void close();

    bool isListening() const { return m_tcp.isListening(); }
    QHostAddress serverAddress() const { return m_tcp.serverAddress(); }
    quint16 serverPort() const { return m_tcp.serverPort(); }
    // "http://127.0.0.1:9324" while listening (queue URLs start with it); empty otherwise.
    QString baseUrl() const;
    // Why the last listen() failed; empty after a successful one.
    QString errorString() const { return m_error; }
    // Client connections currently open.
    int connectionCount() const { return static_cast<int>(m_connections.size()); }

Q_SIGNALS:
    void listeningChanged();

private:
    void acceptConnections();
    void dropConnections();
    void forget(HttpConnection* connection);

    session::Session& m_session;
    protocol::Endpoint m_endpoint;
    QTcpServer m_tcp;
    QString m_baseUrl;
    QString m_error;
    std::vector<HttpConnection*> m_connections;
};

} // namespace inflight::server
