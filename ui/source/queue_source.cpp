#include "ui/source/queue_source.h"

#include <algorithm>

namespace inflight::ui {

QString QueueSource::missing(Feature feature) const
{
    switch (feature) {
    case Feature::PeekEveryMessage:
        return tr("%1 cannot show messages without receiving them: a receive here is a real one "
                  "(it counts toward maxReceiveCount). Messages the window receives are listed "
                  "with their countdowns.")
            .arg(title());
    case Feature::EngineTime:
        return tr("%1 runs on the wall clock: time cannot be paused, sped up or stepped.")
            .arg(title());
    case Feature::Events:
        return tr("%1 does not report every change: counts are polled and approximate.")
            .arg(title());
    case Feature::LocalEngine:
        return tr("Only the local workspace has this (groups, charts, the event log, the "
                  "simulation and lessons): %1 is not local.")
            .arg(title());
    }
    return {};
}

std::optional<engine::QueueView> QueueSource::queue(const QString& name) const
{
    const std::string wanted = name.toStdString();
    for (engine::QueueView& view : queues())
        if (view.name == wanted)
            return std::move(view);
    return std::nullopt;
}

std::optional<engine::QueueStats> QueueSource::stats(const QString& name) const
{
    if (auto view = queue(name))
        return view->stats;
    return std::nullopt;
}

} // namespace inflight::ui
