#include "server/http_server.h"

#include "control/control_api.h"
#include "server/io_worker.h"
#include "session/session.h"
#include "traffic/traffic_capture.h"
#include "traffic/traffic_log.h"

#include <QDateTime>
#include <QHostInfo>
#include <QTcpServer>
#include <QUrl>

#include <algorithm>
#include <iterator>
#include <limits>

#include <sys/resource.h>
#include <unistd.h>

namespace inflight::server {

namespace {

std::int64_t microsecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now()
                                                                 - start)
        .count();
}

// The listen backlog: room for a burst of clients while the loop is busy (the kernel caps it at
// net.core.somaxconn).
constexpr int kListenBacklog = 1024;

// Answers handed to the socket thread at a time while a batch of requests is being handled.
constexpr std::size_t kAnswerGroup = 4;

// The host part of queue URLs. A wildcard address is reachable under the machine's name; a
// client elsewhere could not use "0.0.0.0".
QString urlHost(const QHostAddress& address)
{
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4
        || address == QHostAddress::AnyIPv6)
        return QHostInfo::localHostName();
    if (address.protocol() == QAbstractSocket::IPv6Protocol)
        return QLatin1Char('[') + address.toString() + QLatin1Char(']');
    return address.toString();
}

bool isWildcard(const QHostAddress& address)
{
    return address == QHostAddress::Any || address == QHostAddress::AnyIPv4
        || address == QHostAddress::AnyIPv6;
}

} // namespace

int raiseOpenFileLimit()
{
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) != 0)
        return -1;
    if (files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
        ::getrlimit(RLIMIT_NOFILE, &files);
    }
    return files.rlim_cur == RLIM_INFINITY
        ? std::numeric_limits<int>::max()
        : static_cast<int>(std::min<rlim_t>(files.rlim_cur, std::numeric_limits<int>::max()));
}

HttpServer::HttpServer(session::Session& session, SocketThreading threading, QObject* parent)
    : QObject(parent),
      m_session(&session),
      m_endpoint(session.broker()),
      m_tcp(std::make_unique<QTcpServer>()),
      m_worker(std::make_unique<IoWorker>(*this, threading))
{
}

HttpServer::~HttpServer()
{
    m_worker->setListener(-1, m_limits);
    m_tcp->close();
    dropConnections();
    m_worker.reset(); // joins the socket thread (if any) before our members go
}

void HttpServer::setAdvertisedUrl(const QString& url)
{
    m_advertisedUrl = url;
    if (!m_baseUrl.isEmpty())
        m_endpoint.setBaseUrl(m_advertisedUrl.isEmpty() ? m_baseUrl : m_advertisedUrl);
    setAccessPolicy(m_policy);
}

void HttpServer::setAccessPolicy(const protocol::AccessPolicy& policy)
{
    m_policy = policy;
    protocol::AccessPolicy effective = policy;
    if (!m_advertisedUrl.isEmpty())
        effective.ownHosts << QUrl(m_advertisedUrl).host().toLower();
    if (m_tcp->isListening()) {
        const QHostAddress address = m_tcp->serverAddress();
        effective.anyAddressIsOwn = isWildcard(address);
        effective.ownHosts << protocol::hostOfHeader(urlHost(address).toUtf8());
        if (effective.anyAddressIsOwn)
            effective.ownHosts << QHostInfo::localHostName().toLower()
                               << QHostInfo::localHostName().toLower()
                    + (QHostInfo::localDomainName().isEmpty()
                           ? QString()
                           : QLatin1Char('.') + QHostInfo::localDomainName().toLower());
    }
    m_endpoint.setAccessPolicy(std::move(effective));
}

