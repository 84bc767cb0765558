#pragma once

#include "protocol/http_types.h"
#include "server/http_request_parser.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <optional>

namespace inflight::server {

class IoWorker;

// One client connection on a raw non-blocking socket, driven by its IoWorker's epoll loop: parses
// HTTP/1.1 requests (HttpRequestParser) and has them answered one at a time, in order. Each
// complete request goes to the engine's thread (IoWorker::submit) and parks the connection until
// respond() brings its answer, so pipelined requests, and everything behind a long poll, wait
// their turn (their bytes are kept up to a bound; beyond it the kernel holds them). A client that
// hangs up cancels what the engine still does for it (IoWorker::cancel).
//
// Time limits (IoWorker::limits()): a request's headers must be complete within the header
// timeout of its first byte, and a connection that makes no progress either way for the idle
// timeout is closed — between requests, in the middle of one, or with an answer the client does
// not read. A connection whose request is with the engine (a long poll parked) has no deadline.
// Internal to the server; used on the worker's thread only.
class HttpConnection {
public:
    using Clock = std::chrono::steady_clock;

    // Takes ownership of the connected socket `fd`; `id` names it to the worker.
    HttpConnection(int fd, IoWorker& worker, quint64 id, Clock::time_point now);
    ~HttpConnection();
    HttpConnection(const HttpConnection&) = delete;
    HttpConnection& operator=(const HttpConnection&) = delete;

    quint64 id() const { return m_id; }
    int fd() const { return m_fd; }
    // The client as "ip:port", the origin of every engine call it makes.
    const QString& origin() const { return m_origin; }

    // Readiness reported by the worker's epoll loop.
    void onReadable();
    void onWritable();
    // When onDeadline() is due (a time limit above, a refused upload's drain time), if ever.
    std::optional<Clock::time_point> deadline() const;
    void onDeadline();
    // Whether closing it loses no work: no request with the engine, no answer half written. The
    // worker closes such a connection, the one idle longest (lastProgress()), to make room for a
    // new client when it has as many as it may keep.
    bool isEvictable() const;
    Clock::time_point lastProgress() const { return m_lastProgress; }

    // The answer to the request the connection is waiting for; then the next request is parsed.
    void respond(const protocol::HttpResponse& response);

    // Drops the connection at once (server shutting down or moving port); a request still at the
    // engine is cancelled without an answer.
    void abort();

private:
    enum class State {
        Reading,  // parsing requests as bytes arrive
        Waiting,  // a request is with the engine; requests behind it are kept unparsed
        Draining, // refused an oversized body: discarding input until the client goes
        Closing,  // answered the last request; closing once the answer is written
        Closed,
    };

    bool receive();
    void parseInput();
    void dispatch();
    void send(const protocol::HttpResponse& response, bool keepAlive);
    void write(const QByteArray& bytes);
    void refuseTooLarge();
    void refuseMalformed();
    void updateInterest();
    void finish();

    int m_fd;
    IoWorker& m_worker;
    quint64 m_id;
    QString m_origin;
    State m_state = State::Reading;
    bool m_peerClosed = false;
    bool m_wantsRead = true; // what the worker watches for us
    bool m_wantsWrite = false;
    std::optional<Clock::time_point> m_drainUntil; // Draining: when we stop waiting for the client
    Clock::time_point m_lastProgress;              // the last byte either way, or the last answer
    Clock::time_point m_requestStarted;            // the first byte of the request being parsed

    HttpRequestParser m_parser;
    // Whether the connection stays open after the answer the engine is preparing, and whether
    // that answer goes without its body (HEAD).
    bool m_waitingKeepAlive = true;
    bool m_waitingHead = false;

    // Bytes received and not yet parsed (requests behind a long poll, or a partial request).
    QByteArray m_input;
    qsizetype m_inputPos = 0;
    // Bytes of answers the kernel did not take yet.
    QByteArray m_output;
    qsizetype m_outputPos = 0;
    // The answer being sent, head and body; reused (keeps its capacity).
    QByteArray m_head;
};

} // namespace inflight::server
