#include "traffic/traffic_file.h"

#include "traffic/traffic_json.h"

#include <QMetaObject>

namespace inflight::traffic {

TrafficFile::TrafficFile(TrafficLog& log)
{
    log.addListener([this](const TrafficRecord& record, bool) {
        if (!record.waiting && m_file.isOpen())
            onRecord(record);
    });
}

TrafficFile::~TrafficFile()
{
    flush();
}

bool TrafficFile::open(const QString& path)
{
    m_file.setFileName(path);
    return m_file.open(QIODevice::WriteOnly | QIODevice::Append);
}

void TrafficFile::onRecord(const TrafficRecord& record)
{
    m_pending += QByteArray::fromStdString(
        recordJson(record).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    m_pending += '\n';
    if (m_flushQueued)
        return;
    m_flushQueued = true;
    QMetaObject::invokeMethod(
        &m_context, [this] { flush(); }, Qt::QueuedConnection);
}

void TrafficFile::flush()
{
    m_flushQueued = false;
    if (m_pending.isEmpty() || !m_file.isOpen())
        return;
    m_file.write(m_pending);
    m_file.flush();
    m_pending.clear();
}

} // namespace inflight::traffic
