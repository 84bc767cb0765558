#pragma once

#include "app_result.h"

#include <QStringList>

namespace inflight::session {
class Session;
}

namespace inflight::app {

// OCI Queue REST has no call that creates a queue (that is OCI's control plane), so clients of
// the endpoint get theirs from the command line (--oci-queue, repeatable): "NAME" or
// "NAME:deadLetterQueueDeliveryCount=2,visibilityInSeconds=10". Creates each; the error is
// "--oci-queue SPEC: why" for the first one refused.
Status createOciQueues(session::Session& session, const QStringList& specs);

} // namespace inflight::app
