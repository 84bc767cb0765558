// Queue-level operations (§3): create with idempotency and the re-create window, attributes,
// tags, purge, dead-letter relations, permissions.
#include "engine/internal/broker_state.h"
#include "text/base64.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace inflight::engine {

namespace {

constexpr std::size_t kMaxListResults = 1000;
// §1.3. A queue's tags travel with every change of it to the workspace: 150,000 of them made
// every send four times slower.
constexpr std::size_t kMaxTagsPerQueue = 50;

Error redriveError(const QueueConfig& c, std::string_view reason)
{
    return makeError(ErrorCode::InvalidParameterValue,
                     "Value " + c.redrivePolicyJson
                         + " for parameter RedrivePolicy is invalid. Reason: "
                         + std::string(reason),
                     "RedrivePolicy");
}

const std::vector<std::string>& knownSqsAttributeNames()
{
    static const std::vector<std::string> names = {"ApproximateNumberOfMessages",
                                                   "ApproximateNumberOfMessagesDelayed",
                                                   "ApproximateNumberOfMessagesNotVisible",
                                                   "CreatedTimestamp",
                                                   "DelaySeconds",
                                                   "LastModifiedTimestamp",
                                                   "MaximumMessageSize",
                                                   "MessageRetentionPeriod",
                                                   "Policy",
                                                   "QueueArn",
                                                   "ReceiveMessageWaitTimeSeconds",
                                                   "RedrivePolicy",
                                                   "RedriveAllowPolicy",
                                                   "VisibilityTimeout",
                                                   "KmsMasterKeyId",
                                                   "KmsDataKeyReusePeriodSeconds",
                                                   "SqsManagedSseEnabled",
                                                   "FifoQueue",
                                                   "ContentBasedDeduplication",
                                                   "DeduplicationScope",
                                                   "FifoThroughputLimit"};
    return names;
}

Result<ListQueuesResult> paginate(std::vector<std::string> names, const ListQueuesRequest& page)
{
    if (page.maxResults
        && (*page.maxResults < 1 || *page.maxResults > static_cast<std::int64_t>(kMaxListResults)))
        return makeError(ErrorCode::InvalidParameterValue,
                         "Value " + std::to_string(*page.maxResults)
                             + " for parameter MaxResults is invalid. Reason: MaxResults must be "
                               "an integer between "
                               "1 and 1000.",
                         "MaxResults");
    std::sort(names.begin(), names.end());
    auto begin = names.begin();
    if (!page.nextToken.empty()) {
        const auto after = text::base64UrlDecode(page.nextToken);
        if (!after)
            return makeError(ErrorCode::InvalidParameterValue, "Invalid NextToken value.",
                             "NextToken");
        begin = std::upper_bound(names.begin(), names.end(), *after);
    }
    const std::size_t limit
        = page.maxResults ? static_cast<std::size_t>(*page.maxResults) : kMaxListResults;
    ListQueuesResult result;
    for (auto it = begin; it != names.end() && result.names.size() < limit; ++it)
        result.names.push_back(*it);
    const bool more = static_cast<std::size_t>(names.end() - begin) > result.names.size();
    if (page.maxResults && more)
        result.nextToken = text::base64UrlEncode(result.names.back());
    return result;
}

// Tag limits count Unicode characters (§1.3), not UTF-8 bytes.
std::size_t codePoints(std::string_view s)
{
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

Status validateTags(const StringMap& tags)
{
    for (const auto& [key, value] : tags) {
        if (key.empty() || codePoints(key) > 128)
            return makeError(ErrorCode::InvalidParameterValue,
                             "Tag keys must be between 1 and 128 characters in length.", "Tags");
        if (codePoints(value) > 256)
            return makeError(ErrorCode::InvalidParameterValue,
                             "Tag values may only be up to 256 characters in length.", "Tags");
        if (key.compare(0, 4, "aws:") == 0)
            return makeError(ErrorCode::InvalidParameterValue,
                             "Tag keys must not start with the reserved prefix aws:.", "Tags");
    }
    return Done{};
}

// The limit is on the queue's tags after the call: a key it has already is replaced, not added.
Status checkTagCount(const std::string& queue, const StringMap& current, const StringMap& added)
{
    std::size_t total = current.size();
    for (const auto& [key, value] : added)
        total += current.contains(key) ? 0 : 1;
    if (total > kMaxTagsPerQueue)
        return makeError(ErrorCode::InvalidParameterValue,
                         "Too many tags added for queue " + queue + ".", "Tags");
    return Done{};
}

} // namespace

QueueRef refOf(const Queue& q)
{
    return QueueRef{q.name, q.arn, q.kind()};
}

Status BrokerState::checkRedriveTarget(const QueueConfig& c, const std::string& sourceArn)
{
    if (!c.redrivePolicy)
        return Done{};
    const std::string& arn = c.redrivePolicy->deadLetterTargetArn;
    const auto name = queueNameFromArn(arn);
    if (!name || arnFor(*name) != arn)
        return redriveError(c, "Dead-letter target owner or region should be same as the source.");
    Queue* target = findQueue(*name);
    if (!target || target->isBuiltInDeadLetter || target->isOci())
        return redriveError(c, "Dead letter target does not exist.");
    if (target->isFifo() != (c.kind == QueueKind::Fifo))
        return redriveError(c, "Dead-letter queue must be same type of queue as the source.");
    if (const auto& allow = target->config.redriveAllowPolicy) {
        const bool allowed = allow->permission == RedriveAllowPolicy::Permission::AllowAll
            || (allow->permission == RedriveAllowPolicy::Permission::ByQueue
                && std::find(allow->sourceQueueArns.begin(), allow->sourceQueueArns.end(),
                             sourceArn)
                    != allow->sourceQueueArns.end());
        if (!allowed)
            return redriveError(c,
                                "Queue " + target->arn + " does not allow " + sourceArn
                                    + " to use it as a dead-letter queue (RedriveAllowPolicy).");
    }
    return Done{};
}

Result<QueueRef> BrokerState::createQueue(const CreateQueueRequest& r, Millis now)
{
    auto config = configForCreate(r.attributes, r.oci, options);
    if (!config)
        return config.error();
    if (Status st = validateQueueName(r.name, config->kind); !st)
        return st.error();
    if (Queue* existing = findQueue(r.name)) {
        if (existing->isBuiltInDeadLetter || existing->kind() != config->kind)
            return makeError(
                ErrorCode::QueueNameExists,
                "A queue already exists with the same name and a different value for attribute "
                "FifoQueue",
                "QueueName");
        if (auto differing = firstDifferingAttribute(existing->config, r.attributes))
            return makeError(
                ErrorCode::QueueNameExists,
                "A queue already exists with the same name and a different value for attribute "
                    + *differing,
                *differing);
        return refOf(*existing);
    }
    if (auto it = deletedAt.find(r.name);
        it != deletedAt.end() && now - it->second < options.recreateDelay)
        return makeError(ErrorCode::QueueDeletedRecently,
                         "You must wait 60 seconds after deleting a queue before you can create "
                         "another with the "
                         "same name.",
                         "QueueName");
    if (Status st = validateTags(r.tags); !st)
        return st.error();
    if (Status st = checkTagCount(r.name, {}, r.tags); !st)
        return st.error();
    const std::string arn = arnFor(r.name);
    if (Status st = checkRedriveTarget(*config, arn); !st)
        return st.error();

    auto make = [&](const std::string& name, QueueConfig cfg) -> Queue& {
        auto q = std::make_unique<Queue>();
        q->id = nextQueueId++;
        q->name = name;
        q->arn = arnFor(name);
        q->config = std::move(cfg);
        q->createdAt = q->lastModifiedAt = now;
        Queue& ref = *q;
        queues[name] = std::move(q);
        return ref;
    };
    Queue& q = make(r.name, *config);
    q.tags = r.tags;
    if (q.isOci()) {
        // Every OCI queue has a built-in DLQ; its name cannot clash with a user queue ('.' is
        // not allowed in names).
        QueueConfig dlq = *config;
        dlq.deadLetterQueueDeliveryCount = 0;
        q.builtInDeadLetterName = r.name + ".dlq";
        Queue& d = make(q.builtInDeadLetterName, dlq);
        d.isBuiltInDeadLetter = true;
        if (wantEvents())
            emit(queueEvent(EventKind::QueueCreated, d, now, r.origin));
    }
    if (wantEvents())
        emit(queueEvent(EventKind::QueueCreated, q, now, r.origin));
    return refOf(q);
}

Status BrokerState::deleteQueue(std::string_view name, Millis now, const Origin& origin)
{
    auto found = requireQueue(name);
    if (!found)
        return found.error();
    Queue* q = *found;
    if (q->isBuiltInDeadLetter)
        return makeError(
            ErrorCode::InvalidParameterValue,
            "The built-in dead-letter queue of an OCI queue is deleted with its queue.",
            "QueueName");
    std::vector<Queue*> doomed{q};
    if (!q->builtInDeadLetterName.empty())
        if (Queue* d = findQueue(q->builtInDeadLetterName))
            doomed.push_back(d);
    for (Queue* d : doomed) {
        endWaiters(*d);
        if (wantEvents())
            emit(queueEvent(EventKind::QueueDeleted, *d, now, origin));
        deletedAt[d->name] = now;
        queues.erase(queues.find(d->name));
    }
    return Done{};
}

Result<StringMap> BrokerState::getAttributes(Queue& q, const std::vector<std::string>& names)
{
    StringMap all = allAttributes(q);
    StringMap result;
    if (names.empty())
        return result;
    const auto& known = knownSqsAttributeNames();
    bool wantAll = false;
    for (const std::string& n : names) {
        if (n == "All") {
            wantAll = true;
            continue;
        }
        const bool isKnown = q.isOci() ? all.count(n) > 0
                                       : std::find(known.begin(), known.end(), n) != known.end();
        if (!isKnown)
            return makeError(ErrorCode::InvalidAttributeName, "Unknown Attribute " + n + ".", n);
    }
    if (wantAll)
        return all;
    for (const std::string& n : names)
        if (auto it = all.find(n); it != all.end())
            result.insert(*it);
    return result;
}

Status BrokerState::setAttributes(Queue& q, const StringMap& attributes, Millis now,
                                  const Origin& origin)
{
    auto config = applyAttributes(q.config, attributes);
    if (!config)
        return config.error();
    if (attributes.count("RedrivePolicy"))
        if (Status st = checkRedriveTarget(*config, q.arn); !st)
            return st.error();
    q.config = std::move(*config);
    q.lastModifiedAt = now;
    // A shorter retention or (FIFO) delay takes effect at once.
    settle(q, now);
    if (wantEvents())
        emit(queueEvent(EventKind::QueueChanged, q, now, origin));
    return Done{};
}

Status BrokerState::purge(Queue& q, PurgeTarget target, Millis now, const Origin& origin)
{
    std::vector<Queue*> targets;
    if (q.isOci()) {
        if (target != PurgeTarget::DeadLetter)
            targets.push_back(&q);
        if (target != PurgeTarget::Normal && !q.builtInDeadLetterName.empty())
            if (Queue* d = findQueue(q.builtInDeadLetterName))
                targets.push_back(d);
    } else {
        if (q.lastPurgeAt >= 0 && now - q.lastPurgeAt < options.purgeInterval)
            return makeError(ErrorCode::PurgeQueueInProgress,
                             "Only one PurgeQueue operation on " + q.name
                                 + " is allowed every 60 seconds.",
                             "QueueUrl");
        q.lastPurgeAt = now;
        targets.push_back(&q);
    }
    for (Queue* t : targets) {
        const auto removed = static_cast<std::int64_t>(t->store.size());
        purgeMessages(*t);
        t->counters.purged += removed;
        if (wantEvents()) {
            Event e = queueEvent(EventKind::QueuePurged, *t, now, origin);
            e.count = removed;
            emit(std::move(e));
        }
    }
    return Done{};
}

Result<ListQueuesResult> BrokerState::listQueues(const ListQueuesRequest& r)
{
    std::vector<std::string> names;
    for (const auto& [name, q] : queues)
        if (!q->isBuiltInDeadLetter && name.compare(0, r.prefix.size(), r.prefix) == 0)
            names.push_back(name);
    return paginate(std::move(names), r);
}

Result<ListQueuesResult> BrokerState::listDeadLetterSources(Queue& dlq,
                                                            const ListQueuesRequest& page)
{
    std::vector<std::string> names;
    for (const auto& [name, q] : queues)
        if (q->config.redrivePolicy && q->config.redrivePolicy->deadLetterTargetArn == dlq.arn)
            names.push_back(name);
    return paginate(std::move(names), page);
}

Status BrokerState::tag(Queue& q, const StringMap& tags, Millis now, const Origin& origin)
{
    if (Status st = validateTags(tags); !st)
        return st;
    if (Status st = checkTagCount(q.name, q.tags, tags); !st)
        return st;
    for (const auto& [key, value] : tags)
        q.tags[key] = value;
    if (wantEvents())
        emit(queueEvent(EventKind::QueueChanged, q, now, origin));
    return Done{};
}

Status BrokerState::untag(Queue& q, const std::vector<std::string>& keys, Millis now,
                          const Origin& origin)
{
    for (const std::string& key : keys)
        q.tags.erase(key);
    if (wantEvents())
        emit(queueEvent(EventKind::QueueChanged, q, now, origin));
    return Done{};
}

Status BrokerState::addPermission(Queue& q, const std::string& label,
                                  const std::vector<std::string>& accounts,
                                  const std::vector<std::string>& actions, Millis now,
                                  const Origin& origin)
{
    if (label.empty())
        return makeError(ErrorCode::MissingParameter,
                         "The request must contain the parameter Label.", "Label");
    if (accounts.empty())
        return makeError(ErrorCode::MissingParameter,
                         "The request must contain the parameter AWSAccountIds.", "AWSAccountIds");
    if (actions.empty())
        return makeError(ErrorCode::MissingParameter,
                         "The request must contain the parameter Actions.", "Actions");
    nlohmann::json policy = q.config.policy.empty()
        ? nlohmann::json{{"Version", "2012-10-17"},
                         {"Id", q.arn + "/SQSDefaultPolicy"},
                         {"Statement", nlohmann::json::array()}}
        : nlohmann::json::parse(q.config.policy, nullptr, false);
    if (policy.is_discarded() || !policy.is_object())
        policy = nlohmann::json{{"Version", "2012-10-17"}, {"Statement", nlohmann::json::array()}};
    auto& statements = policy["Statement"];
    if (!statements.is_array())
        statements = nlohmann::json::array();
    for (const auto& st : statements)
        if (st.is_object() && st.value("Sid", "") == label)
            return makeError(ErrorCode::InvalidParameterValue,
                             "Value " + label
                                 + " for parameter Label is invalid. Reason: Already exists.",
                             "Label");
    nlohmann::json principals = nlohmann::json::array();
    for (const std::string& a : accounts)
        principals.push_back("arn:aws:iam::" + a + ":root");
    nlohmann::json acts = nlohmann::json::array();
    for (const std::string& a : actions)
        acts.push_back("SQS:" + a);
    statements.push_back({{"Sid", label},
                          {"Effect", "Allow"},
                          {"Principal", {{"AWS", principals}}},
                          {"Action", acts},
                          {"Resource", q.arn}});
    q.config.policy = policy.dump();
    q.lastModifiedAt = now;
    if (wantEvents())
        emit(queueEvent(EventKind::QueueChanged, q, now, origin));
    return Done{};
}

Status BrokerState::removePermission(Queue& q, const std::string& label, Millis now,
                                     const Origin& origin)
{
    nlohmann::json policy
        = nlohmann::json::parse(q.config.policy.empty() ? "{}" : q.config.policy, nullptr, false);
    bool found = false;
    if (policy.is_object() && policy.contains("Statement") && policy["Statement"].is_array()) {
        auto& statements = policy["Statement"];
        for (auto it = statements.begin(); it != statements.end(); ++it) {
            if (it->is_object() && it->value("Sid", "") == label) {
                statements.erase(it);
                found = true;
                break;
            }
        }
    }
    if (!found)
        return makeError(ErrorCode::InvalidParameterValue,
                         "Value " + label
                             + " for parameter Label is invalid. Reason: can't find label.",
                         "Label");
    q.config.policy = policy["Statement"].empty() ? std::string() : policy.dump();
    q.lastModifiedAt = now;
    if (wantEvents())
        emit(queueEvent(EventKind::QueueChanged, q, now, origin));
    return Done{};
}

} // namespace inflight::engine
