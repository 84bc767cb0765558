#include "http_load_client.h"
#include "http_text.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace inflight::load {

namespace {

// Decodes a chunked body starting at buffer[start]; returns the end offset, 0 if incomplete.
long parseChunked(std::string_view buffer, std::size_t start, std::string& body)
{
    std::size_t at = start;
    body.clear();
    for (;;) {
        const std::size_t lineEnd = buffer.find("\r\n", at);
        if (lineEnd == std::string_view::npos)
            return 0;
        std::size_t size = 0;
        const auto [_, error]
            = std::from_chars(buffer.data() + at, buffer.data() + lineEnd, size, 16);
        if (error != std::errc())
            return -1;
        at = lineEnd + 2;
        if (size == 0) {
            const std::size_t end = buffer.find("\r\n", at); // no trailers expected
            return end == std::string_view::npos ? 0 : long(end + 2);
        }
        if (buffer.size() < at + size + 2)
            return 0;
        body.append(buffer.substr(at, size));
        at += size + 2;
    }
}

} // namespace

long parseHttpReply(std::string_view buffer, HttpReply& reply)
{
    const std::size_t headerEnd = buffer.find("\r\n\r\n");
    if (headerEnd == std::string_view::npos)
        return 0;
    const std::string_view head = buffer.substr(0, headerEnd);
    const std::size_t space = head.find(' ');
    if (space == std::string_view::npos || head.size() < space + 4)
        return -1;
    reply.status = std::atoi(std::string(head.substr(space + 1, 3)).c_str());

    long contentLength = -1;
    bool chunked = false;
    std::size_t lineStart = head.find("\r\n");
    while (lineStart != std::string_view::npos && lineStart < head.size()) {
        lineStart += 2;
        std::size_t lineEnd = head.find("\r\n", lineStart);
        if (lineEnd == std::string_view::npos)
            lineEnd = head.size();
        const std::string_view line = head.substr(lineStart, lineEnd - lineStart);
        const std::size_t colon = line.find(':');
        if (colon != std::string_view::npos) {
            const std::string_view name = line.substr(0, colon);
            const std::string_view value = trim(line.substr(colon + 1));
            if (equalsIgnoringCase(name, "content-length"))
                contentLength = std::atol(std::string(value).c_str());
            else if (equalsIgnoringCase(name, "transfer-encoding") && value != "identity")
                chunked = true;
        }
        lineStart = lineEnd;
    }

    const std::size_t bodyStart = headerEnd + 4;
    if (reply.status == 100) // an interim answer: skip it, the real one follows
        return long(bodyStart);
    if (chunked)
        return parseChunked(buffer, bodyStart, reply.body);
    if (contentLength < 0)
        contentLength = 0;
    if (buffer.size() < bodyStart + std::size_t(contentLength))
        return 0;
    reply.body.assign(buffer.substr(bodyStart, std::size_t(contentLength)));
    return long(bodyStart + std::size_t(contentLength));
}

struct HttpLoadClient::Connection {
    int fd = -1;
    int index = 0;
    std::string out;
    std::size_t written = 0;
    std::string in;
    Clock::time_point sentAt;
    bool waiting = false; // a request is outstanding
    bool stopped = false;
    std::uint32_t mask = 0; // events registered with epoll
};

HttpLoadClient::HttpLoadClient(std::string host, std::uint16_t port)
    : m_host(std::move(host)), m_port(port)
{
}

HttpLoadClient::~HttpLoadClient() = default;

int HttpLoadClient::connectSocket() const
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(m_port);
    if (::inet_pton(AF_INET, m_host.c_str(), &address.sin_addr) != 1)
        throw std::runtime_error("not an IPv4 address: " + m_host);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        const std::string error = std::strerror(errno);
        ::close(fd);
        throw std::runtime_error("connect to " + m_host + ": " + error);
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

