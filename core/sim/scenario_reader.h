#pragma once

// Internal to inflight_sim: reading a scenario file's JSON with the positions of every value
// (scenario_read.cpp, scenario_read_actors.cpp). The positions come from the configuration file's
// scan (control/queue_config_positions.h); this adds a reader over nlohmann's document in
// document order.

#include "config/queue_config_positions.h"
#include "sim/scenario.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::sim::scenario_json {

using config::ConfigPosition;
using config::JsonNode;
using engine::Done;
using engine::Error;
using engine::Result;
using engine::Status;
using Json = nlohmann::json;

std::string_view kindOf(const Json& value);

struct Field {
    const Json* json = nullptr;
    std::size_t node = 0;
    std::string path{};
};

class Reader {
public:
    Reader(std::string_view text, const std::vector<JsonNode>& nodes, const Json& root)
        : m_text(text), m_nodes(nodes), m_root(root), m_lines(text)
    {
    }

    Field root() const { return Field{&m_root, 0, {}}; }
    std::string_view text() const { return m_text; }
    const JsonNode& node(const Field& field) const { return m_nodes[field.node]; }

    ConfigPosition at(const Field& field) const { return position(node(field).value, field.path); }
    ConfigPosition keyAt(const Field& field) const
    {
        const JsonNode& n = node(field);
        return position(n.key == JsonNode::kNoKey ? n.value : n.key, field.path);
    }
    ConfigPosition position(std::size_t offset, std::string path) const
    {
        const auto [line, column] = m_lines.at(offset);
        return ConfigPosition{line, column, std::move(path)};
    }

    Error error(const Field& field, std::string_view what) const
    {
        return config::configError(at(field), what);
    }
    Error wrongType(const Field& field, std::string_view expected) const
    {
        return error(field,
                     "expected " + std::string(expected) + ", found "
                         + std::string(kindOf(*field.json)));
    }
    Error keyError(const Field& field, std::string_view what) const
    {
        return config::configError(keyAt(field), what);
    }
    Error missing(const Field& object, std::string_view name, std::string_view what) const
    {
        return config::configError(
            position(node(object).value, config::memberPath(object.path, name)), what);
    }

    // The value as written, without the spaces between its tokens.
    std::string compact(const Field& field) const
    {
        const JsonNode& n = node(field);
        return config::withoutSpaces(m_text.substr(n.value, n.stop - n.value));
    }

    std::vector<std::pair<std::string, Field>> members(const Field& object) const
    {
        std::vector<std::pair<std::string, Field>> result;
        for (std::size_t child = object.node + 1; child < m_nodes[object.node].end;
             child = m_nodes[child].end) {
            std::string name = config::memberNameAt(m_text, m_nodes[child].key);
            const auto it = object.json->find(name);
            if (it == object.json->end())
                continue; // not reached: the scan and nlohmann read the same names
            Field field{&*it, child, config::memberPath(object.path, name)};
            result.emplace_back(std::move(name), std::move(field));
        }
        return result;
    }

    std::vector<Field> elements(const Field& list) const
    {
        std::vector<Field> result;
        std::size_t index = 0;
        for (std::size_t child = list.node + 1;
             child < m_nodes[list.node].end && index < list.json->size();
             child = m_nodes[child].end, ++index)
            result.push_back(
                Field{&(*list.json)[index], child, config::elementPath(list.path, index)});
        return result;
    }

private:
    std::string_view m_text;
    const std::vector<JsonNode>& m_nodes;
    const Json& m_root;
    config::LineIndex m_lines;
};

// ---- values: each either the value or an error positioned at it -------------------------------

Result<std::string> stringOf(const Reader& r, const Field& f);
Result<bool> booleanOf(const Reader& r, const Field& f);
Result<double> numberOf(const Reader& r, const Field& f);
Result<std::int64_t> integerOf(const Reader& r, const Field& f);
// Non-negative seconds (at most 10^9) as whole milliseconds.
Result<Millis> secondsOf(const Reader& r, const Field& f);
// A template: a string, or (where `json` allows) an object or list as its compact JSON text.
Result<std::string> templateOf(const Reader& r, const Field& f, bool json);

// Assigns a value read, or returns why it could not be read.
template <class T, class U>
Status take(Result<T> value, U& into)
{
    if (!value)
        return value.error();
    into = std::move(*value);
    return Done{};
}

// Members of an object by name through one handler; a name it does not take is an error.
using MemberHandler = std::function<Status(const std::string& name, const Field& field)>;
// `what` is the expected type's description when `object` is not an object.
Status eachMember(const Reader& r, const Field& object, std::string_view what,
                  const MemberHandler& handle);
// "unknown key \"x\" (<known>)" at the member's name.
Error unknownKey(const Reader& r, const Field& field, const std::string& name,
                 std::string_view known);

// One entry of "actors": its spec, position and field positions, checked with checkActorSpec.
Status readActor(const Reader& r, const Field& entry, ScenarioActor& actor);

// The "lesson" member (lesson.h), checked against the scenario's actors and queues
// (lesson_read.cpp).
Status readLesson(const Reader& r, const Field& lesson, const Scenario& scenario, LessonPlan& plan);

} // namespace inflight::sim::scenario_json
