#include "server/io_worker.h"

#include "server/http_connection.h"
#include "server/http_server.h"
#include "server/http_wire.h"
#include "server/refusals.h"

#include <QDebug>
#include <QSocketNotifier>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>

#include <fcntl.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace inflight::server {

namespace {

// epoll data for the wake-up eventfd and the listening socket; connections use their ids, which
// start at 1.
constexpr quint64 kWakeId = 0;
constexpr quint64 kListenId = std::numeric_limits<quint64>::max();
// Clients accepted per turn at most, so that a flood of connections does not starve the answers.
constexpr int kAcceptsPerTurn = 64;
// How often at least the connections' deadlines are looked at (they are checked in one sweep, not
// per turn; a deadline is met this much late at worst), and how long accepting rests after an
// error it cannot act on (ENOBUFS, or EMFILE with nothing to close).
constexpr auto kSweepInterval = std::chrono::milliseconds(250);
constexpr auto kAcceptPause = std::chrono::milliseconds(100);
constexpr int kMaxEvents = 128;
// OwnThread: requests handed to the server at a time while ready sockets are being read.
constexpr std::size_t kRequestGroup = 4;
// SessionThread: turns of the loop per activation at most, while sockets keep being ready. More
// turns save trips through the Qt event loop under load; the bound lets its timers (long polls,
// the session's deadlines and commits) and the window's events in between.
constexpr int kTurnsPerActivation = 8;

int openReserve()
{
    return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

// The connections this process can hold: the soft file limit less what everything else needs.
std::size_t connectionCap(const ConnectionLimits& limits)
{
    rlimit files{};
    std::size_t cap = static_cast<std::size_t>(std::max(1, limits.maxConnections));
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
        const auto usable = files.rlim_cur > rlim_t(2 * ConnectionLimits::kReservedFiles)
            ? files.rlim_cur - ConnectionLimits::kReservedFiles
            : files.rlim_cur / 2;
        cap = std::min<std::size_t>(cap, static_cast<std::size_t>(usable));
    }
    return cap;
}

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
    m_reserveFd = openReserve();
    m_refusals = std::make_unique<Refusals>(m_epoll);
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
        useListener(-1, m_limits);
    }
    if (m_reserveFd >= 0)
        ::close(m_reserveFd);
    m_refusals.reset(); // closes the refused sockets still lingering
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

void IoWorker::setListener(int fd, const ConnectionLimits& limits)
{
    if (!m_ownThread) {
        useListener(fd, limits);
        armDeadline();
        return;
    }
    std::unique_lock lock(m_mutex);
    if (m_listenerCommand && m_listenerCommand->first >= 0)
        ::close(m_listenerCommand->first); // superseded before the loop took it
    m_listenerCommand.emplace(fd, limits);
    const quint64 generation = ++m_listenerRequested;
    lock.unlock();
    wake();
    lock.lock();
    m_dropDone.wait(lock, [&] { return m_listenerFinished >= generation; });
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
        if (id == kListenId) {
            acceptReady();
            continue;
        }
        if (Refusals::isRefusal(id)) {
            m_refusals->onReadable(id);
            continue;
        }
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
    if (m_now >= m_nextSweep)
        sweepDeadlines();
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

// Connections past their deadline are closed; the next sweep is due at the earliest deadline
// left, or kSweepInterval from now (deadlines that appear meanwhile are at least that far away
// or met that much late).
void IoWorker::sweepDeadlines()
{
    std::vector<HttpConnection*> due;
    Clock::time_point next = m_now + kSweepInterval;
    for (auto& [id, connection] : m_connections) {
        const auto deadline = connection->deadline();
        if (!deadline)
            continue;
        if (*deadline <= m_now)
            due.push_back(connection.get());
        else
            next = std::min(next, *deadline);
    }
    for (HttpConnection* connection : due)
        connection->onDeadline(); // closes it: not while walking m_connections
    if (m_acceptPaused && m_acceptResume <= m_now) {
        m_acceptPaused = false;
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = kListenId;
        ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, m_listenFd, &event);
    }
    if (m_acceptPaused)
        next = std::min(next, m_acceptResume);
    if (const auto refusal = m_refusals->sweep(m_now))
        next = std::min(next, *refusal);
    m_nextSweep = next;
}

