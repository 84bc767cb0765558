#pragma once

#include "traffic/traffic_log.h"

#include <QByteArray>
#include <QFile>
#include <QObject>
#include <QString>

namespace inflight::traffic {

// `--traffic-log FILE`: every answered request of `log` as one JSON line (recordJson), appended to
// the file. Lines are buffered and written once per turn of the event loop, so a batch of requests
// costs one write. Waiting long polls are written once answered (or hung up on). Must be made
// after `log` and destroyed before it; lives on the log's thread.
class TrafficFile {
public:
    explicit TrafficFile(TrafficLog& log);
    ~TrafficFile();

    // Opens `path` for appending (created if missing); false with errorString() on failure.
    bool open(const QString& path);
    QString errorString() const { return m_file.errorString(); }
    // Writes what is buffered now.
    void flush();

private:
    void onRecord(const TrafficRecord& record);

    QFile m_file;
    QByteArray m_pending;
    bool m_flushQueued = false;
    QObject m_context; // for the queued flush; its destruction cancels one not yet run
};

} // namespace inflight::traffic
