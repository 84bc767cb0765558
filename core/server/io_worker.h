#pragma once

#include "protocol/http_types.h"
#include "server/http_server.h"

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

struct epoll_event;
class QSocketNotifier;
class QTimer;

namespace inflight::server {

class HttpConnection;
class Refusals;

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

// The socket side of the endpoint: an epoll loop over raw sockets that owns the client
// connections, parses their requests and writes their answers. A socket costs one epoll
// registration, not a Qt notifier polled on every turn. Where the loop runs (SocketThreading):
//
// - OwnThread: on a thread of its own, so that the engine's thread (the window's, in the app)
//   only turns requests into engine calls. Requests reach the server in small groups and once
//   per turn of the loop (HttpServer::enqueue, queued to the server's thread); answers come back
//   the same way (post(), an eventfd wake-up). No Qt event loop on that thread.
// - SessionThread: on the server's own thread, driven by its Qt event loop through one
//   QSocketNotifier on the epoll descriptor and one timer for connection deadlines. Each
//   activation runs a few turns of the same loop without waiting; requests go to the server
//   synchronously and its answers are written at once, with no hand-over between threads.
class IoWorker {
public:
    // OwnThread starts the thread; SessionThread must be created on the server's thread.
    // `server` must outlive the worker.
    IoWorker(HttpServer& server, SocketThreading threading);
    // Closes every connection (and joins the thread).
    ~IoWorker();
    IoWorker(const IoWorker&) = delete;
    IoWorker& operator=(const IoWorker&) = delete;

    using Clock = std::chrono::steady_clock;

    // ---- the server (any thread with OwnThread, the server's with SessionThread) ---------------

    // Accepts clients on the listening socket `fd`, which the worker now owns (a dup of the
    // QTcpServer's), within `limits`; -1 stops accepting (and closes the one it had). Returns
    // once the loop has taken it.
    void setListener(int fd, const ConnectionLimits& limits);
    // Closes every connection; returns once they are closed.
    void dropAll();
    // Answers to connections' requests; those for connections gone by then are dropped. Takes
    // them all (`answers` is left empty). With SessionThread they are written before this
    // returns, or at the end of the current turn when the loop itself is handling requests.
    void post(std::vector<ConnectionAnswer>& answers);
    int connectionCount() const { return m_connectionCount.load(); }

    // ---- the loop's thread, for its connections -------------------------------------------------

    const ConnectionLimits& limits() const { return m_limits; }
    // The time at the start of this turn of the loop: connections note their progress with it.
    Clock::time_point now() const { return m_now; }

    // A connection's complete request, for the engine's thread.
    void submit(quint64 connection, protocol::HttpRequest request);
    // A connection closed with a request still at the engine: drop what is done for it.
    void cancel(quint64 connection);
    // Which readiness the connection wants to hear about.
    void watch(HttpConnection& connection, bool readable, bool writable);
    // The connection is over; it is deleted at the end of this turn of the loop.
    void closed(HttpConnection& connection);

private:
    // The loop, shared by both threadings.
    void readEvents(const epoll_event* events, int ready);
    void endTurn();
    void respondAll();
    void acceptReady();
    void addConnection(int fd);
    bool evictIdlest();
    void shedOne();
    void pauseAccepting();
    void useListener(int fd, const ConnectionLimits& limits);
    void sweepDeadlines();
    void closeAll();
    int nextTimeoutMillis() const;

    // OwnThread.
    void run();
    void wake();
    void takeCommands();

    // SessionThread.
    void runTurns(bool poll);
    void settle();
    void deliverReady();
    void armDeadline();

    HttpServer& m_server;
    const bool m_ownThread;
    int m_epoll = -1;
    std::atomic<int> m_connectionCount = 0;

    // OwnThread: shared with other threads, guarded by m_mutex.
    int m_wakeFd = -1;
    std::atomic<bool> m_wakePending = false;
    std::mutex m_mutex;
    std::condition_variable m_dropDone;
    std::optional<std::pair<int, ConnectionLimits>> m_listenerCommand;
    std::vector<ConnectionAnswer> m_outbox;
    quint64 m_dropRequested = 0; // generation counters: dropAll() and setListener() wait for them
    quint64 m_dropFinished = 0;
    quint64 m_listenerRequested = 0;
    quint64 m_listenerFinished = 0;
    bool m_stopping = false;

    // SessionThread.
    std::unique_ptr<QSocketNotifier> m_notifier; // on m_epoll
    std::unique_ptr<QTimer> m_deadlineTimer;     // the nearest connection deadline
    std::vector<ConnectionAnswer> m_ready;       // answers to write at the end of this turn
    bool m_inTurn = false;

    // The loop's own.
    ConnectionLimits m_limits;
    int m_listenFd = -1;
    int m_reserveFd = -1;                 // a spare descriptor, given up to shed a client at EMFILE
    std::unique_ptr<Refusals> m_refusals; // clients refused at the cap, until they read the 503
    std::size_t m_maxConnections = 0;     // m_limits' cap within the process's file limit
    bool m_acceptPaused = false;          // after an accept error we cannot act on: retried later
    Clock::time_point m_acceptResume;
    Clock::time_point m_now = Clock::now();
    Clock::time_point m_nextSweep = Clock::now();
    std::unordered_map<quint64, std::unique_ptr<HttpConnection>> m_connections;
    std::vector<std::unique_ptr<HttpConnection>> m_finished; // deleted at the end of the turn
    std::vector<ConnectionAnswer> m_delivering;
    ConnectionRequests m_toServer;
    quint64 m_nextId = 1;

    std::thread m_thread; // last: starts once everything above exists
};

} // namespace inflight::server
