#include "oci_queue_option.h"

#include "session/session.h"

namespace inflight::app {

Status createOciQueues(session::Session& session, const QStringList& specs)
{
    for (const QString& spec : specs) {
        const qsizetype colon = spec.indexOf(QLatin1Char(':'));
        engine::CreateQueueRequest request;
        request.name = spec.left(colon).toStdString();
        request.oci = true;
        request.origin = "command line";
        if (colon >= 0) {
            for (const QString& pair :
                 spec.mid(colon + 1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                const qsizetype equals = pair.indexOf(QLatin1Char('='));
                request.attributes[pair.left(equals).toStdString()]
                    = equals < 0 ? std::string() : pair.mid(equals + 1).toStdString();
            }
        }
        const auto created = session.broker().createQueue(request);
        if (!created)
            return QStringLiteral("--oci-queue %1: %2")
                .arg(spec, QString::fromStdString(created.error().message));
    }
    return engine::Done{};
}

} // namespace inflight::app
