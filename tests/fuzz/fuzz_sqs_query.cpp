// libFuzzer target: an SQS Query request through protocol::Endpoint.
// Input: a form (`Action=SendMessage&QueueUrl=…&MessageBody=…`), sent as the body of a form POST
// to / and as the query string of a GET on a queue's path. @R, @F, @O stand for valid receipts
// (fuzz_world.h).
#include "fuzz_world.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace inflight;
    if (size > fuzz::kMaxInput)
        return -1; // not added to the corpus
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    {
        fuzz::World& world = fuzz::World::fresh();
        protocol::HttpRequest request = fuzz::baseRequest("POST", "/");
        fuzz::addHeader(request, "Content-Type",
                        "application/x-www-form-urlencoded; charset=utf-8");
        request.body = world.expand(input);
        fuzz::consume(world.run(request));
    }
    {
        fuzz::World& world = fuzz::World::fresh();
        protocol::HttpRequest request = fuzz::baseRequest("GET", "/000000000000/q");
        request.query = world.expand(input);
        fuzz::consume(world.run(request));
    }
    fuzz::World::restore();
    return 0;
}
