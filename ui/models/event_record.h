#pragma once

#include "engine/events.h"
#include "ui/models/model_text.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace inflight::ui {

// What the window keeps of one engine event (event log rows, message history): compact, with the
// repeated strings shared.
struct EventRecord {
    std::uint64_t sequence = 0; // the broker's number of the event (engine::Event::sequence)
    engine::Millis time = 0;
    engine::Millis deadline = 0;
    std::int64_t count = 0;
    QString queue;  // shared through a StringPool
    QString origin; // shared through a StringPool
    QString messageId;
    QByteArray receipt; // receipt handles are ASCII
    QString detail;
    std::uint32_t receiveCount = 0;
    engine::EventKind kind = engine::EventKind::MessageSent;
};

EventRecord makeEventRecord(const engine::Event& event, StringPool& strings);
// What the event says beyond its kind: "receive #3, visible at 12:00:30.000", "→ orders-dlq after
// 3 receives", "12 messages removed", ...
QString describeEvent(const EventRecord& record);
// The origin, or "—" when unknown.
QString originText(const EventRecord& record);

} // namespace inflight::ui
