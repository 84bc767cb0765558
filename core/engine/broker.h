#pragma once

#include "engine/broker_options.h"
#include "engine/clock.h"
#include "engine/error.h"
#include "engine/events.h"
#include "engine/explain.h"
#include "engine/requests.h"
#include "engine/snapshot.h"
#include "engine/views.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::engine {

class BrokerState;

using WaitId = std::uint64_t;
using ReceiveCallback = std::function<void(Result<ReceiveResult>)>;

// The embedded queue engine: every queue and message, with the rules of SQS standard, SQS FIFO
// and the OCI Queue profile. Single-threaded and passive: no threads, timers or sleeps. Every call
// first brings the queues it touches up to date with the clock (emitting the expiry events that
// became due, exactly as advance() would), then acts. Events go to the sink after the call.
//
// Every call that changes something says who acted: an `origin` argument, or the request's
// `origin` field ("window", "sqs:<client>", "sim:<actor>", "control", ...). The argument has no
// default, so no caller leaves it out by accident; the event carries it (Event::origin).
class Broker {
public:
    explicit Broker(const Clock& clock, BrokerOptions options = {});
    ~Broker();
    Broker(const Broker&) = delete;
    Broker& operator=(const Broker&) = delete;

    const Clock& clock() const;
    const BrokerOptions& options() const;
    void setEventSink(EventSink sink);
    // How many events the sink has been handed so far (the sequence of the last one, Event::
    // sequence): before and after a call, the numbers of the events it caused.
    std::uint64_t eventsEmitted() const;

    std::string arnForName(std::string_view name) const;

    // ---- queues (spec §3) ----------------------------------------------------------------------

    // Creates a queue, or returns the existing one when every given attribute equals its current
    // value (its tags are then ignored). Errors: InvalidParameterValue (name, tags as tagQueue),
    // InvalidAttributeName/Value, QueueNameExists, QueueDeletedRecently. Emits QueueCreated (not
    // for an idempotent repeat).
    Result<QueueRef> createQueue(const CreateQueueRequest& request);
    // GetQueueUrl. QueueDoesNotExist if unknown.
    Result<QueueRef> getQueue(std::string_view name);
    // The queue's kind alone (what every request's queue look-up asks): QueueDoesNotExist if
    // unknown.
    Result<QueueKind> queueKind(std::string_view name);
    // Lexicographic by name, prefix case-sensitive; OCI built-in DLQs are not listed.
    Result<ListQueuesResult> listQueues(const ListQueuesRequest& request);
    // Deletes the queue and its messages; pending receives on it end empty. Emits QueueDeleted.
    Status deleteQueue(std::string_view name, const Origin& origin);
    // `names` empty ⇒ empty map; "All" ⇒ every applicable attribute. InvalidAttributeName.
    Result<StringMap> getQueueAttributes(std::string_view name,
                                         const std::vector<std::string>& names);
    // Emits QueueChanged. Errors as createQueue.
    Status setQueueAttributes(std::string_view name, const StringMap& attributes,
                              const Origin& origin);
    // Adds or replaces tags (§1.3, §3.8): InvalidParameterValue for a key of 0 or more than 128
    // characters, a value of more than 256, a key starting "aws:", or more than 50 tags on the
    // queue after the call ("Too many tags added for queue <name>."); nothing changes then.
    // Emits QueueChanged.
    Status tagQueue(std::string_view name, const StringMap& tags, const Origin& origin);
    Status untagQueue(std::string_view name, const std::vector<std::string>& keys,
                      const Origin& origin);
    Result<StringMap> listQueueTags(std::string_view name);
    // Removes every message (all states) and the FIFO dedup history. SQS: once per
    // purgeInterval, else PurgeQueueInProgress. OCI: target selects the queue, its DLQ or both.
    // Emits QueuePurged.
    Status purgeQueue(std::string_view name, PurgeTarget target, const Origin& origin);
    // For test suites (the control API's reset): removes every message of the queue in every
    // state, and its FIFO deduplication and receive-attempt history, like purgeQueue but without
    // its once-per-60-s rule, and leaves PurgeQueue allowed at once. An OCI queue's built-in DLQ
    // is emptied with it. Emits QueuePurged (count: messages removed) for each queue emptied.
    Status resetQueue(std::string_view name, const Origin& origin);
    // For test suites: deletes every queue and every move task and forgets recent deletions, so a
    // queue of any name can be created again at once (no QueueDeletedRecently). Emits
    // QueueDeleted for each queue.
    void reset(const Origin& origin);
    // Names of the queues whose RedrivePolicy targets this queue; paginated like listQueues.
    Result<ListQueuesResult> listDeadLetterSourceQueues(std::string_view name,
                                                        const ListQueuesRequest& page);
    // Appends a statement with Sid=label to the queue's Policy. InvalidParameterValue if the
    // label exists (or, on remove, does not).
    Status addPermission(std::string_view name, const std::string& label,
                         const std::vector<std::string>& accountIds,
                         const std::vector<std::string>& actions, const Origin& origin);
    Status removePermission(std::string_view name, const std::string& label, const Origin& origin);

