// libFuzzer target: server::HttpRequestParser over a byte stream that arrives in pieces.
// Input: byte 0 says how many of the next bytes (1..8) are piece sizes (each 1..256, used in
// turn); the rest is the stream, what a client sends on one connection. Every complete request
// is taken and its protocol decided (protocol::wireProtocol); after TooLarge or Malformed the
// request so far is answered as the server would and the parser is reset for what follows.
#include "protocol/http_types.h"
#include "server/http_request_parser.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Where consumed bytes go, so that reading them is not optimised away.
volatile unsigned g_sink = 0;

using namespace inflight;

constexpr std::size_t kMaxInput = 256 * 1024;

[[noreturn]] void broken(const char* what)
{
    std::fprintf(stderr, "fuzz_http_parser: %s\n", what);
    std::abort();
}

void touch(const protocol::HttpRequest& request)
{
    unsigned sum = 0;
    for (const QByteArray* part : {&request.method, &request.path, &request.query, &request.body})
        for (const char c : *part)
            sum += static_cast<unsigned char>(c);
    for (const auto& [name, value] : request.headers)
        sum += static_cast<unsigned>(name.size() + value.size());
    g_sink = sum + static_cast<unsigned>(protocol::wireProtocol(request));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0 || size > kMaxInput)
        return -1;
    const std::size_t sizeBytes = std::min<std::size_t>(data[0] % 8 + 1, size - 1);
    std::vector<std::size_t> pieces;
    for (std::size_t i = 0; i < sizeBytes; ++i)
        pieces.push_back(std::size_t(data[1 + i]) + 1);
    if (pieces.empty())
        pieces.push_back(256);
    const char* stream = reinterpret_cast<const char*>(data) + 1 + sizeBytes;
    const std::size_t length = size - 1 - sizeBytes;

    server::HttpRequestParser parser;
    int continues = 0;
    parser.setContinueHandler([&continues] { ++continues; });
    std::size_t position = 0;
    std::size_t piece = 0;
    std::size_t steps = 0;
    while (position < length) {
        if (++steps > 2 * length + 16)
            broken("no progress");
        const std::size_t offered = std::min(pieces[piece++ % pieces.size()], length - position);
        const server::HttpRequestParser::Step step = parser.parse(stream + position, offered);
        if (step.consumed > offered)
            broken("consumed more than it was given");
        switch (step.status) {
        case server::HttpRequestParser::Status::NeedMore:
            if (step.consumed != offered)
                broken("NeedMore without taking everything");
            position += step.consumed;
            break;
        case server::HttpRequestParser::Status::Request: {
            position += step.consumed;
            touch(parser.takeRequest());
            (void)parser.keepAlive();
            break;
        }
        case server::HttpRequestParser::Status::TooLarge: {
            const protocol::HttpResponse answer
                = protocol::requestTooLarge(parser.partialRequest());
            if (answer.status != 413)
                broken("TooLarge not answered with 413");
            parser.reset();
            position += std::max<std::size_t>(step.consumed, 1);
            break;
        }
        case server::HttpRequestParser::Status::Malformed:
            touch(parser.partialRequest());
            if (parser.errorReason().isEmpty())
                broken("Malformed without a reason");
            parser.reset();
            position += std::max<std::size_t>(step.consumed, 1);
            break;
        }
    }
    (void)parser.inRequest();
    (void)continues;
    return 0;
}
