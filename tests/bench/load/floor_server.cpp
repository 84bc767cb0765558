// floor_server: the do-nothing HTTP server behind docs/PERFORMANCE.md's "floor" (issue 4's
// follow-up): what this machine's kernel and loopback cost per request when the server does no
// work. One thread, level-triggered epoll, non-blocking keep-alive connections; it finds each whole
// request (the head up to CRLFCRLF, then Content-Length bytes of body; pipelined or split across
// reads) and answers it with one fixed response shaped like Inflight's SendMessage answer over JSON
// (the same headers, a body of the same size). CreateQueue alone gets a QueueUrl back, so that
// inflight_load can run against it unchanged. Plain C++20 and POSIX, no Qt, no project code:
// floor_compare.sh runs it beside `inflight --headless` under the same load.
//
//   floor_server [--listen 127.0.0.1:0]
//
// Prints "floor_server listening on http://HOST:PORT" (the port chosen when 0 was asked for) on
// stdout, like Inflight, and serves until killed.
#include "http_text.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

using inflight::load::equalsIgnoringCase;
using inflight::load::trim;

namespace {

// A request (head and body) larger than this closes its connection.
constexpr std::size_t kMaxRequest = 1 << 20;
// While this much of a connection's output waits for the peer to read it, its input is not read.
constexpr std::size_t kMaxPendingOutput = 1 << 20;
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kMaxEvents = 256;

// An Inflight SendMessage answer over JSON (100-byte message body), captured from
// `inflight --headless`: the same header lines in the same order, a body of the same length
// (106 bytes). Sent as it is for every request.
constexpr std::string_view kSendMessageBody
    = R"({"MD5OfMessageBody":"c850e15189ee11cd8535000b8d8fd6de","MessageId":"51162065-d52b-431e-9cba-6711550c742c"})";

std::string answer(std::string_view contentType, std::string_view body)
{
    std::string out = "HTTP/1.1 200 OK\r\n"
                      "x-amzn-RequestId: 5c89676f-ae16-4194-a8ce-40dc6d65c1a5\r\n"
                      "Content-Type: ";
    out += contentType;
    out += "\r\nContent-Length: ";
    out += std::to_string(body.size());
    out += "\r\n\r\n";
    out += body;
    return out;
}

struct Connection {
    int fd = -1;
    std::string in;          // bytes received, not yet answered (at most one partial request)
    std::size_t scanned = 0; // `in` holds no CRLFCRLF before this offset
    std::size_t need = 0;    // once the first request's head is read: its whole length
    const std::string* answer = nullptr; // and what it gets
    std::string out;                     // answers not yet sent
    std::size_t outPos = 0;
    std::uint32_t mask = 0; // events registered with epoll
};

// What the head of one request says.
struct Head {
    std::size_t length = 0; // head + CRLFCRLF
    std::size_t contentLength = 0;
    bool createQueue = false; // X-Amz-Target: AmazonSQS.CreateQueue
    bool json = false; // an X-Amz-Target header; without one, the Query protocol (a form body)
};

// Parses the header lines of `head` (without the final CRLFCRLF). False if the request is one
// this server does not take (chunked, a bad Content-Length).
bool parseHead(std::string_view head, Head& out)
{
    std::size_t at = head.find("\r\n"); // skip the request line
    while (at != std::string_view::npos && at < head.size()) {
        at += 2;
        std::size_t end = head.find("\r\n", at);
        if (end == std::string_view::npos)
            end = head.size();
        const std::string_view line = head.substr(at, end - at);
        at = end;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        const std::string_view name = line.substr(0, colon);
        const std::string_view value = trim(line.substr(colon + 1));
        if (equalsIgnoringCase(name, "content-length")) {
            if (value.empty() || value.size() > 9)
                return false;
            std::size_t length = 0;
            for (const char c : value) {
                if (c < '0' || c > '9')
                    return false;
                length = length * 10 + std::size_t(c - '0');
            }
            out.contentLength = length;
        } else if (equalsIgnoringCase(name, "transfer-encoding")) {
            return false;
        } else if (equalsIgnoringCase(name, "x-amz-target")) {
            out.json = true;
            out.createQueue = value.ends_with(".CreateQueue");
        }
    }
    return true;
}

class FloorServer {
public:
    FloorServer(int listenFd, const std::string& hostPort)
        : m_listenFd(listenFd),
          m_sendMessage(answer("application/x-amz-json-1.0", kSendMessageBody)),
          m_createQueueJson(
              answer("application/x-amz-json-1.0",
                     R"({"QueueUrl":"http://)" + hostPort + R"(/000000000000/floor"})")),
          m_createQueueQuery(answer(
              "text/xml",
              R"(<?xml version="1.0" encoding="UTF-8"?><CreateQueueResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/"><CreateQueueResult><QueueUrl>http://)"
                  + hostPort
                  + R"(/000000000000/floor</QueueUrl></CreateQueueResult><ResponseMetadata><RequestId>5c89676f-ae16-4194-a8ce-40dc6d65c1a5</RequestId></ResponseMetadata></CreateQueueResponse>)")),
          m_scratch(new char[kReadChunk])
    {
        m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
        m_spareFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (m_epoll < 0) {
            std::perror("floor_server: epoll_create1");
            std::exit(1);
        }
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.fd = m_listenFd;
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_listenFd, &event);
    }

    [[noreturn]] void run()
    {
        epoll_event events[kMaxEvents];
        for (;;) {
            const int ready = ::epoll_wait(m_epoll, events, kMaxEvents, -1);
            if (ready < 0) {
                if (errno == EINTR)
                    continue;
                std::perror("floor_server: epoll_wait");
                std::exit(1);
            }
            for (int i = 0; i < ready; ++i) {
                const int fd = events[i].data.fd;
                if (fd == m_listenFd) {
                    acceptAll();
                    continue;
                }
                Connection* c = connection(fd);
                if (!c)
                    continue;
                const std::uint32_t what = events[i].events;
                if ((what & EPOLLOUT) && !flush(*c))
                    continue; // closed
                if ((what & (EPOLLIN | EPOLLHUP | EPOLLERR)) && !receive(*c))
                    continue; // closed
                watch(*c);
            }
        }
    }

private:
    Connection* connection(int fd) const
    {
        return std::size_t(fd) < m_connections.size() ? m_connections[std::size_t(fd)].get()
                                                      : nullptr;
    }

    void acceptAll()
    {
        for (;;) {
            const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
                    continue;
                if ((errno == EMFILE || errno == ENFILE) && m_spareFd >= 0) {
                    // Out of descriptors: take the connection with the spare one and close it, or
                    // the level-triggered listener would wake us forever.
                    ::close(m_spareFd);
                    const int refused = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
                    if (refused >= 0)
                        ::close(refused);
                    m_spareFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
                    continue;
                }
                return; // EAGAIN: all taken
            }
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (std::size_t(fd) >= m_connections.size())
                m_connections.resize(std::size_t(fd) + 1);
            auto& slot = m_connections[std::size_t(fd)];
            slot = std::make_unique<Connection>();
            slot->fd = fd;
            watch(*slot);
        }
    }

