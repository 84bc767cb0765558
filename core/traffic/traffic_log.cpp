#include "traffic/traffic_log.h"

#include "traffic/record_bytes.h"

#include <algorithm>
#include <memory>

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

TrafficRecord& TrafficLog::slot(std::uint64_t cursor)
{
    return m_ring[(m_head + (cursor - m_firstCursor)) % m_ring.size()];
}

const TrafficRecord& TrafficLog::slot(std::uint64_t cursor) const
{
    return m_ring[(m_head + (cursor - m_firstCursor)) % m_ring.size()];
}

void TrafficLog::dropOldest()
{
    TrafficRecord& oldest = m_ring[m_head];
    m_bodyBytes -= oldest.bodyBytes();
    std::destroy_at(&oldest); // its block goes now, not when the slot is reused
    std::construct_at(&oldest);
    m_head = (m_head + 1) % m_ring.size();
    --m_size;
    ++m_firstCursor;
    ++m_dropped;
}

void TrafficLog::reshape(std::size_t capacity)
{
    while (m_size > capacity)
        dropOldest();
    std::vector<TrafficRecord> ring;
    ring.reserve(std::min(capacity, std::max<std::size_t>(m_size, 1)));
    for (std::size_t i = 0; i < m_size; ++i)
        ring.push_back(std::move(m_ring[(m_head + i) % m_ring.size()]));
    m_ring = std::move(ring);
    m_head = 0;
}

void TrafficLog::setLimits(const TrafficLimits& limits)
{
    m_limits = limits;
    if (m_ring.size() > m_limits.maxRecords || m_head != 0)
        reshape(m_limits.maxRecords);
}

void TrafficLog::makeRoom(qsizetype bytes)
{
    while (m_size > 0
           && (m_size >= m_limits.maxRecords || m_bodyBytes + bytes > m_limits.maxBodyBytesTotal))
        dropOldest();
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
    packBytes(record);
    makeRoom(record.bodyBytes());
    if (m_size == 0)
        m_head = 0;
    record.cursor = m_nextCursor++;
    m_bodyBytes += record.bodyBytes();
    m_clients.record(record, nullptr);
    if (m_size < m_ring.size()) {
        ++m_size;
        TrafficRecord& free = slot(record.cursor); // emptied when its record was dropped
        std::destroy_at(&free);
        std::construct_at(&free, std::move(record));
    } else if (m_head == 0) { // the ring is in order from slot 0: it grows at its end
        m_ring.push_back(std::move(record));
        ++m_size;
    } else { // a full ring made smaller in capacity meanwhile is laid out again
        reshape(m_limits.maxRecords);
        m_ring.push_back(std::move(record));
        ++m_size;
    }
    const TrafficRecord& stored = slot(m_nextCursor - 1);
    for (const auto& [id, listener] : m_listeners)
        listener(stored, true);
    return stored.cursor;
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
    TrafficRecord& stored = slot(cursor);
    m_clients.record(record, &stored);
    const qsizetype grown = record.bodyBytes() - stored.bodyBytes();
    if (m_bodyBytes + grown > m_limits.maxBodyBytesTotal) { // keep the total: this answer's body
        record.responseTruncated = record.responseTruncated || !record.responseBody.isEmpty();
        record.responseBody.clear();
    }
    packBytes(record);
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
    return &slot(cursor);
}

std::vector<TrafficRecord> TrafficLog::after(std::uint64_t cursor, std::size_t limit,
                                             bool errorsOnly) const
{
    std::vector<TrafficRecord> out;
    const std::uint64_t from = std::max(cursor + 1, m_firstCursor);
    for (std::uint64_t at = from; at < m_nextCursor && out.size() < limit; ++at) {
        const TrafficRecord& record = slot(at);
        if (!errorsOnly || record.isError())
            out.push_back(record);
    }
    return out;
}

} // namespace inflight::traffic
