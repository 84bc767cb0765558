#include "server/io_worker.h"

#include "server/http_connection.h"
#include "server/http_server.h"

#include <QDebug>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>

#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace inflight::server {

namespace {

// epoll data for the wake-up eventfd; connections use their ids, which start at 1.
constexpr quint64 kWakeId = 0;
constexpr int kMaxEvents = 128;
// Requests handed to the engine's thread at a time while ready sockets are being read.
constexpr std::size_t kRequestGroup = 4;

} // namespace

IoWorker::IoWorker(HttpServer& server) : m_server(server)
{
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wakeFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_epoll < 0 || m_wakeFd < 0)
        throw std::runtime_error(std::string("inflight: cannot create the endpoint's event loop: ")
                                 + std::strerror(errno));
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = kWakeId;
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wakeFd, &event);
    m_thread = std::thread([this] {
        ::pthread_setname_np(::pthread_self(), "inflight-http"); // names it in top, perf, gdb
        run();
    });
}

IoWorker::~IoWorker()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    wake();
    m_thread.join();
    ::close(m_wakeFd);
    ::close(m_epoll);
}

// ---- any thread --------------------------------------------------------------------------------

void IoWorker::wake()
{
    if (m_wakePending.exchange(true))
        return; // already signalled and not yet taken
    const quint64 one = 1;
    [[maybe_unused]] const auto written = ::write(m_wakeFd, &one, sizeof one);
}

void IoWorker::adopt(qintptr fd)
{
    {
        std::lock_guard lock(m_mutex);
        m_adopting.push_back(fd);
    }
    wake();
}

void IoWorker::dropAll()
{
    std::unique_lock lock(m_mutex);
    const quint64 generation = ++m_dropRequested;
    lock.unlock();
    wake();
    lock.lock();
    m_dropDone.wait(lock, [&] { return m_dropFinished >= generation; });
}

void IoWorker::post(std::vector<ConnectionAnswer>& answers)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_outbox.empty()) {
            m_outbox.swap(answers);
        } else {
            std::move(answers.begin(), answers.end(), std::back_inserter(m_outbox));
            answers.clear();
        }
    }
    wake();
}

// ---- the worker thread -------------------------------------------------------------------------

void IoWorker::submit(quint64 connection, protocol::HttpRequest request)
{
    m_toServer.emplace_back(connection, std::move(request));
}

void IoWorker::cancel(quint64 connection)
{
    m_toServer.emplace_back(connection, std::nullopt);
}

void IoWorker::watch(HttpConnection& connection, bool readable, bool writable)
{
    epoll_event event{};
    event.events = (readable ? EPOLLIN | EPOLLRDHUP : 0u) | (writable ? EPOLLOUT : 0u);
    event.data.u64 = connection.id();
    ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, connection.fd(), &event);
}

void IoWorker::closed(HttpConnection& connection)
{
    const auto it = m_connections.find(connection.id());
    if (it == m_connections.end())
        return;
    m_finished.push_back(std::move(it->second)); // we may be inside one of its methods
    m_connections.erase(it);
    --m_connectionCount;
}

void IoWorker::run()
{
    epoll_event events[kMaxEvents];
    for (;;) {
        const int ready = ::epoll_wait(m_epoll, events, kMaxEvents, nextTimeoutMillis());
        if (ready < 0 && errno != EINTR) {
            qWarning("inflight: the endpoint's event loop failed: %s", std::strerror(errno));
            break;
        }
        for (int i = 0; i < ready; ++i) {
            const quint64 id = events[i].data.u64;
            if (id == kWakeId)
                continue; // commands are taken below, every turn
            const auto it = m_connections.find(id);
            if (it == m_connections.end())
                continue;
            HttpConnection& connection = *it->second;
            const std::uint32_t flags = events[i].events;
            if (flags & EPOLLOUT)
                connection.onWritable();
            if (flags & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
                connection.onReadable();
            // Hand over in small groups: the engine's thread starts on them while we read on.
            if (m_toServer.size() >= kRequestGroup)
                m_server.enqueue(this, m_toServer);
        }

        takeCommands();
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping)
                break;
        }

        const auto now = Clock::now();
        std::vector<HttpConnection*> due;
        for (auto& [id, connection] : m_connections) {
            if (const auto deadline = connection->deadline(); deadline && *deadline <= now)
                due.push_back(connection.get());
        }
        for (HttpConnection* connection : due)
            connection->onDeadline(); // closes it: not while walking m_connections
        // One hand-over per turn, however many requests the ready sockets held.
        if (!m_toServer.empty())
            m_server.enqueue(this, m_toServer);
        m_finished.clear();
    }
    closeAll();
    if (!m_toServer.empty())
        m_toServer.clear(); // the server is going away
    m_finished.clear();
}

void IoWorker::takeCommands()
{
    if (!m_wakePending.load())
        return;
    quint64 count = 0;
    [[maybe_unused]] const auto got = ::read(m_wakeFd, &count, sizeof count);
    m_wakePending.store(false); // before taking: a later post() wakes us again

    std::vector<qintptr> adopting;
    quint64 dropRequested = 0;
    {
        std::lock_guard lock(m_mutex);
        adopting.swap(m_adopting);
        m_delivering.swap(m_outbox);
        dropRequested = m_dropRequested;
    }
    for (ConnectionAnswer& answer : m_delivering) {
        const auto it = m_connections.find(answer.connection);
        if (it == m_connections.end())
            continue;
        it->second->respond(answer.response);
    }
    m_delivering.clear();

    for (const qintptr fd : adopting) {
        const quint64 id = m_nextId++;
        auto connection = std::make_unique<HttpConnection>(static_cast<int>(fd), *this, id);
        epoll_event event{};
        event.events = EPOLLIN | EPOLLRDHUP;
        event.data.u64 = id;
        if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, connection->fd(), &event) != 0)
            continue; // the connection closes its socket
        m_connections.emplace(id, std::move(connection));
        ++m_connectionCount;
    }

    if (dropRequested != 0) {
        bool notify = false;
        {
            std::lock_guard lock(m_mutex);
            notify = m_dropFinished < dropRequested;
        }
        if (notify) {
            closeAll();
            std::lock_guard lock(m_mutex);
            m_dropFinished = dropRequested;
            m_outbox.clear(); // answers for the connections just dropped
        }
        m_dropDone.notify_all();
    }
}

void IoWorker::closeAll()
{
    std::vector<HttpConnection*> connections;
    connections.reserve(m_connections.size());
    for (auto& [id, connection] : m_connections)
        connections.push_back(connection.get());
    for (HttpConnection* connection : connections)
        connection->abort(); // moves it to m_finished
    m_toServer.clear();      // nothing of theirs goes to the engine any more
    m_finished.clear();
}

int IoWorker::nextTimeoutMillis() const
{
    std::optional<Clock::time_point> earliest;
    for (const auto& [id, connection] : m_connections) {
        if (const auto deadline = connection->deadline();
            deadline && (!earliest || *deadline < *earliest))
            earliest = deadline;
    }
    if (!earliest)
        return -1;
    const auto millis
        = std::chrono::ceil<std::chrono::milliseconds>(*earliest - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(millis, 0, std::numeric_limits<int>::max()));
}

} // namespace inflight::server
