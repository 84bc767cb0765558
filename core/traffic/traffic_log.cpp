#include "traffic/traffic_log.h"

#include <algorithm>

namespace inflight::traffic {

TrafficLog::TrafficLog(TrafficLimits limits) : m_limits(limits)
{
}

std::uint64_t TrafficLog::addListener(Listener listener)
{
    m_listeners.emplace_back(m_nextListener, std::move(listener));
    return m_nextListener++;
}

void TrafficLog::removeListener(std::uint64_t id)
{
    std::erase_if(m_listeners, [id](const auto& entry) { return entry.first == id; });
}

bool TrafficLog::cap(QByteArray& body, qsizetype maxBytes)
{
    if (body.size() <= maxBytes)
        return false;
    body = QByteArray(body.constData(), std::max<qsizetype>(maxBytes, 0)); // a copy of its own
    return true;
}

void TrafficLog::capBodies(TrafficRecord& record) const
{
    record.requestBodySize = std::max(record.requestBodySize, record.requestBody.size());
    record.responseBodySize = std::max(record.responseBodySize, record.responseBody.size());
    record.requestTruncated
        = cap(record.requestBody, m_limits.maxBodyBytesPerRequest) || record.requestTruncated;
    record.responseTruncated
        = cap(record.responseBody, m_limits.maxBodyBytesPerRequest) || record.responseTruncated;
}

void TrafficLog::makeRoom(qsizetype bytes)
{
    while (!m_records.empty()
           && (m_records.size() >= m_limits.maxRecords
               || m_bodyBytes + bytes > m_limits.maxBodyBytesTotal)) {
        m_bodyBytes -= m_records.front().bodyBytes();
        m_records.pop_front();
        ++m_firstCursor;
        ++m_dropped;
    }
}

std::uint64_t TrafficLog::add(TrafficRecord record)
{
    capBodies(record);
    if (record.bodyBytes() > m_limits.maxBodyBytesTotal) { // a cap below the per-request one
        record.requestTruncated = record.requestTruncated || !record.requestBody.isEmpty();
        record.responseTruncated = record.responseTruncated || !record.responseBody.isEmpty();
        record.requestBody.clear();
        record.responseBody.clear();
    }
    if (m_limits.maxRecords == 0) {
        record.cursor = m_nextCursor++;
        m_firstCursor = m_nextCursor;
        ++m_dropped;
        m_clients.record(record, nullptr);
        for (const auto& [id, listener] : m_listeners)
            listener(record, true);
        return record.cursor;
    }
    makeRoom(record.bodyBytes());
    record.cursor = m_nextCursor++;
    m_bodyBytes += record.bodyBytes();
    m_clients.record(record, nullptr);
    m_records.push_back(std::move(record));
    for (const auto& [id, listener] : m_listeners)
        listener(m_records.back(), true);
    return m_records.back().cursor;
}

bool TrafficLog::complete(std::uint64_t cursor, TrafficRecord record)
{
    capBodies(record);
    record.cursor = cursor;
    if (cursor < m_firstCursor || cursor >= m_nextCursor) {
        TrafficRecord waiting = record;
        waiting.waiting = true;
        m_clients.record(record, &waiting);
        for (const auto& [id, listener] : m_listeners)
            listener(record, false);
        return false;
    }
    TrafficRecord& stored = m_records[cursor - m_firstCursor];
    m_clients.record(record, &stored);
    const qsizetype grown = record.bodyBytes() - stored.bodyBytes();
    if (m_bodyBytes + grown > m_limits.maxBodyBytesTotal) { // keep the total: this answer's body
        record.responseTruncated = record.responseTruncated || !record.responseBody.isEmpty();
        record.responseBody.clear();
    }
    m_bodyBytes += record.bodyBytes() - stored.bodyBytes();
    stored = std::move(record);
    for (const auto& [id, listener] : m_listeners)
        listener(stored, false);
    return true;
}

const TrafficRecord* TrafficLog::find(std::uint64_t cursor) const
{
    if (cursor < m_firstCursor || cursor >= m_nextCursor)
        return nullptr;
    return &m_records[cursor - m_firstCursor];
}

std::vector<TrafficRecord> TrafficLog::after(std::uint64_t cursor, std::size_t limit,
                                             bool errorsOnly) const
{
    std::vector<TrafficRecord> out;
    const std::uint64_t from = std::max(cursor + 1, m_firstCursor);
    for (std::uint64_t at = from; at < m_nextCursor && out.size() < limit; ++at) {
        const TrafficRecord& record = m_records[at - m_firstCursor];
        if (!errorsOnly || record.isError())
            out.push_back(record);
    }
    return out;
}

} // namespace inflight::traffic
