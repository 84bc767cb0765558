#pragma once

#include "engine/broker.h"
#include "engine/internal/queue.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace inflight::engine {

// The longest visibility timeout SQS allows, and the most a message may stay in flight from its
// first receive: 12 hours.
inline constexpr std::int64_t kMaxVisibilitySeconds = 43'200;

// splitmix64: fast, seedable; enough for message ids and receipt nonces.
class Random {
public:
    explicit Random(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t state() const { return m_state; }
    void setState(std::uint64_t state) { m_state = state; }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

private:
    std::uint64_t m_state;
};

// Strings numbered from 1 in the order first seen, so a message can name one in 2 bytes; 0 is the
// empty string, and every string once 0xffff are taken.
class StringTable {
public:
    std::uint16_t intern(const std::string& text);
    const std::string& name(std::uint16_t index) const { return m_names[index]; }

private:
    std::vector<std::string> m_names{std::string()};
    std::unordered_map<std::string, std::uint16_t> m_index;
};

// Which message attributes a receive returns.
struct AttributeFilter {
    bool all = false;
    std::vector<std::string> exact;
    std::vector<std::string> prefixes;
    bool empty() const { return !all && exact.empty() && prefixes.empty(); }
    bool matches(const std::string& name) const;
    static AttributeFilter from(const std::vector<std::string>& names);
};

// A receive after validation, with the queue's defaults filled in.
struct ReceivePlan {
    std::int64_t maxMessages = 1;
    Millis visibility = 30 * kSecond;
    Millis wait = 0;
    bool allSystemAttributes = false;
    std::vector<std::string> systemAttributeNames;
    AttributeFilter messageAttributes;
    std::string attemptId;
    std::optional<std::string> channelFilter;
    Origin origin;
};

struct Waiter {
    WaitId id = 0;
    std::string queue;
    std::uint32_t queueId = 0;
    ReceivePlan plan;
    ReceiveCallback done;
    Millis deadline = 0;
};

struct MoveTask {
    std::string taskId;
    std::string handle;
    std::string sourceName;
    std::string sourceArn;
    std::string destinationArn; // "" = back to each message's source
    std::optional<std::int64_t> maxMessagesPerSecond;
    MoveTaskStatus status = MoveTaskStatus::Running;
    std::int64_t moved = 0;
    std::int64_t toMove = 0;
    Millis startedAt = 0;
    std::string failureReason;
    Origin origin;
    Millis nextMoveAt() const;
};

// The broker's state and rules. Broker forwards to it inside a CallScope, which delivers the
// events and long-poll completions once the outermost call is done.
class BrokerState {
public:
    BrokerState(const Clock& clock, BrokerOptions options);

    const Clock& clock;
    BrokerOptions options;
    EventSink sink;

    std::map<std::string, std::unique_ptr<Queue>, std::less<>> queues;
    std::unordered_map<std::string, Millis> deletedAt;
    std::uint32_t nextQueueId = 1;
    Random random;
    std::uint64_t receiptKey;
    ReceiptMemo receipts; // decodes handles with receiptKey

    std::unordered_map<WaitId, Waiter> waiters;
    std::vector<std::pair<Millis, WaitId>> waiterDeadlines; // min-heap
    WaitId nextWaitId = 1;

    std::vector<MoveTask> tasks; // oldest first

    // Origins of receives and senders of messages, interned so a message keeps a 2-byte index
    // (Message::lastReceiveOrigin, Message::sender). Index 0 is the empty string; once a table is
    // full, new strings are recorded as 0.
    StringTable origins;
    StringTable senders;
    std::uint16_t internOrigin(const Origin& origin) { return origins.intern(origin); }
    const std::string& originName(std::uint16_t index) const { return origins.name(index); }
    std::uint16_t internSender(const std::string& senderId) { return senders.intern(senderId); }
    const std::string& senderName(std::uint16_t index) const { return senders.name(index); }

