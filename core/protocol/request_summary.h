#pragma once

#include "engine/broker.h"
#include "protocol/batch_answer.h"
#include "protocol/http_types.h"
#include "protocol/sqs_output.h"
#include "protocol/sqs_request.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::protocol {

// What the endpoint learnt about one request, for the traffic log (core/traffic): the operation,
// the queue it addressed and the counts of its outcome ("sent 1", "received 4 of max 10",
// "deleted 3, 1 failed: ReceiptHandleIsInvalid"). Filled by Endpoint::handle() only when asked
// for one, so that an endpoint without a log computes nothing for it. The error code and message
// of a failed request are read from its answer (the same for every protocol and for the answers
// the endpoint does not make itself), not kept here. The reason behind the outcome is
// request_explanation.h's.
struct RequestSummary {
    WireProtocol protocol = WireProtocol::SqsJson;
    QString operation; // "SendMessage", "GetMessages"; empty when the request named none
    QString queue;     // the queue's name; empty when the request addresses none
    // Entries (or messages) done and failed; -1 where the operation has no such count.
    std::int64_t succeeded = -1;
    std::int64_t failed = -1;
    QByteArray firstFailure;       // the code of the first failed batch entry
    std::int64_t maxMessages = -1; // a receive's maximum (its default when absent)
    std::int64_t waitSeconds = -1; // a receive's wait, when it asked for one

    // The reason behind the outcome, one or more sentences; empty when there is nothing to add:
    // why a receive came back empty, where a receipt stood when it was used, the likely cause of
    // an error.
    QString explanation;
    bool staleReceipt = false; // a receipt of an earlier receive was used after a later one
    // A receive's messages that had been received before (their visibility ran out, or they were
    // released): another consumer may be processing them still.
    std::int64_t receivedAgain = 0;

    // What the explanations are made from, gathered where the request is decoded: the receipts
    // of a receipt operation, in entry order, as two lists of one length (the engine's
    // explanations of a batch are taken whole, as it made them).
    std::vector<std::string>
        receiptEntryIds; // a batch entry's Id (OCI: its index); "" for a single call
    std::vector<engine::ReceiptExplanation> receiptStandings; // before the operation ran
    std::optional<engine::ReceiveRequest> receive; // a receive that waits, explained at its end
};

// From the request alone: its protocol and, for OCI REST, its operation, queue and a receive's
// limit and timeout (from the path, method and query string).
void summarizeRequest(const HttpRequest& request, RequestSummary& summary);
// A decoded SQS request's operation, queue (QueueUrl's last segment, else QueueName, else the
// path's) and a receive's maximum and wait.
void summarizeSqsRequest(const HttpRequest& http, const SqsRequest& request,
                         RequestSummary& summary);
// An SQS action's successful output: the counts of SendMessage(Batch), DeleteMessage(Batch) and
// ChangeMessageVisibility(Batch) (a ReceiveMessage's are its result's: summarizeReceived).
void summarizeSqsOutput(const Output& output, RequestSummary& summary);
// A receive's request (its maximum and wait, and the request itself for the explanation of an
// empty end) and, once known, its result (messages received).
// A batch of ids' counts and its first failure's code (DeleteMessageBatch,
// ChangeMessageVisibilityBatch).
void summarizeIdBatch(const IdBatch& batch, RequestSummary& summary);
void summarizeReceive(const engine::ReceiveRequest& request, RequestSummary& summary);
void summarizeReceived(const engine::ReceiveResult& result, RequestSummary& summary);
void summarizeReceived(const engine::Result<engine::ReceiveResult>& result,
                       RequestSummary& summary);
// An OCI answer's counts (PutMessages, GetMessages, DeleteMessages, UpdateMessages), read from its
// JSON body.
void summarizeOciResponse(const HttpResponse& response, RequestSummary& summary);

} // namespace inflight::protocol
