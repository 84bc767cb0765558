#include "ui/dialogs/spin_units.h"

#include <QSpinBox>

namespace inflight::ui {

namespace {

QString secondsInWords(int seconds)
{
    const auto part = [](int value, const char* unit) {
        return QStringLiteral("%1 %2").arg(value).arg(QString::fromLatin1(unit));
    };
    if (seconds % 86400 == 0)
        return seconds == 86400 ? QStringLiteral("1 day") : part(seconds / 86400, "days");
    if (seconds >= 3600) {
        const int minutes = (seconds % 3600) / 60;
        return minutes == 0 ? part(seconds / 3600, "h")
                            : part(seconds / 3600, "h") + QLatin1Char(' ') + part(minutes, "min");
    }
    const int rest = seconds % 60;
    return rest == 0 ? part(seconds / 60, "min")
                     : part(seconds / 60, "min") + QLatin1Char(' ') + part(rest, "s");
}

QString bytesInWords(int bytes)
{
    if (bytes % (1024 * 1024) == 0)
        return QStringLiteral("%1 MiB").arg(bytes / (1024 * 1024));
    if (bytes % 1024 == 0)
        return QStringLiteral("%1 KiB").arg(bytes / 1024);
    return QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
}

void followSuffix(QSpinBox* box, QString (*words)(int), int from, const QString& unit)
{
    const auto update = [box, words, from, unit](int value) {
        box->setSuffix(value >= from ? QStringLiteral(" %1 (%2)").arg(unit, words(value))
                                     : QStringLiteral(" %1").arg(unit));
    };
    QObject::connect(box, &QSpinBox::valueChanged, box, update);
    update(box->value());
}

} // namespace

void showSecondsInWords(QSpinBox* box)
{
    followSuffix(box, &secondsInWords, 60, QStringLiteral("s"));
}

void showBytesInWords(QSpinBox* box)
{
    followSuffix(box, &bytesInWords, 1024, QStringLiteral("bytes"));
}

} // namespace inflight::ui
