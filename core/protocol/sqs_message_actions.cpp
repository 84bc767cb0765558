// Message-level SQS actions (spec §4): send, receive (possibly waiting), delete and visibility,
// single and batched, with the MD5 digests of §2.6 computed from the bytes we hold.
#include "protocol/error_mapping.h"
#include "protocol/sqs_actions.h"

#include "engine/digest.h"

#include <QJsonArray>

#include <unordered_map>

namespace inflight::protocol {

namespace {

using namespace actions;

engine::Result<engine::SendMessageRequest> sendRequestFrom(const SqsRequest& request)
{
    engine::SendMessageRequest message;
    message.body = request.string(QStringLiteral("MessageBody"));
    auto delay = request.integer(QStringLiteral("DelaySeconds"));
    if (!delay)
        return delay.error();
    message.delaySeconds = *delay;
    auto attributes = request.messageAttributes(QStringLiteral("MessageAttributes"));
    if (!attributes)
        return attributes.error();
    message.attributes = std::move(*attributes);
    auto systemAttributes = request.messageAttributes(QStringLiteral("MessageSystemAttributes"));
    if (!systemAttributes)
        return systemAttributes.error();
    message.systemAttributes = std::move(*systemAttributes);
    message.deduplicationId = request.string(QStringLiteral("MessageDeduplicationId"));
    message.groupId = request.string(QStringLiteral("MessageGroupId"));
    return message;
}

// SendMessage's output, also a SendMessageBatch success entry: digests of what was sent, the
// attribute digests only when attributes were sent, SequenceNumber only on FIFO queues.
QJsonObject sendOutput(const engine::SendMessageRequest& message, const engine::SendResult& result)
{
    QJsonObject output;
    output.insert(QStringLiteral("MessageId"), text(result.messageId));
    output.insert(QStringLiteral("MD5OfMessageBody"),
                  text(engine::md5Hex(message.body.value_or(std::string()))));
    if (!message.attributes.empty())
        output.insert(QStringLiteral("MD5OfMessageAttributes"),
                      text(engine::md5OfMessageAttributes(message.attributes)));
    if (!message.systemAttributes.empty())
        output.insert(QStringLiteral("MD5OfMessageSystemAttributes"),
                      text(engine::md5OfMessageAttributes(message.systemAttributes)));
    if (!result.sequenceNumber.empty())
        output.insert(QStringLiteral("SequenceNumber"), text(result.sequenceNumber));
    return output;
}

QJsonObject messageAttributesObject(const engine::MessageAttributes& attributes)
{
    QJsonObject object;
    for (const auto& [name, value] : attributes) {
        QJsonObject attribute{{QStringLiteral("DataType"), text(value.dataType)}};
        if (value.isBinary())
            attribute.insert(
                QStringLiteral("BinaryValue"),
                QString::fromLatin1(QByteArray::fromStdString(value.binaryValue).toBase64()));
        else
            attribute.insert(QStringLiteral("StringValue"), text(value.stringValue));
        object.insert(QString::fromStdString(name), attribute);
    }
    return object;
}

template <class T>
QJsonObject batchFailure(const typename engine::BatchResult<T>::Failure& failure)
{
    const SqsWireError wire = sqsWireError(failure.error);
    return QJsonObject{
        {QStringLiteral("Id"), text(failure.id)},
        {QStringLiteral("SenderFault"), failure.senderFault},
        {QStringLiteral("Code"), QString::fromLatin1(wire.queryCode)},
        {QStringLiteral("Message"), wire.message},
    };
}

// `Successful` and `Failed` are required members: both are always present in JSON.
template <class T, class Describe>
QJsonObject batchOutput(const engine::BatchResult<T>& result, Describe describeSuccess)
{
    QJsonArray successful;
    for (const auto& success : result.successful)
        successful.append(describeSuccess(success));
    QJsonArray failed;
    for (const auto& failure : result.failed)
        failed.append(batchFailure<T>(failure));
    return QJsonObject{{QStringLiteral("Successful"), successful},
                       {QStringLiteral("Failed"), failed}};
}

template <class T>
QJsonObject idOnly(const typename engine::BatchResult<T>::Success& success)
{
    return QJsonObject{{QStringLiteral("Id"), text(success.id)}};
}

// The batch entries of a delete or change-visibility request.
engine::Result<std::vector<engine::BatchReceiptEntry>> receiptEntries(const SqsRequest& request)
{
    std::vector<engine::BatchReceiptEntry> entries;
    for (const SqsRequest& item : request.entries(QStringLiteral("Entries"))) {
        engine::BatchReceiptEntry entry;
        entry.id = item.string(QStringLiteral("Id")).value_or(std::string());
        entry.receiptHandle = item.string(QStringLiteral("ReceiptHandle")).value_or(std::string());
        auto visibility = item.integer(QStringLiteral("VisibilityTimeout"));
        if (!visibility)
            return visibility.error();
        entry.visibilityTimeout = *visibility;
        entries.push_back(std::move(entry));
    }
    return entries;
}

// The wait a receive without WaitTimeSeconds gets: the queue's ReceiveMessageWaitTimeSeconds.
std::int64_t queueWaitSeconds(engine::Broker& broker, const std::string& queue)
{
    static const std::vector<std::string> kName{"ReceiveMessageWaitTimeSeconds"};
    auto attributes = broker.getQueueAttributes(queue, kName);
    if (!attributes || attributes->empty())
        return 0;
    return QByteArray::fromStdString(attributes->begin()->second).toLongLong();
}

} // namespace

QJsonObject receiveOutput(const engine::ReceiveResult& result)
{
    QJsonObject output;
    if (result.messages.empty())
        return output;
    QJsonArray messages;
    for (const engine::ReceivedMessage& received : result.messages) {
        QJsonObject message{
            {QStringLiteral("MessageId"), text(received.messageId)},
            {QStringLiteral("ReceiptHandle"), text(received.receiptHandle)},
            {QStringLiteral("MD5OfBody"), text(received.md5OfBody())},
            {QStringLiteral("Body"), text(received.body)},
        };
        if (!received.systemAttributes.empty())
            message.insert(QStringLiteral("Attributes"),
                           stringMapObject(received.systemAttributes));
        if (!received.attributes.empty()) {
            message.insert(QStringLiteral("MD5OfMessageAttributes"),
                           text(received.md5OfMessageAttributes()));
            message.insert(QStringLiteral("MessageAttributes"),
                           messageAttributesObject(received.attributes));
        }
        messages.append(message);
    }
    output.insert(QStringLiteral("Messages"), messages);
    return output;
}

namespace actions {

ActionResult sendMessage(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto message = sendRequestFrom(request);
    if (!message)
        return message.error();
    message->queue = *queue;
    message->origin = context.origin;
    auto sent = context.broker.sendMessage(*message);
    if (!sent)
        return sent.error();
    return sendOutput(*message, *sent);
}

ActionResult sendMessageBatch(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    std::vector<engine::BatchSendEntry> entries;
    for (const SqsRequest& item : request.entries(QStringLiteral("Entries"))) {
        auto message = sendRequestFrom(item);
        if (!message)
            return message.error();
        entries.push_back(
            {item.string(QStringLiteral("Id")).value_or(std::string()), std::move(*message)});
    }
    auto result = context.broker.sendMessageBatch(*queue, entries, context.origin);
    if (!result)
        return result.error();
    // Ids are distinct (the engine rejects the batch otherwise): find each success's request.
    std::unordered_map<std::string, const engine::SendMessageRequest*> byId;
    for (const engine::BatchSendEntry& entry : entries)
        byId.emplace(entry.id, &entry.message);
    return batchOutput(*result,
                       [&](const engine::BatchResult<engine::SendResult>::Success& success) {
                           QJsonObject output = sendOutput(*byId.at(success.id), success.result);
                           output.insert(QStringLiteral("Id"), text(success.id));
                           return output;
                       });
}

ActionResult receiveMessage(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    engine::ReceiveRequest receive;
    receive.queue = *queue;
    receive.origin = context.origin;
    for (auto [key, target] :
         {std::pair{QStringLiteral("MaxNumberOfMessages"), &receive.maxMessages},
          std::pair{QStringLiteral("VisibilityTimeout"), &receive.visibilityTimeout},
          std::pair{QStringLiteral("WaitTimeSeconds"), &receive.waitTimeSeconds}}) {
        auto value = request.integer(key);
        if (!value)
            return value.error();
        *target = *value;
    }
    // AttributeNames (deprecated) and MessageSystemAttributeNames: the union (§4.3).
    receive.systemAttributeNames = request.stringList(QStringLiteral("AttributeNames"));
    for (std::string& name : request.stringList(QStringLiteral("MessageSystemAttributeNames")))
        receive.systemAttributeNames.push_back(std::move(name));
    receive.messageAttributeNames = request.stringList(QStringLiteral("MessageAttributeNames"));
    receive.receiveRequestAttemptId = request.string(QStringLiteral("ReceiveRequestAttemptId"));

    auto received = context.broker.receiveMessage(receive);
    if (!received)
        return received.error();
    if (!received->messages.empty())
        return receiveOutput(*received);
    const std::int64_t wait = receive.waitTimeSeconds ? *receive.waitTimeSeconds
                                                      : queueWaitSeconds(context.broker, *queue);
    if (wait <= 0)
        return receiveOutput(*received);
    return WaitForMessages{std::move(receive)};
}

ActionResult deleteMessage(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto handle = required(request, QStringLiteral("ReceiptHandle"));
    if (!handle)
        return handle.error();
    if (auto status = context.broker.deleteMessage(*queue, *handle, context.origin); !status)
        return status.error();
    return QJsonObject();
}

ActionResult deleteMessageBatch(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto entries = receiptEntries(request);
    if (!entries)
        return entries.error();
    auto result = context.broker.deleteMessageBatch(*queue, *entries, context.origin);
    if (!result)
        return result.error();
    return batchOutput(*result, idOnly<engine::Done>);
}

ActionResult changeMessageVisibility(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto handle = required(request, QStringLiteral("ReceiptHandle"));
    if (!handle)
        return handle.error();
    auto visibility = request.integer(QStringLiteral("VisibilityTimeout"));
    if (!visibility)
        return visibility.error();
    // A missing VisibilityTimeout is the engine's MissingParameter.
    auto changed
        = context.broker.changeMessageVisibility(*queue, *handle, *visibility, context.origin);
    if (!changed)
        return changed.error();
    return QJsonObject();
}

ActionResult changeMessageVisibilityBatch(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto entries = receiptEntries(request);
    if (!entries)
        return entries.error();
    auto result = context.broker.changeMessageVisibilityBatch(*queue, *entries, context.origin);
    if (!result)
        return result.error();
    return batchOutput(*result, idOnly<engine::ChangeVisibilityResult>);
}

} // namespace actions

} // namespace inflight::protocol
