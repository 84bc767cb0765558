#include "traffic/client_registry.h"

#include <algorithm>

namespace inflight::traffic {

void ClientRegistry::record(const TrafficRecord& record, const TrafficRecord* previous)
{
    ClientStats& client = m_clients[record.client.key];
    if (!previous) {
        if (client.requests == 0)
            client.firstSeenMs = record.wallTimeMs;
        ++client.requests;
        // Most requests come from the identity already known (its strings shared): only a
        // change is copied.
        if (client.identity.key.constData() != record.client.key.constData()
            || client.identity.sdkVersion.constData() != record.client.sdkVersion.constData()
            || client.identity.host.constData() != record.client.host.constData())
            client.identity = record.client;
        if (client.address.constData() != record.address.constData())
            client.address = record.address;
    }
    client.lastSeenMs = std::max(client.lastSeenMs, record.wallTimeMs + record.latencyUs / 1000);
    if (previous && previous->waiting)
        --client.waitingPolls;
    if (record.waiting) {
        ++client.waitingPolls;
        return; // counted when answered
    }
    if (record.isError()) {
        ++client.errors;
        return;
    }
    if (record.staleReceipt)
        ++client.staleReceipts;
    client.receivedAgain += record.receivedAgain;
    const QString& op = record.operation;
    if (op == QLatin1String("ReceiveMessage") || op == QLatin1String("GetMessages")) {
        ++client.receives;
        if (record.outcome.startsWith(QLatin1String("empty")))
            ++client.emptyReceives;
    } else if (op.startsWith(QLatin1String("SendMessage")) || op == QLatin1String("PutMessages")) {
        client.sends += std::max<std::int64_t>(record.succeeded, 0);
    } else if (op.startsWith(QLatin1String("DeleteMessage"))) {
        client.deletes += std::max<std::int64_t>(record.succeeded, 0);
    }
}

std::vector<ClientStats> ClientRegistry::clients() const
{
    std::vector<ClientStats> out;
    out.reserve(m_clients.size());
    for (const auto& [key, client] : m_clients)
        out.push_back(client);
    return out;
}

} // namespace inflight::traffic
