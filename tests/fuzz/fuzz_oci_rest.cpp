// libFuzzer target: an OCI Queue REST request through protocol::Endpoint.
// Input: `<METHOD> <path>[?<query>]\n<body>`. A path without a leading '/' is relative to
// /20210201/queues/ (`GET oq/messages?limit=2`); one with '/' is taken as it is. @R, @F, @O stand
// for valid receipts (fuzz_world.h).
#include "fuzz_world.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace inflight;
    if (size > fuzz::kMaxInput)
        return -1; // not added to the corpus
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const qsizetype newline = input.indexOf('\n');
    const QByteArray line = newline < 0 ? input : input.left(newline);
    const QByteArray body = newline < 0 ? QByteArray() : input.mid(newline + 1);

    const qsizetype space = line.indexOf(' ');
    const QByteArray method = space < 0 ? QByteArrayLiteral("GET") : line.left(space);
    QByteArray target = space < 0 ? line : line.mid(space + 1);
    if (!target.startsWith('/'))
        target.prepend("/20210201/queues/");
    const qsizetype question = target.indexOf('?');

    fuzz::World& world = fuzz::World::fresh();
    protocol::HttpRequest request
        = fuzz::baseRequest(method, world.expand(question < 0 ? target : target.left(question)));
    if (question >= 0)
        request.query = world.expand(target.mid(question + 1));
    fuzz::addHeader(request, "Accept", "application/json");
    fuzz::addHeader(request, "opc-request-id", "4C1B9E0A8D2F4F0B9E6A3D7C5B1A2E9F");
    if (!body.isEmpty())
        fuzz::addHeader(request, "Content-Type", "application/json");
    request.body = world.expand(body);
    fuzz::consume(world.run(request));
    fuzz::World::restore();
    return 0;
}