bool HttpServer::listen(const QHostAddress& address, quint16 port)
{
    const bool wasListening = m_tcp->isListening();
    if (wasListening && port != 0 && address == m_tcp->serverAddress()
        && port == m_tcp->serverPort())
        return true; // already there: its clients keep their connections
    // The new address is bound before the old one is let go: a change that fails (a port in use,
    // an address the machine does not have) leaves the endpoint where it was, serving.
    auto next = std::make_unique<QTcpServer>();
    next->setListenBacklogSize(kListenBacklog);
    bool bound = next->listen(address, port);
    const QHostAddress oldAddress = wasListening ? m_tcp->serverAddress() : QHostAddress();
    const quint16 oldPort = wasListening ? m_tcp->serverPort() : 0;
    if (!bound && wasListening && port == oldPort) {
        // The same port on another address (127.0.0.1 -> 0.0.0.0): the old socket holds it. Let
        // go of it first, and take it back if the new address cannot be had.
        stopListening();
        bound = next->listen(address, port);
    }
    if (!bound) {
        m_error = next->errorString();
        if (wasListening && !m_tcp->isListening()) {
            // Back where it was (its connections were dropped with the old socket).
            m_tcp->setListenBacklogSize(kListenBacklog);
            if (m_tcp->listen(oldAddress, oldPort))
                startAccepting(oldAddress);
            Q_EMIT listeningChanged();
        }
        return false;
    }
    if (m_tcp->isListening())
        stopListening();
    m_tcp = std::move(next);
    startAccepting(address);
    m_error.clear();
    Q_EMIT listeningChanged();
    return true;
}

void HttpServer::stopListening()
{
    m_worker->setListener(-1, m_limits);
    m_tcp->close();
    dropConnections();
    m_baseUrl.clear();
}

void HttpServer::startAccepting(const QHostAddress& address)
{
    // QTcpServer binds and listens (its address handling and error texts); the worker accepts, on
    // its own loop, where it can keep to the connection limits and shed clients at EMFILE.
    m_tcp->pauseAccepting();
    m_worker->setListener(::dup(static_cast<int>(m_tcp->socketDescriptor())), m_limits);
    m_baseUrl = QStringLiteral("http://%1:%2").arg(urlHost(address)).arg(m_tcp->serverPort());
    m_endpoint.setBaseUrl(m_advertisedUrl.isEmpty() ? m_baseUrl : m_advertisedUrl);
    setAccessPolicy(m_policy); // the hosts of the new address
}

void HttpServer::close()
{
    const bool wasListening = m_tcp->isListening();
    stopListening();
    if (wasListening)
        Q_EMIT listeningChanged();
}

bool HttpServer::isListening() const
{
    return m_tcp->isListening();
}

QHostAddress HttpServer::serverAddress() const
{
    return m_tcp->serverAddress();
}

quint16 HttpServer::serverPort() const
{
    return m_tcp->serverPort();
}

QString HttpServer::baseUrl() const
{
    return m_baseUrl;
}

int HttpServer::connectionCount() const
{
    return m_worker->connectionCount();
}

void HttpServer::dropConnections()
{
    // Connections first (they may still submit), then what they left with us.
    m_worker->dropAll();
    {
        std::lock_guard lock(m_inboxMutex);
        m_inbox.clear();
    }
    for (auto& [connection, wait] : m_waits)
        delete wait.receive; // cancels the engine wait
    m_waits.clear();
}

void HttpServer::enqueue(IoWorker* worker, ConnectionRequests& requests)
{
    Q_ASSERT(worker == m_worker.get()); // one worker for now
    bool wake = false;
    {
        std::lock_guard lock(m_inboxMutex);
        wake = m_inbox.empty();
        if (wake) {
            m_inbox.swap(requests);
        } else {
            std::move(requests.begin(), requests.end(), std::back_inserter(m_inbox));
            requests.clear();
        }
    }
    if (wake)
        QMetaObject::invokeMethod(this, &HttpServer::drainInbox, Qt::QueuedConnection);
}

void HttpServer::drainInbox()
{
    {
        std::lock_guard lock(m_inboxMutex);
        m_handling.swap(m_inbox);
    }
    handleBatch();
}