HttpReply HttpLoadClient::call(const std::string& request)
{
    const int fd = connectSocket();
    std::size_t written = 0;
    while (written < request.size()) {
        const ssize_t n = ::write(fd, request.data() + written, request.size() - written);
        if (n <= 0) {
            ::close(fd);
            throw std::runtime_error("write failed");
        }
        written += std::size_t(n);
    }
    std::string in;
    HttpReply reply;
    char buffer[65536];
    for (;;) {
        const long used = parseHttpReply(in, reply);
        if (used < 0) {
            ::close(fd);
            throw std::runtime_error("malformed reply");
        }
        if (used > 0 && reply.status != 100) {
            ::close(fd);
            return reply;
        }
        if (used > 0) {
            in.erase(0, std::size_t(used));
            continue;
        }
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) {
            ::close(fd);
            throw std::runtime_error("connection closed before the reply");
        }
        in.append(buffer, std::size_t(n));
    }
}

bool HttpLoadClient::writePending(Connection& c)
{
    while (c.written < c.out.size()) {
        const ssize_t n = ::send(c.fd, c.out.data() + c.written, c.out.size() - c.written,
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true; // EPOLLOUT will tell us
        if (n <= 0)
            return false;
        c.written += std::size_t(n);
    }
    return true;
}

bool HttpLoadClient::readReplies(Connection& c, const OnReply& onReply, bool& gotReply)
{
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n == 0)
            return false;
        if (n < 0)
            throw std::runtime_error(std::string("connection lost: ") + std::strerror(errno));
        c.in.append(buffer, std::size_t(n));
        if (std::size_t(n) < sizeof buffer)
            break;
    }
    for (;;) {
        HttpReply reply;
        const long used = parseHttpReply(c.in, reply);
        if (used < 0)
            throw std::runtime_error("malformed reply: " + c.in.substr(0, 200));
        if (used == 0)
            return true;
        c.in.erase(0, std::size_t(used));
        if (reply.status == 100)
            continue;
        const Clock::duration latency = Clock::now() - c.sentAt;
        c.waiting = false;
        gotReply = true;
        onReply(c.index, reply, latency);
    }
}

void HttpLoadClient::run(int connections, Clock::time_point until, const NextRequest& next,
                         const OnReply& onReply)
{
    const auto started = Clock::now();
    const int epoll = ::epoll_create1(EPOLL_CLOEXEC);
    std::vector<Connection> all(static_cast<std::size_t>(connections));
    int active = 0;

    // Readable always; writable only while a request is partly written.
    const auto watch = [&](Connection& c) {
        const std::uint32_t mask = EPOLLIN | (c.written < c.out.size() ? EPOLLOUT : 0u);
        if (mask == c.mask)
            return;
        epoll_event event{};
        event.events = mask;
        event.data.ptr = &c;
        ::epoll_ctl(epoll, c.mask == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, c.fd, &event);
        c.mask = mask;
    };

    const auto issue = [&](Connection& c) {
        if (Clock::now() >= until) {
            c.stopped = true;
            return;
        }
        c.out = next(c.index);
        if (c.out.empty()) {
            c.stopped = true;
            return;
        }
        c.written = 0;
        c.waiting = true;
        c.sentAt = Clock::now();
        if (!writePending(c))
            throw std::runtime_error("write failed");
        watch(c);
    };

    for (int i = 0; i < connections; ++i) {
        Connection& c = all[std::size_t(i)];
        c.index = i;
        c.fd = connectSocket();
        watch(c);
    }
    for (Connection& c : all) {
        issue(c);
        if (!c.stopped)
            ++active;
    }

    std::vector<epoll_event> events(static_cast<std::size_t>(connections));
    while (active > 0 && Clock::now() < until) {
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
        const int ready = ::epoll_wait(epoll, events.data(), connections, int(left) + 1);
        for (int i = 0; i < ready; ++i) {
            Connection& c = *static_cast<Connection*>(events[std::size_t(i)].data.ptr);
            if (c.stopped)
                continue;
            if ((events[std::size_t(i)].events & EPOLLOUT) && !writePending(c))
                throw std::runtime_error("connection lost while writing");
            bool gotReply = false;
            if ((events[std::size_t(i)].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                && !readReplies(c, onReply, gotReply))
                throw std::runtime_error(
                    "connection " + std::to_string(c.index) + " closed by the server after "
                    + std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         Clock::now() - started)
                                         .count())
                    + " ms" + (c.waiting ? ", its request unanswered" : ""));
            if (gotReply && !c.waiting) {
                issue(c);
                if (c.stopped)
                    --active;
            } else {
                watch(c);
            }
        }
    }
    for (Connection& c : all)
        ::close(c.fd);
    ::close(epoll);
}

} // namespace inflight::load