    // ---- messages (spec §4, §5) ----------------------------------------------------------------

    // Validates in the spec's order (§4.1), stores the message (delayed or available) and wakes a
    // waiting receive. A FIFO duplicate inside the window is acknowledged with the original id and
    // not stored. Emits MessageSent or MessageDeduplicated.
    Result<SendResult> sendMessage(const SendMessageRequest& request);
    // Whole-request errors (EmptyBatchRequest, TooManyEntriesInBatchRequest,
    // BatchEntryIdsNotDistinct, InvalidBatchEntryId, BatchRequestTooLong, FIFO group/dedup
    // missing) fail everything; other errors fail their entry only. Entries stored in order.
    Result<BatchResult<SendResult>> sendMessageBatch(std::string_view queue,
                                                     const std::vector<BatchSendEntry>& entries,
                                                     const Origin& origin);

    // Receives without waiting: as a long poll whose wait ends now when waitTimeSeconds > 0
    // (no OverLimit then), as a short poll otherwise. Each message returned gets a new receipt,
    // receiveCount + 1 and a visibility deadline; a message due for the DLQ is moved instead.
    // Emits MessageReceived (and MovedToDeadLetterQueue).
    Result<ReceiveResult> receiveMessage(const ReceiveRequest& request);
    // Receives, waiting up to waitTimeSeconds (or the queue default) for a message. `done` is
    // called exactly once: before this returns when the answer is known at once (result, error,
    // no wait), else from a later broker call or advance() — when a message becomes available
    // (send, release, expiry, delay end) or empty at the deadline — unless cancelWait() comes
    // first. Returns the waiter's id, 0 if already answered.
    WaitId receiveMessageAsync(const ReceiveRequest& request, ReceiveCallback done);
    // Drops a pending receive without calling it (the client hung up). False if unknown.
    bool cancelWait(WaitId id);
    std::size_t pendingWaits() const;

    // ReceiptHandleIsInvalid for a foreign or malformed handle; stale handles per §4.4.
    // Emits MessageDeleted.
    Status deleteMessage(std::string_view queue, std::string_view receiptHandle,
                         const Origin& origin);
    Result<BatchResult<Done>> deleteMessageBatch(std::string_view queue,
                                                 const std::vector<BatchReceiptEntry>& entries,
                                                 const Origin& origin);
    // New visibility counts from now; 0 releases. 12 h cap from the receive (SQS). OCI:
    // UpdateMessage. Emits VisibilityChanged or MessageReleased.
    Result<ChangeVisibilityResult> changeMessageVisibility(
        std::string_view queue, std::string_view receiptHandle,
        std::optional<std::int64_t> visibilityTimeout, const Origin& origin);
    Result<BatchResult<ChangeVisibilityResult>> changeMessageVisibilityBatch(
        std::string_view queue, const std::vector<BatchReceiptEntry>& entries,
        const Origin& origin);

    // ---- move tasks (spec §5.5) -----------------------------------------------------------------

    // Returns the task handle. Moves run in advance() at the task's rate (default 500/s).
    Result<std::string> startMessageMoveTask(const StartMoveTaskRequest& request);
    // Newest first; maxResults 1..10, default 1.
    Result<std::vector<MoveTaskInfo>> listMessageMoveTasks(std::string_view sourceArn,
                                                           std::optional<std::int64_t> maxResults);
    // Returns the number moved so far.
    Result<std::int64_t> cancelMessageMoveTask(std::string_view taskHandle, const Origin& origin);

    // ---- time ------------------------------------------------------------------------------------

    // The earliest engine time at which something becomes due (delay end, visibility expiry,
    // retention, long-poll deadline, move-task step); kNoDeadline if none. May be early (then
    // advance() finds nothing), never late.
    Millis nextDeadline();
    // Processes everything due at or before `now` (normally clock().now()) in every queue.
    void advance(Millis now);
    void advance() { advance(clock().now()); }

    // ---- peek: side-effect free views --------------------------------------------------------
    // A peek changes nothing of its own: no receive count, no visibility, no event for the look.
    // Those that read a queue's messages or counts first bring it up to the clock (settle), as
    // every call does, so they can emit the expiry events that were due — VisibilityExpired,
    // DelayEnded, RetentionExpired — and serve waiting long polls: queueView, queueStats,
    // peekMessages, peekMessage, peekGroups, channelStats, listChannels.

