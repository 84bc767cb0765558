#include "workspace_session.h"

#include <QDateTime>
#include <QtDebug>

namespace inflight::workspace {

Result<std::unique_ptr<WorkspaceSession>> WorkspaceSession::open(const QString& path,
                                                                 store::OpenMode mode,
                                                                 const SessionSettings& settings)
{
    std::unique_ptr<WorkspaceSession> result(new WorkspaceSession);
    const engine::Millis wallNow = QDateTime::currentMSecsSinceEpoch();
    const engine::Millis fresh = settings.start.value_or(wallNow);
    const engine::BrokerOptions& broker = settings.broker;
    const bool frozen = settings.frozen;
    if (path.isEmpty()) {
        result->m_session = std::make_unique<session::Session>(broker, fresh, frozen);
        return result;
    }
    auto opened = store::WorkspaceStore::open(path.toStdString(), mode, settings.store);
    if (!opened)
        return opened.error();
    result->m_path = path;
    result->m_store = std::move(opened).value();
    const auto saved = result->m_store->savedClock();
    result->m_isNew = !saved;
    // (A restored broker takes its random state from the file: the seed only starts new ones.)
    result->m_session = std::make_unique<session::Session>(
        broker, saved ? store::resumeTime(*saved, wallNow) : fresh, frozen);
    session::Session& session = *result->m_session;
    if (saved) {
        if (saved->speed > 0 && saved->speed != session.speed())
            session.setSpeed(saved->speed);
        if (saved->paused)
            session.pause();
    }
    if (auto restored = result->m_store->restore(session.broker()); !restored)
        return restored.error();
    // Opened once, it is no longer new: its clock is kept now, so that a workspace left empty
    // (New Empty Workspace, or emptied by the user) opens empty next time, without examples.
    if (!saved && !path.isEmpty())
        (void)result->m_store->saveClock(result->clockRecord());
    WorkspaceSession* self = result.get();
    result->m_sync.setSingleShot(true);
    result->m_sync.setInterval(1000);
    QObject::connect(&result->m_sync, &QTimer::timeout, [self] {
        if (auto synced = self->m_store->checkpoint(); !synced)
            qWarning("inflight: the workspace was not synced to the disk: %s",
                     synced.error().message.c_str());
    });
    session.setPersistence([self](std::span<const engine::Event> events) {
        auto committed
            = self->m_store->commit(self->m_session->broker(), events, self->clockRecord());
        if (!committed)
            return session::Session::Stored(committed.error().message);
        if (self->m_store->syncMode() == store::SyncMode::Normal && !self->m_sync.isActive())
            self->m_sync.start();
        return session::Session::Stored(engine::Done{});
    });
    // The simulation that ran in it runs again (its actors, figures from zero). A file this build
    // cannot apply loses nothing else: the workspace opens without it and says why.
    if (const std::string& simulation = result->m_store->savedSimulation(); !simulation.empty()) {
        if (auto restored = session.restoreSimulation(simulation); !restored)
            qWarning("inflight: the workspace's simulation was not restored: %s",
                     restored.error().message.c_str());
    }
    // It is kept as it changes: actors added, edited, removed, started or stopped.
    const auto keep = [self] {
        if (auto saved = self->m_store->saveSimulation(self->m_session->simulationFile()); !saved)
            qWarning("inflight: the simulation was not saved: %s", saved.error().message.c_str());
    };
    QObject::connect(&session, &session::Session::actorsChanged, &session, keep);
    QObject::connect(&session, &session::Session::simulationChanged, &session, keep);
    session.advanceNow(); // arm the timer for what the restored state has due
    return result;
}

WorkspaceSession::~WorkspaceSession()
{
    if (m_store && m_session) {
        (void)m_session->commitNow(); // what is still batched (WorkspaceHost checks it first)
        m_session->setPersistence({});
        (void)m_store->saveClock(clockRecord());
        (void)m_store->saveSimulation(
            m_session->simulationFile()); // its last change may be 0.1 s old
    }
    m_session.reset();
    m_store.reset();
}

store::SyncMode WorkspaceSession::syncMode() const
{
    return m_store ? m_store->syncMode() : store::kDefaultSyncMode;
}

Status WorkspaceSession::setSyncMode(store::SyncMode mode)
{
    if (!m_store)
        return engine::Done{};
    // What was committed under the old mode keeps its promise: store it first.
    if (!m_session->commitNow())
        return store::StoreError{store::StoreErrorKind::Io,
                                 "The workspace could not be saved ("
                                     + m_session->persistenceError().toStdString()
                                     + "), so its sync mode was not changed."};
    return m_store->setSyncMode(mode);
}

store::ClockRecord WorkspaceSession::clockRecord() const
{
    return {m_session->now(), m_session->isPaused(), m_session->speed(),
            QDateTime::currentMSecsSinceEpoch()};
}

} // namespace inflight::workspace
