#include "control/simulation_routes.h"

#include "control/json_answer.h"
#include "session/session.h"
#include "sim/figures.h"

#include <QUrlQuery>

#include <nlohmann/json.hpp>

#include <regex>

namespace inflight::control {

namespace {

using OrderedJson = nlohmann::ordered_json;

protocol::HttpResponse wrongMethod(const protocol::HttpRequest& request, const char* allowed)
{
    protocol::HttpResponse response = protocol::controlError(
        405, "MethodNotAllowed",
        QStringLiteral("%1 is not allowed on %2; use %3.")
            .arg(QString::fromLatin1(request.method), QString::fromUtf8(request.path.left(200)),
                 QString::fromLatin1(allowed)));
    response.headers.append({QByteArrayLiteral("Allow"), QByteArray(allowed)});
    return response;
}

OrderedJson actorJson(const sim::ActorInfo& actor)
{
    OrderedJson figures = OrderedJson::object();
    for (const std::string_view name : sim::figureNames())
        figures[std::string(name)] = *sim::figure(actor.figures, name);
    figures["latencyMean"] = actor.figures.latencyMean();
    if (!actor.figures.lastError.empty())
        figures["lastError"] = actor.figures.lastError;
    return {{"id", actor.id},
            {"name", sim::actorName(actor.spec)},
            {"type", sim::actorKindName(actor.kind)},
            {"queue", sim::actorQueue(actor.spec)},
            {"state", sim::actorStateName(actor.state)},
            {"origin", actor.origin},
            {"spec", OrderedJson::parse(sim::actorSpecJson(actor.spec), nullptr, false)},
            {"figures", std::move(figures)}};
}

// 400 InvalidScenario with the position of "line L, column C, at PATH: what" beside the message.
protocol::HttpResponse scenarioError(const engine::Error& error)
{
    OrderedJson body = {{"code", "InvalidScenario"}, {"message", error.message}};
    static const std::regex kPosition(R"(^line (\d+), column (\d+), at (.*?): )");
    std::smatch match;
    if (std::regex_search(error.message, match, kPosition)) {
        body["line"] = std::stoi(match[1].str());
        body["column"] = std::stoi(match[2].str());
        body["path"] = error.parameter;
    }
    protocol::HttpResponse response = orderedJsonAnswer({{"error", std::move(body)}});
    response.status = 400;
    return response;
}

protocol::HttpResponse loadScenario(session::Session& session, const protocol::HttpRequest& request)
{
    const QUrlQuery query(QString::fromUtf8(request.query));
    const QString mode = query.queryItemValue(QStringLiteral("mode"));
    const QString clock = query.queryItemValue(QStringLiteral("clock"));
    if ((!mode.isEmpty() && mode != QStringLiteral("replace") && mode != QStringLiteral("add"))
        || (!clock.isEmpty() && clock != QStringLiteral("keep")
            && clock != QStringLiteral("apply")))
        return protocol::controlError(400, "BadRequest",
                                      QStringLiteral("mode must be replace or add, and clock "
                                                     "keep or apply."));
    const auto parsed = sim::parseScenario(
        std::string_view(request.body.constData(), static_cast<std::size_t>(request.body.size())));
    if (!parsed)
        return scenarioError(parsed.error());
    const auto applied = session.loadScenario(
        *parsed,
        session::Session::ScenarioLoad{.mode = mode == QStringLiteral("add")
                                           ? session::Session::ScenarioMode::Add
                                           : session::Session::ScenarioMode::Replace,
                                       .clock = clock == QStringLiteral("apply")});
    if (!applied)
        return scenarioError(applied.error());
    OrderedJson names = OrderedJson::array();
    for (const sim::ScenarioActor& actor : parsed->actors)
        names.push_back(sim::actorName(actor.spec));
    return orderedJsonAnswer({{"queuesCreated", applied->queues.queuesCreated},
                              {"queuesUpdated", applied->queues.queuesUpdated},
                              {"messagesSent", applied->queues.messagesSent},
                              {"actors", std::move(names)},
                              {"lessonSteps", parsed->lesson ? parsed->lesson->steps.size() : 0}});
}

// The actor `name` of the session's simulation; nullopt when there is none of that name.
std::optional<sim::ActorId> actorNamed(session::Session& session, const QString& name)
{
    const sim::Simulation* simulation = session.simulation();
    return simulation ? simulation->findActor(name.toStdString()) : std::nullopt;
}

protocol::HttpResponse refused(const engine::Error& error)
{
    return protocol::controlError(400, "InvalidParameterValue",
                                  QString::fromStdString(error.message));
}

protocol::HttpResponse actorNotFound(const QString& name)
{
    return protocol::controlError(
        404, "ActorNotFound",
        QStringLiteral("There is no actor %1 (GET /_inflight/v1/actors lists them).")
            .arg(name.left(100)));
}

} // namespace

std::optional<protocol::HttpResponse> simulationRoute(session::Session& session,
                                                      const QStringList& route,
                                                      const protocol::HttpRequest& request)
{
    if (route == QStringList{QStringLiteral("scenario")})
        return request.method == "POST" ? loadScenario(session, request)
                                        : wrongMethod(request, "POST");
    if (route.isEmpty() || route[0] != QStringLiteral("actors"))
        return std::nullopt;
    if (route.size() == 1) {
        if (request.method != "GET")
            return wrongMethod(request, "GET");
        OrderedJson actors = OrderedJson::array();
        if (const sim::Simulation* simulation = session.simulation())
            for (const sim::ActorInfo& actor : simulation->actors())
                actors.push_back(actorJson(actor));
        return orderedJsonAnswer({{"actors", std::move(actors)}});
    }
    if (route.size() == 2) {
        if (request.method != "DELETE")
            return wrongMethod(request, "DELETE");
        const auto id = actorNamed(session, route[1]);
        if (!id)
            return actorNotFound(route[1]);
        if (const engine::Status done = session.removeActor(*id); !done)
            return refused(done.error());
        return orderedJsonAnswer({{"removed", route[1].toStdString()}});
    }
    if (route.size() != 3)
        return std::nullopt;
    const QString& verb = route[2];
    using Call = engine::Status (session::Session::*)(sim::ActorId);
    Call call = nullptr;
    if (verb == QStringLiteral("start"))
        call = &session::Session::startActor;
    else if (verb == QStringLiteral("stop"))
        call = &session::Session::stopActor;
    else if (verb == QStringLiteral("pause"))
        call = &session::Session::pauseActor;
    else if (verb == QStringLiteral("resume"))
        call = &session::Session::resumeActor;
    else
        return std::nullopt;
    if (request.method != "POST")
        return wrongMethod(request, "POST");
    const auto id = actorNamed(session, route[1]);
    if (!id)
        return actorNotFound(route[1]);
    if (const engine::Status done = (session.*call)(*id); !done)
        return refused(done.error());
    return orderedJsonAnswer(actorJson(*session.simulation()->actor(*id)));
}

} // namespace inflight::control