    // Reading while the output is small; writing while some is unsent.
    void watch(Connection& c)
    {
        const std::size_t pending = c.out.size() - c.outPos;
        const std::uint32_t mask
            = (pending < kMaxPendingOutput ? EPOLLIN : 0u) | (pending > 0 ? EPOLLOUT : 0u);
        if (mask == c.mask)
            return;
        epoll_event event{};
        event.events = mask;
        event.data.fd = c.fd;
        // Never 0 once registered: EPOLLIN, EPOLLOUT or both.
        ::epoll_ctl(m_epoll, c.mask == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, c.fd, &event);
        c.mask = mask;
    }

    void close(Connection& c)
    {
        const int fd = c.fd;
        ::close(fd); // also takes it out of the epoll set
        m_connections[std::size_t(fd)].reset();
    }

    // Reads what the kernel has, answers each whole request, writes the answers. False if the
    // connection closed (EOF, error, a request too large or not understood).
    bool receive(Connection& c)
    {
        for (;;) {
            const ssize_t n = ::recv(c.fd, m_scratch.get(), kReadChunk, 0);
            if (n > 0) {
                c.in.append(m_scratch.get(), std::size_t(n));
                if (!answerRequests(c)) {
                    close(c);
                    return false;
                }
                if (std::size_t(n) < kReadChunk || c.out.size() - c.outPos >= kMaxPendingOutput)
                    break;
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                break;
            close(c); // EOF or an error
            return false;
        }
        return flush(c);
    }

    // Answers the whole requests at the front of c.in and keeps the rest. False if the connection
    // must close.
    bool answerRequests(Connection& c)
    {
        std::size_t at = 0;
        for (;;) {
            const std::string_view rest = std::string_view(c.in).substr(at);
            if (c.need == 0) {
                const std::size_t from = c.scanned > 3 ? c.scanned - 3 : 0;
                const std::size_t headEnd = rest.find("\r\n\r\n", from);
                if (headEnd == std::string_view::npos) {
                    if (rest.size() > kMaxRequest)
                        return false;
                    c.scanned = rest.size();
                    break;
                }
                Head head;
                head.length = headEnd + 4;
                if (!parseHead(rest.substr(0, headEnd), head))
                    return false;
                c.need = head.length + head.contentLength;
                if (c.need > kMaxRequest)
                    return false;
                const std::string_view body = rest.substr(head.length);
                if (head.createQueue)
                    c.answer = &m_createQueueJson;
                else if (!head.json && body.starts_with("Action=CreateQueue&"))
                    c.answer = &m_createQueueQuery; // the form's start is in the first read
                else
                    c.answer = &m_sendMessage;
            }
            if (rest.size() < c.need)
                break; // the rest of the body in a later read
            c.out += *c.answer;
            at += c.need;
            c.need = 0;
            c.scanned = 0;
        }
        if (at == c.in.size())
            c.in.clear(); // keeps the capacity
        else if (at > 0)
            c.in.erase(0, at);
        return true;
    }

    // Writes what it can of c.out; keeps the rest for EPOLLOUT. False if the connection closed.
    bool flush(Connection& c)
    {
        while (c.outPos < c.out.size()) {
            const ssize_t n
                = ::send(c.fd, c.out.data() + c.outPos, c.out.size() - c.outPos, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                // The rest when EPOLLOUT says so; what was sent goes, so that a client that never
                // lets the answers drain fully cannot grow the buffer.
                c.out.erase(0, c.outPos);
                c.outPos = 0;
                return true;
            }
            if (n < 0) {
                close(c);
                return false;
            }
            c.outPos += std::size_t(n);
        }
        c.out.clear();
        c.outPos = 0;
        return true;
    }

    int m_listenFd;
    int m_epoll = -1;
    int m_spareFd = -1;
    const std::string m_sendMessage;
    const std::string m_createQueueJson;
    const std::string m_createQueueQuery;
    std::unique_ptr<char[]> m_scratch;
    std::vector<std::unique_ptr<Connection>> m_connections; // by descriptor
};

[[noreturn]] void usage(const char* error)
{
    if (error)
        std::fprintf(stderr, "floor_server: %s\n", error);
    std::fputs("usage: floor_server [--listen 127.0.0.1:0]\n", stderr);
    std::exit(2);
}

} // namespace

int main(int argc, char* argv[])
{
    std::string listen = "127.0.0.1:0";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h")
            usage(nullptr);
        if (arg != "--listen")
            usage(("unknown option " + arg).c_str());
        if (i + 1 >= argc)
            usage("missing value for --listen");
        listen = argv[++i];
    }
    const std::size_t colon = listen.rfind(':');
    if (colon == std::string::npos)
        usage("--listen takes HOST:PORT");
    const std::string host = listen.substr(0, colon);
    char* end = nullptr;
    const long port = std::strtol(listen.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || port < 0 || port > 65535 || colon + 1 == listen.size())
        usage("--listen takes HOST:PORT");

    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(port));
    if (::inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1)
        usage("--listen takes an IPv4 address");
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    if (fd >= 0)
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
        || ::listen(fd, SOMAXCONN) != 0) {
        std::fprintf(stderr, "floor_server: cannot listen on %s: %s\n", listen.c_str(),
                     std::strerror(errno));
        return 1;
    }
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    const std::string hostPort = host + ":" + std::to_string(ntohs(address.sin_port));
    std::signal(SIGPIPE, SIG_IGN);

    FloorServer server(fd, hostPort);
    std::printf("floor_server listening on http://%s\n", hostPort.c_str());
    std::fflush(stdout);
    server.run();
}
