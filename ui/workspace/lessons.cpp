#include "ui/workspace/lessons.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace inflight::ui {

namespace {

QString& lessonDirectory()
{
    static QString directory = QStringLiteral(":/scenarios");
    return directory;
}

} // namespace

QString builtInLessonDirectory()
{
    return lessonDirectory();
}

void setBuiltInLessonDirectory(const QString& directory)
{
    lessonDirectory() = directory;
}

QList<BuiltInLesson> builtInLessons()
{
    QList<BuiltInLesson> lessons;
    const QDir dir(lessonDirectory());
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(name);
        QString error;
        const auto scenario = readScenarioFile(path, &error);
        if (!scenario || !scenario->lesson)
            continue;
        lessons.push_back({path, QString::fromStdString(scenario->title)});
    }
    return lessons;
}

std::optional<sim::Scenario> readScenarioFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error
                = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    auto parsed
        = sim::parseScenario(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!parsed) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(),
                                                  QString::fromStdString(parsed.error().message));
        return std::nullopt;
    }
    return std::move(*parsed);
}

} // namespace inflight::ui
