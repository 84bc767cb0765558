// The values of a scenario file, read with their positions (scenario_reader.h).
#include "sim/scenario_reader.h"

#include <cmath>

namespace inflight::sim::scenario_json {

namespace {

constexpr double kMaxSeconds = 1e9;

} // namespace

std::string_view kindOf(const Json& value)
{
    switch (value.type()) {
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "a list";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::null: return "null";
    default: return "a number";
    }
}

Result<std::string> stringOf(const Reader& r, const Field& f)
{
    if (!f.json->is_string())
        return r.wrongType(f, "a string");
    return f.json->get<std::string>();
}

Result<bool> booleanOf(const Reader& r, const Field& f)
{
    if (!f.json->is_boolean())
        return r.wrongType(f, "true or false");
    return f.json->get<bool>();
}

Result<double> numberOf(const Reader& r, const Field& f)
{
    if (!f.json->is_number())
        return r.wrongType(f, "a number");
    return f.json->get<double>();
}

Result<std::int64_t> integerOf(const Reader& r, const Field& f)
{
    if (f.json->is_number_unsigned()) {
        const auto n = f.json->get<std::uint64_t>();
        if (n > static_cast<std::uint64_t>(INT64_MAX))
            return r.error(f, "too large");
        return static_cast<std::int64_t>(n);
    }
    if (f.json->is_number_integer())
        return f.json->get<std::int64_t>();
    return r.wrongType(f, "a whole number");
}

Result<Millis> secondsOf(const Reader& r, const Field& f)
{
    auto seconds = numberOf(r, f);
    if (!seconds)
        return seconds.error();
    if (*seconds < 0)
        return r.error(f, "seconds must not be negative");
    if (*seconds > kMaxSeconds)
        return r.error(f, "at most 1000000000 seconds");
    return static_cast<Millis>(std::llround(*seconds * 1000.0));
}

Result<std::string> templateOf(const Reader& r, const Field& f, bool json)
{
    if (f.json->is_string())
        return f.json->get<std::string>();
    if (json && (f.json->is_object() || f.json->is_array()))
        return r.compact(f);
    return r.wrongType(f, json ? "a string, or an object or list (its JSON text)" : "a string");
}

Status eachMember(const Reader& r, const Field& object, std::string_view what,
                  const MemberHandler& handle)
{
    if (!object.json->is_object())
        return r.wrongType(object, what);
    for (const auto& [name, field] : r.members(object))
        if (Status handled = handle(name, field); !handled)
            return handled;
    return Done{};
}

Error unknownKey(const Reader& r, const Field& field, const std::string& name,
                 std::string_view known)
{
    return r.keyError(field, "unknown key \"" + name + "\" (" + std::string(known) + ")");
}

} // namespace inflight::sim::scenario_json
