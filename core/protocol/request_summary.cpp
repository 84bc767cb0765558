#include "protocol/request_summary.h"

#include <algorithm>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

#include <string>
#include <string_view>
#include <unordered_map>

namespace inflight::protocol {

namespace {

const QByteArray kOciPrefix = QByteArrayLiteral("/20210201/queues/");

// A queue's name as the log shows it, from its bytes in the request (percent-decoded where
// `encoded`). Requests name the same few queues over and over: each name is made once per thread
// and shared.
QString queueName(std::string_view raw, bool encoded)
{
    if (!encoded && raw.find('%') != std::string_view::npos) // not to be read as an escape
        return QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const
        {
            return std::hash<std::string_view>{}(text);
        }
    };
    thread_local std::unordered_map<std::string, QString, Hash, std::equal_to<>> names;
    if (const auto it = names.find(raw); it != names.end())
        return it->second;
    QString name
        = QUrl::fromPercentEncoding(QByteArray(raw.data(), static_cast<qsizetype>(raw.size())));
    if (names.size() < 4096)
        names.emplace(std::string(raw), name);
    return name;
}

// The last segment of a URL or path, percent-decoded: the queue of ".../000000000000/orders".
QString lastSegment(QByteArrayView text)
{
    while (text.endsWith('/'))
        text.chop(1);
    const QByteArrayView segment = text.sliced(text.lastIndexOf('/') + 1);
    return queueName(std::string_view(segment.data(), static_cast<std::size_t>(segment.size())),
                     true);
}

std::int64_t arraySize(const Output& output, const char* key)
{
    const auto it = output.find(key);
    return it != output.end() && it->is_array() ? static_cast<std::int64_t>(it->size()) : 0;
}

// The OCI operation of a method and the path's segments after the queue id.
QString ociOperation(const QByteArray& method, const QList<QByteArray>& rest)
{
    if (rest == QList<QByteArray>{"messages"})
        return method == "POST" ? QStringLiteral("PutMessages") : QStringLiteral("GetMessages");
    if (rest.size() == 3 && rest.at(0) == "messages" && rest.at(1) == "actions")
        return rest.at(2) == "updateMessages" ? QStringLiteral("UpdateMessages")
                                              : QStringLiteral("DeleteMessages");
    if (rest.size() == 2 && rest.at(0) == "messages")
        return method == "PUT" ? QStringLiteral("UpdateMessage") : QStringLiteral("DeleteMessage");
    if (rest == QList<QByteArray>{"stats"})
        return QStringLiteral("GetStats");
    if (rest == QList<QByteArray>{"channels"})
        return QStringLiteral("ListChannels");
    if (rest == QList<QByteArray>{"actions", "purge"})
        return QStringLiteral("PurgeQueue");
    return {};
}

} // namespace

void summarizeRequest(const HttpRequest& request, RequestSummary& summary)
{
    summary.protocol = wireProtocol(request);
    if (summary.protocol != WireProtocol::OciRest || !request.path.startsWith(kOciPrefix))
        return;
    QList<QByteArray> segments = request.path.mid(kOciPrefix.size()).split('/');
    if (!segments.isEmpty() && segments.last().isEmpty())
        segments.removeLast();
    if (segments.isEmpty())
        return;
    const QByteArray queue = segments.takeFirst();
    summary.queue = queueName(
        std::string_view(queue.constData(), static_cast<std::size_t>(queue.size())), true);
    summary.operation = ociOperation(request.method, segments);
    if (summary.operation == QLatin1String("GetMessages")) {
        const QUrlQuery query(QString::fromUtf8(request.query));
        bool ok = false;
        const qint64 limit = query.queryItemValue(QStringLiteral("limit")).toLongLong(&ok);
        summary.maxMessages = ok ? limit : 1;
        const qint64 wait
            = query.queryItemValue(QStringLiteral("timeoutInSeconds")).toLongLong(&ok);
        if (ok)
            summary.waitSeconds = wait;
    }
}

