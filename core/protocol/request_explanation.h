#pragma once

#include "engine/broker.h"
#include "protocol/request_summary.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inflight::protocol {

// The reason behind a request's outcome, for the traffic log (RequestSummary::explanation and
// staleReceipt): the engine's explanations (engine/explain.h), worded in the client's terms. The
// endpoint calls these only when a summary is asked for, so an endpoint without a traffic log
// computes none of it.

// Before a receipt operation runs (DeleteMessage(Batch), ChangeMessageVisibility(Batch), OCI
// DeleteMessage(s), UpdateMessage(s)): notes `receipt` of batch entry `entryId` ("" for a single
// call) with where it stands now (Broker::explainReceipt), while its message is still there. A
// batch's entries after the first kMaxNotedReceipts are not noted: no batch of the services is
// longer, so such a request fails whole.
inline constexpr std::size_t kMaxNotedReceipts = 20;
void noteReceipt(engine::Broker& broker, const std::string& queue, std::string entryId,
                 std::string_view receipt, RequestSummary& summary);
// The same for each entry of a batch (up to kMaxNotedReceipts of them), explained in one call.
void noteReceipts(engine::Broker& broker, const std::string& queue,
                  std::span<const engine::BatchReceiptEntry> entries, RequestSummary& summary);

enum class ReceiptOperation : std::uint8_t { Delete, ChangeVisibility };

// After the operation: explains the first noted receipt that was stale or whose entry failed
// because of its receipt, else the first one (an entry that failed for another reason, such as
// its VisibilityTimeout, is not explained: its error says why). `failures` holds each failed
// entry's id and error, or for a failed single call one with id "". A batch's explanation starts
// with its entry (SQS "entry `id`: ", OCI "entries[i]: ") and ends with how many more were stale
// or failed. A failure reads as its likely cause ("this receipt belongs to receive #1; the message
// was received again at … by …"), a success as where the receipt stood. Sets staleReceipt when any
// noted receipt was of an earlier receive than the message's latest.
void explainReceiptUse(engine::Broker& broker, ReceiptOperation operation,
                       const std::vector<std::pair<std::string, engine::Error>>& failures,
                       RequestSummary& summary);
// The same for a single call, `error` its error (null: it succeeded).
void explainReceiptUse(engine::Broker& broker, ReceiptOperation operation,
                       const engine::Error* error, RequestSummary& summary);
// The same for a batch's result.
template <class T>
void explainReceiptUse(engine::Broker& broker, ReceiptOperation operation,
                       const engine::BatchResult<T>& result, RequestSummary& summary)
{
    std::vector<std::pair<std::string, engine::Error>> failures;
    for (const auto& failure : result.failed)
        failures.emplace_back(failure.id, failure.error);
    explainReceiptUse(broker, operation, failures, summary);
}

// Why `request` got no message (Broker::explainEmptyReceive), as it is answered: "0 available;
// 12 in flight (next visible in 4.2 s); 3 delayed (next in 10 s)". `waited`: a long poll whose
// wait ended — the text then says how the queue stands, not what a wait would do (a standard
// queue at its in-flight limit: that a long poll ends empty instead of OverLimit). Also for an
// OverLimit error of a short poll.
void explainEmptyReceive(engine::Broker& broker, const engine::ReceiveRequest& request, bool waited,
                         RequestSummary& summary);

// What the engine can add cheaply to an error: QueueDoesNotExist names the queue asked for, and
// says when a queue of that name exists under our account or in the other profile (SQS and OCI
// queues are kept apart). Nothing when the summary has an explanation already.
void explainError(engine::Broker& broker, const engine::Error& error, RequestSummary& summary);

} // namespace inflight::protocol
