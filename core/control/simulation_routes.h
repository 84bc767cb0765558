#pragma once

#include "protocol/http_types.h"

#include <QStringList>

#include <optional>

namespace inflight::session {
class Session;
}

namespace inflight::control {

// The control API's simulated actors and scenarios (issue 13; README "Simulations and lessons"):
//
//   GET  actors                       {"actors": [...]}: every actor of the session's simulation
//                                     in the order added — id, name, type, queue, state, origin,
//                                     its spec as a scenario file writes it, and its figures (each
//                                     of sim/figures.h, latencyMean, lastError)
//   POST actors/{name}/start|stop|pause|resume      that actor (Session::startActor, …): the
//                                     actor's JSON after it
//   POST scenario[?mode=add][&clock=apply]          a scenario file's JSON (sim/scenario.h),
//                                     applied all or nothing (Session::loadScenario): its actors
//                                     replace the simulation's (mode=add: join them); the clock
//                                     stays as the test holds it unless clock=apply. Answers
//                                     {"queuesCreated", "queuesUpdated", "messagesSent",
//                                     "actors": [names], "lessonSteps"}; a bad file is 400
//                                     InvalidScenario with "line", "column" and "path" beside the
//                                     message ("line L, column C, at PATH: …") and changes nothing
//
// `route` is the path after /_inflight/v1/, split; nullopt when it is none of these.
std::optional<protocol::HttpResponse> simulationRoute(session::Session& session,
                                                      const QStringList& route,
                                                      const protocol::HttpRequest& request);

} // namespace inflight::control