void summarizeSqsRequest(const HttpRequest& http, const SqsRequest& request,
                         RequestSummary& summary)
{
    summary.operation = request.action();
    if (const auto url = request.text("QueueUrl"))
        summary.queue
            = lastSegment(QByteArrayView(url->data(), static_cast<qsizetype>(url->size())));
    else if (const auto name = request.text("QueueName"))
        summary.queue = queueName(*name, false);
    else if (http.path.count('/') >= 2)
        summary.queue = lastSegment(http.path);
    if (summary.operation == QLatin1String("ReceiveMessage")) {
        const auto max = request.integer("MaxNumberOfMessages");
        summary.maxMessages = max && *max ? **max : 1;
        const auto wait = request.integer("WaitTimeSeconds");
        if (wait && *wait)
            summary.waitSeconds = **wait;
    }
}

void summarizeSqsOutput(const Output& output, RequestSummary& summary)
{
    const QString& op = summary.operation;
    if (op == QLatin1String("SendMessage") || op == QLatin1String("DeleteMessage")
        || op == QLatin1String("ChangeMessageVisibility")) {
        summary.succeeded = 1;
        summary.failed = 0;
    } else if (op.endsWith(QLatin1String("Batch"))) {
        summary.succeeded = arraySize(output, "Successful");
        summary.failed = arraySize(output, "Failed");
        if (summary.failed > 0) {
            const Output& first = output["Failed"][0];
            if (const auto code = first.find("Code"); code != first.end() && code->is_string())
                summary.firstFailure = QByteArray::fromStdString(code->get<std::string>());
        }
    }
}

void summarizeIdBatch(const IdBatch& batch, RequestSummary& summary)
{
    summary.succeeded = static_cast<std::int64_t>(batch.successful.size());
    summary.failed = static_cast<std::int64_t>(batch.failed.size());
    if (!batch.failed.empty())
        summary.firstFailure = batch.failed.front().error.queryCode;
}

void summarizeReceive(const engine::ReceiveRequest& request, RequestSummary& summary)
{
    summary.maxMessages = request.maxMessages.value_or(1);
    if (request.waitTimeSeconds)
        summary.waitSeconds = *request.waitTimeSeconds;
    summary.receive = request;
}

void summarizeReceived(const engine::ReceiveResult& result, RequestSummary& summary)
{
    summary.succeeded = static_cast<std::int64_t>(result.messages.size());
    summary.receivedAgain
        = std::count_if(result.messages.begin(), result.messages.end(),
                        [](const engine::ReceivedMessage& m) { return m.receiveCount > 1; });
}

void summarizeReceived(const engine::Result<engine::ReceiveResult>& result, RequestSummary& summary)
{
    if (result)
        summarizeReceived(*result, summary);
}

void summarizeOciResponse(const HttpResponse& response, RequestSummary& summary)
{
    if (response.status >= 300 || response.body.isEmpty())
        return;
    const QString& op = summary.operation;
    const bool counted = op == QLatin1String("PutMessages") || op == QLatin1String("GetMessages")
        || op == QLatin1String("DeleteMessages") || op == QLatin1String("UpdateMessages");
    if (!counted)
        return;
    const QJsonObject body = QJsonDocument::fromJson(response.body).object();
    if (op == QLatin1String("GetMessages")) {
        const QJsonArray messages = body.value(QLatin1String("messages")).toArray();
        summary.succeeded = messages.size();
        summary.receivedAgain = std::count_if(messages.begin(), messages.end(), [](const auto& m) {
            return m.toObject().value(QLatin1String("deliveryCount")).toInteger() > 1;
        });
        return;
    }
    const QJsonArray entries
        = body.value(QLatin1String(op == QLatin1String("PutMessages") ? "messages" : "entries"))
              .toArray();
    std::int64_t failed = body.value(QLatin1String("clientFailures")).toInteger()
        + body.value(QLatin1String("serverFailures")).toInteger();
    summary.failed = failed;
    summary.succeeded = entries.size() - failed;
    for (const auto& entry : entries) {
        const QJsonValue code = entry.toObject().value(QLatin1String("errorCode"));
        if (!code.isUndefined()) {
            summary.firstFailure = QByteArray::number(code.toInt()); // OCI gives the status
            break;
        }
    }
}

} // namespace inflight::protocol
