// Queue-level SQS actions (spec §3) and message move tasks (§5.5): request model → engine call →
// output members.
#include "protocol/sqs_actions.h"

namespace inflight::protocol::actions {

namespace {

ActionResult fromStatus(const engine::Status& status)
{
    if (!status)
        return status.error();
    return noOutput();
}

bool isSqsQueue(engine::Broker& broker, const std::string& name)
{
    auto queue = broker.getQueue(name);
    return queue && queue->kind != engine::QueueKind::Oci;
}

} // namespace

ActionResult createQueue(SqsContext& context, const SqsRequest& request)
{
    auto name = required(request, "QueueName");
    if (!name)
        return name.error();
    engine::CreateQueueRequest create;
    create.name = *name;
    create.attributes = request.stringMap("Attributes");
    // JSON spells CreateQueue's tag map `tags` (§2.4); accept `Tags` too.
    create.tags = request.stringMap(request.has("tags") ? "tags" : "Tags");
    create.origin = context.origin;
    auto queue = context.broker.createQueue(create);
    if (!queue)
        return queue.error();
    if (queue->kind == engine::QueueKind::Oci)
        return engine::makeError(engine::ErrorCode::QueueNameExists,
                                 "A queue already exists with the same name: an OCI queue.",
                                 "QueueName");
    return Output{{"QueueUrl", queueUrl(context, queue->name)}};
}

ActionResult getQueueUrl(SqsContext& context, const SqsRequest& request)
{
    auto name = required(request, "QueueName");
    if (!name)
        return name.error();
    if (auto owner = request.string("QueueOwnerAWSAccountId");
        owner && *owner != context.broker.options().accountId)
        return queueDoesNotExist();
    auto queue = context.broker.getQueue(*name);
    if (!queue)
        return queue.error();
    if (queue->kind == engine::QueueKind::Oci)
        return queueDoesNotExist();
    return Output{{"QueueUrl", queueUrl(context, queue->name)}};
}

ActionResult listQueues(SqsContext& context, const SqsRequest& request)
{
    auto maxResults = request.integer("MaxResults");
    if (!maxResults)
        return maxResults.error();
    engine::ListQueuesRequest page;
    page.prefix = request.string("QueueNamePrefix").value_or(std::string());
    page.maxResults = *maxResults;
    page.nextToken = request.string("NextToken").value_or(std::string());
    Output urls = Output::array();
    std::string nextToken;
    // OCI queues are not SQS queues: skip them, and fetch on so a page still holds MaxResults.
    for (;;) {
        auto listed = context.broker.listQueues(page);
        if (!listed)
            return listed.error();
        for (const std::string& name : listed->names) {
            if (isSqsQueue(context.broker, name))
                urls.push_back(queueUrl(context, name));
        }
        nextToken = listed->nextToken;
        const auto listedSoFar = static_cast<std::int64_t>(urls.size());
        if (!*maxResults || nextToken.empty() || listedSoFar >= **maxResults)
            break;
        page.maxResults = **maxResults - listedSoFar;
        page.nextToken = nextToken;
    }
    Output output = Output::object();
    if (!urls.empty())
        output["QueueUrls"] = std::move(urls);
    if (!nextToken.empty())
        output["NextToken"] = nextToken;
    return output;
}

ActionResult deleteQueue(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    return fromStatus(context.broker.deleteQueue(*queue, context.origin));
}

ActionResult getQueueAttributes(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto attributes
        = context.broker.getQueueAttributes(*queue, request.stringList("AttributeNames"));
    if (!attributes)
        return attributes.error();
    Output output = Output::object();
    if (!attributes->empty())
        output["Attributes"] = stringMapObject(*attributes);
    return output;
}

ActionResult setQueueAttributes(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    if (!request.has("Attributes"))
        return SqsRequest::missing("Attributes");
    return fromStatus(
        context.broker.setQueueAttributes(*queue, request.stringMap("Attributes"), context.origin));
}

ActionResult purgeQueue(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    return fromStatus(
        context.broker.purgeQueue(*queue, engine::PurgeTarget::Normal, context.origin));
}

ActionResult tagQueue(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    if (!request.has("Tags"))
        return SqsRequest::missing("Tags");
    return fromStatus(context.broker.tagQueue(*queue, request.stringMap("Tags"), context.origin));
}

ActionResult untagQueue(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    if (!request.has("TagKeys"))
        return SqsRequest::missing("TagKeys");
    return fromStatus(
        context.broker.untagQueue(*queue, request.stringList("TagKeys"), context.origin));
}

ActionResult listQueueTags(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto tags = context.broker.listQueueTags(*queue);
    if (!tags)
        return tags.error();
    Output output = Output::object();
    if (!tags->empty())
        output["Tags"] = stringMapObject(*tags);
    return output;
}

ActionResult listDeadLetterSourceQueues(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto maxResults = request.integer("MaxResults");
    if (!maxResults)
        return maxResults.error();
    engine::ListQueuesRequest page;
    page.maxResults = *maxResults;
    page.nextToken = request.string("NextToken").value_or(std::string());
    auto sources = context.broker.listDeadLetterSourceQueues(*queue, page);
    if (!sources)
        return sources.error();
    Output urls = Output::array();
    for (const std::string& name : sources->names)
        urls.push_back(queueUrl(context, name));
    // A required member, spelt with a lower-case q (§2.4).
    Output output{{"queueUrls", std::move(urls)}};
    if (!sources->nextToken.empty())
        output["NextToken"] = sources->nextToken;
    return output;
}

ActionResult addPermission(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto label = required(request, "Label");
    if (!label)
        return label.error();
    for (const char* key : {"AWSAccountIds", "Actions"}) {
        if (!request.has(key))
            return SqsRequest::missing(key);
    }
    return fromStatus(context.broker.addPermission(*queue, *label,
                                                   request.stringList("AWSAccountIds"),
                                                   request.stringList("Actions"), context.origin));
}

ActionResult removePermission(SqsContext& context, const SqsRequest& request)
{
    auto queue = resolveQueue(context, request);
    if (!queue)
        return queue.error();
    auto label = required(request, "Label");
    if (!label)
        return label.error();
    return fromStatus(context.broker.removePermission(*queue, *label, context.origin));
}

// ---- move tasks (§5.5) ------------------------------------------------------------------------

ActionResult startMessageMoveTask(SqsContext& context, const SqsRequest& request)
{
    auto source = required(request, "SourceArn");
    if (!source)
        return source.error();
    auto rate = request.integer("MaxNumberOfMessagesPerSecond");
    if (!rate)
        return rate.error();
    engine::StartMoveTaskRequest start;
    start.sourceArn = *source;
    start.destinationArn = request.string("DestinationArn");
    start.maxMessagesPerSecond = *rate;
    start.origin = context.origin;
    auto handle = context.broker.startMessageMoveTask(start);
    if (!handle)
        return handle.error();
    return Output{{"TaskHandle", *handle}};
}

ActionResult listMessageMoveTasks(SqsContext& context, const SqsRequest& request)
{
    auto source = required(request, "SourceArn");
    if (!source)
        return source.error();
    auto maxResults = request.integer("MaxResults");
    if (!maxResults)
        return maxResults.error();
    auto tasks = context.broker.listMessageMoveTasks(*source, *maxResults);
    if (!tasks)
        return tasks.error();
    Output results = Output::array();
    for (const engine::MoveTaskInfo& task : *tasks) {
        Output entry{
            {"Status", std::string(engine::moveTaskStatusName(task.status))},
            {"SourceArn", task.sourceArn},
            {"ApproximateNumberOfMessagesMoved", std::int64_t(task.moved)},
            {"ApproximateNumberOfMessagesToMove", std::int64_t(task.toMove)},
            {"StartedTimestamp", std::int64_t(task.startedAt)},
        };
        // Only-if-given and only-while-running members are left out otherwise (§5.5).
        if (!task.taskHandle.empty())
            entry["TaskHandle"] = task.taskHandle;
        if (!task.destinationArn.empty())
            entry["DestinationArn"] = task.destinationArn;
        if (task.maxMessagesPerSecond)
            entry["MaxNumberOfMessagesPerSecond"] = std::int64_t(*task.maxMessagesPerSecond);
        if (!task.failureReason.empty())
            entry["FailureReason"] = task.failureReason;
        results.push_back(std::move(entry));
    }
    return Output{{"Results", std::move(results)}};
}

ActionResult cancelMessageMoveTask(SqsContext& context, const SqsRequest& request)
{
    auto handle = required(request, "TaskHandle");
    if (!handle)
        return handle.error();
    auto moved = context.broker.cancelMessageMoveTask(*handle, context.origin);
    if (!moved)
        return moved.error();
    return Output{{"ApproximateNumberOfMessagesMoved", std::int64_t(*moved)}};
}

} // namespace inflight::protocol::actions