void HttpServer::handleNow(ConnectionRequests& requests)
{
    m_handling.swap(requests); // gives the worker back the capacity of the last batch
    handleBatch();
}

void HttpServer::handleBatch()
{
    // Without a workspace to wait for, answers go back in small groups while the rest of the
    // batch is handled, so that the socket thread writes them meanwhile instead of both threads
    // taking turns over whole batches. (A post wakes the socket thread at most once until it
    // takes what is there. Not isDurable(): durable before the batch does not make its answers
    // durable. On the session's thread, the worker writes them once this returns.)
    const bool answerEarly = !m_session->hasPersistence();
    for (auto& [connection, request] : m_handling) {
        handle(connection, request);
        if (answerEarly && m_answers.size() >= kAnswerGroup)
            m_worker->post(m_answers);
    }
    m_handling.clear();
    answerWhenDurable();
}

void HttpServer::answerWhenDurable()
{
    if (m_answers.empty())
        return;
    if (m_session->isDurable()) {  // always so without a workspace
        m_worker->post(m_answers); // one hand-over for the whole batch
        return;
    }
    // Acknowledged means durable: the answers wait for the session's next commit. If it fails,
    // each client gets a 500 in its request's protocol instead of a false acknowledgement, on a
    // connection that stays open; SDKs retry it.
    m_session->whenDurable(this, [this, answers = std::move(m_answers)](bool stored) mutable {
        if (!stored) {
            const QString reason = m_session->persistenceError();
            for (ConnectionAnswer& answer : answers)
                answer.response = protocol::notStored(answer.protocol, answer.response, reason);
        }
        m_worker->post(answers);
    });
    m_answers.clear();
}

void HttpServer::handle(quint64 connection, std::optional<protocol::HttpRequest>& request)
{
    if (!request) { // the client hung up
        const auto it = m_waits.find(connection);
        if (it != m_waits.end()) {
            Wait& wait = it->second;
            if (m_traffic && wait.cursor != 0) {
                traffic::hungUp(wait.record, microsecondsSince(wait.arrived));
                m_traffic->complete(wait.cursor, std::move(wait.record));
            }
            delete wait.receive; // cancels the engine wait
            m_waits.erase(it);
        }
        if (m_control)
            m_control->cancel(connection);
        return;
    }
    if (protocol::isControlPath(request->path)) {
        handleControl(connection, *request);
        return;
    }
    if (m_traffic) {
        handleRecorded(connection, *request);
        return;
    }
    // The protocol is needed again only if a commit fails, so only with a workspace: the
    // in-memory endpoint answers everything as it is and does not look for it.
    const protocol::WireProtocol wire = m_session->hasPersistence()
        ? protocol::wireProtocol(*request)
        : protocol::WireProtocol::SqsJson;
    protocol::Outcome outcome = m_endpoint.handle(*request);
    if (auto* response = std::get_if<protocol::HttpResponse>(&outcome)) {
        m_answers.push_back({connection, wire, std::move(*response)});
        return;
    }
    auto& deferred = std::get<protocol::DeferredReceive>(outcome);
    session::PendingReceive* receive = m_session->receive(std::move(deferred.request));
    m_waits[connection] = Wait{receive, wire, std::move(deferred.respond)};
    // finished() is always emitted from the event loop, even for an answer known at once.
    connect(receive, &session::PendingReceive::finished, this,
            [this, connection] { finishWait(connection); });
}

