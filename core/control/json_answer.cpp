#include "control/json_answer.h"

#include <nlohmann/json.hpp>

namespace inflight::control {

namespace {

template <class Json>
protocol::HttpResponse answer(const Json& body, int status)
{
    protocol::HttpResponse response;
    response.status = status;
    response.contentType = QByteArrayLiteral("application/json");
    response.body
        = QByteArray::fromStdString(body.dump(-1, ' ', false, Json::error_handler_t::replace));
    return response;
}

} // namespace

protocol::HttpResponse jsonAnswer(const nlohmann::json& body, int status)
{
    return answer(body, status);
}

protocol::HttpResponse orderedJsonAnswer(const nlohmann::ordered_json& body, int status)
{
    return answer(body, status);
}

} // namespace inflight::control
