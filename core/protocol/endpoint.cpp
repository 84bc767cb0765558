#include "protocol/endpoint.h"

#include "protocol/oci_rest.h"
#include "protocol/request_explanation.h"
#include "protocol/sqs_actions.h"
#include "protocol/sqs_codec.h"

namespace inflight::protocol {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

} // namespace

Endpoint::Endpoint(engine::Broker& broker, EndpointOptions options)
    : m_broker(&broker), m_options(std::move(options))
{
    setBaseUrl(m_options.baseUrl);
}

void Endpoint::setBaseUrl(const QString& baseUrl)
{
    m_options.baseUrl = baseUrl;
    while (m_options.baseUrl.endsWith(QLatin1Char('/')))
        m_options.baseUrl.chop(1); // "http://host:9324/" must not give "…9324//000000000000/q"
}

Outcome Endpoint::handle(const HttpRequest& request, RequestSummary* summary)
{
    if (summary)
        summarizeRequest(request, *summary);
    if (const Admission admission = m_guard.check(request); !admission)
        return admission.error();
    Outcome outcome = route(request, summary);
    if (summary) {
        if (auto* response = std::get_if<HttpResponse>(&outcome);
            response && summary->protocol == WireProtocol::OciRest)
            summarizeOciResponse(*response, *summary);
        else if (auto* deferred = std::get_if<DeferredReceive>(&outcome))
            summarizeReceive(deferred->request, *summary);
    }
    if (m_guard.policy().allowedOrigins.isEmpty())
        return outcome; // nothing to add for a web page
    if (auto* response = std::get_if<HttpResponse>(&outcome)) {
        m_guard.decorate(request, *response);
    } else {
        auto& deferred = std::get<DeferredReceive>(outcome);
        HttpRequest headers; // all decorate() reads: the long poll's body need not stay
        headers.headers = request.headers;
        deferred.respond = [respond = std::move(deferred.respond), guard = m_guard,
                            headers](const engine::Result<engine::ReceiveResult>& result) {
            HttpResponse response = respond(result);
            guard.decorate(headers, response);
            return response;
        };
    }
    return outcome;
}

void Endpoint::summarizeWaitEnded(const engine::Result<engine::ReceiveResult>& result,
                                  RequestSummary& summary)
{
    summarizeReceived(result, summary);
    if (result && result->messages.empty() && summary.receive)
        explainEmptyReceive(*m_broker, *summary.receive, true, summary);
}

Outcome Endpoint::route(const HttpRequest& request, RequestSummary* summary)
{
    if (oci::isOciPath(request.path))
        return oci::handle(*m_broker, request, summary);

    const SqsProtocol protocol = detectSqsProtocol(request);
    const DecodedSqsRequest decoded = protocol == SqsProtocol::Json ? json::decodeRequest(request)
                                                                    : query::decodeRequest(request);
    if (!decoded)
        return SqsResponder(protocol, QString()).error(decoded.error());
    const SqsRequest& sqs = *decoded;
    if (summary)
        summarizeSqsRequest(request, sqs, *summary);
    const SqsResponder responder(protocol, sqs.action());

    const ActionHandler handler = findSqsAction(sqs.action());
    if (!handler) {
        if (protocol == SqsProtocol::Json)
            return responder.error(sqsWireError(
                ProtocolError::UnknownOperation,
                QStringLiteral("The requested operation %1 is not recognized by the service.")
                    .arg(sqs.action())));
        return responder.error(sqsWireError(
            ProtocolError::InvalidAction,
            QStringLiteral("The action %1 is not valid for this endpoint.").arg(sqs.action())));
    }

    SqsContext context{*m_broker, m_options.baseUrl, request, request.origin.toStdString(),
                       summary};
    ActionResult result = handler(context, sqs);
    return std::visit(Overloaded{
                          [&](const Output& output) -> Outcome {
                              if (summary)
                                  summarizeSqsOutput(output, *summary);
                              return responder.success(output);
                          },
                          [&](const engine::Error& error) -> Outcome {
                              if (summary)
                                  explainError(*m_broker, error, *summary);
                              return responder.error(error);
                          },
                          [&](WaitForMessages& wait) -> Outcome {
                              return DeferredReceive{
                                  std::move(wait.request),
                                  [responder](const engine::Result<engine::ReceiveResult>& result) {
                                      return result ? responder.success(*result)
                                                    : responder.error(result.error());
                                  }};
                          },
                          [&](const engine::ReceiveResult& received) -> Outcome {
                              if (summary)
                                  summarizeReceived(received, *summary);
                              return responder.success(received);
                          },
                          [&](const IdBatch& batch) -> Outcome {
                              if (summary)
                                  summarizeIdBatch(batch, *summary);
                              return responder.success(batch);
                          },
                          [&](const SendAnswer& sent) -> Outcome {
                              if (summary) {
                                  summary->succeeded = 1;
                                  summary->failed = 0;
                              }
                              return responder.success(sent);
                          },
                      },
                      result);
}

} // namespace inflight::protocol
