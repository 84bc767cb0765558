#include "sim/iso_time.h"

#include <cstdio>

namespace inflight::sim {

namespace {

using engine::Millis;

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
    std::int64_t year;
    unsigned month, day;
};

Civil civilFromDays(std::int64_t z)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return Civil{static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

bool isLeap(std::int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned daysIn(std::int64_t y, unsigned m)
{
    static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `count` digits at text[pos].
std::optional<int> digits(std::string_view text, std::size_t& pos, int count)
{
    if (pos + static_cast<std::size_t>(count) > text.size())
        return std::nullopt;
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const char c = text[pos + static_cast<std::size_t>(i)];
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    pos += static_cast<std::size_t>(count);
    return value;
}

bool expect(std::string_view text, std::size_t& pos, char c)
{
    if (pos >= text.size() || text[pos] != c)
        return false;
    ++pos;
    return true;
}

} // namespace

std::string formatIsoTime(Millis t)
{
    const std::int64_t days = t / 86'400'000;
    const std::int64_t inDay = t % 86'400'000;
    const Civil date = civilFromDays(days);
    char text[32];
    std::snprintf(text, sizeof text, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ",
                  static_cast<long long>(date.year), date.month, date.day,
                  static_cast<long long>(inDay / 3'600'000),
                  static_cast<long long>(inDay / 60'000 % 60),
                  static_cast<long long>(inDay / 1000 % 60), static_cast<long long>(inDay % 1000));
    return text;
}

std::optional<Millis> parseIsoTime(std::string_view text)
{
    std::size_t pos = 0;
    const auto year = digits(text, pos, 4);
    if (!year || !expect(text, pos, '-'))
        return std::nullopt;
    const auto month = digits(text, pos, 2);
    if (!month || !expect(text, pos, '-'))
        return std::nullopt;
    const auto day = digits(text, pos, 2);
    if (!day || !expect(text, pos, 'T'))
        return std::nullopt;
    const auto hour = digits(text, pos, 2);
    if (!hour || !expect(text, pos, ':'))
        return std::nullopt;
    const auto minute = digits(text, pos, 2);
    if (!minute || !expect(text, pos, ':'))
        return std::nullopt;
    const auto second = digits(text, pos, 2);
    if (!second)
        return std::nullopt;
    if (*year < 1970 || *month < 1 || *month > 12 || *day < 1
        || static_cast<unsigned>(*day) > daysIn(*year, static_cast<unsigned>(*month)) || *hour > 23
        || *minute > 59 || *second > 59)
        return std::nullopt;
    Millis millis = 0;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        int scale = 100;
        const std::size_t first = pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            millis += (text[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == first)
            return std::nullopt;
    }
    Millis offset = 0;
    if (expect(text, pos, 'Z')) {
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        const int sign = text[pos] == '+' ? 1 : -1;
        ++pos;
        const auto hours = digits(text, pos, 2);
        if (!hours || !expect(text, pos, ':'))
            return std::nullopt;
        const auto minutes = digits(text, pos, 2);
        if (!minutes || *hours > 23 || *minutes > 59)
            return std::nullopt;
        offset = sign * (*hours * 3'600'000LL + *minutes * 60'000LL);
    } else {
        return std::nullopt;
    }
    if (pos != text.size())
        return std::nullopt;
    const Millis t
        = daysFromCivil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day))
            * 86'400'000LL
        + *hour * 3'600'000LL + *minute * 60'000LL + *second * 1000LL + millis - offset;
    if (t < 0)
        return std::nullopt;
    return t;
}

} // namespace inflight::sim
