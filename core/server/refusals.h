#pragma once

#include <QByteArray>

#include <chrono>
#include <optional>
#include <vector>

namespace inflight::server {

// Clients turned away at the connection cap, answered "503, retry after 1 s" without losing the
// answer. Closing a refused socket at once loses it: the request the client is still sending
// reaches a closed socket, the kernel answers with a reset, and the client sees "broken pipe" or
// "connection reset" instead of the 503. So a refused socket is answered, shut for writing, and
// read (and discarded) until the client hangs up or kLinger passes. At most kMaxLingering linger
// at a time (beyond that a refusal closes at once), so a flood of refused clients holds a bounded
// number of descriptors for a bounded time.
class Refusals {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr auto kLinger = std::chrono::seconds(2);
    static constexpr std::size_t kMaxLingering = 16;

    // Watches the refused sockets in `epoll`, tagged with kTag.
    explicit Refusals(int epoll) : m_epoll(epoll) {}
    ~Refusals() { closeAll(); }
    Refusals(const Refusals&) = delete;
    Refusals& operator=(const Refusals&) = delete;

    // epoll data of a refused socket: kTag | its descriptor (connection ids stay far below it).
    static constexpr quint64 kTag = quint64{1} << 62;
    static bool isRefusal(quint64 epollData) { return (epollData & (kTag | (kTag << 1))) == kTag; }

    // Answers `fd` with `answer` and lingers on it (or closes it, when kMaxLingering linger).
    void refuse(int fd, const QByteArray& answer, Clock::time_point now);
    // The refused socket tagged `epollData` is readable: discards what came, closes it at its end.
    void onReadable(quint64 epollData);
    // Closes those whose time is up; the earliest deadline of the rest.
    std::optional<Clock::time_point> sweep(Clock::time_point now);
    void closeAll();
    std::size_t lingering() const { return m_lingering.size(); }

private:
    struct Lingering {
        int fd;
        Clock::time_point until;
    };
    void close(std::size_t index);

    int m_epoll;
    std::vector<Lingering> m_lingering;
};

} // namespace inflight::server
