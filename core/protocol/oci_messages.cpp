// OCI Queue message calls (spec §6.1, §6.3–§6.5): PutMessages, GetMessages (long poll by
// default), UpdateMessage(s), DeleteMessage(s). customProperties are String message attributes,
// channelId the engine's channel, deliveryCount its receive count.
#include "protocol/oci_rest.h"

#include "engine/message_validation.h"
#include "protocol/request_explanation.h"
#include "protocol/utf8.h"

#include <QJsonArray>

#include <unordered_map>

namespace inflight::protocol::oci {

namespace {

engine::Error missing(const char* parameter)
{
    return engine::makeError(
        engine::ErrorCode::MissingParameter,
        std::string("The request must contain the parameter ") + parameter + ".", parameter);
}

engine::Error invalid(std::string message, const char* parameter)
{
    return engine::makeError(engine::ErrorCode::InvalidParameterValue, std::move(message),
                             parameter);
}

std::int64_t queueAttribute(engine::Broker& broker, const std::string& queue,
                            const std::string& name)
{
    auto attributes = broker.getQueueAttributes(queue, {name});
    if (!attributes || attributes->empty())
        return 0;
    return QByteArray::fromStdString(attributes->begin()->second).toLongLong();
}

QJsonObject messageObject(const engine::ReceivedMessage& received)
{
    QJsonObject message{
        {QStringLiteral("id"), messageIdNumber(received.messageId)},
        {QStringLiteral("content"), textOf(received.body)},
        {QStringLiteral("receipt"), QString::fromStdString(received.receiptHandle)},
        {QStringLiteral("deliveryCount"), qint64(received.receiveCount)},
        {QStringLiteral("visibleAfter"), timestamp(received.visibleAt)},
        {QStringLiteral("expireAfter"), timestamp(received.expiresAt)},
        {QStringLiteral("createdAt"), timestamp(received.sentAt)},
    };
    QJsonObject metadata;
    if (!received.channelId.empty())
        metadata.insert(QStringLiteral("channelId"), textOf(received.channelId));
    QJsonObject properties;
    for (const auto& [name, value] : received.attributes) {
        if (!value.isBinary())
            properties.insert(textOf(name), textOf(value.stringValue));
    }
    if (!properties.isEmpty())
        metadata.insert(QStringLiteral("customProperties"), properties);
    if (!metadata.isEmpty())
        message.insert(QStringLiteral("metadata"), metadata);
    return message;
}

HttpResponse messagesResponse(const HttpRequest& request, const engine::ReceiveResult& result)
{
    QJsonArray messages;
    for (const engine::ReceivedMessage& received : result.messages)
        messages.append(messageObject(received));
    return jsonResponse(request, QJsonObject{{QStringLiteral("messages"), messages}});
}

// With a traffic log: each entry's receipt and where it stands, before the batch runs.
void noteReceipts(OciContext& context, const std::vector<engine::BatchReceiptEntry>& entries)
{
    if (context.summary)
        protocol::noteReceipts(context.broker, context.queue, entries, *context.summary);
}

// The `entries` array of a batch body, or MissingParameter.
engine::Result<QJsonArray> entriesOf(const HttpRequest& request)
{
    auto body = jsonBody(request);
    if (!body)
        return body.error();
    const QJsonValue entries = body->value(QStringLiteral("entries"));
    if (!entries.isArray())
        return missing("entries");
    return entries.toArray();
}

// A batch answer in request order: `describe(success)` or {errorCode, errorMessage} per entry.
template <class T, class Describe>
QJsonObject batchResponse(const engine::BatchResult<T>& result, std::size_t count,
                          Describe describe)
{
    std::unordered_map<std::string, const typename engine::BatchResult<T>::Success*> successes;
    for (const auto& success : result.successful)
        successes.emplace(success.id, &success);
    std::unordered_map<std::string, const typename engine::BatchResult<T>::Failure*> failures;
    for (const auto& failure : result.failed)
        failures.emplace(failure.id, &failure);
    QJsonArray entries;
    qint64 clientFailures = 0;
    qint64 serverFailures = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::string id = std::to_string(i);
        if (auto it = successes.find(id); it != successes.end()) {
            entries.append(describe(*it->second));
            continue;
        }
        const auto failure = failures.find(id);
        const OciWireError wire = failure != failures.end()
            ? ociWireError(failure->second->error)
            : OciWireError{500, QByteArrayLiteral("InternalServerError"),
                           QStringLiteral("No result.")};
        ++(wire.status >= 500 ? serverFailures : clientFailures);
        entries.append(QJsonObject{{QStringLiteral("errorCode"), wire.status},
                                   {QStringLiteral("errorMessage"), wire.message}});
    }
    return QJsonObject{
        {QStringLiteral("serverFailures"), serverFailures},
        {QStringLiteral("clientFailures"), clientFailures},
        {QStringLiteral("entries"), entries},
    };
}

} // namespace

