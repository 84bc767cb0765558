// Lazy truth, explicit deadlines: bringing queues up to date with the clock, in time order, and
// telling the host when the next thing becomes due.
#include "engine/internal/broker_state.h"

#include <algorithm>

namespace inflight::engine {

namespace {

// The due time of the first valid entry of each heap (stale entries are dropped on the way).
Millis dueDelay(const BrokerState& s, Queue& q)
{
    while (!q.delayed.empty()) {
        const DeadlineEntry& e = q.delayed.top();
        const Message* m = q.store.find(e.slot, e.sequence);
        if (m && m->state == MessageState::Delayed
            && (q.isFifo() ? m->sentAt == e.at : m->deadline == e.at))
            return s.deliverAt(q, *m);
        q.delayed.pop();
    }
    return kNoDeadline;
}

Millis dueVisibility(Queue& q)
{
    while (!q.visibility.empty()) {
        const DeadlineEntry& e = q.visibility.top();
        const Message* m = q.store.find(e.slot, e.sequence);
        if (m && m->state == MessageState::InFlight && m->deadline == e.at)
            return e.at;
        q.visibility.pop();
    }
    return kNoDeadline;
}

Millis dueRetention(Queue& q)
{
    while (!q.retention.empty()) {
        const DeadlineEntry& e = q.retention.top();
        const Message* m = q.store.find(e.slot, e.sequence);
        if (m && m->retentionBase == e.at)
            return e.at + q.retentionMillis();
        q.retention.pop();
    }
    return kNoDeadline;
}

} // namespace

Millis BrokerState::oldestRetentionBase(Queue& q)
{
    const Millis due = dueRetention(q);
    return due == kNoDeadline ? kNoDeadline : due - q.retentionMillis();
}

Millis BrokerState::nextDeadline(Queue& q)
{
    return std::min({dueDelay(*this, q), dueVisibility(q), dueRetention(q)});
}

void BrokerState::settle(Queue& q, Millis now)
{
    bool becameAvailable = false;
    for (;;) {
        const Millis tDelay = dueDelay(*this, q);
        const Millis tVisibility = dueVisibility(q);
        const Millis tRetention = dueRetention(q);
        const Millis first = std::min({tDelay, tVisibility, tRetention});
        if (first > now)
            break;
        // Take a run from the earliest heap, up to the next deadline of the others, so many
        // expiries at the same instant cost one pass (time order is kept across heaps).
        if (first == tVisibility) {
            const Millis bound = std::min({tDelay, tRetention, now});
            // first <= bound: the loop runs at least once.
            for (Millis t = tVisibility; t <= bound; t = dueVisibility(q)) {
                const DeadlineEntry e = q.visibility.top();
                q.visibility.pop();
                Message& m = q.store.at(e.slot);
                makeAvailable(q, e.slot, m, true);
                m.returnCause = ReturnCause::VisibilityExpired; // m.deadline stays: the expiry
                ++q.counters.visibilityExpired;
                if (wantEvents())
                    emitMessageEvent(EventKind::VisibilityExpired, q, e.slot, m, t, "engine");
            }
            becameAvailable = true;
        } else if (first == tDelay) {
            const DeadlineEntry e = q.delayed.top();
            q.delayed.pop();
            Message& m = q.store.at(e.slot);
            makeAvailable(q, e.slot, m, false);
            becameAvailable = true;
            if (wantEvents())
                emitMessageEvent(EventKind::DelayEnded, q, e.slot, m, tDelay, "engine");
        } else {
            const DeadlineEntry e = q.retention.top();
            q.retention.pop();
            Message& m = q.store.at(e.slot);
            ++q.counters.retentionExpired;
            if (wantEvents())
                emitMessageEvent(EventKind::RetentionExpired, q, e.slot, m, tRetention, "engine");
            removeMessage(q, e.slot, m);
        }
    }
    expireWindows(q, now);
    if (becameAvailable && !q.waiters.empty())
        serveWaiters(q, now);
}

void BrokerState::expireWindows(Queue& q, Millis now)
{
    q.dedup.expire(now);
    while (!q.attemptExpiry.empty() && q.attemptExpiry.front().first <= now) {
        auto it = q.attempts.find(q.attemptExpiry.front().second);
        if (it != q.attempts.end() && it->second.expiresAt <= now)
            q.attempts.erase(it);
        q.attemptExpiry.pop_front();
    }
}

void BrokerState::expireWaiters(Millis now)
{
    auto later = [](const auto& a, const auto& b) { return a.first > b.first; };
    while (!waiterDeadlines.empty() && waiterDeadlines.front().first <= now) {
        const WaitId id = waiterDeadlines.front().second;
        std::pop_heap(waiterDeadlines.begin(), waiterDeadlines.end(), later);
        waiterDeadlines.pop_back();
        auto it = waiters.find(id);
        if (it == waiters.end())
            continue;
        Waiter waiter = std::move(it->second);
        waiters.erase(it);
        if (Queue* q = findQueue(waiter.queue); q && q->id == waiter.queueId) {
            auto pos = std::find(q->waiters.begin(), q->waiters.end(), id);
            if (pos != q->waiters.end())
                q->waiters.erase(pos);
            ++q->counters.emptyReceives; // the long poll ends empty
        }
        completions.emplace_back(std::move(waiter.done), ReceiveResult{});
    }
}

Millis BrokerState::nextDeadlineAll()
{
    Millis best = kNoDeadline;
    for (auto& [name, q] : queues)
        best = std::min(best, nextDeadline(*q));
    if (!waiterDeadlines.empty())
        best = std::min(best, waiterDeadlines.front().first);
    for (const MoveTask& task : tasks)
        if (task.status == MoveTaskStatus::Running)
            best = std::min(best, task.nextMoveAt());
    return best;
}

void BrokerState::advanceAll(Millis now)
{
    // With waiters or move tasks about, step through the deadlines in time order so a long poll
    // ends empty at its deadline even when a message turns up later in the same jump.
    const bool ordered = !waiters.empty()
        || std::any_of(tasks.begin(), tasks.end(),
                       [](const MoveTask& t) { return t.status == MoveTaskStatus::Running; });
    if (ordered) {
        for (Millis t = nextDeadlineAll(); t <= now; t = nextDeadlineAll()) {
            for (auto& [name, q] : queues)
                settle(*q, t);
            runTasks(t);
            expireWaiters(t);
        }
    }
    for (auto& [name, q] : queues)
        settle(*q, now);
    runTasks(now);
    expireWaiters(now);
}

} // namespace inflight::engine
