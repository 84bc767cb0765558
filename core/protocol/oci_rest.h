#pragma once

#include "engine/broker.h"
#include "protocol/endpoint.h"
#include "protocol/error_mapping.h"
#include "protocol/http_types.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>
#include <string>

namespace inflight::protocol::oci {

// OCI Queue REST (spec §6.1) under /20210201/queues/{queueId}/…, where queueId is the engine's
// queue name. Only OCI-profile queues answer; any other name is 404 NotAuthorizedOrNotFound.
bool isOciPath(const QByteArray& path);
// With `summary` (a traffic log), the calls also fill in what request_explanation.h explains.
Outcome handle(engine::Broker& broker, const HttpRequest& request,
               RequestSummary* summary = nullptr);
// `{"code":…,"message":…}` with the error's status and the request's opc-request-id.
HttpResponse errorResponse(const HttpRequest& request, const OciWireError& error);

// ---- shared by oci_rest.cpp and oci_messages.cpp ----------------------------------------------

struct OciContext {
    engine::Broker& broker;
    const HttpRequest& http;
    std::string queue;                         // the OCI queue addressed
    QList<QPair<QString, QString>> parameters; // decoded query string
    engine::Origin origin;
    RequestSummary* summary = nullptr; // with a traffic log (request_explanation.h)
};

// 200 with a JSON body; 200 without a body.
HttpResponse jsonResponse(const HttpRequest& request, const QJsonObject& body);
HttpResponse emptyResponse(const HttpRequest& request);
HttpResponse engineError(const HttpRequest& request, const engine::Error& error);

// A query parameter; nullopt when absent.
std::optional<QString> parameter(const OciContext& context, QLatin1String name);
// An integer query parameter; InvalidParameterValue when not a decimal integer.
engine::Result<std::optional<std::int64_t>> integerParameter(const OciContext& context,
                                                             QLatin1String name);
// The request body as a JSON object (an empty body is {}); InvalidParameterValue otherwise.
engine::Result<QJsonObject> jsonBody(const HttpRequest& request);
// An integer member of a JSON body (number or decimal string); nullopt when absent.
engine::Result<std::optional<std::int64_t>> integerMember(const QJsonObject& object,
                                                          const QString& name);

// A message's OCI `id`: OCI ids are int64 and only for tracing, ours are UUIDs, so the id is the
// first 15 hex digits of the UUID (hyphens dropped) read as a number — 60 bits, never negative,
// stable for the message's life.
qint64 messageIdNumber(const std::string& messageId);
// RFC 3339 in UTC with milliseconds: "2026-11-30T10:00:00.000Z".
QString timestamp(engine::Millis time);

Outcome putMessages(OciContext& context);
Outcome getMessages(OciContext& context);
Outcome updateMessage(OciContext& context, const std::string& receipt);
Outcome updateMessages(OciContext& context);
Outcome deleteMessage(OciContext& context, const std::string& receipt);
Outcome deleteMessages(OciContext& context);

} // namespace inflight::protocol::oci