Outcome putMessages(OciContext& context)
{
    auto body = jsonBody(context.http);
    if (!body)
        return engineError(context.http, body.error());
    const QJsonValue messages = body->value(QStringLiteral("messages"));
    if (!messages.isArray())
        return engineError(context.http, missing("messages"));

    // PutMessages is all or nothing, while the engine's batch stores the good entries of a mixed
    // one: the rules a single OCI message can fail (content given, size within the queue's limit)
    // are checked here first, with the engine's own size accounting.
    const std::int64_t maxSize
        = queueAttribute(context.broker, context.queue, "maxMessageSizeInBytes");
    std::vector<engine::BatchSendEntry> entries;
    for (const QJsonValue& item : messages.toArray()) {
        const QJsonObject message = item.toObject();
        const QJsonValue content = message.value(QStringLiteral("content"));
        if (!content.isString())
            return engineError(context.http, missing("content"));
        if (content.toString().isEmpty())
            return engineError(context.http,
                               invalid("The content of a message must not be empty.", "content"));
        engine::SendMessageRequest send;
        send.body = content.toString().toStdString();
        const QJsonObject metadata = message.value(QStringLiteral("metadata")).toObject();
        if (const QJsonValue channel = metadata.value(QStringLiteral("channelId"));
            channel.isString())
            send.channelId = channel.toString().toStdString();
        const QJsonObject properties
            = metadata.value(QStringLiteral("customProperties")).toObject();
        for (auto it = properties.begin(); it != properties.end(); ++it)
            send.attributes.emplace(
                it.key().toStdString(),
                engine::MessageAttributeValue{"String", it.value().toString().toStdString(), {}});
        if (maxSize > 0 && engine::messageSize(*send.body, send.attributes) > maxSize)
            return engineError(context.http,
                               invalid("The message is larger than the queue's limit of "
                                           + std::to_string(maxSize) + " bytes.",
                                       "content"));
        entries.push_back({std::to_string(entries.size()), std::move(send)});
    }

    auto result = context.broker.sendMessageBatch(context.queue, entries, context.origin);
    if (!result)
        return engineError(context.http, result.error());
    if (!result->failed.empty())
        return engineError(context.http, result->failed.front().error);
    QJsonArray sent;
    for (const auto& success : result->successful)
        sent.append(
            QJsonObject{{QStringLiteral("id"), messageIdNumber(success.result.messageId)},
                        {QStringLiteral("expireAfter"), timestamp(success.result.expiresAt)}});
    return jsonResponse(context.http, QJsonObject{{QStringLiteral("messages"), sent}});
}

Outcome getMessages(OciContext& context)
{
    engine::ReceiveRequest receive;
    receive.queue = context.queue;
    receive.origin = context.origin;
    receive.messageAttributeNames = {"All"}; // customProperties
    for (auto [name, target] :
         {std::pair{QLatin1String("limit"), &receive.maxMessages},
          std::pair{QLatin1String("visibilityInSeconds"), &receive.visibilityTimeout},
          std::pair{QLatin1String("timeoutInSeconds"), &receive.waitTimeSeconds}}) {
        auto value = integerParameter(context, name);
        if (!value)
            return engineError(context.http, value.error());
        *target = *value;
    }
    if (auto channel = parameter(context, QLatin1String("channelFilter")))
        receive.channelFilter = channel->toStdString();

    auto received = context.broker.receiveMessage(receive);
    if (!received)
        return engineError(context.http, received.error());
    // Long polling is the default: without timeoutInSeconds the queue's own (30 s unless set).
    const std::int64_t wait = receive.waitTimeSeconds
        ? *receive.waitTimeSeconds
        : queueAttribute(context.broker, context.queue, "timeoutInSeconds");
    if (!received->messages.empty() || wait <= 0) {
        if (context.summary && received->messages.empty())
            explainEmptyReceive(context.broker, receive, false, *context.summary);
        return messagesResponse(context.http, *received);
    }
    HttpRequest reply; // what the later answer needs of the request: its opc-request-id
    reply.headers = context.http.headers;
    return DeferredReceive{
        std::move(receive),
        [reply = std::move(reply)](const engine::Result<engine::ReceiveResult>& result) {
            return result ? messagesResponse(reply, *result) : engineError(reply, result.error());
        }};
}

