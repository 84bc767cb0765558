#include "sim/message_template.h"

#include "sim/iso_time.h"
#include "sim/sim_random.h"

#include <charconv>
#include <optional>

namespace inflight::sim {

namespace {

bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}

// The placeholder starting with the "{" at `open`: the text between the braces and the offset of
// its "}", or nothing when the braces there are plain text.
struct Placeholder {
    std::string_view word;
    char separator = 0; // '%', ':' or 0
    std::string_view argument;
    std::size_t close = 0;
};

std::optional<Placeholder> placeholderAt(std::string_view text, std::size_t open)
{
    std::size_t pos = open + 1;
    while (pos < text.size() && isLower(text[pos]))
        ++pos;
    if (pos == open + 1 || pos >= text.size())
        return std::nullopt;
    Placeholder p;
    p.word = text.substr(open + 1, pos - open - 1);
    if (text[pos] == '}') {
        p.close = pos;
        return p;
    }
    if (text[pos] == '%') {
        const std::size_t start = ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
            ++pos;
        if (pos == start || pos >= text.size() || text[pos] != '}')
            return std::nullopt;
        p.separator = '%';
        p.argument = text.substr(start, pos - start);
        p.close = pos;
        return p;
    }
    if (text[pos] == ':') {
        const std::size_t start = ++pos;
        while (pos < text.size() && text[pos] != '}' && text[pos] != '{')
            ++pos;
        if (pos >= text.size() || text[pos] != '}')
            return std::nullopt;
        p.separator = ':';
        p.argument = text.substr(start, pos - start);
        p.close = pos;
        return p;
    }
    return std::nullopt;
}

engine::Error templateError(std::size_t at, std::string_view placeholder, std::string_view why)
{
    return engine::makeError(engine::ErrorCode::InvalidParameterValue,
                             std::string(why) + " " + std::string(placeholder) + " at character "
                                 + std::to_string(at + 1)
                                 + " (a template knows {n}, {n%K}, {uuid}, {time} and "
                                   "{choice:a|b|c})");
}

} // namespace

engine::Result<MessageTemplate> MessageTemplate::compile(std::string_view text)
{
    MessageTemplate result;
    result.m_text = std::string(text);
    std::string literal;
    const auto flush = [&] {
        if (!literal.empty())
            result.m_parts.push_back(Part{.kind = Kind::Literal, .literal = std::move(literal)});
        literal.clear();
    };
    for (std::size_t pos = 0; pos < text.size(); ++pos) {
        const auto p = text[pos] == '{' ? placeholderAt(text, pos) : std::nullopt;
        if (!p) {
            literal += text[pos];
            continue;
        }
        const std::string_view whole = text.substr(pos, p->close - pos + 1);
        Part part;
        if (p->word == "n" && p->separator == 0) {
            part.kind = Kind::Number;
        } else if (p->word == "n" && p->separator == '%') {
            std::int64_t k = 0;
            const auto [end, ec]
                = std::from_chars(p->argument.data(), p->argument.data() + p->argument.size(), k);
            if (ec != std::errc() || end != p->argument.data() + p->argument.size() || k < 1)
                return templateError(pos, whole, "the modulus must be a whole number from 1 in");
            part.kind = Kind::NumberModulo;
            part.modulus = k;
        } else if (p->word == "uuid" && p->separator == 0) {
            part.kind = Kind::Uuid;
        } else if (p->word == "time" && p->separator == 0) {
            part.kind = Kind::Time;
        } else if (p->word == "choice" && p->separator == ':') {
            part.kind = Kind::Choice;
            std::string_view rest = p->argument;
            for (;;) {
                const std::size_t bar = rest.find('|');
                part.choices.emplace_back(rest.substr(0, bar));
                if (bar == std::string_view::npos)
                    break;
                rest.remove_prefix(bar + 1);
            }
        } else {
            return templateError(pos, whole, "unknown placeholder");
        }
        flush();
        result.m_parts.push_back(std::move(part));
        pos = p->close;
    }
    flush();
    return result;
}

std::string MessageTemplate::render(std::int64_t n, engine::Millis time, SimRandom& random) const
{
    std::string out;
    for (const Part& part : m_parts) {
        switch (part.kind) {
        case Kind::Literal: out += part.literal; break;
        case Kind::Number: out += std::to_string(n); break;
        case Kind::NumberModulo: out += std::to_string(n % part.modulus); break;
        case Kind::Uuid: out += random.uuid(); break;
        case Kind::Time: out += formatIsoTime(time); break;
        case Kind::Choice: out += part.choices[random.below(part.choices.size())]; break;
        }
    }
    return out;
}

} // namespace inflight::sim
