#pragma once

#include "engine/clock.h"
#include "engine/events.h"
#include "engine/types.h"

#include <QString>

#include <string>
#include <string_view>
#include <unordered_map>

// Text helpers shared by the item models: how engine values read in the window.
namespace inflight::ui {

inline constexpr int kShortIdLength = 8;
inline constexpr int kBodyPreviewLength = 80;

QString toQString(std::string_view text);
// The first kShortIdLength characters of a message id or receipt ("8f0c1a9e").
QString shortId(std::string_view id);
QString shortId(const QString& id);
// Engine time as local wall-clock time, "hh:mm:ss.zzz".
QString formatEngineTime(engine::Millis time);
// A duration that counts down: "12.3 s" under a minute, "4:05" under an hour, "11:59:58" above.
// Negative durations read as 0.
QString formatTimeLeft(engine::Millis duration);
// The first line of a body, at most kBodyPreviewLength characters ("…" marks a cut).
QString bodyPreview(std::string_view body);
// "standard", "FIFO", "OCI".
QString queueKindLabel(engine::QueueKind kind);
// "Available", "Delayed", "In flight".
QString messageStateLabel(engine::MessageState state);
// eventKindName() as a QString ("received", "moved to DLQ").
QString eventKindLabel(engine::EventKind kind);

// Queue names and origins repeat in every event: one shared QString per distinct text keeps
// event-sized records small. Forgets everything past a bound (client ports make origins unbounded);
// strings already handed out stay valid through implicit sharing.
class StringPool {
public:
    QString intern(const std::string& text);

private:
    static constexpr std::size_t kMaxEntries = 4096;
    std::unordered_map<std::string, QString> m_strings;
};

} // namespace inflight::ui