Outcome updateMessage(OciContext& context, const std::string& receipt)
{
    auto body = jsonBody(context.http);
    if (!body)
        return engineError(context.http, body.error());
    auto visibility = integerMember(*body, QStringLiteral("visibilityInSeconds"));
    if (!visibility)
        return engineError(context.http, visibility.error());
    if (context.summary)
        noteReceipt(context.broker, context.queue, {}, receipt, *context.summary);
    auto changed = context.broker.changeMessageVisibility(context.queue, receipt, *visibility,
                                                          context.origin);
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::ChangeVisibility,
                          changed ? nullptr : &changed.error(), *context.summary);
    if (!changed)
        return engineError(context.http, changed.error());
    return jsonResponse(
        context.http,
        QJsonObject{{QStringLiteral("id"), messageIdNumber(changed->messageId)},
                    {QStringLiteral("visibleAfter"), timestamp(changed->visibleAt)}});
}

Outcome updateMessages(OciContext& context)
{
    auto items = entriesOf(context.http);
    if (!items)
        return engineError(context.http, items.error());
    std::vector<engine::BatchReceiptEntry> entries;
    for (const QJsonValue& item : *items) {
        const QJsonObject entry = item.toObject();
        auto visibility = integerMember(entry, QStringLiteral("visibilityInSeconds"));
        if (!visibility)
            return engineError(context.http, visibility.error());
        entries.push_back({std::to_string(entries.size()),
                           entry.value(QStringLiteral("receipt")).toString().toStdString(),
                           *visibility});
    }
    noteReceipts(context, entries);
    auto result
        = context.broker.changeMessageVisibilityBatch(context.queue, entries, context.origin);
    if (!result)
        return engineError(context.http, result.error());
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::ChangeVisibility, *result,
                          *context.summary);
    return jsonResponse(
        context.http, batchResponse(*result, entries.size(), [](const auto& success) {
            return QJsonObject{
                {QStringLiteral("id"), messageIdNumber(success.result.messageId)},
                {QStringLiteral("visibleAfter"), timestamp(success.result.visibleAt)}};
        }));
}

Outcome deleteMessage(OciContext& context, const std::string& receipt)
{
    if (context.summary)
        noteReceipt(context.broker, context.queue, {}, receipt, *context.summary);
    auto status = context.broker.deleteMessage(context.queue, receipt, context.origin);
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::Delete,
                          status ? nullptr : &status.error(), *context.summary);
    if (!status)
        return engineError(context.http, status.error());
    return emptyResponse(context.http);
}

Outcome deleteMessages(OciContext& context)
{
    auto items = entriesOf(context.http);
    if (!items)
        return engineError(context.http, items.error());
    std::vector<engine::BatchReceiptEntry> entries;
    for (const QJsonValue& item : *items)
        entries.push_back(
            {std::to_string(entries.size()),
             item.toObject().value(QStringLiteral("receipt")).toString().toStdString(),
             {}});
    noteReceipts(context, entries);
    auto result = context.broker.deleteMessageBatch(context.queue, entries, context.origin);
    if (!result)
        return engineError(context.http, result.error());
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::Delete, *result, *context.summary);
    return jsonResponse(context.http, batchResponse(*result, entries.size(), [](const auto&) {
                            return QJsonObject();
                        }));
}

} // namespace inflight::protocol::oci
