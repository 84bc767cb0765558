#include "ui/models/model_text.h"

#include <algorithm>

#include <QDateTime>

namespace inflight::ui {

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString shortId(std::string_view id)
{
    return toQString(id.substr(0, kShortIdLength));
}

QString shortId(const QString& id)
{
    return id.left(kShortIdLength);
}

QString formatEngineTime(engine::Millis time)
{
    return QDateTime::fromMSecsSinceEpoch(time).toString(QStringLiteral("HH:mm:ss.zzz"));
}

QString formatTimeLeft(engine::Millis duration)
{
    if (duration < 0)
        duration = 0;
    if (duration < 60 * engine::kSecond)
        return QStringLiteral("%1 s").arg(static_cast<double>(duration) / 1000.0, 0, 'f', 1);
    const engine::Millis seconds = duration / engine::kSecond;
    const QChar zero(u'0');
    if (seconds < 3600)
        return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, zero);
    return QStringLiteral("%1:%2:%3")
        .arg(seconds / 3600)
        .arg((seconds / 60) % 60, 2, 10, zero)
        .arg(seconds % 60, 2, 10, zero);
}

QString bodyPreview(std::string_view body)
{
    // A UTF-8 character is at most 4 bytes: decoding this much is enough for the preview, and a
    // line end further on changes nothing (the preview ends with "…" either way). Looked for by
    // hand: find_first_of calls memchr once per byte of the body.
    const std::size_t byteBound = static_cast<std::size_t>(kBodyPreviewLength + 1) * 4;
    const std::string_view head = body.substr(0, byteBound + 1);
    const auto end
        = std::find_if(head.begin(), head.end(), [](char c) { return c == '\r' || c == '\n'; });
    const std::size_t lineEnd
        = end == head.end() ? std::string_view::npos : static_cast<std::size_t>(end - head.begin());
    std::string_view line = body.substr(0, lineEnd);
    const bool longLine = line.size() > byteBound;
    QString text = toQString(line.substr(0, byteBound));
    if (text.size() > kBodyPreviewLength || longLine) {
        text.truncate(kBodyPreviewLength - 1);
        text.append(QChar(0x2026));
    } else if (lineEnd != std::string_view::npos && lineEnd + 1 < body.size()) {
        if (text.size() >= kBodyPreviewLength)
            text.truncate(kBodyPreviewLength - 1);
        text.append(QChar(0x2026));
    }
    return text;
}

QString queueKindLabel(engine::QueueKind kind)
{
    switch (kind) {
    case engine::QueueKind::Standard: return QStringLiteral("standard");
    case engine::QueueKind::Fifo: return QStringLiteral("FIFO");
    case engine::QueueKind::Oci: return QStringLiteral("OCI");
    }
    return {};
}

QString messageStateLabel(engine::MessageState state)
{
    switch (state) {
    case engine::MessageState::Available: return QStringLiteral("Available");
    case engine::MessageState::Delayed: return QStringLiteral("Delayed");
    case engine::MessageState::InFlight: return QStringLiteral("In flight");
    }
    return {};
}

QString eventKindLabel(engine::EventKind kind)
{
    return toQString(engine::eventKindName(kind));
}

QString StringPool::intern(const std::string& text)
{
    auto it = m_strings.find(text);
    if (it != m_strings.end())
        return it->second;
    if (m_strings.size() >= kMaxEntries)
        m_strings.clear();
    QString value = toQString(text);
    m_strings.emplace(text, value);
    return value;
}

} // namespace inflight::ui
