#pragma once

#include "engine/broker.h"

#include <QObject>

#include <optional>

namespace inflight::session {

class Session;

// One receive that may wait (a long poll). finished() is emitted once, from the event loop, when
// the engine answers, the wait ends empty, or cancel() is called. Owned by the caller; deleting
// it cancels the wait.
class PendingReceive : public QObject {
    Q_OBJECT
public:
    ~PendingReceive() override;

    bool isFinished() const { return m_result.has_value(); }
    bool wasCancelled() const { return m_cancelled; }
    // Requires isFinished().
    const engine::Result<engine::ReceiveResult>& result() const { return *m_result; }
    // Ends the wait with an empty result. No effect once finished.
    void cancel();

Q_SIGNALS:
    void finished();

private:
    friend class Session;
    explicit PendingReceive(engine::Broker& broker);
    void complete(engine::Result<engine::ReceiveResult> result);

    engine::Broker& m_broker;
    engine::WaitId m_waitId = 0;
    std::optional<engine::Result<engine::ReceiveResult>> m_result;
    bool m_cancelled = false;
};

} // namespace inflight::session