void IoWorker::useListener(int fd, const ConnectionLimits& limits)
{
    if (m_listenFd >= 0) {
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, m_listenFd, nullptr);
        ::close(m_listenFd);
    }
    m_listenFd = fd;
    m_limits = limits;
    m_maxConnections = connectionCap(limits);
    m_acceptPaused = false;
    if (fd < 0)
        return;
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = kListenId;
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event);
}

// Takes the clients waiting in the listen backlog. At the connection cap a new client closes the
// connection idle longest; at the process's file limit likewise, and when nothing is idle it is
// shed (accepted on the reserve descriptor and closed) rather than left in the backlog, where it
// would keep the socket readable and the loop spinning.
void IoWorker::acceptReady()
{
    for (int i = 0; i < kAcceptsPerTurn && m_listenFd >= 0; ++i) {
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;
            if ((errno == EMFILE || errno == ENFILE) && evictIdlest())
                continue;
            if (errno == EMFILE || errno == ENFILE)
                shedOne();
            else
                qWarning("inflight: the endpoint cannot accept a client: %s", std::strerror(errno));
            pauseAccepting();
            return;
        }
        if (m_connections.size() >= m_maxConnections && !evictIdlest()) {
            m_refusals->refuse(fd, tooManyConnections(), m_now);
            m_nextSweep = std::min(m_nextSweep, m_now + Refusals::kLinger);
            continue;
        }
        addConnection(fd);
    }
}

// Closes the connection that moved no byte for longest among those whose closing loses nothing.
bool IoWorker::evictIdlest()
{
    HttpConnection* idlest = nullptr;
    for (auto& [id, connection] : m_connections) {
        if (connection->isEvictable()
            && (!idlest || connection->lastProgress() < idlest->lastProgress()))
            idlest = connection.get();
    }
    if (!idlest)
        return false;
    idlest->abort(); // its descriptor is free at once
    return true;
}

void IoWorker::shedOne()
{
    if (m_reserveFd < 0)
        return;
    ::close(m_reserveFd);
    const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) {
        const QByteArray refusal = tooManyConnections();
        [[maybe_unused]] const auto sent
            = ::send(fd, refusal.constData(), static_cast<size_t>(refusal.size()),
                     MSG_NOSIGNAL | MSG_DONTWAIT);
        ::close(fd);
    }
    m_reserveFd = openReserve();
}

// Stops watching the listening socket for kAcceptPause; the sweep watches it again.
void IoWorker::pauseAccepting()
{
    if (m_acceptPaused || m_listenFd < 0)
        return;
    m_acceptPaused = true;
    m_acceptResume = m_now + kAcceptPause;
    epoll_event event{};
    event.events = 0;
    event.data.u64 = kListenId;
    ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, m_listenFd, &event);
    m_nextSweep = std::min(m_nextSweep, m_acceptResume);
}

void IoWorker::addConnection(int fd)
{
    const quint64 id = m_nextId++;
    auto connection = std::make_unique<HttpConnection>(fd, *this, id, m_now);
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
    m_refusals->closeAll();
    m_toServer.clear(); // nothing of theirs goes to the engine any more
    m_finished.clear();
}

int IoWorker::nextTimeoutMillis() const
{
    if (m_connections.empty() && !m_acceptPaused && m_refusals->lingering() == 0)
        return -1; // nothing has a deadline: sleep until something happens
    const auto millis
        = std::chrono::ceil<std::chrono::milliseconds>(m_nextSweep - Clock::now()).count();
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
        m_now = Clock::now();
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
    useListener(-1, m_limits);
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

    std::optional<std::pair<int, ConnectionLimits>> listener;
    quint64 dropRequested = 0;
    quint64 listenerRequested = 0;
    {
        std::lock_guard lock(m_mutex);
        listener.swap(m_listenerCommand);
        m_delivering.swap(m_outbox);
        dropRequested = m_dropRequested;
        listenerRequested = m_listenerRequested;
    }
    respondAll();

    if (listener) {
        useListener(listener->first, listener->second);
        {
            std::lock_guard lock(m_mutex);
            m_listenerFinished = listenerRequested;
        }
        m_dropDone.notify_all();
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
        m_now = Clock::now();
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
