#pragma once

#include "engine/error.h"
#include "engine/types.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::protocol {

// One SQS request, whichever protocol carried it: the action name and its input members keyed by
// the AWS JSON member names (`QueueUrl`, `Attributes`, `Entries`, `tags`, …). The JSON codec
// takes the body as it is; the Query codec folds its flattened parameters into the same tree
// (§2.3), with scalars left as strings. The accessors accept both spellings of a scalar (JSON
// number or string), so the actions read one model.
class SqsRequest {
public:
    SqsRequest() = default;
    SqsRequest(QString action, QJsonObject members);

    const QString& action() const { return m_action; }
    const QJsonObject& members() const { return m_members; }
    bool has(const QString& key) const;

    // A scalar as text (a JSON number or boolean in its JSON spelling); nullopt when absent or
    // null, or when the member is an object or array.
    std::optional<std::string> string(const QString& key) const;
    // An integer given as a JSON number or a decimal string; nullopt when absent.
    // InvalidParameterValue "Value <v> for parameter <P> is invalid. Reason: Must be an integer."
    engine::Result<std::optional<std::int64_t>> integer(const QString& key) const;
    // A list of scalars; empty when absent.
    std::vector<std::string> stringList(const QString& key) const;
    // A map of scalars (Attributes, tags); empty when absent.
    engine::StringMap stringMap(const QString& key) const;
    // A map of MessageAttributeValue objects (DataType, StringValue, BinaryValue in base64).
    // InvalidParameterValue when a BinaryValue is not base64.
    engine::Result<engine::MessageAttributes> messageAttributes(const QString& key) const;
    // A list of objects (batch Entries), each as a request of its own (same action).
    std::vector<SqsRequest> entries(const QString& key) const;

    // The error for a parameter the action requires and the request lacks.
    static engine::Error missing(const QString& parameter);

private:
    QString m_action;
    QJsonObject m_members;
};

} // namespace inflight::protocol
