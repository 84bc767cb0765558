#pragma once

#include "engine/broker.h"
#include "protocol/batch_answer.h"
#include "protocol/http_types.h"
#include "protocol/request_summary.h"
#include "protocol/send_answer.h"
#include "protocol/sqs_output.h"
#include "protocol/sqs_request.h"

#include <QString>

#include <string>
#include <variant>

namespace inflight::protocol {

// Everything an SQS action needs besides its request.
struct SqsContext {
    engine::Broker& broker;
    const QString& baseUrl;
    const HttpRequest& http; // for the queue in the path (§2.2)
    engine::Origin origin;
    // With a traffic log: filled by the actions with what only they know (the receipts a request
    // uses, why a receive came back empty; request_explanation.h). Null otherwise.
    RequestSummary* summary = nullptr;
};

// A ReceiveMessage that found nothing and may wait.
struct WaitForMessages {
    engine::ReceiveRequest request;
};

// What an action produced: its output members (the codecs print them), an error, a receive
// that has to wait, or one of the answers a consumer asks for with every message, which the codecs
// write straight from the result: the messages a receive took (receive_answer.h), a batch of ids
// (batch_answer.h), a sent message (send_answer.h).
using ActionResult = std::variant<Output, engine::Error, WaitForMessages, engine::ReceiveResult,
                                  IdBatch, SendAnswer>;
using ActionHandler = ActionResult (*)(SqsContext&, const SqsRequest&);

// The handler of an SQS action by its name ("SendMessage"); nullptr if there is none.
ActionHandler findSqsAction(const QString& action);

namespace actions {

// Shared by the action files.

// "<baseUrl>/<account>/<name>"
std::string queueUrl(const SqsContext& context, const std::string& name);
// The queue a request addresses: from `QueueUrl` (last path segment; the segment before it must
// be our account), else from the request path `/<account>/<name>`; MissingParameter QueueUrl if
// neither names one. QueueDoesNotExist for unknown queues and for OCI queues (the profiles are
// kept apart).
engine::Result<std::string> resolveQueue(const SqsContext& context, const SqsRequest& request);
engine::Error queueDoesNotExist();
// A required string member, or MissingParameter.
engine::Result<std::string> required(const SqsRequest& request, std::string_view key);
// An empty output object (`{}`), for actions without output members.
Output noOutput();
Output stringMapObject(const engine::StringMap& map);

ActionResult createQueue(SqsContext& context, const SqsRequest& request);
ActionResult getQueueUrl(SqsContext& context, const SqsRequest& request);
ActionResult listQueues(SqsContext& context, const SqsRequest& request);
ActionResult deleteQueue(SqsContext& context, const SqsRequest& request);
ActionResult getQueueAttributes(SqsContext& context, const SqsRequest& request);
ActionResult setQueueAttributes(SqsContext& context, const SqsRequest& request);
ActionResult purgeQueue(SqsContext& context, const SqsRequest& request);
ActionResult tagQueue(SqsContext& context, const SqsRequest& request);
ActionResult untagQueue(SqsContext& context, const SqsRequest& request);
ActionResult listQueueTags(SqsContext& context, const SqsRequest& request);
ActionResult listDeadLetterSourceQueues(SqsContext& context, const SqsRequest& request);
ActionResult addPermission(SqsContext& context, const SqsRequest& request);
ActionResult removePermission(SqsContext& context, const SqsRequest& request);
ActionResult startMessageMoveTask(SqsContext& context, const SqsRequest& request);
ActionResult listMessageMoveTasks(SqsContext& context, const SqsRequest& request);
ActionResult cancelMessageMoveTask(SqsContext& context, const SqsRequest& request);

ActionResult sendMessage(SqsContext& context, const SqsRequest& request);
ActionResult sendMessageBatch(SqsContext& context, const SqsRequest& request);
ActionResult receiveMessage(SqsContext& context, const SqsRequest& request);
ActionResult deleteMessage(SqsContext& context, const SqsRequest& request);
ActionResult deleteMessageBatch(SqsContext& context, const SqsRequest& request);
ActionResult changeMessageVisibility(SqsContext& context, const SqsRequest& request);
ActionResult changeMessageVisibilityBatch(SqsContext& context, const SqsRequest& request);

} // namespace actions

} // namespace inflight::protocol
