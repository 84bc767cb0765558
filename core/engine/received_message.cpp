#include "engine/digest.h"
#include "engine/requests.h"

namespace inflight::engine {

std::string ReceivedMessage::md5OfBody() const
{
    return md5Hex(body);
}

std::string ReceivedMessage::md5OfMessageAttributes() const
{
    return attributes.empty() ? std::string() : engine::md5OfMessageAttributes(attributes);
}

} // namespace inflight::engine
