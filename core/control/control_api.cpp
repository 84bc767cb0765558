#include "control/control_api.h"

#include "config/queue_config_file.h"
#include "control/json_answer.h"
#include "control/simulation_routes.h"
#include "control/traffic_routes.h"
#include "session/session.h"

#include <QByteArray>
#include <QDateTime>
#include <QTimer>
#include <QUrlQuery>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <string_view>

namespace inflight::control {

namespace {

using Json = nlohmann::json;

const engine::Origin kOrigin = "control API";
constexpr std::string_view kPrefix = "/_inflight/v1/";
// Longest wait for events, in real seconds (as SQS's long poll).
constexpr int kMaxWaitSeconds = 20;
// Longest single clock move: a year and a day of engine time.
constexpr engine::Millis kMaxAdvance = 366LL * 24 * 3600 * 1000;
constexpr std::size_t kDefaultMessages = 10'000;
constexpr std::size_t kMaxMessages = 100'000;
constexpr std::size_t kDefaultEvents = 1'000;
constexpr std::size_t kMaxEvents = 10'000;

protocol::HttpResponse error(int status, const char* code, const QString& message)
{
    return protocol::controlError(status, QByteArray(code), message);
}

protocol::HttpResponse engineError(const engine::Error& e)
{
    const bool missing = e.code == engine::ErrorCode::QueueDoesNotExist;
    return error(missing ? 404 : 400, missing ? "QueueDoesNotExist" : "InvalidParameterValue",
                 QString::fromStdString(e.message));
}

std::string_view eventName(engine::EventKind kind)
{
    using K = engine::EventKind;
    switch (kind) {
    case K::QueueCreated: return "QueueCreated";
    case K::QueueChanged: return "QueueChanged";
    case K::QueueDeleted: return "QueueDeleted";
    case K::QueuePurged: return "QueuePurged";
    case K::MessageSent: return "MessageSent";
    case K::MessageDeduplicated: return "MessageDeduplicated";
    case K::DelayEnded: return "DelayEnded";
    case K::MessageReceived: return "MessageReceived";
    case K::VisibilityChanged: return "VisibilityChanged";
    case K::MessageReleased: return "MessageReleased";
    case K::VisibilityExpired: return "VisibilityExpired";
    case K::MessageDeleted: return "MessageDeleted";
    case K::MovedToDeadLetterQueue: return "MovedToDeadLetterQueue";
    case K::MovedByTask: return "MovedByTask";
    case K::RetentionExpired: return "RetentionExpired";
    case K::MoveTaskProgress: return "MoveTaskProgress";
    }
    return "Unknown";
}

Json eventJson(const engine::Event& e, std::uint64_t cursor)
{
    Json out = {{"cursor", cursor},
                {"kind", eventName(e.kind)},
                {"time", e.time},
                {"queue", e.queue},
                {"origin", e.origin}};
    if (!e.messageId.empty())
        out["messageId"] = e.messageId;
    if (e.receiveCount > 0)
        out["receiveCount"] = e.receiveCount;
    if (e.deadline > 0)
        out["deadline"] = e.deadline;
    if (e.count != 0)
        out["count"] = e.count;
    if (!e.detail.empty()) {
        // What the detail is, by kind (events.h): a destination queue, a group, a task.
        out[engine::isMove(e.kind) ? "destination" : "detail"] = e.detail;
    }
    if (!e.relatedMessageId.empty())
        out["destinationMessageId"] = e.relatedMessageId;
    if (!e.receipt.empty())
        out["receiptHandle"] = e.receipt;
    return out;
}

std::string_view stateName(engine::MessageState state)
{
    switch (state) {
    case engine::MessageState::Delayed: return "delayed";
    case engine::MessageState::Available: return "available";
    case engine::MessageState::InFlight: return "inFlight";
    }
    return "?";
}

Json attributesJson(const engine::MessageAttributes& attributes)
{
    Json out = Json::object();
    for (const auto& [name, value] : attributes) {
        Json item = {{"DataType", value.dataType}};
        if (value.isBinary()) {
            const QByteArray bytes(value.binaryValue.data(),
                                   static_cast<qsizetype>(value.binaryValue.size()));
            item["BinaryValue"] = bytes.toBase64().toStdString();
        } else {
            item["StringValue"] = value.stringValue;
        }
        out[name] = std::move(item);
    }
    return out;
}

Json messageJson(const engine::MessageView& m)
{
    Json out = {{"messageId", m.messageId},
                {"state", stateName(m.state)},
                {"body", m.body},
                {"attributes", attributesJson(m.attributes)},
                {"receiveCount", m.receiveCount},
                {"sentTimestamp", m.sentAt},
                {"expiresAt", m.expiresAt}};
    if (m.state == engine::MessageState::InFlight) {
        out["visibleAt"] = m.visibleAt;
        out["receiptHandle"] = m.receiptHandle;
        out["receivedAt"] = m.receivedAt;
    }
    if (m.state == engine::MessageState::Delayed)
        out["deliverAt"] = m.deliverAt;
    if (m.firstReceivedAt > 0)
        out["firstReceivedAt"] = m.firstReceivedAt;
    if (!m.groupId.empty())
        out["groupId"] = m.groupId;
    if (!m.deduplicationId.empty())
        out["deduplicationId"] = m.deduplicationId;
    if (!m.sequenceNumber.empty())
        out["sequenceNumber"] = m.sequenceNumber;
    if (!m.channelId.empty())
        out["channel"] = m.channelId;
    if (!m.deadLetterSourceArn.empty())
        out["deadLetterSourceArn"] = m.deadLetterSourceArn;
    if (!m.systemAttributes.empty())
        out["systemAttributes"] = attributesJson(m.systemAttributes);
    out["movesToDeadLetterQueueOnNextReceive"] = m.movesToDeadLetterOnNextReceive;
    return out;
}

// A whole non-negative number of a query parameter; nullopt when absent.
std::optional<std::optional<std::uint64_t>> unsignedParameter(const QUrlQuery& query,
                                                              const QString& name)
{
    if (!query.hasQueryItem(name))
        return std::optional<std::uint64_t>();
    bool ok = false;
    const qulonglong value = query.queryItemValue(name).toULongLong(&ok);
    if (!ok)
        return std::nullopt;
    return std::optional<std::uint64_t>(value);
}

bool isLoopbackPeer(const QString& origin)
{
    // "127.0.0.1:53412", "[::1]:53412" (HttpConnection's peer text; IPv4-mapped IPv6 unwrapped).
    return origin.startsWith(QStringLiteral("127.")) || origin.startsWith(QStringLiteral("[::1]"));
}

// "/_inflight/v1/queues/orders%2Ddlq/messages" → {"queues", "orders-dlq", "messages"}.
QStringList routeOf(const QByteArray& path)
{
    QStringList parts;
    for (const QByteArray& part : path.mid(static_cast<qsizetype>(kPrefix.size())).split('/'))
        parts << QString::fromUtf8(QByteArray::fromPercentEncoding(part));
    while (!parts.isEmpty() && parts.last().isEmpty())
        parts.removeLast(); // a trailing '/'
    return parts;
}

} // namespace

ControlApi::ControlApi(session::Session& session, ControlOptions options, QObject* parent)
    : QObject(parent),
      m_session(session),
      m_options(std::move(options)),
      m_journal(m_options.journalCapacity, m_options.firstCursor)
{
    connect(&m_session, &session::Session::eventsReady, this,
            [this](const std::vector<engine::Event>& events) {
                m_journal.append(events);
                onEvents();
            });
}

ControlApi::~ControlApi()
{
    // Nobody is left waiting: each open events?waitSeconds gets what there is (nothing more).
    auto waiters = std::move(m_waiters);
    m_waiters.clear();
    for (Waiter& waiter : waiters)
        waiter.respond(eventPage(waiter.after, waiter.limit));
}

std::optional<protocol::HttpResponse> ControlApi::refusal(
    const protocol::HttpRequest& request) const
{
    const QByteArray authorization = request.header(QByteArrayLiteral("authorization"));
    const bool loopback = isLoopbackPeer(request.origin);
    if (!authorization.isNull()) {
        const QByteArray expected = "Bearer " + m_options.token.toUtf8();
        if (m_options.token.isEmpty() || authorization != expected)
            return error(403, "Forbidden",
                         QStringLiteral("The control API's bearer token is wrong%1.")
                             .arg(m_options.token.isEmpty()
                                      ? QStringLiteral(" (none is set: start Inflight with "
                                                       "--control-token)")
                                      : QString()));
        return std::nullopt;
    }
    if (!loopback)
        return error(403, "Forbidden",
                     m_options.token.isEmpty()
                         ? QStringLiteral("The control API answers only on loopback. Start "
                                          "Inflight with --control-token TOKEN and send "
                                          "\"Authorization: Bearer TOKEN\" to use it from "
                                          "another machine.")
                         : QStringLiteral("The control API needs \"Authorization: Bearer "
                                          "<token>\" from another machine."));
    return std::nullopt;
}

std::optional<protocol::HttpResponse> ControlApi::handle(const protocol::HttpRequest& request,
                                                         quint64 tag, Respond later)
{
    if (auto refused = refusal(request))
        return refused;
    return route(request, tag, later);
}

std::optional<protocol::HttpResponse> ControlApi::route(const protocol::HttpRequest& request,
                                                        quint64 tag, Respond& later)
{
    if (!request.path.startsWith(QByteArrayView(kPrefix.data(), qsizetype(kPrefix.size()))))
        return error(404, "NotFound",
                     QStringLiteral("Unknown control API path %1: the API is under /_inflight/v1/.")
                         .arg(QString::fromUtf8(request.path.left(200))));
    const QStringList route = routeOf(request.path);
    const QByteArray& method = request.method;
    const auto wrongMethod = [&](const char* allowed) {
        protocol::HttpResponse response
            = error(405, "MethodNotAllowed",
                    QStringLiteral("%1 is not allowed on %2; use %3.")
                        .arg(QString::fromLatin1(method), QString::fromUtf8(request.path.left(200)),
                             QString::fromLatin1(allowed)));
        response.headers.append({QByteArrayLiteral("Allow"), QByteArray(allowed)});
        return response;
    };

    if (route == QStringList{QStringLiteral("health")})
        return method == "GET"
            ? jsonAnswer({{"ready", true}, {"version", m_options.version.toStdString()}})
            : wrongMethod("GET");
    if (route == QStringList{QStringLiteral("clock")}) {
        if (method == "GET")
            return clockState();
        if (method == "POST")
            return changeClock(request, later);
        return wrongMethod("GET, POST");
    }
    if (route == QStringList{QStringLiteral("events")})
        return method == "GET" ? events(request, tag, later) : wrongMethod("GET");
    if (route == QStringList{QStringLiteral("reset")}) {
        if (method != "POST")
            return wrongMethod("POST");
        m_session.resetEverything(kOrigin); // actors too: they would act on queues now gone
        return jsonAnswer({{"reset", true}});
    }
    if (route == QStringList{QStringLiteral("config")})
        return method == "POST" ? loadConfig(request) : wrongMethod("POST");
    if (auto traffic = trafficRoute(m_options.traffic, route, request, m_options.version))
        return traffic;
    if (auto simulation = simulationRoute(m_session, route, request))
        return simulation;
    if (route.size() == 3 && route[0] == QStringLiteral("queues")) {
        if (route[2] == QStringLiteral("messages"))
            return method == "GET" ? messages(route[1], request) : wrongMethod("GET");
        if (route[2] == QStringLiteral("reset"))
            return method == "POST" ? resetQueue(route[1]) : wrongMethod("POST");
    }
    return error(404, "NotFound",
                 QStringLiteral("Unknown control API path %1. Routes: health, clock, events, "
                                "reset, config, queues/{name}/messages, queues/{name}/reset, "
                                "traffic, traffic.har, clients, actors, "
                                "actors/{name}/start|stop|pause|resume, scenario.")
                     .arg(QString::fromUtf8(request.path.left(200))));
}

protocol::HttpResponse ControlApi::clockState() const
{
    const engine::Millis now = m_session.now();
    return jsonAnswer({{"now", now},
                       {"paused", m_session.isPaused()},
                       {"speed", m_session.speed()},
                       {"wallOffsetMs", now - QDateTime::currentMSecsSinceEpoch()}});
}

std::optional<protocol::HttpResponse> ControlApi::changeClock(const protocol::HttpRequest& request,
                                                              Respond& later)
{
    const Json body
        = Json::parse(request.body.constBegin(), request.body.constEnd(), nullptr, false);
    if (body.is_discarded() || !body.is_object() || body.size() != 1)
        return error(400, "BadRequest",
                     QStringLiteral("POST /_inflight/v1/clock wants a JSON object with one of "
                                    "pause, resume, speed, advanceMs, advanceTo."));
    // (Not a structured binding of *items().begin(): that proxy is a temporary, and a key taken
    // from it dangles past this line — ASan caught it.)
    const auto entry = body.begin();
    const std::string& key = entry.key();
    const Json& value = entry.value();
    const engine::Millis now = m_session.now();
    if (key == "pause" || key == "resume") {
        if (value != true)
            return error(400, "BadRequest",
                         QStringLiteral("%1 must be true.").arg(QString::fromStdString(key)));
        key == "pause" ? m_session.pause() : m_session.resume();
        return clockState();
    }
    if (key == "speed") {
        if (!value.is_number() || value.get<double>() <= 0 || value.get<double>() > 100'000)
            return error(400, "BadRequest",
                         QStringLiteral("speed must be a number above 0 and at most 100000."));
        m_session.setSpeed(value.get<double>());
        return clockState();
    }
    if (key != "advanceMs" && key != "advanceTo")
        return error(400, "BadRequest",
                     QStringLiteral("Unknown clock change %1: use pause, resume, speed, advanceMs "
                                    "or advanceTo.")
                         .arg(QString::fromStdString(key.substr(0, 100))));
    if (!value.is_number_integer())
        return error(400, "BadRequest",
                     QStringLiteral("%1 must be a whole number of "
                                    "milliseconds.")
                         .arg(QString::fromStdString(key)));
    // Either spelling of a move becomes a delta from now, checked before anything moves.
    const bool relative = key == "advanceMs";
    const std::int64_t given = value.is_number_unsigned()
        ? static_cast<std::int64_t>(
            std::min<std::uint64_t>(value.get<std::uint64_t>(), std::uint64_t(INT64_MAX)))
        : value.get<std::int64_t>();
    if (!relative && given < now)
        return error(400, "BadRequest",
                     QStringLiteral("advanceTo %1 is before engine time %2: time only moves "
                                    "forward.")
                         .arg(given)
                         .arg(now));
    const engine::Millis delta = relative ? given : given - now;
    if (delta < 0 || delta > kMaxAdvance)
        return error(400, "BadRequest",
                     QStringLiteral("A clock move must be from 0 to %1 ms (366 days) at once, not "
                                    "%2.")
                         .arg(kMaxAdvance)
                         .arg(delta));
    m_session.step(delta);
    // Answer once what fell due has settled: answers to long polls and the events of the move go
    // out from the event loop (queued), so this answer is queued behind them.
    QTimer::singleShot(0, this, [this, respond = std::move(later)] { respond(clockState()); });
    return std::nullopt;
}

protocol::HttpResponse ControlApi::messages(const QString& queue,
                                            const protocol::HttpRequest& request)
{
    const QUrlQuery query(QString::fromUtf8(request.query));
    engine::PeekRequest peek;
    if (query.hasQueryItem(QStringLiteral("state"))) {
        const QString state = query.queryItemValue(QStringLiteral("state"));
        peek.available = state == QStringLiteral("available");
        peek.delayed = state == QStringLiteral("delayed");
        peek.inFlight = state == QStringLiteral("inFlight");
        if (!peek.available && !peek.delayed && !peek.inFlight)
            return error(400, "BadRequest",
                         QStringLiteral("state must be available, delayed or inFlight, not %1.")
                             .arg(state.left(100)));
    }
    const auto limit = unsignedParameter(query, QStringLiteral("limit"));
    const auto offset = unsignedParameter(query, QStringLiteral("offset"));
    if (!limit || !offset || (*limit && (**limit < 1 || **limit > kMaxMessages)))
        return error(400, "BadRequest",
                     QStringLiteral("limit must be from 1 to %1 and offset a whole number.")
                         .arg(kMaxMessages));
    peek.offset = static_cast<std::size_t>(offset->value_or(0));
    const std::size_t wanted = static_cast<std::size_t>(limit->value_or(kDefaultMessages));
    peek.limit = wanted + 1; // one more tells whether there are more
    auto found = m_session.broker().peekMessages(queue.toStdString(), peek);
    if (!found)
        return engineError(found.error());
    Json list = Json::array();
    const bool more = found->size() > wanted;
    for (std::size_t i = 0; i < std::min(found->size(), wanted); ++i)
        list.push_back(messageJson((*found)[i]));
    Json body = {{"messages", std::move(list)}};
    if (more)
        body["nextOffset"] = peek.offset + wanted;
    return jsonAnswer(body);
}

protocol::HttpResponse ControlApi::eventPage(std::uint64_t after, std::size_t limit) const
{
    const config::EventJournal::Page page = m_journal.after(after, limit);
    Json list = Json::array();
    std::uint64_t cursor = page.cursor - page.events.size();
    for (const engine::Event* event : page.events)
        list.push_back(eventJson(*event, ++cursor));
    Json body = {{"events", std::move(list)}, {"cursor", page.cursor}};
    if (page.dropped > 0)
        body["dropped"] = page.dropped;
    return jsonAnswer(body);
}

std::optional<protocol::HttpResponse> ControlApi::events(const protocol::HttpRequest& request,
                                                         quint64 tag, Respond& later)
{
    const QUrlQuery query(QString::fromUtf8(request.query));
    const auto after = unsignedParameter(query, QStringLiteral("after"));
    const auto wait = unsignedParameter(query, QStringLiteral("waitSeconds"));
    const auto limit = unsignedParameter(query, QStringLiteral("limit"));
    if (!after || !wait || !limit || (*wait && **wait > kMaxWaitSeconds)
        || (*limit && (**limit < 1 || **limit > kMaxEvents)))
        return error(400, "BadRequest",
                     QStringLiteral("after must be a cursor (a whole number), waitSeconds from 0 "
                                    "to %1 and limit from 1 to %2.")
                         .arg(kMaxWaitSeconds)
                         .arg(kMaxEvents));
    // Events of calls already answered may still be batched in the session: the journal takes them
    // first, so a test that asks right after its SQS call sees that call's events.
    m_session.flushNow();
    // Without `after`, the answer is the current cursor: where a test starts from.
    const std::uint64_t from = after->value_or(m_journal.newest());
    const std::size_t count = static_cast<std::size_t>(limit->value_or(kDefaultEvents));
    if (m_journal.newest() > from || wait->value_or(0) == 0)
        return eventPage(from, count);
    auto timeout = std::make_unique<QTimer>();
    timeout->setSingleShot(true);
    QTimer* timer = timeout.get();
    m_waiters.push_back(Waiter{tag, from, count, std::move(later), std::move(timeout)});
    auto waiter = std::prev(m_waiters.end());
    connect(timer, &QTimer::timeout, this, [this, waiter] {
        Respond respond = std::move(waiter->respond);
        const std::uint64_t from = waiter->after;
        const std::size_t count = waiter->limit;
        m_waiters.erase(waiter); // deletes the timer: after its signal, which Qt allows
        respond(eventPage(from, count));
    });
    timer->start(static_cast<int>(**wait * 1000));
    return std::nullopt;
}

void ControlApi::onEvents()
{
    const std::uint64_t newest = m_journal.newest();
    for (auto it = m_waiters.begin(); it != m_waiters.end();) {
        if (newest > it->after) {
            Respond respond = std::move(it->respond);
            const std::uint64_t from = it->after;
            const std::size_t count = it->limit;
            it = m_waiters.erase(it);
            respond(eventPage(from, count));
        } else {
            ++it;
        }
    }
}

void ControlApi::cancel(quint64 tag)
{
    m_waiters.remove_if([tag](const Waiter& waiter) { return waiter.tag == tag; });
}

protocol::HttpResponse ControlApi::resetQueue(const QString& queue)
{
    const engine::Status reset = m_session.broker().resetQueue(queue.toStdString(), kOrigin);
    if (!reset)
        return engineError(reset.error());
    m_session.advanceNow();
    return jsonAnswer({{"reset", queue.toStdString()}});
}

protocol::HttpResponse ControlApi::loadConfig(const protocol::HttpRequest& request)
{
    const auto parsed = config::parseQueueConfig(
        std::string_view(request.body.constData(), static_cast<std::size_t>(request.body.size())));
    if (!parsed)
        return error(400, "InvalidConfig", QString::fromStdString(parsed.error().message));
    const auto applied = config::applyQueueConfig(m_session.broker(), *parsed, kOrigin);
    if (!applied)
        return error(400, "InvalidConfig", QString::fromStdString(applied.error().message));
    m_session.advanceNow();
    return jsonAnswer({{"queuesCreated", applied->queuesCreated},
                       {"queuesUpdated", applied->queuesUpdated},
                       {"messagesSent", applied->messagesSent}});
}

} // namespace inflight::control
