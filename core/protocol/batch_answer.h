#pragma once

#include "engine/requests.h"
#include "protocol/error_mapping.h"

#include <QByteArray>

#include <string>
#include <string_view>
#include <vector>

namespace inflight::protocol {

class XmlWriter;

// The answer of a batch whose successes carry only their entry's Id (DeleteMessageBatch,
// ChangeMessageVisibilityBatch: a consumer sends one for every receive), written from the ids
// straight into the response rather than built as an Output tree (sqs_output.h) and walked again.
// The bytes are the ones that tree gave (tests/protocol/batch_answer_test.cpp).
struct IdBatch {
    struct Failure {
        std::string id;
        SqsWireError error;      // its Code and Message
        bool senderFault = true; // the engine's word for this entry
    };
    std::vector<std::string> successful; // entry ids, in the engine's order
    std::vector<Failure> failed;
};

template <class T>
IdBatch idBatchOf(const engine::BatchResult<T>& result)
{
    IdBatch batch;
    batch.successful.reserve(result.successful.size());
    for (const auto& success : result.successful)
        batch.successful.push_back(success.id);
    for (const auto& failure : result.failed)
        batch.failed.push_back({failure.id, sqsWireError(failure.error), failure.senderFault});
    return batch;
}

// The JSON answer's body: `{"Failed":[…],"Successful":[{"Id":…},…]}`, both always present.
void appendIdBatchJson(QByteArray& out, const IdBatch& batch);

// The Query answer's members, inside <ActionResult>: an <ActionResultEntry> with its <Id> per
// success, then a <BatchResultErrorEntry> per failure (Id, SenderFault, Code, Message).
void writeIdBatchXml(XmlWriter& writer, const IdBatch& batch, std::string_view action);

} // namespace inflight::protocol
