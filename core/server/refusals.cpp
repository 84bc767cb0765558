#include "server/refusals.h"

#include <cerrno>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace inflight::server {

void Refusals::refuse(int fd, const QByteArray& answer, Clock::time_point now)
{
    [[maybe_unused]] const auto sent = ::send(
        fd, answer.constData(), static_cast<size_t>(answer.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (m_lingering.size() >= kMaxLingering) {
        ::close(fd);
        return;
    }
    ::shutdown(fd, SHUT_WR); // the answer is all we send; the client reads it, then its end
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.u64 = kTag | static_cast<quint64>(fd);
    if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event) != 0) {
        ::close(fd);
        return;
    }
    m_lingering.push_back({fd, now + kLinger});
}

void Refusals::onReadable(quint64 epollData)
{
    const int fd = static_cast<int>(epollData & ~kTag);
    for (std::size_t i = 0; i < m_lingering.size(); ++i) {
        if (m_lingering[i].fd != fd)
            continue;
        char discard[4096];
        for (;;) {
            const auto got = ::recv(fd, discard, sizeof discard, MSG_DONTWAIT);
            if (got > 0)
                continue;
            if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
                return; // more may come
            close(i);   // the client hung up (or the socket failed)
            return;
        }
    }
}

std::optional<Refusals::Clock::time_point> Refusals::sweep(Clock::time_point now)
{
    std::optional<Clock::time_point> next;
    for (std::size_t i = m_lingering.size(); i-- > 0;) {
        if (m_lingering[i].until <= now)
            close(i);
        else if (!next || m_lingering[i].until < *next)
            next = m_lingering[i].until;
    }
    return next;
}

void Refusals::closeAll()
{
    while (!m_lingering.empty())
        close(m_lingering.size() - 1);
}

void Refusals::close(std::size_t index)
{
    const int fd = m_lingering[index].fd;
    ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
    ::close(fd);
    m_lingering[index] = m_lingering.back();
    m_lingering.pop_back();
}

} // namespace inflight::server
