#include "protocol/request_explanation.h"

namespace inflight::protocol {

namespace {

using Standing = engine::ReceiptExplanation::Standing;

std::string backticked(std::string_view s)
{
    return "`" + std::string(s) + "`";
}

// Whether an entry failed because of its receipt, not of another member.
bool isReceiptError(const engine::Error& error)
{
    return error.parameter == "ReceiptHandle" || error.parameter == "receipt";
}

const engine::Error* failureOf(const std::vector<std::pair<std::string, engine::Error>>& failures,
                               const std::string& entryId)
{
    for (const auto& [id, error] : failures)
        if (id == entryId)
            return &error;
    return nullptr;
}

engine::QueueKind kindOf(engine::Broker& broker, const std::string& queue)
{
    const auto q = broker.getQueue(queue);
    return q ? q->kind : engine::QueueKind::Standard;
}

// The rule a stale receipt broke, by the kind of queue it was used on.
std::string latestOnlyRule(engine::QueueKind kind)
{
    switch (kind) {
    case engine::QueueKind::Fifo:
        return "FIFO queues accept only the latest receive's receipt, while it is in flight";
    case engine::QueueKind::Oci: return "OCI queues accept only the latest delivery's receipt";
    case engine::QueueKind::Standard: break;
    }
    return "only the latest receive's receipt is accepted here"; // strict mode
}

// A failed use of a receipt, as its likely cause.
std::string failureCause(engine::Broker& broker, ReceiptOperation operation,
                         const engine::ReceiptExplanation& x, const std::string& queue)
{
    const std::string ofReceive = "receive #" + std::to_string(x.receive);
    switch (x.standing) {
    case Standing::Stale:
        return "this receipt belongs to " + ofReceive + "; the message was received again at "
            + engine::formatClockTime(x.latestReceivedAt)
            + (x.latestReceiveOrigin.empty() ? std::string()
                                             : " by " + backticked(x.latestReceiveOrigin))
            + " (receive #" + std::to_string(x.latestReceive) + "), and "
            + latestOnlyRule(kindOf(broker, queue));
    case Standing::OtherQueue:
        return "this receipt is of " + ofReceive + " from "
            + (x.otherQueue.empty() ? "a queue that no longer exists (deleted since, perhaps "
                                      "created again under the same name)"
                                    : "queue " + backticked(x.otherQueue))
            + ", not of " + backticked(queue);
    case Standing::Lapsed:
        if (operation == ReceiptOperation::Delete)
            return x.text(); // it says what a delete does with it, and why
        return x.standingText()
            + (kindOf(broker, queue) == engine::QueueKind::Fifo
                   ? "; FIFO queues refuse a receipt once its visibility timeout has run out"
                   : "; the message is not in flight");
    case Standing::Current:
    case Standing::MessageGone:
    case Standing::NotAHandle: break;
    }
    return operation == ReceiptOperation::Delete ? x.text() : x.standingText();
}

// A successful use of a receipt, as where the receipt stood.
std::string whereItStood(ReceiptOperation operation, const engine::ReceiptExplanation& x)
{
    if (operation == ReceiptOperation::Delete)
        return x.text();
    // Only a standard queue lets a stale receipt's visibility change through (as a no-op).
    return x.standingText() + (x.standing == Standing::Stale ? "; standard queues accept it" : "");
}

} // namespace

void noteReceipt(engine::Broker& broker, const std::string& queue, std::string entryId,
                 std::string_view receipt, RequestSummary& summary)
{
    if (summary.receiptStandings.size() >= kMaxNotedReceipts)
        return;
    auto standing = broker.explainReceipt(queue, receipt);
    if (!standing)
        return; // no such queue: the operation fails with the same error
    summary.receiptEntryIds.push_back(std::move(entryId));
    summary.receiptStandings.push_back(std::move(*standing));
}

void noteReceipts(engine::Broker& broker, const std::string& queue,
                  std::span<const engine::BatchReceiptEntry> entries, RequestSummary& summary)
{
    const std::size_t room
        = kMaxNotedReceipts - std::min(summary.receiptStandings.size(), kMaxNotedReceipts);
    entries = entries.first(std::min(entries.size(), room));
    std::vector<std::string_view> handles;
    handles.reserve(entries.size());
    for (const engine::BatchReceiptEntry& entry : entries)
        handles.push_back(entry.receiptHandle);
    auto standings = broker.explainReceipts(queue, handles);
    if (!standings)
        return; // no such queue: the operation fails with the same error
    if (summary.receiptStandings.empty()) {
        summary.receiptStandings = std::move(*standings);
    } else {
        summary.receiptStandings.insert(summary.receiptStandings.end(),
                                        std::make_move_iterator(standings->begin()),
                                        std::make_move_iterator(standings->end()));
    }
    summary.receiptEntryIds.reserve(summary.receiptEntryIds.size() + entries.size());
    for (const engine::BatchReceiptEntry& entry : entries)
        summary.receiptEntryIds.push_back(entry.id);
}

void explainReceiptUse(engine::Broker& broker, ReceiptOperation operation,
                       const std::vector<std::pair<std::string, engine::Error>>& failures,
                       RequestSummary& summary)
{
    const std::vector<engine::ReceiptExplanation>& standings = summary.receiptStandings;
    const std::vector<std::string>& entryIds = summary.receiptEntryIds;
    std::size_t chosen = standings.size();      // none yet
    const engine::Error* chosenError = nullptr; // the chosen entry's, if it failed
    bool receiptFailed = false;                 // ... because of its receipt
    std::size_t others = 0;                     // stale or failed besides the chosen one
    for (std::size_t i = 0; i < standings.size(); ++i) {
        const bool stale = standings[i].standing == Standing::Stale;
        summary.staleReceipt = summary.staleReceipt || stale;
        const engine::Error* error = failureOf(failures, entryIds[i]);
        const bool failedForIt = error && isReceiptError(*error);
        if (!stale && !failedForIt)
            continue;
        if (chosen < standings.size()) {
            ++others;
            continue;
        }
        chosen = i;
        chosenError = error;
        receiptFailed = failedForIt;
    }
    if (chosen == standings.size() && !standings.empty()) {
        if (failureOf(failures, entryIds.front()))
            return; // failed for another member than its receipt: the error says why
        chosen = 0;
    }
    if (chosen == standings.size())
        return;
    const engine::ReceiptExplanation& standing = standings[chosen];
    const std::string& entryId = entryIds[chosen];
    // A stale receipt whose entry failed for another member: where it stood, nothing of what
    // the call did.
    std::string text = receiptFailed
        ? failureCause(broker, operation, standing, summary.queue.toStdString())
        : chosenError ? standing.standingText()
                      : whereItStood(operation, standing);
    if (!entryId.empty()) {
        const bool oci = summary.protocol == WireProtocol::OciRest;
        std::string entry;
        entry.reserve(entryId.size() + 12 + text.size());
        entry.append(oci ? "entries[" : "entry `").append(entryId).append(oci ? "]: " : "`: ");
        text = std::move(entry.append(text));
        if (others > 0)
            text += "; " + std::to_string(others) + " more "
                + (others == 1 ? "entry was" : "entries were") + " stale or failed";
    }
    summary.explanation = QString::fromStdString(text);
}

void explainReceiptUse(engine::Broker& broker, ReceiptOperation operation,
                       const engine::Error* error, RequestSummary& summary)
{
    std::vector<std::pair<std::string, engine::Error>> failures;
    if (error)
        failures.emplace_back(std::string(), *error);
    explainReceiptUse(broker, operation, failures, summary);
}

void explainEmptyReceive(engine::Broker& broker, const engine::ReceiveRequest& request, bool waited,
                         RequestSummary& summary)
{
    auto explained = [&]() -> engine::Result<engine::EmptyReceiveExplanation> {
        if (!waited)
            return broker.explainEmptyReceive(request);
        engine::ReceiveRequest now = request;
        now.waitTimeSeconds = 0;
        auto x = broker.explainEmptyReceive(now);
        if (x && x->cause == engine::EmptyReceiveExplanation::Cause::InFlightLimit)
            return broker.explainEmptyReceive(request);
        return x;
    }();
    if (explained) {
        summary.explanation = QString::fromStdString(explained->text);
    } else if (waited && explained.error().code == engine::ErrorCode::QueueDoesNotExist) {
        summary.explanation = QString::fromStdString("queue " + backticked(request.queue)
                                                     + " was deleted while the receive waited");
    }
}

void explainError(engine::Broker& broker, const engine::Error& error, RequestSummary& summary)
{
    if (!summary.explanation.isEmpty() || error.code != engine::ErrorCode::QueueDoesNotExist
        || summary.queue.isEmpty())
        return;
    const std::string name = summary.queue.toStdString();
    const auto queue = broker.getQueue(name);
    const bool oci = summary.protocol == WireProtocol::OciRest;
    std::string text;
    if (!queue)
        text = "no queue named " + backticked(name);
    else if (queue->kind == engine::QueueKind::Oci && !oci)
        text = backticked(name)
            + " is an OCI queue: SQS calls do not reach it (OCI REST does, under "
            + "/20210201/queues/" + name + "/)";
    else if (queue->kind != engine::QueueKind::Oci && oci)
        text = backticked(name) + " is an SQS queue: OCI REST calls do not reach it";
    else
        text = "queue " + backticked(name) + " exists, under account " + broker.options().accountId
            + ": the QueueUrl names another account";
    summary.explanation = QString::fromStdString(text);
}

} // namespace inflight::protocol
