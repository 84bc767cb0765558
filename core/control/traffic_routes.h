#pragma once

#include "protocol/http_types.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace inflight::traffic {
class TrafficLog;
}

namespace inflight::control {

// The control API's read-only view of the traffic log (README "The traffic log"):
//
//   GET traffic[?after=C&errors=1&limit=N]     {"requests": [...], "cursor": C', "dropped": D}:
//                                              the records after C (recordJson), oldest first;
//                                              C' is where to go on from, D how many after C the
//                                              ring has dropped
//   GET traffic.har[?after=C&errors=1&limit=N] the same records as a HAR 1.2 document
//   GET clients                                {"clients": [...]} (clientJson)
//
// `route` is the path after /_inflight/v1/, split; nullopt when it is none of these. Without a
// log (`log` null) they answer 404 TrafficLogOff.
std::optional<protocol::HttpResponse> trafficRoute(const traffic::TrafficLog* log,
                                                   const QStringList& route,
                                                   const protocol::HttpRequest& request,
                                                   const QString& version);

} // namespace inflight::control
