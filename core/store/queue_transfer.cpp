#include "store/queue_transfer.h"

#include "text/base64.h"

#include <nlohmann/json.hpp>

#include <set>

namespace inflight::store {

namespace {

using nlohmann::json;

json attributesToJson(const engine::MessageAttributes& attributes)
{
    json out = json::object();
    for (const auto& [name, v] : attributes) {
        json a{{"DataType", v.dataType}};
        if (v.isBinary())
            a["BinaryValue"] = text::base64Encode(v.binaryValue);
        else
            a["StringValue"] = v.stringValue;
        out[name] = std::move(a);
    }
    return out;
}

std::string dump(const json& j)
{
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A parsed message entry, checked before anything is imported.
struct Entry {
    engine::SendMessageRequest request;
    std::size_t line = 0;
};

} // namespace

std::string lineAndColumn(std::string_view text, std::size_t offset)
{
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

engine::Result<std::string> exportQueues(engine::Broker& broker, const ExportRequest& request)
{
    std::vector<engine::QueueRecord> records;
    if (request.queues.empty()) {
        for (auto& q : broker.queueRecords())
            if (!q.isBuiltInDeadLetter)
                records.push_back(std::move(q));
    } else {
        for (const std::string& name : request.queues) {
            auto q = broker.queueRecord(name);
            if (!q)
                return q.error();
            records.push_back(std::move(*q));
        }
    }
    const std::set<std::string> only(request.messageIds.begin(), request.messageIds.end());
    std::int64_t total = 0;
    std::int64_t done = 0;
    bool stopped = false;
    constexpr std::int64_t kStep = 4096;
    if (request.progress) {
        if (!only.empty())
            total = static_cast<std::int64_t>(only.size());
        else
            for (const engine::QueueRecord& q : records)
                (void)broker.forEachMessage(q.name, [&](const engine::MessageRecord&) { ++total; });
    }
    std::string out = "{\"format\": \"inflight-queues\", \"version\": 1, \"queues\": [\n";
    for (std::size_t i = 0; i < records.size(); ++i) {
        const engine::QueueRecord& q = records[i];
        auto view = broker.queueView(q.name);
        const std::string kind = view ? std::string(engine::queueKindName(view->kind)) : "standard";
        out += "{\"name\": " + dump(q.name) + ", \"kind\": " + dump(kind)
            + ", \"attributes\": " + dump(json(q.attributes)) + ", \"tags\": " + dump(json(q.tags))
            + ", \"messages\": [\n";
        bool first = true;
        (void)broker.forEachMessage(q.name, [&](const engine::MessageRecord& m) {
            const std::string id = engine::formatMessageId(m.idHigh, m.idLow);
            if (stopped || (!only.empty() && !only.count(id)))
                return;
            if (request.progress && ++done % kStep == 0 && !request.progress(done, total))
                stopped = true;
            json j{{"messageId", id}, {"body", m.body}, {"sentTimestamp", m.sentAt}};
            if (!m.attributes.empty())
                j["attributes"] = attributesToJson(m.attributes);
            if (!m.systemAttributes.empty())
                j["systemAttributes"] = attributesToJson(m.systemAttributes);
            if (!m.groupId.empty())
                j["groupId"] = m.groupId;
            if (!m.deduplicationId.empty())
                j["deduplicationId"] = m.deduplicationId;
            if (!m.channelId.empty())
                j["channelId"] = m.channelId;
            if (!m.senderId.empty())
                j["senderId"] = m.senderId;
            out += (first ? "  " : ",\n  ") + dump(j);
            first = false;
        });
        out += std::string(first ? "" : "\n") + "]}" + (i + 1 < records.size() ? ",\n" : "\n");
    }
    if (stopped)
        return engine::Error{engine::ErrorCode::InvalidParameterValue, "export stopped"};
    if (request.progress)
        (void)request.progress(total, total);
    out += "]}\n";
    return out;
}

engine::Result<Imported> importQueues(engine::Broker& broker, std::string_view text,
                                      const ImportRequest& request)
{
    Imported result;
    // Line of each entry: nlohmann reports positions of errors only, so map the starts of lines.
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        return engine::makeError(engine::ErrorCode::InvalidParameterValue,
                                 lineAndColumn(text, e.byte > 0 ? e.byte - 1 : 0) + ": "
                                     + e.what());
    }
    const auto refuse = [](std::string what) {
        return engine::makeError(engine::ErrorCode::InvalidParameterValue, std::move(what));
    };
    if (!doc.is_object() || doc.value("format", "") != "inflight-queues")
        return refuse("line 1: not an Inflight queue export (\"format\": \"inflight-queues\")");
    if (!doc.contains("queues") || !doc["queues"].is_array())
        return refuse("line 1: \"queues\" must be an array");

    // The export writes one message per line: the n-th message line of the file is its entry.
    std::vector<std::size_t> lineOfMessage;
    {
        std::size_t line = 1;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (i == 0 || text[i - 1] == '\n') {
                std::size_t j = i;
                while (j < text.size() && text[j] == ' ')
                    ++j;
                if (j < text.size() && text[j] == '{' && text.compare(j, 9, "{\"name\": ") != 0
                    && text.compare(j, 11, "{\"format\": ") != 0)
                    lineOfMessage.push_back(line);
            }
            if (text[i] == '\n')
                ++line;
        }
    }
    std::size_t messageIndex = 0;
    struct QueueImport {
        engine::CreateQueueRequest definition;
        std::vector<Entry> entries;
    };
    std::vector<QueueImport> queues;
    std::int64_t serial = 0;
    for (const json& q : doc["queues"]) {
        QueueImport qi;
        if (!q.is_object() || !q.contains("name") || !q["name"].is_string())
            return refuse("a queue without a \"name\"");
        qi.definition.name = q["name"].get<std::string>();
        qi.definition.oci = q.value("kind", "standard") == "oci";
        qi.definition.origin = request.origin;
        for (const char* key : {"attributes", "tags"}) {
            if (!q.contains(key))
                continue;
            if (!q[key].is_object())
                return refuse("queue " + qi.definition.name + ": \"" + key
                              + "\" must be an object of strings");
            for (const auto& [k, v] : q[key].items()) {
                if (!v.is_string())
                    return refuse("queue " + qi.definition.name + ": \"" + key + "\"." + k
                                  + " must be a string");
                (std::string_view(key) == "tags" ? qi.definition.tags : qi.definition.attributes)[k]
                    = v.get<std::string>();
            }
        }
        for (const json& m : q.value("messages", json::array())) {
            Entry e;
            e.line = messageIndex < lineOfMessage.size() ? lineOfMessage[messageIndex] : 0;
            ++messageIndex;
            const std::string where = "line " + std::to_string(e.line) + ": ";
            if (!m.is_object() || !m.contains("body") || !m["body"].is_string())
                return refuse(where + "a message needs a string \"body\"");
            e.request.body = m["body"].get<std::string>();
            for (const auto& [field, target] :
                 {std::pair{"attributes", &e.request.attributes},
                  std::pair{"systemAttributes", &e.request.systemAttributes}}) {
                if (!m.contains(field))
                    continue;
                if (!m[field].is_object())
                    return refuse(where + "\"" + field + "\" must be an object");
                for (const auto& [name, a] : m[field].items()) {
                    if (!a.is_object() || !a.contains("DataType") || !a["DataType"].is_string())
                        return refuse(where + "attribute " + name + " needs a \"DataType\"");
                    engine::MessageAttributeValue v;
                    v.dataType = a["DataType"].get<std::string>();
                    if (a.contains("BinaryValue")) {
                        auto bytes = a["BinaryValue"].is_string()
                            ? text::base64Decode(a["BinaryValue"].get<std::string>())
                            : std::nullopt;
                        if (!bytes)
                            return refuse(where + "attribute " + name
                                          + ": \"BinaryValue\" must be base64");
                        v.binaryValue = std::move(*bytes);
                    } else if (a.contains("StringValue") && a["StringValue"].is_string()) {
                        v.stringValue = a["StringValue"].get<std::string>();
                    } else {
                        return refuse(where + "attribute " + name + " needs a value");
                    }
                    (*target)[name] = std::move(v);
                }
            }
            for (const auto& [field, target] :
                 {std::pair{"groupId", &e.request.groupId},
                  std::pair{"deduplicationId", &e.request.deduplicationId},
                  std::pair{"channelId", &e.request.channelId}}) {
                if (!m.contains(field))
                    continue;
                if (!m[field].is_string())
                    return refuse(where + "\"" + field + "\" must be a string");
                *target = m[field].get<std::string>();
            }
            if (m.contains("senderId")) {
                if (!m["senderId"].is_string())
                    return refuse(where + "\"senderId\" must be a string");
                e.request.senderId = m["senderId"].get<std::string>();
            }
            if (request.regenerateIds && e.request.deduplicationId)
                e.request.deduplicationId = "import-" + std::to_string(++serial);
            qi.entries.push_back(std::move(e));
        }
        queues.push_back(std::move(qi));
    }

