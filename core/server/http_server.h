#pragma once

#include "protocol/endpoint.h"
#include "protocol/request_summary.h"
#include "traffic/traffic_record.h"

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QTcpServer>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace inflight::control {
class ControlApi;
}

namespace inflight::traffic {
class TrafficLog;
}

namespace inflight::session {
class PendingReceive;
class Session;
} // namespace inflight::session

namespace inflight::server {

class IoWorker;
struct ConnectionAnswer;
using ConnectionRequests = std::vector<std::pair<quint64, std::optional<protocol::HttpRequest>>>;

// Where the endpoint's sockets are served (IoWorker's epoll loop: reading, parsing, writing).
enum class SocketThreading {
    // A thread of its own: the server's thread only turns requests into engine calls. For the
    // window, whose thread must stay free for painting and input.
    OwnThread,
    // The server's own thread, in its Qt event loop: no hand-over between threads per request
    // (no wake-ups, locks or context switches). For `inflight --headless`, which has nothing else
    // to do on that thread.
    SessionThread,
};

// What the endpoint's sockets may hold, so that no client (an idle pool, a slow sender, a page in
// the user's browser opening connections) can take the server's descriptors or its time. The
// numbers are the defaults of `inflight`'s --max-connections, --idle-timeout and --header-timeout.
struct ConnectionLimits {
    // Connections kept open at most; lowered at listen() to the process's soft file limit less
    // kReservedFiles. A new client beyond it closes the connection idle longest (no request with
    // the engine, no answer half written); when none is idle it gets a 503 and is closed.
    int maxConnections = 4096;
    // A connection that moves no byte either way for this long is closed (never while a request
    // of its is with the engine: a long poll parked has no deadline).
    std::chrono::milliseconds idleTimeout{60'000};
    // A request's line and headers must be complete this long after its first byte.
    std::chrono::milliseconds headerTimeout{10'000};

    // Descriptors kept for everything else the process opens (workspace, Qt, pipes).
    static constexpr int kReservedFiles = 64;
};

// Raises the process's soft limit on open files to its hard limit (a desktop's soft limit is
// often 1,024), so that the limit above, not the kernel's, decides. Returns the soft limit now.
int raiseOpenFileLimit();

// The SQS (JSON and Query) and OCI Queue REST endpoint over HTTP/1.1 with keep-alive.
//
// Sockets are served by an IoWorker (epoll, llhttp parsing, writing answers) on a thread of their
// own or on this object's (SocketThreading); every request is handled on this object's thread —
// the session's — and goes to protocol::Endpoint against the session's broker, with the client's
// "ip:port" as its origin. Long polls are held open through Session::receive() without blocking
// anything, and cancelled when their client hangs up. Request bodies over protocol::kMaxRequestBody
// are refused before they are read. Answers leave only once the session has stored what they
// acknowledge (Session::whenDurable); when the workspace cannot store it, the client gets an HTTP
// 500 in its request's protocol instead. Lives on the session's thread; the engine is never touched
// from another.
class HttpServer : public QObject {
    Q_OBJECT
public:
    // `session` must outlive the server.
    explicit HttpServer(session::Session& session,
                        SocketThreading threading = SocketThreading::OwnThread,
                        QObject* parent = nullptr);
    ~HttpServer() override;

    // Requests go to `session` from now on, on the same port and connections: a workspace switched
    // in the running app. Open long polls of the old session end first (endWaits()), so the old
    // session must still exist. `session` must outlive the server (or the next setSession()).
    void setSession(session::Session& session);
    // Every open long poll ends now, empty (as a queue deletion ends them), unless its answer
    // came already: its client polls again. Its engine wait is cancelled.
    void endWaits();

    // Apply from the next listen() on.
    void setLimits(const ConnectionLimits& limits) { m_limits = limits; }
    const ConnectionLimits& limits() const { return m_limits; }
    // Who may send requests (origins, hosts, signatures): see protocol/request_guard.h. The hosts
    // the endpoint is reached by (its listen address) are added by listen().
    void setAccessPolicy(const protocol::AccessPolicy& policy);
    const protocol::AccessPolicy& accessPolicy() const { return m_policy; }
    // Serves /_inflight/ paths with it (after the access checks every request passes); none: they
    // are answered 404 like any unknown path. Must outlive the server.
    void setControlApi(control::ControlApi* control) { m_control = control; }
    control::ControlApi* controlApi() const { return m_control; }
    // Records every SQS and OCI request in `log` (control API calls are not): a long poll as a
    // waiting record from its arrival, completed when it is answered or its client hangs up;
    // every other request once answered, with its latency from arrival to the answer being
    // ready for the socket thread. None (the default): nothing is recorded or computed for it.
    // Must outlive the server; applies from the next request on.
    void setTrafficLog(traffic::TrafficLog* log) { m_traffic = log; }
    // The scheme, host and port put into queue URLs instead of the listen address, for clients
    // that reach the endpoint by another (Docker port mapping, a proxy, a tunnel); its host passes
    // the Host check. Empty: the listen address. Applies at once.
    void setAdvertisedUrl(const QString& url);

    // Starts listening (port 0 picks a free port; see serverPort()). When already listening, this
    // moves the endpoint: the new address is bound first, then the old socket and every open
    // connection are closed. On failure (false, errorString() saying why) the endpoint stays
    // where it was, serving — a move to the same port on another address gives the old socket
    // up to try, and takes it back. The address it listens on already: nothing changes. Emits
    // listeningChanged() when the state or address changed.
    bool listen(const QHostAddress& address, quint16 port);
    // Stops listening and drops every connection (open long polls end without an answer).
    // Emits listeningChanged() if it was listening.
    void close();

    bool isListening() const;
    QHostAddress serverAddress() const;
    quint16 serverPort() const;
    // "http://127.0.0.1:9324" while listening (queue URLs start with it); empty otherwise.
    QString baseUrl() const;
    // Why the last listen() failed; empty after a successful one.
    QString errorString() const { return m_error; }
    // Client connections currently open.
    int connectionCount() const;

Q_SIGNALS:
    void listeningChanged();

private:
    friend class IoWorker;

    struct Wait {
        session::PendingReceive* receive;
        protocol::WireProtocol protocol; // of the request, for ConnectionAnswer::protocol
        std::function<protocol::HttpResponse(const engine::Result<engine::ReceiveResult>&)> respond;
        // With a traffic log: the waiting record's cursor (0: none), what it holds and when the
        // request arrived.
        std::uint64_t cursor = 0;
        traffic::TrafficRecord record;
        protocol::RequestSummary summary;
        std::chrono::steady_clock::time_point arrived;
    };

    // OwnThread, from the socket thread: takes every request of `requests` (left empty) for
    // drainInbox() on this object's thread.
    void enqueue(IoWorker* worker, ConnectionRequests& requests);
    void drainInbox();
    // SessionThread, from the worker's loop: handles every request of `requests` (left empty)
    // now; the answers go to the worker's post() before this returns, or later (long polls, a
    // commit to wait for).
    void handleNow(ConnectionRequests& requests);
    void handleBatch();
    void handle(quint64 connection, std::optional<protocol::HttpRequest>& request);
    // handle() with a traffic log: the same, recording the request.
    void handleRecorded(quint64 connection, protocol::HttpRequest& request);
    void finishWait(quint64 connection);
    // Answers `wait` with `result` (and completes its traffic record).
    void answerWait(quint64 connection, Wait& wait,
                    const engine::Result<engine::ReceiveResult>& result);
    void handleControl(quint64 connection, const protocol::HttpRequest& request);
    // Sends m_answers once the session has stored what they acknowledge; if that commit fails,
    // sends protocol::notStored() answers in their place.
    void answerWhenDurable();
    void dropConnections();
    // Closes the listening socket and every connection (listen, close).
    void stopListening();
    // The worker accepts on m_tcp (bound to `address`); the base URL and allowed hosts follow it.
    void startAccepting(const QHostAddress& address);

    session::Session* m_session; // never null
    protocol::Endpoint m_endpoint;
    std::unique_ptr<QTcpServer> m_tcp; // listens; the worker accepts
    ConnectionLimits m_limits;
    protocol::AccessPolicy m_policy; // as set, without the listen address's hosts
    control::ControlApi* m_control = nullptr;
    traffic::TrafficLog* m_traffic = nullptr;
    QString m_advertisedUrl;
    QString m_baseUrl;
    QString m_error;

    std::unique_ptr<IoWorker> m_worker; // one epoll loop serves every connection

    std::mutex m_inboxMutex;
    ConnectionRequests m_inbox;                // guarded by m_inboxMutex; OwnThread only
    ConnectionRequests m_handling;             // the batch handleBatch() works on
    std::vector<ConnectionAnswer> m_answers;   // for m_worker, posted once per batch
    std::unordered_map<quint64, Wait> m_waits; // open long polls, by connection
};

} // namespace inflight::server
