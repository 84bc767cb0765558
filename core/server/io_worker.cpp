#include "server/io_worker.h"

#include "server/http_connection.h"
#include "server/http_server.h"

#include <QDebug>
#include <QSocketNotifier>
#include <QTimer>

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
// OwnThread: requests handed to the server at a time while ready sockets are being read.
constexpr std::size_t kRequestGroup = 4;
// SessionThread: turns of the loop per activation at most, while sockets keep being ready. More
// turns save trips through the Qt event loop under load; the bound lets its timers (long polls,
// the session's deadlines and commits) and the window's events in between.
constexpr int kTurnsPerActivation = 8;

[[noreturn]] void cannotStart()
{
    throw std::runtime_error(std::string("inflight: cannot create the endpoint's event loop: ")
                             + std::strerror(errno));
}

// Moves every answer of `from` to the end of `into` (`from` is left empty).
void takeAll(std::vector<ConnectionAnswer>& into, std::vector<ConnectionAnswer>& from)
{
    if (into.empty()) {
        into.swap(from);
        return;
    }
    std::move(from.begin(), from.end(), std::back_inserter(into));
    from.clear();
}

} // namespace

IoWorker::IoWorker(HttpServer& server, SocketThreading threading)
    : m_server(server), m_ownThread(threading == SocketThreading::OwnThread)
{
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    if (m_epoll < 0)
        cannotStart();
    if (!m_ownThread) {
        // An epoll descriptor is readable while any socket in its set is ready: one notifier
        // stands for every connection.
        m_notifier = std::make_unique<QSocketNotifier>(m_epoll, QSocketNotifier::Read);
        QObject::connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(),
                         [this] { runTurns(true); });
        m_deadlineTimer = std::make_unique<QTimer>();
        m_deadlineTimer->setSingleShot(true);
        QObject::connect(m_deadlineTimer.get(), &QTimer::timeout, m_deadlineTimer.get(),
                         [this] { runTurns(true); });
        return;
    }
    m_wakeFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_wakeFd < 0) {
        ::close(m_epoll);
        cannotStart();
    }
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
    if (m_ownThread) {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        wake();
        m_thread.join();
        ::close(m_wakeFd);
    } else {
        m_notifier.reset(); // before its descriptor closes
        m_deadlineTimer.reset();
        closeAll();
    }
    ::close(m_epoll);
}

// ---- the server's side -------------------------------------------------------------------------

void IoWorker::wake()
{
    if (m_wakePending.exchange(true))
        return; // already signalled and not yet taken
    const quint64 one = 1;
    [[maybe_unused]] const auto written = ::write(m_wakeFd, &one, sizeof one);
}

void IoWorker::adopt(qintptr fd)
{
    if (!m_ownThread) {
        addConnection(fd);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_adopting.push_back(fd);
    }
    wake();
}

void IoWorker::dropAll()
{
    if (!m_ownThread) {
        closeAll();
        m_ready.clear(); // answers for the connections just dropped
        armDeadline();
        return;
    }
    std::unique_lock lock(m_mutex);
    const quint64 generation = ++m_dropRequested;
    lock.unlock();
    wake();
    lock.lock();
    m_dropDone.wait(lock, [&] { return m_dropFinished >= generation; });
}

void IoWorker::post(std::vector<ConnectionAnswer>& answers)
{
    if (!m_ownThread) {
        takeAll(m_ready, answers);
        // Inside a turn, the turn writes them once the server returns; otherwise (a long poll
        // ended, a commit done) now.
        if (!m_inTurn)
            runTurns(false);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        takeAll(m_outbox, answers);
    }
    wake();
}

// ---- the loop's thread -------------------------------------------------------------------------

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