    // ---- call bookkeeping ----
    int depth = 0;
    // The invariants of queue.h, reported to the hook of invariants.h (none: nothing is checked).
    void checkInvariants() const;
    mutable std::uint64_t invariantChecks = 0;
    std::vector<Event> pendingEvents;
    std::uint64_t eventsEmitted = 0; // Event::sequence of the last event handed to the sink
    void number(std::vector<Event>& events);
    std::vector<std::pair<ReceiveCallback, Result<ReceiveResult>>> completions;
    void flush();
    bool wantEvents() const { return static_cast<bool>(sink); }
    void emit(Event event) { pendingEvents.push_back(std::move(event)); }
    Event queueEvent(EventKind kind, const Queue& q, Millis time, const Origin& origin) const;
    Event messageEvent(EventKind kind, const Queue& q, std::uint32_t slot, const Message& m,
                       Millis time, const Origin& origin) const;
    // messageEvent made in place at the end of the pending batch, for the caller to complete
    // before it emits anything else (the reference lasts until then).
    Event& emitMessageEvent(EventKind kind, const Queue& q, std::uint32_t slot, const Message& m,
                            Millis time, const Origin& origin);
    void fillMessageEvent(Event& e, EventKind kind, const Queue& q, std::uint32_t slot,
                          const Message& m, Millis time, const Origin& origin) const;

    // ---- look-up ----
    Queue* findQueue(std::string_view name);
    Result<Queue*> requireQueue(std::string_view name);
    // requireQueue, then brought up to date with the clock (settle).
    Result<Queue*> settledQueue(std::string_view name, Millis now);
    Queue* findQueueByArn(std::string_view arn);
    std::string arnFor(std::string_view name) const;
    Queue* deadLetterTarget(Queue& q); // the queue a receive moves to, if any
    std::int64_t maxReceiveCount(const Queue& q) const;

    // ---- message bookkeeping (broker_messages.cpp) ----
    struct NewMessage {
        std::uint64_t idHigh = 0, idLow = 0;
        MessageContent content;
        Millis sentAt = 0;
        Millis retentionBase = 0;
        Millis deliverAt = 0; // standard/OCI; FIFO derives delay from the queue
        std::uint32_t receiveCount = 0;
        Millis firstReceivedAt = 0;
        std::uint16_t sender = 0; // senders index
    };
    std::uint32_t storeMessage(Queue& q, NewMessage&& message, Millis now);
    // Puts a message that already sits in `slot` into its channel or group, heaps and counters.
    void attachMessage(Queue& q, std::uint32_t slot, Message& m, MessageState state);
    void makeAvailable(Queue& q, std::uint32_t slot, Message& m, bool returned);
    void removeMessage(Queue& q, std::uint32_t slot, Message& m);
    void purgeMessages(Queue& q);
    Channel& channelFor(Queue& q, const std::string& channelId);
    FifoGroup& groupFor(Queue& q, const std::string& groupId);
    void updateServable(Queue& q, FifoGroup& g);
    bool isDelayDue(const Queue& q, const Message& m, Millis now) const;
    Millis deliverAt(const Queue& q, const Message& m) const;
    std::string messageId(const Message& m) const;
    SequenceNumberText sequenceNumber(std::uint64_t sequence) const;
    std::int64_t messageBytes(const Message& m) const;

    // ---- time (broker_time.cpp) ----
    void settle(Queue& q, Millis now);
    Millis nextDeadline(Queue& q);
    // The retention base of the oldest stored message; kNoDeadline for an empty queue.
    Millis oldestRetentionBase(Queue& q);
    void expireWindows(Queue& q, Millis now);
    void advanceAll(Millis now);
    Millis nextDeadlineAll();