    std::vector<QueueView> queues(); // settles every queue
    Result<QueueView> queueView(std::string_view name);
    Result<QueueStats> queueStats(std::string_view name);
    // In sequence order, a page at a time (PeekRequest: a cursor, an offset, a limit).
    Result<std::vector<MessageView>> peekMessages(std::string_view name,
                                                  const PeekRequest& request = {});
    // Every message `request` selects (its cursor, offset and limit too), in sequence order, to
    // `visit` one at a time: one pass and one sort for the whole queue, and no page of views
    // kept (a window listing a million messages). `visit` must not call the broker.
    Status forEachMessage(std::string_view name, const PeekRequest& request,
                          const std::function<void(const MessageView&)>& visit);
    // The key of every message of the queue, in sequence order: one pass, no views made. With
    // peekMessage() a window lists a large queue a page at a time while it stays usable.
    Result<std::vector<MessageKey>> messageKeys(std::string_view name);
    // O(1): the message at `key` (from an event), or ResourceNotFound once it is gone.
    Result<MessageView> peekMessage(std::string_view name, MessageKey key);
    // FIFO groups (by oldest head first); OCI channels.
    Result<std::vector<GroupView>> peekGroups(std::string_view name);
    // OCI GetStats for one channel (available, inFlight, sizeInBytes).
    Result<QueueStats> channelStats(std::string_view name, std::string_view channelId);
    // OCI ListChannels: non-empty channels whose id starts with `filter`, sorted.
    Result<std::vector<std::string>> listChannels(std::string_view name, std::string_view filter);

    // ---- explanations (explain.h): side-effect free like peek -------------------------------

    // Why `request` would get nothing now (cause NotEmpty if it would not), with the counts and
    // the next deadlines. The request is validated as a receive (same errors); it is not made:
    // no receive count, no event of its own. Linear in the FIFO groups for FifoGroupsBlocked.
    Result<EmptyReceiveExplanation> explainEmptyReceive(const ReceiveRequest& request);
    // The message's state and the facts behind it: the receive that holds it or whose visibility
    // ran out (number, client, time), the receives left before the DLQ, retention, its DLQ
    // source, the FIFO head that blocks it. ResourceNotFound if it is no longer in the queue.
    Result<MessageExplanation> explainMessage(std::string_view queue, MessageKey key);
    // Which receive of which message `receiptHandle` came from, whether it is still the latest,
    // and what DeleteMessage with it does now. A foreign or malformed handle is an explanation
    // (OtherQueue, NotAHandle), not an error; QueueDoesNotExist for an unknown queue.
    Result<ReceiptExplanation> explainReceipt(std::string_view queue,
                                              std::string_view receiptHandle);
    // The same for every handle of a batch, in order, as things stand at one moment (the traffic
    // log notes each entry of a delete or visibility batch before it runs).
    Result<std::vector<ReceiptExplanation>> explainReceipts(
        std::string_view queue, std::span<const std::string_view> receiptHandles);
    // FIFO: every available message behind a not-available message of its group, with that
    // blocker; by oldest group head, then group order. Standard and OCI queues: empty (no
    // head-of-line blocking). Linear in the queue's FIFO messages.
    Result<std::vector<BlockedMessage>> blockedMessages(std::string_view queue);

    // ---- persistence: export and restore (snapshot.h) ----------------------------------------

    // Export never changes state (like peek).
    BrokerRecord brokerRecord();
    // Every queue, OCI built-in DLQs after their queue, without messages.
    std::vector<QueueRecord> queueRecords();
    Result<QueueRecord> queueRecord(std::string_view name);
    // What a store needs to keep a FIFO queue's windows current without copying them whole at
    // every commit: the deduplication records from `fromSequence` on (their number, not the
    // window's size, is the cost), and the receive attempts (few).
    Result<DeduplicationTail> deduplicationSince(std::string_view name, std::uint64_t fromSequence);
    Result<std::vector<ReceiveAttemptRecord>> receiveAttempts(std::string_view name);
    // Every stored message of the queue, in ascending sequence.
    Status forEachMessage(std::string_view name,
                          const std::function<void(const MessageRecord&)>& visit);
    // RecordContent::Left: the record without its MessageContent (body, attributes, ids of group
    // and deduplication…), which never change while the message stays in its queue: a store that
    // has them already rewrites only the state, without copying the body.
    enum class RecordContent { Included, Left };
    Result<MessageRecord> messageRecord(std::string_view name, MessageKey key,
                                        RecordContent content = RecordContent::Included);

    // Restore into a broker that has no queues: restoreBroker() once, then restoreQueue() for every
    // queue (a dead-letter target need not come first), restoreMessage() for each of its messages
    // in ascending sequence, then finishRestore(). Emits no events. InvalidParameterValue when a
    // record contradicts what is already restored (a taken name or slot, a sequence out of order).
    Status restoreBroker(const BrokerRecord& record);
    Status restoreQueue(const QueueRecord& record);
    Status restoreMessage(std::string_view queue, MessageRecord record);
    void finishRestore();

private:
    std::unique_ptr<BrokerState> m_state;
};

} // namespace inflight::engine
