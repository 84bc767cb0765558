// libFuzzer target: an SQS AWS JSON 1.0 request through protocol::Endpoint.
// Input: `<Operation>\n<body>` — the first line names the operation (X-Amz-Target:
// AmazonSQS.<Operation>) when it is a plain word; otherwise the whole input is the body, sent as
// CreateQueue and as the operation the first byte picks. @R, @F, @O stand for valid receipts
// (fuzz_world.h).
#include "fuzz_world.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace {

using namespace inflight;

constexpr std::array<const char*, 23> kOperations = {
    "CreateQueue",
    "GetQueueUrl",
    "ListQueues",
    "DeleteQueue",
    "GetQueueAttributes",
    "SetQueueAttributes",
    "PurgeQueue",
    "TagQueue",
    "UntagQueue",
    "ListQueueTags",
    "ListDeadLetterSourceQueues",
    "AddPermission",
    "RemovePermission",
    "SendMessage",
    "SendMessageBatch",
    "ReceiveMessage",
    "DeleteMessage",
    "DeleteMessageBatch",
    "ChangeMessageVisibility",
    "ChangeMessageVisibilityBatch",
    "StartMessageMoveTask",
    "ListMessageMoveTasks",
    "CancelMessageMoveTask",
};

// A first line of 1..64 letters is an operation name.
bool isOperationLine(const QByteArray& line)
{
    if (line.isEmpty() || line.size() > 64)
        return false;
    for (const char c : line) {
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
            return false;
    }
    return true;
}

void runJson(const QByteArray& operation, const QByteArray& body)
{
    fuzz::World& world = fuzz::World::fresh();
    protocol::HttpRequest request = fuzz::baseRequest("POST", "/");
    fuzz::addHeader(request, "Content-Type", "application/x-amz-json-1.0");
    fuzz::addHeader(request, "X-Amz-Target", "AmazonSQS." + operation);
    fuzz::addHeader(request, "x-amzn-query-mode", "true");
    request.body = world.expand(body);
    fuzz::consume(world.run(request));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > fuzz::kMaxInput)
        return -1; // not added to the corpus
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const qsizetype newline = input.indexOf('\n');
    const QByteArray line = newline < 0 ? QByteArray() : input.left(newline);
    if (isOperationLine(line)) {
        runJson(line, input.mid(newline + 1));
    } else {
        runJson("CreateQueue", input);
        if (size > 0)
            runJson(kOperations[data[0] % kOperations.size()], input);
    }
    fuzz::World::restore();
    return 0;
}
