// OCI Queue REST (spec §6.1): routing, the OCI error shape, and the queue-level calls (GetStats,
// ListChannels, PurgeQueue). The message calls are in oci_messages.cpp.
#include "protocol/oci_rest.h"

#include "engine/oci_ids.h"
#include "protocol/form.h"
#include "protocol/request_explanation.h"
#include "protocol/sqs_codec.h"
#include "protocol/utf8.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QUrl>
#include <QVariant>

namespace inflight::protocol::oci {

namespace {

const QByteArray kApiPrefix = QByteArrayLiteral("/20210201/");
const QByteArray kJson = QByteArrayLiteral("application/json");

QByteArray requestIdFor(const HttpRequest& request)
{
    const QByteArray given = request.header(QByteArrayLiteral("opc-request-id"));
    return given.isEmpty() ? newRequestId() : given;
}

HttpResponse baseResponse(const HttpRequest& request, int status)
{
    HttpResponse response;
    response.status = status;
    response.headers.append({QByteArrayLiteral("opc-request-id"), requestIdFor(request)});
    return response;
}

engine::Error invalid(const QString& message, const QString& parameter)
{
    return engine::makeError(engine::ErrorCode::InvalidParameterValue, message.toStdString(),
                             parameter.toStdString());
}

engine::Error notFound()
{
    return engine::makeError(engine::ErrorCode::QueueDoesNotExist,
                             "The specified queue does not exist.", "queueId");
}

QJsonObject statsObject(const engine::QueueStats& stats)
{
    return QJsonObject{
        {QStringLiteral("visibleMessages"), qint64(stats.available)},
        {QStringLiteral("inFlightMessages"), qint64(stats.inFlight)},
        {QStringLiteral("sizeInBytes"), qint64(stats.sizeInBytes)},
    };
}

// The whole queue, or one channel of it when channelId is given. A queue that does not exist
// (the DLQ of a DLQ) has nothing in it.
engine::QueueStats statsOf(engine::Broker& broker, const std::string& queue,
                           const std::optional<QString>& channel)
{
    auto stats
        = channel ? broker.channelStats(queue, channel->toStdString()) : broker.queueStats(queue);
    return stats ? *stats : engine::QueueStats{};
}

Outcome getStats(OciContext& context)
{
    const std::optional<QString> channel = parameter(context, QLatin1String("channelId"));
    // Each OCI queue's built-in DLQ is the engine queue "<name>.dlq".
    QJsonObject body{
        {QStringLiteral("queue"), statsObject(statsOf(context.broker, context.queue, channel))},
        {QStringLiteral("dlq"),
         statsObject(statsOf(context.broker, context.queue + ".dlq", channel))},
    };
    if (channel)
        body.insert(QStringLiteral("channelId"), *channel);
    return jsonResponse(context.http, body);
}

Outcome listChannels(OciContext& context)
{
    auto limit = integerParameter(context, QLatin1String("limit"));
    if (!limit)
        return engineError(context.http, limit.error());
    if (*limit && **limit < 1)
        return engineError(
            context.http,
            invalid(QStringLiteral("Invalid limit: %1. The limit must be at least 1.").arg(**limit),
                    QStringLiteral("limit")));
    auto page = integerParameter(context, QLatin1String("page"));
    if (!page || (*page && **page < 0))
        return engineError(context.http,
                           invalid(QStringLiteral("Invalid page token."), QStringLiteral("page")));
    auto channels = context.broker.listChannels(
        context.queue,
        parameter(context, QLatin1String("channelFilter")).value_or(QString()).toStdString());
    if (!channels)
        return engineError(context.http, channels.error());
    // The page token is the offset of the page's first channel in the sorted list. Both numbers
    // are the client's, up to 2^63 - 1: the page is clamped to the list before anything is added
    // to it, so no sum can overflow (a page past the end is empty and has no next page).
    const qint64 size = qint64(channels->size());
    const qint64 first = std::min<qint64>(page->value_or(0), size);
    const qint64 end = first + std::min<qint64>(limit->value_or(size), size - first);
    QJsonArray items;
    for (qint64 i = first; i < end; ++i)
        items.append(textOf(channels->at(i)));
    HttpResponse response
        = jsonResponse(context.http, QJsonObject{{QStringLiteral("items"), items}});
    if (end < size)
        response.headers.append({QByteArrayLiteral("opc-next-page"), QByteArray::number(end)});
    return response;
}

Outcome purgeQueue(OciContext& context)
{
    auto body = jsonBody(context.http);
    if (!body)
        return engineError(context.http, body.error());
    const QJsonValue type = body->value(QStringLiteral("purgeType"));
    if (type.isUndefined() || type.isNull())
        return engineError(context.http,
                           engine::makeError(engine::ErrorCode::MissingParameter,
                                             "The request must contain the parameter purgeType.",
                                             "purgeType"));
    engine::PurgeTarget target;
    if (type == QStringLiteral("NORMAL"))
        target = engine::PurgeTarget::Normal;
    else if (type == QStringLiteral("DLQ"))
        target = engine::PurgeTarget::DeadLetter;
    else if (type == QStringLiteral("BOTH"))
        target = engine::PurgeTarget::Both;
    else
        return engineError(
            context.http,
            invalid(QStringLiteral("Invalid purgeType: %1. It must be NORMAL, DLQ or BOTH.")
                        .arg(type.toVariant().toString()),
                    QStringLiteral("purgeType")));
    if (auto status = context.broker.purgeQueue(context.queue, target, context.origin); !status)
        return engineError(context.http, status.error());
    return emptyResponse(context.http);
}

Outcome routeNotFound(const HttpRequest& request)
{
    return errorResponse(request,
                         ociWireError(ProtocolError::UnknownOperation,
                                      QStringLiteral("No operation %1 %2.")
                                          .arg(QString::fromLatin1(request.method),
                                               QString::fromUtf8(request.path))));
}

} // namespace

bool isOciPath(const QByteArray& path)
{
    return path.startsWith(kApiPrefix);
}

HttpResponse jsonResponse(const HttpRequest& request, const QJsonObject& body)
{
    HttpResponse response = baseResponse(request, 200);
    response.contentType = kJson;
    response.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return response;
}

HttpResponse emptyResponse(const HttpRequest& request)
{
    return baseResponse(request, 200);
}

HttpResponse errorResponse(const HttpRequest& request, const OciWireError& error)
{
    HttpResponse response = baseResponse(request, error.status);
    response.contentType = kJson;
    response.body
        = QJsonDocument(QJsonObject{{QStringLiteral("code"), QString::fromLatin1(error.code)},
                                    {QStringLiteral("message"), error.message}})
              .toJson(QJsonDocument::Compact);
    return response;
}

HttpResponse engineError(const HttpRequest& request, const engine::Error& error)
{
    return errorResponse(request, ociWireError(error));
}

std::optional<QString> parameter(const OciContext& context, QLatin1String name)
{
    for (const auto& [key, value] : context.parameters) {
        if (key == name)
            return value;
    }
    return std::nullopt;
}

engine::Result<std::optional<std::int64_t>> integerParameter(const OciContext& context,
                                                             QLatin1String name)
{
    const std::optional<QString> text = parameter(context, name);
    if (!text)
        return std::optional<std::int64_t>();
    bool ok = false;
    const qlonglong value = text->toLongLong(&ok, 10);
    if (!ok)
        return invalid(
            QStringLiteral("Invalid %1: %2. It must be an integer.").arg(QString(name), *text),
            QString(name));
    return std::optional<std::int64_t>(value);
}

engine::Result<QJsonObject> jsonBody(const HttpRequest& request)
{
    if (request.body.trimmed().isEmpty())
        return QJsonObject();
    // QJsonDocument reads a string's raw UTF-8 with QString::fromUtf8, which drops a leading
    // U+FEFF as a byte-order mark: a content starting with one would lose it. Its bytes EF BB BF
    // are that character wherever they occur (UTF-8 never has them inside another), and valid JSON
    // has them only inside strings, where the escape \ufeff says the same and is kept.
    static const QByteArray kFeff = QByteArrayLiteral("\xEF\xBB\xBF");
    const QByteArray text = request.body.contains(kFeff)
        ? QByteArray(request.body).replace(kFeff, QByteArrayLiteral("\\ufeff"))
        : request.body;
    // Qt's parser refuses nesting deeper than 1,024 levels (DeepNesting), which bounds its
    // recursion and that of the document's destruction.
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return invalid(QStringLiteral("The request body is not a JSON object."),
                       QStringLiteral("body"));
    return document.object();
}

engine::Result<std::optional<std::int64_t>> integerMember(const QJsonObject& object,
                                                          const QString& name)
{
    const QJsonValue value = object.value(name);
    if (value.isUndefined() || value.isNull())
        return std::optional<std::int64_t>();
    if (value.isDouble() && static_cast<double>(value.toInteger()) == value.toDouble())
        return std::optional<std::int64_t>(value.toInteger());
    bool ok = false;
    const qlonglong number = value.isString() ? value.toString().toLongLong(&ok, 10) : 0;
    if (ok)
        return std::optional<std::int64_t>(number);
    return invalid(QStringLiteral("Invalid %1: it must be an integer.").arg(name), name);
}

qint64 messageIdNumber(const std::string& messageId)
{
    return engine::ociMessageNumber(messageId);
}

QString timestamp(engine::Millis time)
{
    return QDateTime::fromMSecsSinceEpoch(time, Qt::UTC).toString(Qt::ISODateWithMs);
}

Outcome handle(engine::Broker& broker, const HttpRequest& request, RequestSummary* summary)
{
    // /20210201/queues/{queueId}/<rest>; every segment percent-decoded (receipts may be escaped).
    QStringList segments;
    for (const QByteArray& segment : request.path.mid(kApiPrefix.size()).split('/'))
        segments.append(QUrl::fromPercentEncoding(segment));
    if (!segments.isEmpty() && segments.last().isEmpty())
        segments.removeLast(); // a trailing slash
    if (segments.size() < 3 || segments.at(0) != QLatin1String("queues"))
        return routeNotFound(request);

    FormResult<FormParameters> parameters = decodeForm(request.query);
    if (!parameters)
        return errorResponse(request,
                             ociWireError(ProtocolError::MalformedQuery,
                                          QStringLiteral("The query string is not UTF-8 "
                                                         "once percent-decoded.")));
    OciContext context{broker,
                       request,
                       segments.at(1).toStdString(),
                       std::move(*parameters),
                       request.origin.toStdString(),
                       summary};
    auto queue = broker.getQueue(context.queue);
    if (!queue || queue->kind != engine::QueueKind::Oci) {
        // SQS queues are not OCI queues
        const engine::Error error = queue ? notFound() : queue.error();
        if (summary)
            explainError(broker, error, *summary);
        return engineError(request, error);
    }

    const QStringList rest = segments.mid(2);
    const QByteArray& method = request.method;
    if (rest == QStringList{QStringLiteral("messages")}) {
        if (method == "POST")
            return putMessages(context);
        if (method == "GET")
            return getMessages(context);
    } else if (rest.size() == 3 && rest.at(0) == QLatin1String("messages")
               && rest.at(1) == QLatin1String("actions") && method == "POST") {
        if (rest.at(2) == QLatin1String("updateMessages"))
            return updateMessages(context);
        if (rest.at(2) == QLatin1String("deleteMessages"))
            return deleteMessages(context);
    } else if (rest.size() == 2 && rest.at(0) == QLatin1String("messages")) {
        if (method == "PUT")
            return updateMessage(context, rest.at(1).toStdString());
        if (method == "DELETE")
            return deleteMessage(context, rest.at(1).toStdString());
    } else if (rest == QStringList{QStringLiteral("stats")} && method == "GET") {
        return getStats(context);
    } else if (rest == QStringList{QStringLiteral("channels")} && method == "GET") {
        return listChannels(context);
    } else if (rest == QStringList{QStringLiteral("actions"), QStringLiteral("purge")}
               && method == "POST") {
        return purgeQueue(context);
    }
    return routeNotFound(request);
}

} // namespace inflight::protocol::oci