    // Everything parsed: now change the broker.
    std::int64_t total = 0;
    std::int64_t done = 0;
    for (const QueueImport& qi : queues)
        total += static_cast<std::int64_t>(qi.entries.size());
    for (QueueImport& qi : queues) {
        if (result.stopped)
            break;
        std::string target = request.intoQueue.empty() ? qi.definition.name : request.intoQueue;
        auto existing = broker.getQueue(target);
        if (!existing) {
            if (!request.intoQueue.empty())
                return refuse(engine::describe(existing.error()));
            // A redrive policy may name a DLQ later in the file: set it after creating all.
            engine::CreateQueueRequest create = qi.definition;
            create.attributes.erase("RedrivePolicy");
            auto created = broker.createQueue(create);
            if (!created)
                return refuse("queue " + target + ": " + engine::describe(created.error()));
            ++result.queuesCreated;
            existing = std::move(created);
        }
        const bool fifo = existing->kind == engine::QueueKind::Fifo;
        for (Entry& e : qi.entries) {
            e.request.queue = target;
            e.request.origin = request.origin;
            if (!fifo) {
                e.request.deduplicationId.reset();
                if (existing->kind == engine::QueueKind::Oci)
                    e.request.groupId.reset();
            } else {
                if (!e.request.groupId && request.regenerateIds)
                    e.request.groupId = "imported";
                if (!e.request.deduplicationId && request.regenerateIds)
                    e.request.deduplicationId = "import-" + std::to_string(++serial);
            }
            if (existing->kind != engine::QueueKind::Oci)
                e.request.channelId.reset();
            if (request.progress && ++done % 4096 == 0 && !request.progress(done, total)) {
                result.stopped = true;
                break;
            }
            auto sent = broker.sendMessage(e.request);
            if (sent)
                ++result.messages;
            else
                result.refused.push_back("line " + std::to_string(e.line) + ": "
                                         + engine::describe(sent.error()));
        }
    }
    for (const QueueImport& qi : queues) {
        auto policy = qi.definition.attributes.find("RedrivePolicy");
        if (request.intoQueue.empty() && policy != qi.definition.attributes.end())
            (void)broker.setQueueAttributes(qi.definition.name, {*policy}, request.origin);
    }
    if (request.progress && !result.stopped)
        (void)request.progress(total, total);
    return result;
}

} // namespace inflight::store
