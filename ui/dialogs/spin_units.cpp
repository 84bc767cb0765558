#include "ui/dialogs/spin_units.h"

#include <QLocale>
#include <QSpinBox>
#include <QVariant>

#include <algorithm>

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

void setLimits(QSpinBox* box, int low, int high, const QString& what)
{
    box->setProperty("limitLow", low);
    box->setProperty("limitHigh", high);
    box->setProperty("limitWhat", what);
    const int value = box->value();
    box->setRange(std::min(low, 0), 999'999'999);
    box->setValue(value);
}

std::optional<LimitProblem> valueOutOfLimits(const QWidget* parent)
{
    for (QSpinBox* box : parent->findChildren<QSpinBox*>()) {
        const QVariant low = box->property("limitLow");
        if (!low.isValid() || !box->isVisibleTo(parent) || !box->isEnabled())
            continue;
        const int high = box->property("limitHigh").toInt();
        const int value = box->value();
        if (value >= low.toInt() && value <= high)
            continue;
        const QLocale locale;
        // The unit as the box shows it ("s", "bytes", "%"), with the limit in words.
        const QString suffix = box->suffix().section(QLatin1Char('('), 0, 0).trimmed();
        const auto shown = [&](int n) {
            QString text = locale.toString(n);
            if (!suffix.isEmpty())
                text += QLatin1Char(' ') + suffix;
            if (suffix == QStringLiteral("s") && n >= 60)
                text += QStringLiteral(" (%1)").arg(secondsInWords(n));
            else if (suffix == QStringLiteral("bytes") && n >= 1024)
                text += QStringLiteral(" (%1)").arg(bytesInWords(n));
            return text;
        };
        return LimitProblem{box,
                            QObject::tr("%1: %2 to %3; %4 is past that.")
                                .arg(box->property("limitWhat").toString(), shown(low.toInt()),
                                     shown(high), locale.toString(value))};
    }
    return std::nullopt;
}

} // namespace inflight::ui
