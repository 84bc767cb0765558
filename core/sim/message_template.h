#pragma once

#include "engine/clock.h"
#include "engine/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::sim {

class SimRandom;

// A producer's text with placeholders, rendered once per message:
//   {n}            the message's number (1 for the producer's first message)
//   {n%K}          that number modulo K (K >= 1): "customer-{n%5}" spreads over five groups
//   {uuid}         a version 4 UUID drawn from the producer's seeded stream (deterministic)
//   {time}         the engine time of the send, ISO 8601 UTC ("2024-05-01T09:00:00.000Z")
//   {choice:a|b|c} one of the options, uniformly (repeat an option to weight it)
// A placeholder is "{", lower-case letters, optionally "%" digits or ":" text without braces, and
// "}". Any other brace is text, so JSON bodies need no escaping ({"id": {n}} renders {"id": 7}).
class MessageTemplate {
public:
    MessageTemplate() = default;

    // InvalidParameterValue for a placeholder of that form that is not one of the above, with
    // the character it starts at ("unknown placeholder {nn} at character 4: ...").
    static engine::Result<MessageTemplate> compile(std::string_view text);

    // Draws from `random` only for {uuid} and {choice:…}, in the order they appear.
    std::string render(std::int64_t n, engine::Millis time, SimRandom& random) const;

    const std::string& text() const { return m_text; }
    // True when the text has no placeholder (render returns text()).
    bool isConstant() const
    {
        return m_parts.size() <= 1 && (m_parts.empty() || m_parts[0].kind == Kind::Literal);
    }

private:
    enum class Kind : std::uint8_t { Literal, Number, NumberModulo, Uuid, Time, Choice };
    struct Part {
        Kind kind = Kind::Literal;
        std::string literal{};
        std::int64_t modulus = 0;
        std::vector<std::string> choices{};
    };

    std::string m_text;
    std::vector<Part> m_parts;
};

} // namespace inflight::sim