// What the ready sockets have; the requests it completes go to the server (see below for when).
void IoWorker::readEvents(const epoll_event* events, int ready)
{
    for (int i = 0; i < ready; ++i) {
        const quint64 id = events[i].data.u64;
        if (id == kWakeId)
            continue; // commands are taken every turn
        const auto it = m_connections.find(id);
        if (it == m_connections.end())
            continue;
        HttpConnection& connection = *it->second;
        const std::uint32_t flags = events[i].events;
        if (flags & EPOLLOUT)
            connection.onWritable();
        if (flags & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
            connection.onReadable();
        // On its own thread the loop hands over in small groups, so that the engine's thread
        // starts on them while the rest is read. On the engine's thread there is nobody to start
        // early: the whole turn is handled at once and its answers go out together, which wakes
        // each waiting client less often (measured: ~10 % more SendMessage/s than groups of 4).
        if (m_ownThread && m_toServer.size() >= kRequestGroup)
            m_server.enqueue(this, m_toServer);
    }
}

// The end of a turn: connections past their deadline, the rest of the requests for the server,
// and the connections closed during the turn deleted.
void IoWorker::endTurn()
{
    const auto now = Clock::now();
    std::vector<HttpConnection*> due;
    for (auto& [id, connection] : m_connections) {
        if (const auto deadline = connection->deadline(); deadline && *deadline <= now)
            due.push_back(connection.get());
    }
    for (HttpConnection* connection : due)
        connection->onDeadline(); // closes it: not while walking m_connections
    if (m_ownThread) {
        // One hand-over per turn, however many requests the ready sockets held.
        if (!m_toServer.empty())
            m_server.enqueue(this, m_toServer);
    } else {
        settle();
    }
    m_finished.clear();
}

// Writes the answers in m_delivering (respond() may submit the next request, never post).
void IoWorker::respondAll()
{
    for (ConnectionAnswer& answer : m_delivering) {
        const auto it = m_connections.find(answer.connection);
        if (it == m_connections.end())
            continue; // closed meanwhile
        it->second->respond(answer.response);
    }
    m_delivering.clear();
}

void IoWorker::addConnection(qintptr fd)
{
    const quint64 id = m_nextId++;
    auto connection = std::make_unique<HttpConnection>(static_cast<int>(fd), *this, id);
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.u64 = id;
    if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, connection->fd(), &event) != 0)
        return; // the connection closes its socket
    m_connections.emplace(id, std::move(connection));
    ++m_connectionCount;
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

// ---- OwnThread ---------------------------------------------------------------------------------

void IoWorker::run()
{
    epoll_event events[kMaxEvents];
    for (;;) {
        const int ready = ::epoll_wait(m_epoll, events, kMaxEvents, nextTimeoutMillis());
        if (ready < 0 && errno != EINTR) {
            qWarning("inflight: the endpoint's event loop failed: %s", std::strerror(errno));
            break;
        }
        readEvents(events, ready);
        takeCommands();
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping)
                break;
        }
        endTurn();
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
    respondAll();

    for (const qintptr fd : adopting)
        addConnection(fd);

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

// ---- SessionThread -----------------------------------------------------------------------------

// Turns of the loop on the server's thread. With `poll` (the notifier or the deadline timer), each
// takes what epoll has without waiting, until it has nothing more or kTurnsPerActivation turns
// ran (the notifier, level-triggered, calls again for the rest). Without `poll`, one turn writes
// the answers posted and whatever follows from them.
void IoWorker::runTurns(bool poll)
{
    if (m_inTurn)
        return; // an event loop nested in a turn: the one running finishes the work
    m_inTurn = true;
    epoll_event events[kMaxEvents];
    for (int turn = 0; turn < kTurnsPerActivation; ++turn) {
        int ready = 0;
        if (poll) {
            ready = ::epoll_wait(m_epoll, events, kMaxEvents, 0);
            if (ready < 0) {
                if (errno != EINTR) {
                    qWarning("inflight: the endpoint's event loop failed: %s",
                             std::strerror(errno));
                    m_notifier->setEnabled(false);
                }
                ready = 0;
            }
        }
        if (ready == 0 && turn > 0)
            break; // the last turn left nothing to do
        readEvents(events, ready);
        endTurn();
        if (ready == 0)
            break;
    }
    m_inTurn = false;
    armDeadline();
}

// Writes the answers the server gave and hands it the requests that lets through (pipelined ones,
// those that waited behind a long poll), until neither is left.
void IoWorker::settle()
{
    for (;;) {
        deliverReady();
        if (m_toServer.empty())
            return;
        m_server.handleNow(m_toServer);
    }
}

void IoWorker::deliverReady()
{
    m_delivering.swap(m_ready);
    respondAll();
}

void IoWorker::armDeadline()
{
    const int millis = nextTimeoutMillis();
    if (millis >= 0)
        m_deadlineTimer->start(millis);
    else if (m_deadlineTimer->isActive())
        m_deadlineTimer->stop();
}

} // namespace inflight::server
