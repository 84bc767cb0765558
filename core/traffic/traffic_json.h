#pragma once

#include "traffic/client_registry.h"
#include "traffic/traffic_record.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace inflight::traffic {

// A record as JSON: the same object for a `--traffic-log` line and the control API's
// GET /_inflight/v1/traffic. Members: cursor, time (wall epoch ms), engineTime, client {key,
// accessKeyId, sdk, sdkVersion, host}, address, userAgent, protocol ("sqs-json", "sqs-query",
// "oci-rest"), method, path, operation, queue, status (0 while waiting or when the client hung
// up), errorCode, errorMessage, latencyUs, requestId, outcome, explanation (the reason behind the
// outcome, "" when none), staleReceipt, waiting; request and response
// {headers, body, bodySize, truncated}. Bodies that are not UTF-8 are base64 with "encoding":
// "base64".
nlohmann::json recordJson(const TrafficRecord& record);
// One client of ClientRegistry: key, accessKeyId, sdk, sdkVersion, host, address, firstSeen,
// lastSeen (wall epoch ms), requests, sends, receives, emptyReceives, deletes, errors,
// waitingPolls.
nlohmann::json clientJson(const ClientStats& client);

// The records as a HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/): log
// {version "1.2", creator {name, version}, entries [...]}, each entry with startedDateTime (ISO
// 8601, UTC), time (ms), request {method, url, httpVersion, cookies, headers, queryString,
// postData, headersSize, bodySize}, response {status, statusText, httpVersion, cookies, headers,
// content {size, mimeType, text}, redirectURL, headersSize, bodySize}, cache {} and timings
// {send, wait, receive}; Inflight's own fields (cursor, operation, queue, client, errorCode,
// outcome, staleReceipt, waiting) under "_inflight", and the explanation as "_explanation" (HAR
// allows custom fields whose names start with an underscore).
nlohmann::json harDocument(const std::vector<TrafficRecord>& records, const QString& version);

} // namespace inflight::traffic
