#include "protocol/sqs_codec.h"

#include "text/ascii_case.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <random>

namespace inflight::protocol {

SqsProtocol detectSqsProtocol(const HttpRequest& request)
{
    if (!request.header(QByteArrayLiteral("X-Amz-Target")).isEmpty())
        return SqsProtocol::Json;
    // The media type in either case after any leading whitespace, compared in place (a trimmed,
    // lowered copy was two allocations on every Query request, twice).
    const QByteArray contentType = request.header(QByteArrayLiteral("Content-Type"));
    QByteArrayView type(contentType);
    while (!type.isEmpty()
           && (type.front() == ' ' || (type.front() >= '\t' && type.front() <= '\r')))
        type = type.sliced(1); // QByteArray::trimmed's whitespace: space, \t \n \v \f \r
    return text::startsWithIgnoringAsciiCase(viewOf(type), "application/x-amz-json")
        ? SqsProtocol::Json
        : SqsProtocol::Query;
}

namespace {
std::atomic<std::uint64_t> g_requestIdSeed = 0; // 0: the system's entropy
} // namespace

void seedRequestIds(std::uint64_t seed)
{
    g_requestIdSeed.store(seed == 0 ? 0x5eed : seed);
}

QByteArray newRequestId()
{
    // A request id only has to be unique in practice, not unpredictable: a per-thread
    // SplitMix64 stream seeded once from the system's entropy, printed as a version-4 UUID.
    // QUuid::createUuid() asks the system generator every time, about a fifth of a SendMessage.
    thread_local std::uint64_t state = [] {
        if (const std::uint64_t seed = g_requestIdSeed.load(); seed != 0)
            return seed;
        std::random_device device;
        return (std::uint64_t(device()) << 32) ^ device();
    }();
    const auto next = [] {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    std::array<std::uint8_t, 16> bytes;
    for (int half = 0; half < 2; ++half) {
        const std::uint64_t word = next();
        for (int i = 0; i < 8; ++i)
            bytes[half * 8 + i] = std::uint8_t(word >> (8 * i));
    }
    bytes[6] = std::uint8_t((bytes[6] & 0x0f) | 0x40); // version 4
    bytes[8] = std::uint8_t((bytes[8] & 0x3f) | 0x80); // RFC 4122 variant

    static constexpr char kHex[] = "0123456789abcdef";
    QByteArray id(36, Qt::Uninitialized);
    char* out = id.data();
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *out++ = '-';
        *out++ = kHex[bytes[i] >> 4];
        *out++ = kHex[bytes[i] & 15];
    }
    return id;
}

SqsResponder::SqsResponder(SqsProtocol protocol, QString action)
    : m_protocol(protocol), m_action(std::move(action))
{
}

HttpResponse SqsResponder::success(const Output& output) const
{
    return m_protocol == SqsProtocol::Json ? json::success(output)
                                           : query::success(m_action, output);
}

HttpResponse SqsResponder::success(const engine::ReceiveResult& result) const
{
    return m_protocol == SqsProtocol::Json ? json::success(result) : query::success(result);
}

HttpResponse SqsResponder::success(const IdBatch& batch) const
{
    return m_protocol == SqsProtocol::Json ? json::success(batch) : query::success(m_action, batch);
}

HttpResponse SqsResponder::success(const SendAnswer& answer) const
{
    return m_protocol == SqsProtocol::Json ? json::success(answer) : query::success(answer);
}

HttpResponse SqsResponder::error(const SqsWireError& error) const
{
    return m_protocol == SqsProtocol::Json ? json::error(error) : query::error(error);
}

HttpResponse SqsResponder::error(const engine::Error& error) const
{
    return this->error(sqsWireError(error));
}

} // namespace inflight::protocol
