#include "pending_receive.h"

#include <QMetaObject>

namespace inflight::session {

PendingReceive::PendingReceive(engine::Broker& broker) : m_broker(broker)
{
}

PendingReceive::~PendingReceive()
{
    if (!isFinished() && m_waitId != 0)
        m_broker.cancelWait(m_waitId);
}

void PendingReceive::cancel()
{
    if (isFinished())
        return;
    if (m_waitId != 0)
        m_broker.cancelWait(m_waitId);
    m_cancelled = true;
    complete(engine::ReceiveResult{});
}

void PendingReceive::complete(engine::Result<engine::ReceiveResult> result)
{
    m_result = std::move(result);
    // Emitted from the event loop, never from inside an engine call.
    QMetaObject::invokeMethod(this, &PendingReceive::finished, Qt::QueuedConnection);
}

} // namespace inflight::session
