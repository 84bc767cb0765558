// Message-level SQS actions (spec §4): send, receive (possibly waiting), delete and visibility,
// single and batched, with the MD5 digests of §2.6 computed from the bytes we hold.
#include "protocol/access_key.h"
#include "protocol/error_mapping.h"
#include "protocol/request_explanation.h"
#include "protocol/sqs_actions.h"

#include "engine/digest.h"

#include <QByteArray>

#include <unordered_map>

namespace inflight::protocol {

namespace {

using namespace actions;

engine::Result<engine::SendMessageRequest> sendRequestFrom(const SqsRequest& request)
{
    engine::SendMessageRequest message;
    message.body = request.string("MessageBody");
    auto delay = request.integer("DelaySeconds");
    if (!delay)
        return delay.error();
    message.delaySeconds = *delay;
    auto attributes = request.messageAttributes("MessageAttributes");
    if (!attributes)
        return attributes.error();
    message.attributes = std::move(*attributes);
    auto systemAttributes = request.messageAttributes("MessageSystemAttributes");
    if (!systemAttributes)
        return systemAttributes.error();
    message.systemAttributes = std::move(*systemAttributes);
    message.deduplicationId = request.string("MessageDeduplicationId");
    message.groupId = request.string("MessageGroupId");
    return message;
}

// Who sends what this request sends (SenderId): its SigV4 access key id, empty when unsigned.
std::string senderOf(const SqsContext& context)
{
    return accessKeyId(context.http).toStdString();
}

// A SendMessageBatch success entry's members (its Id added by the caller): SendMessage's.
Output sendOutput(const engine::SendMessageRequest& message, const engine::SendResult& result)
{
    return sendOutputOf(sendAnswerOf(message, result));
}

template <class T>
Output batchFailure(const typename engine::BatchResult<T>::Failure& failure)
{
    const SqsWireError wire = sqsWireError(failure.error);
    return OutputObject()
        .add("Code", wire.queryCode.toStdString())
        .add("Id", failure.id)
        .add("Message", wire.message.toStdString())
        .add("SenderFault", failure.senderFault)
        .take();
}

// `Successful` and `Failed` are required members: both are always present in JSON.
template <class T, class Describe>
Output batchOutput(const engine::BatchResult<T>& result, Describe describeSuccess)
{
    Output successful = Output::array();
    successful.get_ref<Output::array_t&>().reserve(result.successful.size());
    for (const auto& success : result.successful)
        successful.push_back(describeSuccess(success));
    Output failed = Output::array();
    for (const auto& failure : result.failed)
        failed.push_back(batchFailure<T>(failure));
    return OutputObject()
        .add("Failed", std::move(failed))
        .add("Successful", std::move(successful))
        .take();
}

// A scalar member into `out` (left empty when absent): a string without a copy in between, a
// number or boolean in its JSON spelling.
void assignScalar(const SqsRequest& item, std::string_view key, std::string& out)
{
    if (const auto text = item.text(key))
        out.assign(*text);
    else if (auto other = item.string(key))
        out = std::move(*other);
}

// The batch entries of a delete or change-visibility request.
engine::Result<std::vector<engine::BatchReceiptEntry>> receiptEntries(const SqsRequest& request)
{
    const std::vector<SqsRequest> items = request.entries("Entries");
    std::vector<engine::BatchReceiptEntry> entries;
    entries.reserve(items.size());
    for (const SqsRequest& item : items) {
        engine::BatchReceiptEntry entry;
        assignScalar(item, "Id", entry.id);
        assignScalar(item, "ReceiptHandle", entry.receiptHandle);
        auto visibility = item.integer("VisibilityTimeout");
        if (!visibility)
            return visibility.error();
        entry.visibilityTimeout = *visibility;
        entries.push_back(std::move(entry));
    }
    return entries;
}

// With a traffic log: each entry's receipt and where it stands, before the batch runs.
void noteReceipts(SqsContext& context, const std::string& queue,
                  const std::vector<engine::BatchReceiptEntry>& entries)
{
    if (context.summary)
        protocol::noteReceipts(context.broker, queue, entries, *context.summary);
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
    message->senderId = senderOf(context);
    auto sent = context.broker.sendMessage(*message);
    if (!sent)
        return sent.error();
    return sendAnswerOf(*message, *sent);
}

ActionResult sendMessageBatch(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    const std::string sender = senderOf(context);
    std::vector<engine::BatchSendEntry> entries;
    for (const SqsRequest& item : request.entries("Entries")) {
        auto message = sendRequestFrom(item);
        if (!message)
            return message.error();
        message->senderId = sender;
        entries.push_back({item.string("Id").value_or(std::string()), std::move(*message)});
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
                           Output output = sendOutput(*byId.at(success.id), success.result);
                           output["Id"] = success.id;
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
    for (auto [key, target] : {std::pair{"MaxNumberOfMessages", &receive.maxMessages},
                               std::pair{"VisibilityTimeout", &receive.visibilityTimeout},
                               std::pair{"WaitTimeSeconds", &receive.waitTimeSeconds}}) {
        auto value = request.integer(key);
        if (!value)
            return value.error();
        *target = *value;
    }
    // AttributeNames (deprecated) and MessageSystemAttributeNames: the union (§4.3).
    receive.systemAttributeNames = request.stringList("AttributeNames");
    for (std::string& name : request.stringList("MessageSystemAttributeNames"))
        receive.systemAttributeNames.push_back(std::move(name));
    receive.messageAttributeNames = request.stringList("MessageAttributeNames");
    receive.receiveRequestAttemptId = request.string("ReceiveRequestAttemptId");

    auto received = context.broker.receiveMessage(receive);
    if (!received) {
        if (context.summary && received.error().code == engine::ErrorCode::OverLimit)
            explainEmptyReceive(context.broker, receive, false, *context.summary);
        return received.error();
    }
    if (!received->messages.empty())
        return std::move(*received);
    const std::int64_t wait = receive.waitTimeSeconds ? *receive.waitTimeSeconds
                                                      : queueWaitSeconds(context.broker, *queue);
    if (wait <= 0) {
        if (context.summary)
            explainEmptyReceive(context.broker, receive, false, *context.summary);
        return std::move(*received);
    }
    return WaitForMessages{std::move(receive)}; // explained when it ends (Endpoint)
}

ActionResult deleteMessage(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto handle = required(request, "ReceiptHandle");
    if (!handle)
        return handle.error();
    if (context.summary)
        noteReceipt(context.broker, *queue, {}, *handle, *context.summary);
    auto status = context.broker.deleteMessage(*queue, *handle, context.origin);
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::Delete,
                          status ? nullptr : &status.error(), *context.summary);
    if (!status)
        return status.error();
    return noOutput();
}

ActionResult deleteMessageBatch(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto entries = receiptEntries(request);
    if (!entries)
        return entries.error();
    noteReceipts(context, *queue, *entries);
    auto result = context.broker.deleteMessageBatch(*queue, *entries, context.origin);
    if (!result)
        return result.error();
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::Delete, *result, *context.summary);
    return idBatchOf(*result);
}

ActionResult changeMessageVisibility(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto handle = required(request, "ReceiptHandle");
    if (!handle)
        return handle.error();
    auto visibility = request.integer("VisibilityTimeout");
    if (!visibility)
        return visibility.error();
    // A missing VisibilityTimeout is the engine's MissingParameter.
    if (context.summary)
        noteReceipt(context.broker, *queue, {}, *handle, *context.summary);
    auto changed
        = context.broker.changeMessageVisibility(*queue, *handle, *visibility, context.origin);
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::ChangeVisibility,
                          changed ? nullptr : &changed.error(), *context.summary);
    if (!changed)
        return changed.error();
    return noOutput();
}

ActionResult changeMessageVisibilityBatch(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto entries = receiptEntries(request);
    if (!entries)
        return entries.error();
    noteReceipts(context, *queue, *entries);
    auto result = context.broker.changeMessageVisibilityBatch(*queue, *entries, context.origin);
    if (!result)
        return result.error();
    if (context.summary)
        explainReceiptUse(context.broker, ReceiptOperation::ChangeVisibility, *result,
                          *context.summary);
    return idBatchOf(*result);
}

} // namespace actions

} // namespace inflight::protocol
