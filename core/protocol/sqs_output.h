#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace inflight::protocol {

// An SQS action's output members in AWS JSON shape: an object whose keys are kept sorted. The
// JSON codec prints it as it is; the Query codec walks it into XML (§2.4). nlohmann::json (Debian's
// nlohmann-json3-dev, which the engine already uses) holds the engine's UTF-8 std::strings as they
// are, so an answer is built and printed without converting text to UTF-16 and back.
using Output = nlohmann::json;

// Builds an output object member by member. Members added in key order go straight to the end of
// its map (a hint, so any order is still right, only slower), and no [key, value] arrays are made
// on the way as an initializer list of pairs makes them: answers built for every request.
class OutputObject {
public:
    OutputObject& add(std::string_view key, Output value)
    {
        m_members->emplace_hint(m_members->end(), key, std::move(value));
        return *this;
    }
    Output take() { return std::move(m_object); }

private:
    Output m_object = Output::object();
    Output::object_t* m_members = m_object.get_ptr<Output::object_t*>();
};

} // namespace inflight::protocol
