#pragma once

#include "protocol/http_types.h"

#include <QtGlobal>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace inflight::server {

class HttpConnection;
class HttpServer;

// The answer to one connection's request, on its way back to the worker.
struct ConnectionAnswer {
    quint64 connection = 0;
    // The request's protocol: if the workspace cannot store what the answer acknowledges, the
    // server replaces it with an error in that protocol (protocol::notStored). The worker only
    // writes `response`.
    protocol::WireProtocol protocol = protocol::WireProtocol::SqsJson;
    protocol::HttpResponse response;
};

// Requests from a worker's connections, for the engine's thread; no request: word that the
// connection closed.
using ConnectionRequests = std::vector<std::pair<quint64, std::optional<protocol::HttpRequest>>>;

// The socket side of the endpoint, on a thread of its own with an epoll loop: owns the client
// connections, parses their requests and writes their answers, so that the engine's thread (the
// window's, in the app) only turns requests into engine calls. Requests reach the server in
// batches, one hand-over per turn of the loop, however many sockets were ready; answers come back
// the same way (post()). No Qt event loop here: a socket costs one epoll registration, not a
// notifier polled on every turn.
class IoWorker {
public:
    // Starts the thread. `server` must outlive the worker.
    explicit IoWorker(HttpServer& server);
    // Closes every connection and joins the thread.
    ~IoWorker();
    IoWorker(const IoWorker&) = delete;
    IoWorker& operator=(const IoWorker&) = delete;

    // ---- any thread ------------------------------------------------------------------------------

    // Takes over an accepted socket.
    void adopt(qintptr fd);
    // Closes every connection; returns once they are closed.
    void dropAll();
    // Answers to connections' requests; those for connections gone by then are dropped. Takes
    // them all (`answers` is left empty).
    void post(std::vector<ConnectionAnswer>& answers);
    int connectionCount() const { return m_connectionCount.load(); }

    // ---- the worker thread, for its connections ------------------------------------------------

    // A connection's complete request, for the engine's thread.
    void submit(quint64 connection, protocol::HttpRequest request);
    // A connection closed with a request still at the engine: drop what is done for it.
    void cancel(quint64 connection);
    // Which readiness the connection wants to hear about.
    void watch(HttpConnection& connection, bool readable, bool writable);
    // The connection is over; it is deleted at the end of this turn of the loop.
    void closed(HttpConnection& connection);

private:
    using Clock = std::chrono::steady_clock;

    void run();
    void wake();
    void takeCommands();
    void closeAll();
    int nextTimeoutMillis() const;

    HttpServer& m_server;
    int m_epoll = -1;
    int m_wakeFd = -1;
    std::atomic<bool> m_wakePending = false;
    std::atomic<int> m_connectionCount = 0;

    // Shared with other threads, guarded by m_mutex.
    std::mutex m_mutex;
    std::condition_variable m_dropDone;
    std::vector<qintptr> m_adopting;
    std::vector<ConnectionAnswer> m_outbox;
    quint64 m_dropRequested = 0; // generation counters
    quint64 m_dropFinished = 0;
    bool m_stopping = false;

    // The worker thread's own.
    std::unordered_map<quint64, std::unique_ptr<HttpConnection>> m_connections;
    std::vector<std::unique_ptr<HttpConnection>> m_finished; // deleted at the end of the turn
    std::vector<ConnectionAnswer> m_delivering;
    ConnectionRequests m_toServer;
    quint64 m_nextId = 1;

    std::thread m_thread; // last: starts once everything above exists
};

} // namespace inflight::server
