#include "store/record_codec.h"

#include <nlohmann/json.hpp>

#include <cstring>

namespace inflight::store {

namespace {

class Writer {
public:
    void u32(std::uint32_t v)
    {
        char b[4];
        for (int i = 0; i < 4; ++i)
            b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
        m_out.append(b, 4);
    }
    void u64(std::uint64_t v)
    {
        u32(static_cast<std::uint32_t>(v));
        u32(static_cast<std::uint32_t>(v >> 32));
    }
    void bytes(std::string_view s)
    {
        u32(static_cast<std::uint32_t>(s.size()));
        m_out.append(s);
    }
    std::string take() { return std::move(m_out); }

private:
    std::string m_out;
};

class Reader {
public:
    explicit Reader(std::string_view in) : m_in(in) {}
    bool u32(std::uint32_t& v)
    {
        if (m_in.size() < 4)
            return false;
        v = 0;
        for (int i = 0; i < 4; ++i)
            v |= std::uint32_t{static_cast<unsigned char>(m_in[i])} << (8 * i);
        m_in.remove_prefix(4);
        return true;
    }
    bool u64(std::uint64_t& v)
    {
        std::uint32_t lo = 0, hi = 0;
        if (!u32(lo) || !u32(hi))
            return false;
        v = (std::uint64_t{hi} << 32) | lo;
        return true;
    }
    bool bytes(std::string& s)
    {
        std::uint32_t n = 0;
        if (!u32(n) || m_in.size() < n)
            return false;
        s.assign(m_in.data(), n);
        m_in.remove_prefix(n);
        return true;
    }
    bool atEnd() const { return m_in.empty(); }

private:
    std::string_view m_in;
};

} // namespace

std::string encodeAttributes(const engine::MessageAttributes& attributes)
{
    Writer w;
    w.u32(static_cast<std::uint32_t>(attributes.size()));
    for (const auto& [name, value] : attributes) {
        w.bytes(name);
        w.bytes(value.dataType);
        w.bytes(value.stringValue);
        w.bytes(value.binaryValue);
    }
    return w.take();
}

std::optional<engine::MessageAttributes> decodeAttributes(std::string_view bytes)
{
    engine::MessageAttributes result;
    if (bytes.empty())
        return result;
    Reader r(bytes);
    std::uint32_t count = 0;
    if (!r.u32(count))
        return std::nullopt;
    for (std::uint32_t i = 0; i < count; ++i) {
        std::string name;
        engine::MessageAttributeValue value;
        if (!r.bytes(name) || !r.bytes(value.dataType) || !r.bytes(value.stringValue)
            || !r.bytes(value.binaryValue))
            return std::nullopt;
        result.emplace(std::move(name), std::move(value));
    }
    if (!r.atEnd())
        return std::nullopt;
    return result;
}

std::string encodeAttemptItems(const std::vector<engine::ReceiveAttemptRecord::Item>& items)
{
    Writer w;
    w.u32(static_cast<std::uint32_t>(items.size()));
    for (const auto& item : items) {
        w.u32(item.slot);
        w.u64(item.sequence);
        w.u32(item.receiveCount);
        w.u64(static_cast<std::uint64_t>(item.visibleAt));
        w.u32(item.visibilityChanges);
        w.bytes(item.receipt);
    }
    return w.take();
}

std::optional<std::vector<engine::ReceiveAttemptRecord::Item>> decodeAttemptItems(
    std::string_view bytes)
{
    Reader r(bytes);
    std::uint32_t count = 0;
    if (!r.u32(count))
        return std::nullopt;
    std::vector<engine::ReceiveAttemptRecord::Item> items;
    for (std::uint32_t i = 0; i < count; ++i) {
        engine::ReceiveAttemptRecord::Item item;
        std::uint64_t visibleAt = 0;
        if (!r.u32(item.slot) || !r.u64(item.sequence) || !r.u32(item.receiveCount)
            || !r.u64(visibleAt) || !r.u32(item.visibilityChanges) || !r.bytes(item.receipt))
            return std::nullopt;
        item.visibleAt = static_cast<engine::Millis>(visibleAt);
        items.push_back(std::move(item));
    }
    if (!r.atEnd())
        return std::nullopt;
    return items;
}

std::string stringMapToJson(const engine::StringMap& map)
{
    return nlohmann::json(map).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<engine::StringMap> stringMapFromJson(std::string_view json)
{
    auto parsed = nlohmann::json::parse(json, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
        return std::nullopt;
    engine::StringMap result;
    for (const auto& [key, value] : parsed.items()) {
        if (!value.is_string())
            return std::nullopt;
        result.emplace(key, value.get<std::string>());
    }
    return result;
}

std::string deletedAtToJson(const std::map<std::string, engine::Millis>& deletedAt)
{
    return nlohmann::json(deletedAt).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<std::map<std::string, engine::Millis>> deletedAtFromJson(std::string_view json)
{
    auto parsed = nlohmann::json::parse(json, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
        return std::nullopt;
    std::map<std::string, engine::Millis> result;
    for (const auto& [key, value] : parsed.items()) {
        if (!value.is_number_integer())
            return std::nullopt;
        result.emplace(key, value.get<engine::Millis>());
    }
    return result;
}

std::string moveTasksToJson(const std::vector<engine::MoveTaskRecord>& tasks)
{
    nlohmann::json array = nlohmann::json::array();
    for (const auto& t : tasks) {
        nlohmann::json j{{"taskId", t.taskId},
                         {"handle", t.handle},
                         {"sourceName", t.sourceName},
                         {"sourceArn", t.sourceArn},
                         {"destinationArn", t.destinationArn},
                         {"status", static_cast<int>(t.status)},
                         {"moved", t.moved},
                         {"toMove", t.toMove},
                         {"startedAt", t.startedAt},
                         {"failureReason", t.failureReason},
                         {"origin", t.origin}};
        if (t.maxMessagesPerSecond)
            j["maxMessagesPerSecond"] = *t.maxMessagesPerSecond;
        array.push_back(std::move(j));
    }
    return array.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<std::vector<engine::MoveTaskRecord>> moveTasksFromJson(std::string_view json)
{
    auto parsed = nlohmann::json::parse(json, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_array())
        return std::nullopt;
    std::vector<engine::MoveTaskRecord> tasks;
    try {
        for (const auto& j : parsed) {
            engine::MoveTaskRecord t;
            t.taskId = j.at("taskId").get<std::string>();
            t.handle = j.at("handle").get<std::string>();
            t.sourceName = j.at("sourceName").get<std::string>();
            t.sourceArn = j.at("sourceArn").get<std::string>();
            t.destinationArn = j.at("destinationArn").get<std::string>();
            t.status = static_cast<engine::MoveTaskStatus>(j.at("status").get<int>());
            t.moved = j.at("moved").get<std::int64_t>();
            t.toMove = j.at("toMove").get<std::int64_t>();
            t.startedAt = j.at("startedAt").get<engine::Millis>();
            t.failureReason = j.at("failureReason").get<std::string>();
            t.origin = j.at("origin").get<std::string>();
            if (j.contains("maxMessagesPerSecond"))
                t.maxMessagesPerSecond = j.at("maxMessagesPerSecond").get<std::int64_t>();
            tasks.push_back(std::move(t));
        }
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
    return tasks;
}

} // namespace inflight::store
