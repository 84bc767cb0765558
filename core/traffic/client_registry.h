#pragma once

#include "traffic/traffic_record.h"

#include <QString>

#include <cstdint>
#include <map>
#include <vector>

namespace inflight::traffic {

// What one client (ClientIdentity::key) has done since the log started.
struct ClientStats {
    ClientIdentity identity; // as of its latest request
    QString address;         // its latest "host:port"
    std::int64_t firstSeenMs = 0;
    std::int64_t lastSeenMs = 0;
    std::int64_t requests = 0;
    std::int64_t sends = 0;         // messages sent (a batch counts its entries)
    std::int64_t receives = 0;      // receive requests answered
    std::int64_t emptyReceives = 0; // of which with no message
    std::int64_t deletes = 0;       // messages deleted
    std::int64_t errors = 0;        // answers with a status of 400 or more
    std::int64_t staleReceipts = 0; // requests that used a receipt of an earlier receive
    std::int64_t receivedAgain = 0; // messages it received that had been received before
    std::int64_t waitingPolls = 0;  // long polls open now
};

// One row per client, fed with the records of the traffic log. Not bounded by the log's ring:
// clients are few, and a client's counts outlive its oldest records.
class ClientRegistry {
public:
    // A request arrived (waiting) or was answered; `previous` is the record's last state when it
    // is an update of a waiting one (the arrival was counted then).
    void record(const TrafficRecord& record, const TrafficRecord* previous);
    // Every client, by key.
    std::vector<ClientStats> clients() const;
    void clear() { m_clients.clear(); }

private:
    std::map<QString, ClientStats> m_clients;
};

} // namespace inflight::traffic
