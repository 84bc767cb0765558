#pragma once

#include "traffic/traffic_record.h"

#include <QString>

namespace inflight::traffic {

// A logged request as a shell command that sends it again, for the traffic log's "Copy as".

// curl with the request's method, URL (from its Host header), headers and body. Host,
// Content-Length and the connection's own headers are left to curl; Authorization is kept (with
// --credentials on, its signature is of the original time and will be refused as stale). A body
// the log cut is marked by a comment line first.
QString curlCommand(const TrafficRecord& record);

// An SQS request (JSON or Query) as the AWS CLI command that makes it: `aws sqs send-message
// --endpoint-url http://HOST --region REGION --queue-url … --message-body …`, each input member as
// its option (lists as words, maps and structures as JSON). Empty for OCI and control requests,
// and for a body that does not decode or was cut.
QString awsCliCommand(const TrafficRecord& record);

// "SendMessageBatch" → "send-message-batch", "QueueOwnerAWSAccountId" →
// "queue-owner-aws-account-id": the AWS CLI's spelling of an operation or member name.
QString cliName(const QString& name);

// `text` in single quotes for a POSIX shell ("it's" → 'it'\''s').
QString shellQuote(const QString& text);

} // namespace inflight::traffic
