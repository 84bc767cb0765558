#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::load {

using Clock = std::chrono::steady_clock;

struct HttpReply {
    int status = 0;
    std::string body;
};

// Many keep-alive HTTP/1.1 connections to one server, driven by one thread with epoll: each
// connection has at most one request outstanding and asks `next` for its following request as soon
// as a reply arrives. Small on purpose, so that the client's own cost stays low beside the server.
class HttpLoadClient {
public:
    // Returns the next request's raw bytes for connection `index`, or empty to stop that
    // connection.
    using NextRequest = std::function<std::string(int index)>;
    // Called with each reply and its latency (from the request's first byte written to the reply's
    // last byte read).
    using OnReply = std::function<void(int index, const HttpReply& reply, Clock::duration latency)>;

    HttpLoadClient(std::string host, std::uint16_t port);
    ~HttpLoadClient();
    HttpLoadClient(const HttpLoadClient&) = delete;
    HttpLoadClient& operator=(const HttpLoadClient&) = delete;

    // Opens `connections` sockets (throws std::runtime_error on failure), then runs until every
    // connection has stopped (`next` returned empty) or `until` has passed. Replies still
    // outstanding at `until` are dropped.
    void run(int connections, Clock::time_point until, const NextRequest& next,
             const OnReply& onReply);

    // One request on a fresh connection, waiting for its reply (setup calls such as CreateQueue).
    HttpReply call(const std::string& request);

private:
    struct Connection;
    int connectSocket() const;
    bool writePending(Connection& connection);
    bool readReplies(Connection& connection, const OnReply& onReply, bool& gotReply);

    std::string m_host;
    std::uint16_t m_port;
};

// Parses one HTTP/1.1 response (Content-Length or chunked) from the front of `buffer`. Returns the
// number of bytes it used, 0 if the response is not complete yet; -1 if it is malformed.
long parseHttpReply(std::string_view buffer, HttpReply& reply);

} // namespace inflight::load
