#include "control/traffic_routes.h"

#include "control/json_answer.h"
#include "traffic/traffic_json.h"
#include "traffic/traffic_log.h"

#include <QUrlQuery>

#include <nlohmann/json.hpp>

namespace inflight::control {

namespace {

using Json = nlohmann::json;

constexpr std::size_t kDefaultRecords = 1'000;
constexpr std::size_t kMaxRecords = 10'000;

struct Page {
    std::vector<traffic::TrafficRecord> records;
    std::uint64_t cursor = 0;
    std::uint64_t dropped = 0;
};

// The records the query asks for, or the error naming the parameter that is wrong.
std::variant<Page, protocol::HttpResponse> page(const traffic::TrafficLog& log,
                                                const protocol::HttpRequest& request)
{
    const QUrlQuery query(QString::fromUtf8(request.query));
    bool afterOk = true;
    bool limitOk = true;
    const std::uint64_t after = query.hasQueryItem(QStringLiteral("after"))
        ? query.queryItemValue(QStringLiteral("after")).toULongLong(&afterOk)
        : 0;
    const std::uint64_t limit = query.hasQueryItem(QStringLiteral("limit"))
        ? query.queryItemValue(QStringLiteral("limit")).toULongLong(&limitOk)
        : kDefaultRecords;
    const QString errors = query.queryItemValue(QStringLiteral("errors"));
    const bool errorsOk = errors.isEmpty() || errors == QStringLiteral("0")
        || errors == QStringLiteral("1") || errors == QStringLiteral("true")
        || errors == QStringLiteral("false");
    if (!afterOk || !limitOk || !errorsOk || limit < 1 || limit > kMaxRecords)
        return protocol::controlError(400, "BadRequest",
                                      QStringLiteral("after must be a cursor (a whole number), "
                                                     "limit from 1 to %1 and errors 0 or 1.")
                                          .arg(kMaxRecords));
    Page out;
    const bool errorsOnly = errors == QStringLiteral("1") || errors == QStringLiteral("true");
    out.records = log.after(after, static_cast<std::size_t>(limit), errorsOnly);
    // A full page ends at its last record; a short one has seen everything there is.
    out.cursor
        = out.records.size() == limit ? out.records.back().cursor : std::max(after, log.cursor());
    out.dropped = log.oldestCursor() > after + 1 ? log.oldestCursor() - after - 1 : 0;
    return out;
}

} // namespace

std::optional<protocol::HttpResponse> trafficRoute(const traffic::TrafficLog* log,
                                                   const QStringList& route,
                                                   const protocol::HttpRequest& request,
                                                   const QString& version)
{
    if (route.size() != 1
        || (route[0] != QStringLiteral("traffic") && route[0] != QStringLiteral("traffic.har")
            && route[0] != QStringLiteral("clients")))
        return std::nullopt;
    if (request.method != "GET") {
        protocol::HttpResponse response = protocol::controlError(
            405, "MethodNotAllowed",
            QStringLiteral("%1 is not allowed on %2; use GET.")
                .arg(QString::fromLatin1(request.method), QString::fromUtf8(request.path)));
        response.headers.append({QByteArrayLiteral("Allow"), QByteArrayLiteral("GET")});
        return response;
    }
    if (!log)
        return protocol::controlError(
            404, "TrafficLogOff",
            QStringLiteral("The traffic log is off (inflight --traffic-log off)."));
    if (route[0] == QStringLiteral("clients")) {
        Json clients = Json::array();
        for (const traffic::ClientStats& client : log->clients().clients())
            clients.push_back(traffic::clientJson(client));
        return jsonAnswer({{"clients", std::move(clients)}});
    }
    auto asked = page(*log, request);
    if (auto* refused = std::get_if<protocol::HttpResponse>(&asked))
        return std::move(*refused);
    const Page& found = std::get<Page>(asked);
    if (route[0] == QStringLiteral("traffic.har"))
        return jsonAnswer(traffic::harDocument(found.records, version));
    Json requests = Json::array();
    for (const traffic::TrafficRecord& record : found.records)
        requests.push_back(traffic::recordJson(record));
    return jsonAnswer(
        {{"requests", std::move(requests)}, {"cursor", found.cursor}, {"dropped", found.dropped}});
}

} // namespace inflight::control
