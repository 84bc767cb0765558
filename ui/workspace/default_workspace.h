#pragma once

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// Fills an empty session with the example workspace a first launch opens on, so there is
// something to see and do at once:
// - `orders` (standard, visibility 30 s) with its DLQ `orders-dlq` (maxReceiveCount 3): about
//   twenty JSON orders, some in flight with different countdowns, one received three times (its
//   next receive moves it to the DLQ) and two already moved to `orders-dlq`, plus delayed ones;
// - `payments.fifo` (content-based deduplication) with four groups, one blocked by its in-flight
//   head, and its DLQ `payments-dlq.fifo`;
// - `telemetry` (OCI profile) with channels `eu` and `us` and a delivery-count DLQ of 5.
// Every call carries the origin "workspace". Does nothing when the broker already has queues.
void loadDefaultWorkspace(session::Session& session);

} // namespace inflight::ui
