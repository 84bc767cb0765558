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
        const auto scenario = readScenarioFile(path);
        if (!scenario || !scenario->lesson)
            continue;
        lessons.push_back({path, QString::fromStdString(scenario->title)});
    }
    return lessons;
}

engine::Result<sim::Scenario, QString> readScenarioFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    const QByteArray bytes = file.readAll();
    auto parsed
        = sim::parseScenario(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!parsed)
        return QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(),
                                            QString::fromStdString(parsed.error().message));
    return std::move(parsed).value();
}

} // namespace inflight::ui