    // ---- receive (broker_receive.cpp) ----
    Result<ReceivePlan> planReceive(Queue& q, const ReceiveRequest& request);
    Result<ReceiveResult> receiveNow(Queue& q, const ReceivePlan& plan, bool longPoll, Millis now);
    bool tryMoveToDeadLetter(Queue& q, std::uint32_t slot, Message& m, Millis now,
                             const Origin& origin);
    ReceivedMessage deliver(Queue& q, std::uint32_t slot, Message& m, const ReceivePlan& plan,
                            Millis now);
    ReceivedMessage describeReceived(Queue& q, std::uint32_t slot, Message& m,
                                     const ReceivePlan& plan, std::string_view receipt,
                                     std::string_view messageId) const;
    WaitId addWaiter(Queue& q, ReceivePlan plan, ReceiveCallback done, Millis now);
    void serveWaiters(Queue& q, Millis now);
    void endWaiters(Queue& q);
    void expireWaiters(Millis now);

    // ---- receipts (broker_receipts.cpp) ----
    Status deleteOne(Queue& q, std::string_view handle, Millis now, const Origin& origin);
    Result<ChangeVisibilityResult> changeOne(Queue& q, std::string_view handle,
                                             std::optional<std::int64_t> seconds, Millis now,
                                             const Origin& origin);

    // ---- send (broker_send.cpp) ----
    Result<SendResult> sendOne(Queue& q, const SendMessageRequest& request, bool inBatch,
                               Millis now, const Origin& origin);

    // ---- queues (broker_queues.cpp) ----
    Status checkRedriveTarget(const QueueConfig& c, const std::string& sourceArn);
    Result<QueueRef> createQueue(const CreateQueueRequest& r, Millis now);
    Status deleteQueue(std::string_view name, Millis now, const Origin& origin);
    Result<StringMap> getAttributes(Queue& q, const std::vector<std::string>& names);
    Status setAttributes(Queue& q, const StringMap& attributes, Millis now, const Origin& origin);
    Status purge(Queue& q, PurgeTarget target, Millis now, const Origin& origin);
    Result<ListQueuesResult> listQueues(const ListQueuesRequest& r);
    Result<ListQueuesResult> listDeadLetterSources(Queue& dlq, const ListQueuesRequest& page);
    Status tag(Queue& q, const StringMap& tags, Millis now, const Origin& origin);
    Status untag(Queue& q, const std::vector<std::string>& keys, Millis now, const Origin& origin);
    Status addPermission(Queue& q, const std::string& label,
                         const std::vector<std::string>& accounts,
                         const std::vector<std::string>& actions, Millis now, const Origin& origin);
    Status removePermission(Queue& q, const std::string& label, Millis now, const Origin& origin);

    // ---- move tasks (broker_move_tasks.cpp) ----
    Result<std::string> startMoveTask(const StartMoveTaskRequest& r, Millis now);
    Result<std::vector<MoveTaskInfo>> listMoveTasks(std::string_view sourceArn,
                                                    std::optional<std::int64_t> maxResults,
                                                    Millis now);
    Result<std::int64_t> cancelMoveTask(std::string_view handle, Millis now, const Origin& origin);
    void runTasks(Millis now);
    bool moveOneByTask(MoveTask& task, Millis at);

    // ---- peek (broker_peek.cpp) ----
    MessageView view(Queue& q, std::uint32_t slot, const Message& m);
    // The counts, the counters and the oldest message's age at `now` (after settle(q, now)).
    QueueStats stats(Queue& q, Millis now);
    StringMap allAttributes(const Queue& q) const;
};

// A queue's name, ARN and kind, as the broker's calls return it.
QueueRef refOf(const Queue& q);

// Runs the events and completions of the outermost broker call once it is done.
class CallScope {
public:
    explicit CallScope(BrokerState& state) : m_state(state) { ++m_state.depth; }
    ~CallScope()
    {
        if (--m_state.depth == 0) {
            m_state.checkInvariants();
            m_state.flush();
        }
    }
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;

private:
    BrokerState& m_state;
};

} // namespace inflight::engine
