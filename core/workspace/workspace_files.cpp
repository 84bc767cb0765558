#include "workspace_files.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cstdio>

namespace inflight::workspace {

namespace {

store::StoreError ioError(const QString& message)
{
    return store::StoreError{store::StoreErrorKind::Io, message.toStdString()};
}

// Removes `path` and SQLite's side files; an error names the one that stayed.
Status removeWorkspaceFile(const QString& path)
{
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
        if (QFileInfo::exists(path + suffix) && !QFile::remove(path + suffix))
            return ioError(QStringLiteral("Cannot replace %1.").arg(path + suffix));
    }
    return engine::Done{};
}

} // namespace

Status createEmpty(const QString& path)
{
    if (auto removed = removeWorkspaceFile(path); !removed)
        return removed.error();
    auto created = store::WorkspaceStore::open(path.toStdString(), store::OpenMode::CreateNew);
    if (!created)
        return created.error();
    return engine::Done{};
}

Status saveCopy(session::Session& session, const QString& path, store::SyncMode sync)
{
    if (auto removed = removeWorkspaceFile(path); !removed)
        return removed.error();
    auto opened = store::WorkspaceStore::open(path.toStdString(), store::OpenMode::CreateNew,
                                              {.sync = sync});
    if (!opened)
        return opened.error();
    store::WorkspaceStore& copy = **opened;
    const store::ClockRecord clock{session.now(), session.isPaused(), session.speed(),
                                   QDateTime::currentMSecsSinceEpoch()};
    if (auto saved = copy.saveAll(session.broker(), clock); !saved)
        return saved.error();
    if (auto saved = copy.saveSimulation(session.simulationFile()); !saved)
        return saved.error();
    return engine::Done{};
}

Status exportToFile(engine::Broker& broker, const store::ExportRequest& request,
                    const QString& file)
{
    const auto text = store::exportQueues(broker, request);
    if (!text)
        return ioError(QString::fromStdString(text.error().message));
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly)
        || out.write(text->data(), static_cast<qint64>(text->size()))
            != static_cast<qint64>(text->size())
        || !out.commit())
        return ioError(QStringLiteral("Cannot write %1: %2").arg(file, out.errorString()));
    return engine::Done{};
}

Result<store::Imported> importFromFile(engine::Broker& broker, const QString& file,
                                       const store::ImportRequest& request)
{
    QFile in;
    const bool opened = file == QStringLiteral("-")
        ? in.open(stdin, QIODevice::ReadOnly)
        : (in.setFileName(file), in.open(QIODevice::ReadOnly));
    if (!opened)
        return ioError(QStringLiteral("Cannot read %1: %2").arg(file, in.errorString()));
    const QByteArray text = in.readAll();
    auto result = store::importQueues(
        broker, std::string_view(text.constData(), static_cast<std::size_t>(text.size())), request);
    if (!result)
        return store::StoreError{store::StoreErrorKind::InvalidContent,
                                 QStringLiteral("%1: %2")
                                     .arg(file, QString::fromStdString(result.error().message))
                                     .toStdString()};
    return std::move(result).value();
}

} // namespace inflight::workspace