void HttpServer::handleRecorded(quint64 connection, protocol::HttpRequest& request)
{
    const auto arrived = std::chrono::steady_clock::now();
    const std::int64_t wallTime = QDateTime::currentMSecsSinceEpoch();
    const QString address = request.origin;
    const traffic::ClientIdentities::Known& client = m_traffic->identities().identify(
        request.header(QByteArrayLiteral("Authorization")), request.query,
        request.header(QByteArrayLiteral("User-Agent")), address);
    // The engine calls of this request carry its client as their origin, so its events and
    // receipts lead back to the client; the numbers of the events it causes lead to the request.
    request.origin = client.identity.key;
    protocol::RequestSummary summary;
    const std::uint64_t eventsBefore = m_session->broker().eventsEmitted();
    protocol::Outcome outcome = m_endpoint.handle(request, &summary);
    const std::uint64_t eventsAfter = m_session->broker().eventsEmitted();
    const protocol::WireProtocol wire = summary.protocol;
    if (auto* response = std::get_if<protocol::HttpResponse>(&outcome)) {
        traffic::TrafficRecord record = traffic::arrival(
            std::move(request), client, address, summary, wallTime, m_session->now(), false);
        record.firstEvent = eventsBefore + 1;
        record.lastEvent = eventsAfter;
        traffic::answered(record, *response, summary, microsecondsSince(arrived));
        m_traffic->add(std::move(record));
        m_answers.push_back({connection, wire, std::move(*response)});
        return;
    }
    auto& deferred = std::get<protocol::DeferredReceive>(outcome);
    session::PendingReceive* receive = m_session->receive(std::move(deferred.request));
    Wait wait{receive, wire, std::move(deferred.respond)};
    wait.record = traffic::arrival(std::move(request), client, address, summary, wallTime,
                                   m_session->now(), true);
    wait.record.firstEvent = eventsBefore + 1;
    wait.record.lastEvent = eventsAfter;
    wait.cursor = m_traffic->add(wait.record);
    wait.summary = std::move(summary);
    wait.arrived = arrived;
    m_waits[connection] = std::move(wait);
    connect(receive, &session::PendingReceive::finished, this,
            [this, connection] { finishWait(connection); });
}

void HttpServer::handleControl(quint64 connection, const protocol::HttpRequest& request)
{
    constexpr auto wire = protocol::WireProtocol::Control;
    std::optional<protocol::HttpResponse> answer; // none: the control API answers later
    if (const protocol::Admission admission = m_endpoint.checkAccess(request); !admission)
        answer = admission.error();
    else if (!m_control)
        answer = protocol::controlError(404, "NotFound",
                                        QStringLiteral("The control API is off (--control off)."));
    else
        answer = m_control->handle(request, connection, [this, connection](auto response) {
            m_answers.push_back({connection, wire, std::move(response)});
            answerWhenDurable();
        });
    if (answer)
        m_answers.push_back({connection, wire, std::move(*answer)});
}

void HttpServer::finishWait(quint64 connection)
{
    const auto it = m_waits.find(connection);
    if (it == m_waits.end())
        return;
    Wait wait = std::move(it->second);
    m_waits.erase(it);
    answerWait(connection, wait, wait.receive->result());
    answerWhenDurable();
    wait.receive->deleteLater(); // we are inside its signal
}

void HttpServer::answerWait(quint64 connection, Wait& wait,
                            const engine::Result<engine::ReceiveResult>& result)
{
    m_answers.push_back({connection, wait.protocol, wait.respond(result)});
    if (m_traffic && wait.cursor != 0) {
        m_endpoint.summarizeWaitEnded(result, wait.summary);
        traffic::answered(wait.record, m_answers.back().response, wait.summary,
                          microsecondsSince(wait.arrived));
        m_traffic->complete(wait.cursor, std::move(wait.record));
    }
}

void HttpServer::endWaits()
{
    if (m_waits.empty())
        return;
    auto waits = std::move(m_waits);
    m_waits.clear();
    const engine::Result<engine::ReceiveResult> empty = engine::ReceiveResult{};
    for (auto& [connection, wait] : waits) {
        // One that has its answer already (its finished() not yet delivered) gets it.
        answerWait(connection, wait, wait.receive->isFinished() ? wait.receive->result() : empty);
        delete wait.receive; // cancels the engine wait; its finished() never comes
    }
    answerWhenDurable();
}

void HttpServer::setSession(session::Session& session)
{
    endWaits();
    m_session = &session;
    m_endpoint.setBroker(session.broker());
}

} // namespace inflight::server
