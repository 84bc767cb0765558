#include "engine/oci_ids.h"

namespace inflight::engine {

std::int64_t ociMessageNumber(std::string_view messageId)
{
    std::int64_t number = 0;
    int digits = 0;
    for (const char c : messageId) {
        if (digits == 15)
            break;
        int value = -1;
        if (c >= '0' && c <= '9')
            value = c - '0';
        else if (c >= 'a' && c <= 'f')
            value = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            value = c - 'A' + 10;
        if (value < 0)
            continue; // dashes
        number = number * 16 + value;
        ++digits;
    }
    return number;
}

} // namespace inflight::engine
