// The SQS action table and what the actions share: which queue a request addresses, queue URLs,
// required members.
#include "protocol/sqs_actions.h"

#include <QUrl>

#include <algorithm>
#include <optional>
#include <string_view>

namespace inflight::protocol {

namespace {

struct ActionEntry {
    QLatin1String name;
    ActionHandler handler;
};

const ActionEntry kActions[] = {
    {QLatin1String("CreateQueue"), actions::createQueue},
    {QLatin1String("GetQueueUrl"), actions::getQueueUrl},
    {QLatin1String("ListQueues"), actions::listQueues},
    {QLatin1String("DeleteQueue"), actions::deleteQueue},
    {QLatin1String("GetQueueAttributes"), actions::getQueueAttributes},
    {QLatin1String("SetQueueAttributes"), actions::setQueueAttributes},
    {QLatin1String("PurgeQueue"), actions::purgeQueue},
    {QLatin1String("TagQueue"), actions::tagQueue},
    {QLatin1String("UntagQueue"), actions::untagQueue},
    {QLatin1String("ListQueueTags"), actions::listQueueTags},
    {QLatin1String("ListDeadLetterSourceQueues"), actions::listDeadLetterSourceQueues},
    {QLatin1String("AddPermission"), actions::addPermission},
    {QLatin1String("RemovePermission"), actions::removePermission},
    {QLatin1String("SendMessage"), actions::sendMessage},
    {QLatin1String("SendMessageBatch"), actions::sendMessageBatch},
    {QLatin1String("ReceiveMessage"), actions::receiveMessage},
    {QLatin1String("DeleteMessage"), actions::deleteMessage},
    {QLatin1String("DeleteMessageBatch"), actions::deleteMessageBatch},
    {QLatin1String("ChangeMessageVisibility"), actions::changeMessageVisibility},
    {QLatin1String("ChangeMessageVisibilityBatch"), actions::changeMessageVisibilityBatch},
    {QLatin1String("StartMessageMoveTask"), actions::startMessageMoveTask},
    {QLatin1String("ListMessageMoveTasks"), actions::listMessageMoveTasks},
    {QLatin1String("CancelMessageMoveTask"), actions::cancelMessageMoveTask},
};

// `/<account>/<name>` (already split into segments) → the queue name, if the account is ours.
engine::Result<std::string> queueFromSegments(const SqsContext& context,
                                              const QStringList& segments)
{
    if (segments.size() < 2
        || segments.at(segments.size() - 2).toStdString() != context.broker.options().accountId)
        return actions::queueDoesNotExist();
    return segments.last().toStdString();
}

struct PlainQueueUrl {
    std::string_view account;
    std::string_view name;
};

// The account and name of `http(s)://host/<account>/<name>` when nothing in it needs QUrl: no
// percent-escapes, query, fragment or empty segment. What SDKs send back is always this shape;
// anything else goes through QUrl, with the same result.
std::optional<PlainQueueUrl> plainQueueUrl(std::string_view url)
{
    std::size_t authority = 0;
    if (url.starts_with("http://"))
        authority = 7;
    else if (url.starts_with("https://"))
        authority = 8;
    else
        return std::nullopt;
    const std::size_t pathStart = url.find('/', authority);
    if (pathStart == std::string_view::npos)
        return std::nullopt;
    const std::string_view path = url.substr(pathStart + 1);
    if (path.empty() || path.back() == '/')
        return std::nullopt;
    // One pass (find_first_of looks each byte up in the set with a call of its own).
    for (std::size_t i = 0; i < path.size(); ++i) {
        const char c = path[i];
        if (c == '%' || c == '?' || c == '#'
            || (c == '/' && i + 1 < path.size() && path[i + 1] == '/'))
            return std::nullopt;
    }
    const std::size_t lastSlash = path.rfind('/');
    if (lastSlash == std::string_view::npos)
        return std::nullopt; // one segment: no account
    const std::size_t accountStart = path.rfind('/', lastSlash - 1);
    const std::size_t from = accountStart == std::string_view::npos ? 0 : accountStart + 1;
    return PlainQueueUrl{path.substr(from, lastSlash - from), path.substr(lastSlash + 1)};
}

} // namespace

ActionHandler findSqsAction(const QString& action)
{
    // The length first: Qt's compare of a QString with Latin-1 text is a call, most names differ
    // in length.
    const auto* it
        = std::find_if(std::begin(kActions), std::end(kActions), [&](const ActionEntry& entry) {
              return entry.name.size() == action.size() && entry.name == action;
          });
    return it == std::end(kActions) ? nullptr : it->handler;
}

namespace actions {

engine::Error queueDoesNotExist()
{
    return engine::makeError(engine::ErrorCode::QueueDoesNotExist,
                             "The specified queue does not exist.", "QueueUrl");
}

std::string queueUrl(const SqsContext& context, const std::string& name)
{
    std::string url = context.baseUrl.toStdString();
    url += '/';
    url += context.broker.options().accountId;
    url += '/';
    url += name;
    return url;
}

engine::Result<std::string> resolveQueue(const SqsContext& context, const SqsRequest& request)
{
    auto name = [&]() -> engine::Result<std::string> {
        if (auto url = request.text("QueueUrl")) {
            if (auto plain = plainQueueUrl(*url)) {
                if (plain->account != context.broker.options().accountId)
                    return queueDoesNotExist();
                return std::string(plain->name);
            }
            const QUrl parsed(QString::fromUtf8(url->data(), qsizetype(url->size())));
            return queueFromSegments(
                context,
                parsed.path(QUrl::FullyDecoded).split(QLatin1Char('/'), Qt::SkipEmptyParts));
        }
        QStringList segments;
        for (const QByteArray& segment : context.http.path.split('/')) {
            if (!segment.isEmpty())
                segments.append(QUrl::fromPercentEncoding(segment));
        }
        if (segments.isEmpty())
            return SqsRequest::missing("QueueUrl");
        return queueFromSegments(context, segments);
    }();
    if (!name)
        return name;
    const auto kind = context.broker.queueKind(*name);
    if (!kind)
        return kind.error();
    if (*kind == engine::QueueKind::Oci)
        return queueDoesNotExist();
    return name;
}

engine::Result<std::string> required(const SqsRequest& request, std::string_view key)
{
    if (auto value = request.string(key))
        return std::move(*value);
    return SqsRequest::missing(key);
}

Output noOutput()
{
    return Output::object();
}

Output stringMapObject(const engine::StringMap& map)
{
    OutputObject object;
    for (const auto& [key, value] : map) // in key order, as the object keeps them
        object.add(key, value);
    return object.take();
}

} // namespace actions

} // namespace inflight::protocol
