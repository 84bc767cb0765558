#pragma once

#include "traffic/client_identity.h"
#include "traffic/client_registry.h"
#include "traffic/traffic_record.h"

#include <QtGlobal>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace inflight::traffic {

// How much the log keeps. The defaults hold a long test run without a user noticing the memory.
struct TrafficLimits {
    std::size_t maxRecords = 10'000;
    qsizetype maxBodyBytesPerRequest = 64 * 1024; // each body is cut to this
    qsizetype maxBodyBytesTotal = 64 * 1024 * 1024;
};

// The endpoint's requests, newest last, in a ring: when a new record would pass a cap (records or
// body bytes in total), the oldest go first, and dropped() counts them. A long poll is added
// waiting and updated in place when it ends. Records are numbered by a cursor from 1 up, so a
// reader asks for what came after the last one it saw. Lives on the session's thread.
//
// Records are kept in a ring of slots that is reused once full (no allocation per record beyond
// its one block of bytes, record_bytes.h).
//
// Invariants: the ring holds cursors m_firstCursor … m_firstCursor + m_size - 1 without gaps, the
// oldest in slot m_head; m_bodyBytes is the sum of their bodyBytes() and at most
// limits.maxBodyBytesTotal; m_size is at most limits.maxRecords.
class TrafficLog {
public:
    // `isNew`: added now; otherwise a waiting record was completed.
    using Listener = std::function<void(const TrafficRecord& record, bool isNew)>;

    explicit TrafficLog(TrafficLimits limits = {});

    // Applies from the next add() on (bodies already kept are not cut again; a smaller record cap
    // drops the oldest at once).
    void setLimits(const TrafficLimits& limits);
    const TrafficLimits& limits() const { return m_limits; }

    // Stores `record` with the next cursor (its bodies cut to the per-request cap) and returns the
    // cursor; tells the listeners and the client registry.
    std::uint64_t add(TrafficRecord record);
    // Replaces the waiting record `cursor` with `record` (same cursor, its bodies cut); false when
    // it has been dropped meanwhile (the registry still learns of the answer).
    bool complete(std::uint64_t cursor, TrafficRecord record);

    // Up to `limit` records after `cursor` (0: from the oldest), oldest first; only those with an
    // HTTP status of 400 or more when `errorsOnly`. Waiting records are included.
    std::vector<TrafficRecord> after(std::uint64_t cursor, std::size_t limit,
                                     bool errorsOnly = false) const;
    // The record of that cursor; nullptr when dropped or not yet made.
    const TrafficRecord* find(std::uint64_t cursor) const;

    // The cursor of the newest record (0 before the first).
    std::uint64_t cursor() const { return m_nextCursor - 1; }
    // The cursor of the oldest record kept (cursor() + 1 when none is).
    std::uint64_t oldestCursor() const { return m_firstCursor; }
    std::size_t size() const { return m_size; }
    // Records dropped for the caps since the log started.
    std::uint64_t dropped() const { return m_dropped; }
    qsizetype bodyBytes() const { return m_bodyBytes; }
    const ClientRegistry& clients() const { return m_clients; }
    // Who sends the requests, made once per client (the server's, on this thread).
    ClientIdentities& identities() { return m_identities; }

    // Called for every add() and complete(), on this thread, in the order they were added.
    // Returns the id that removes it (the window's view goes before the log does).
    std::uint64_t addListener(Listener listener);
    void removeListener(std::uint64_t id);

    // Cuts `body` to the per-request cap; true when it was cut.
    static bool cap(QByteArray& body, qsizetype maxBytes);

private:
    void capBodies(TrafficRecord& record) const;
    void makeRoom(qsizetype bytes);
    TrafficRecord& slot(std::uint64_t cursor);
    const TrafficRecord& slot(std::uint64_t cursor) const;
    void dropOldest();
    // Lays the records out again from slot 0 in a ring of at most `capacity` slots.
    void reshape(std::size_t capacity);

    TrafficLimits m_limits;
    std::vector<TrafficRecord> m_ring; // grows to limits.maxRecords slots, then wraps
    std::size_t m_head = 0;            // the oldest record's slot
    std::size_t m_size = 0;
    std::uint64_t m_firstCursor = 1;
    std::uint64_t m_nextCursor = 1;
    std::uint64_t m_dropped = 0;
    qsizetype m_bodyBytes = 0;
    ClientRegistry m_clients;
    ClientIdentities m_identities;
    std::vector<std::pair<std::uint64_t, Listener>> m_listeners;
    std::uint64_t m_nextListener = 1;
};

} // namespace inflight::traffic
