#pragma once

#include "protocol/endpoint.h"
#include "session/pending_receive.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <llhttp.h>

#include <functional>

class QTcpSocket;

namespace inflight::session {
class Session;
}

namespace inflight::server {

// One client connection: parses HTTP/1.1 requests with llhttp and answers them one at a time, in
// order. A long poll (DeferredReceive) parks the connection: it stops reading until the session's
// receive finishes, so pipelined requests behind it wait their turn and their bytes stay in the
// kernel (bounded by the socket's read buffer). A client that hangs up cancels its wait.
// Internal to the server; HttpServer owns every connection.
class HttpConnection : public QObject {
    Q_OBJECT
public:
    // Takes ownership of `socket`. `endpoint` and `session` must outlive the connection.
    HttpConnection(QTcpSocket* socket, protocol::Endpoint& endpoint, session::Session& session,
                   QObject* parent = nullptr);
    ~HttpConnection() override;

    // Drops the connection at once (server shutting down or moving port); a pending long poll is
    // cancelled without an answer. Emits closed().
    void abort();

Q_SIGNALS:
    // The connection is over (either side closed it); the owner may delete it now.
    void closed();

private:
    enum class State {
        Reading,  // parsing requests as bytes arrive
        Waiting,  // a long poll is open; nothing more is read until it is answered
        Draining, // refused an oversized body: discarding input until the client goes
        Closing,  // answered the last request; closing once the answer is written
        Closed,
    };

    void readAndParse();
    void parseBuffered();
    void dispatch();
    void onReceiveFinished();
    void send(const protocol::HttpResponse& response, bool keepAlive);
    void refuseTooLarge();
    void finish();

    // llhttp callbacks, in the order llhttp calls them for one message.
    int onMessageBegin();
    int onUrl(const char* at, size_t length);
    int onHeaderField(const char* at, size_t length);
    int onHeaderValue(const char* at, size_t length);
    int onHeaderValueComplete();
    int onHeadersComplete();
    int onBody(const char* at, size_t length);
    int onMessageComplete();
    bool addHeaderBytes(size_t length);
    static const llhttp_settings_t& settings();

    QTcpSocket* m_socket;
    protocol::Endpoint& m_endpoint;
    session::Session& m_session;
    QString m_origin;
    State m_state = State::Reading;

    llhttp_t m_parser;
    protocol::HttpRequest m_request; // the message being parsed
    QByteArray m_url;
    QByteArray m_field;
    QByteArray m_value;
    qsizetype m_headerBytes = 0;
    bool m_keepAlive = true;
    bool m_tooLarge = false;
    bool m_messageReady = false;

    // Bytes read from the socket and not yet parsed: only non-empty while a request waits.
    QByteArray m_input;
    qsizetype m_inputPos = 0;

    // The open long poll, if any, and how to answer it.
    QPointer<session::PendingReceive> m_pending;
    std::function<protocol::HttpResponse(const engine::Result<engine::ReceiveResult>&)> m_respond;
    bool m_respondKeepAlive = true;
};

} // namespace inflight::server
