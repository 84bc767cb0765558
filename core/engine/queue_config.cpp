#include "engine/queue_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <system_error>

namespace inflight::engine {

namespace {

using Json = nlohmann::json;

// ---- limits (spec §1.3, §5.4, §6.2) ------------------------------------------------------------

struct Range {
    std::int64_t min;
    std::int64_t max;
};

constexpr std::string_view kFifoSuffix = ".fifo";

constexpr Range kVisibilityTimeoutRange{0, 43'200};
constexpr Range kDelaySecondsRange{0, 900};
constexpr Range kMessageRetentionPeriodRange{60, 1'209'600};
constexpr Range kMaximumMessageSizeRange{1'024, 1'048'576};
constexpr Range kReceiveMessageWaitTimeRange{0, 20};
constexpr Range kKmsDataKeyReusePeriodRange{60, 86'400};
constexpr Range kMaxReceiveCountRange{1, 1'000};
constexpr std::size_t kMaxSourceQueueArns = 10;
// The JSON documents inside attributes (Policy, RedrivePolicy, RedriveAllowPolicy). §1.3 gives
// 8,192 bytes for Policy; the redrive policies, far smaller in any real use, take the same. The
// deepest real document (a Policy's Statement → Condition → operator → key → values) nests 5
// levels; 32 bounds the recursion of anything that prints or walks a stored document.
constexpr std::size_t kMaxDocumentBytes = 8'192;
constexpr int kMaxDocumentDepth = 32;
// AWS applies 300 s when KmsDataKeyReusePeriodSeconds was never set; an explicit "300" therefore
// matches a queue that shows no value.
constexpr std::int64_t kDefaultKmsDataKeyReusePeriod = 300;

constexpr Range kOciRetentionRange{10, 604'800};
constexpr Range kOciVisibilityRange{1, 43'200};
constexpr Range kOciTimeoutRange{0, 30};
constexpr Range kOciDeliveryCountRange{0, 20};
constexpr Range kOciChannelConsumptionRange{1, 100};
constexpr Range kOciMaxMessageSizeRange{1'024, 1'048'576};
constexpr std::int64_t kOciDefaultTimeout = 30;

// ---- attribute names ---------------------------------------------------------------------------

constexpr std::string_view kVisibilityTimeout = "VisibilityTimeout";
constexpr std::string_view kDelaySeconds = "DelaySeconds";
constexpr std::string_view kMessageRetentionPeriod = "MessageRetentionPeriod";
constexpr std::string_view kMaximumMessageSize = "MaximumMessageSize";
constexpr std::string_view kReceiveMessageWaitTimeSeconds = "ReceiveMessageWaitTimeSeconds";
constexpr std::string_view kPolicy = "Policy";
constexpr std::string_view kRedrivePolicy = "RedrivePolicy";
constexpr std::string_view kRedriveAllowPolicy = "RedriveAllowPolicy";
constexpr std::string_view kKmsMasterKeyId = "KmsMasterKeyId";
constexpr std::string_view kKmsDataKeyReusePeriodSeconds = "KmsDataKeyReusePeriodSeconds";
constexpr std::string_view kSqsManagedSseEnabled = "SqsManagedSseEnabled";
constexpr std::string_view kFifoQueue = "FifoQueue";
constexpr std::string_view kContentBasedDeduplication = "ContentBasedDeduplication";
constexpr std::string_view kDeduplicationScope = "DeduplicationScope";
constexpr std::string_view kFifoThroughputLimit = "FifoThroughputLimit";

constexpr std::string_view kOciRetention = "retentionInSeconds";
constexpr std::string_view kOciVisibility = "visibilityInSeconds";
constexpr std::string_view kOciTimeout = "timeoutInSeconds";
constexpr std::string_view kOciDeliveryCount = "deadLetterQueueDeliveryCount";
constexpr std::string_view kOciChannelConsumptionLimit = "channelConsumptionLimit";
constexpr std::string_view kOciMaxMessageSize = "maxMessageSizeInBytes";

// ---- errors ------------------------------------------------------------------------------------

Error unknownAttribute(std::string_view name)
{
    return makeError(ErrorCode::InvalidAttributeName,
                     "Unknown Attribute " + std::string(name) + ".", std::string(name));
}

// AWS words FIFO-only attributes on a standard queue differently from plain unknown names (§3.1).
Error fifoOnlyAttribute(std::string_view name)
{
    return makeError(ErrorCode::InvalidAttributeName,
                     "You can specify the " + std::string(name)
                         + " only when FifoQueue is set to true.",
                     std::string(name));
}

Error invalidAttributeValue(std::string_view name, std::string_view reason = {})
{
    std::string message = "Invalid value for the parameter " + std::string(name) + ".";
    if (!reason.empty()) {
        message += " Reason: ";
        message += reason;
    }
    return makeError(ErrorCode::InvalidAttributeValue, std::move(message), std::string(name));
}

Error invalidPolicyParameter(std::string_view parameter, const std::string& value,
                             std::string_view reason)
{
    return makeError(ErrorCode::InvalidParameterValue,
                     "Value " + excerpt(value) + " for parameter " + std::string(parameter)
                         + " is invalid. Reason: " + std::string(reason),
                     std::string(parameter));
}

// ---- value parsing -----------------------------------------------------------------------------

// Whole-string decimal integer: no sign other than '-', no blanks, no fraction ("1.5", " 5" and ""
// are malformed, "030" is 30).
std::optional<std::int64_t> parseInteger(std::string_view text)
{
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x))
            == std::tolower(static_cast<unsigned char>(y));
    });
}

bool isTrue(std::string_view value)
{
    return equalsIgnoringCase(value, "true");
}

Status setRanged(std::int64_t& field, std::string_view name, std::string_view value, Range range)
{
    const auto parsed = parseInteger(value);
    if (!parsed || *parsed < range.min || *parsed > range.max)
        return invalidAttributeValue(name);
    field = *parsed;
    return Done{};
}

Status setBoolean(bool& field, std::string_view name, std::string_view value)
{
    if (isTrue(value)) {
        field = true;
    } else if (equalsIgnoringCase(value, "false")) {
        field = false;
    } else {
        return invalidAttributeValue(name);
    }
    return Done{};
}

// The parser reports malformed input as a discarded value instead of throwing; the engine never
// throws for bad input.
Json parseJson(std::string_view text)
{
    return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// An attribute's JSON document, parsed: InvalidAttributeValue when it is over kMaxDocumentBytes
// or nests deeper than kMaxDocumentDepth; a discarded value when it is not JSON at all (each
// document words that error its own way). The parser itself is iterative; its callback sees the
// depth of every array and object as it opens, so a deep document is refused before it is built.
Result<Json> parseDocument(std::string_view name, std::string_view text)
{
    if (text.size() > kMaxDocumentBytes)
        return invalidAttributeValue(
            name, "The document is longer than " + std::to_string(kMaxDocumentBytes) + " bytes.");
    bool tooDeep = false;
    const auto limitDepth = [&](int depth, Json::parse_event_t event, const Json&) {
        const bool opens = event == Json::parse_event_t::object_start
            || event == Json::parse_event_t::array_start;
        if (opens && depth >= kMaxDocumentDepth)
            tooDeep = true;
        return !tooDeep; // keep nothing more once too deep
    };
    Json json = Json::parse(text, limitDepth, /*allow_exceptions=*/false);
    if (tooDeep)
        return invalidAttributeValue(name,
                                     "The document nests more than "
                                         + std::to_string(kMaxDocumentDepth) + " levels deep.");
    return json;
}

std::string dumpJson(const Json& json)
{
    return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// How a value from inside a policy is quoted back in an error: strings bare, the rest as JSON
// (a document within kMaxDocumentDepth, so printing it recurses that far at most).
std::string quoted(const Json& value)
{
    return excerpt(value.is_string() ? value.get<std::string>() : dumpJson(value));
}

// maxReceiveCount arrives as a JSON integer or as a string holding one (§5.4).
std::optional<std::int64_t> maxReceiveCountOf(const Json& value)
{
    if (value.is_number_unsigned()) {
        const auto count = value.get<std::uint64_t>();
        if (count > static_cast<std::uint64_t>(kMaxReceiveCountRange.max))
            return std::nullopt;
        return static_cast<std::int64_t>(count);
    }
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    if (value.is_string())
        return parseInteger(value.get<std::string>());
    return std::nullopt;
}

// ---- policies ----------------------------------------------------------------------------------

Status setRedrivePolicy(QueueConfig& config, const std::string& value)
{
    if (value.empty()) {
        config.redrivePolicy.reset();
        config.redrivePolicyJson.clear();
        return Done{};
    }
    const auto fail = [&](std::string_view reason) {
        return invalidPolicyParameter(kRedrivePolicy, value, reason);
    };

    const auto document = parseDocument(kRedrivePolicy, value);
    if (!document)
        return document.error();
    const Json& json = *document;
    if (!json.is_object())
        return fail("Redrive policy is not a valid JSON map.");
    // AWS names maxReceiveCount first when both are missing (observed for "{}").
    if (!json.contains("maxReceiveCount"))
        return fail("Redrive policy does not contain mandatory attribute: maxReceiveCount.");
    if (!json.contains("deadLetterTargetArn"))
        return fail("Redrive policy does not contain mandatory attribute: deadLetterTargetArn.");
    if (json.size() != 2)
        return fail(
            "Only following attributes are supported: [deadLetterTargetArn, maxReceiveCount].");

    const Json& countJson = json.at("maxReceiveCount");
    const auto count = maxReceiveCountOf(countJson);
    if (!count || *count < kMaxReceiveCountRange.min || *count > kMaxReceiveCountRange.max) {
        return fail("Invalid value for maxReceiveCount: " + quoted(countJson)
                    + ", valid values are from 1 to 1000 both inclusive.");
    }

    const Json& arnJson = json.at("deadLetterTargetArn");
    if (!arnJson.is_string() || !queueNameFromArn(arnJson.get<std::string>())) {
        return fail("Invalid value for deadLetterTargetArn: " + quoted(arnJson)
                    + ", expected the ARN of an SQS queue.");
    }

    RedrivePolicy policy{arnJson.get<std::string>(), *count};
    // GetQueueAttributes shows maxReceiveCount as a number whatever form it arrived in.
    Json canonical = Json::object();
    canonical["deadLetterTargetArn"] = policy.deadLetterTargetArn;
    canonical["maxReceiveCount"] = policy.maxReceiveCount;
    config.redrivePolicyJson = dumpJson(canonical);
    config.redrivePolicy = std::move(policy);
    return Done{};
}

Status setRedriveAllowPolicy(QueueConfig& config, const std::string& value)
{
    if (value.empty()) {
        config.redriveAllowPolicy.reset();
        config.redriveAllowPolicyJson.clear();
        return Done{};
    }
    const auto fail = [&](std::string_view reason) {
        return invalidPolicyParameter(kRedriveAllowPolicy, value, reason);
    };
    const auto unsupported = [&] {
        return fail(
            "Amazon SQS can't create the redrive allow policy, as it’s in an unsupported format.");
    };

    const auto document = parseDocument(kRedriveAllowPolicy, value);
    if (!document)
        return document.error();
    const Json& json = *document;
    if (!json.is_object())
        return unsupported();
    for (const auto& [key, ignored] : json.items()) {
        if (key != "redrivePermission" && key != "sourceQueueArns")
            return unsupported();
    }

    RedriveAllowPolicy policy;
    const auto permission = json.find("redrivePermission");
    if (permission == json.end() || !permission->is_string())
        return unsupported();
    const auto& permissionName = permission->get_ref<const std::string&>();
    if (permissionName == "allowAll") {
        policy.permission = RedriveAllowPolicy::Permission::AllowAll;
    } else if (permissionName == "denyAll") {
        policy.permission = RedriveAllowPolicy::Permission::DenyAll;
    } else if (permissionName == "byQueue") {
        policy.permission = RedriveAllowPolicy::Permission::ByQueue;
    } else {
        return unsupported();
    }

    const bool byQueue = policy.permission == RedriveAllowPolicy::Permission::ByQueue;
    const auto arns = json.find("sourceQueueArns");
    if (arns != json.end()) {
        if (!arns->is_array())
            return unsupported();
        for (const Json& arn : *arns) {
            if (!arn.is_string())
                return unsupported();
            policy.sourceQueueArns.push_back(arn.get<std::string>());
        }
        if (!byQueue) {
            return fail(
                "Amazon SQS can't create the redrive allow policy. To specify one or more source "
                "queue ARNs, you must set redrivePermission to byQueue.");
        }
        if (policy.sourceQueueArns.size() > kMaxSourceQueueArns) {
            return fail(
                "Amazon SQS can't create the redrive allow policy. The maximum number of source "
                "queue ARNs you can specify is 10.");
        }
    }
    if (byQueue && policy.sourceQueueArns.empty()) {
        return fail(
            "Amazon SQS can't create the redrive allow policy. When you specify the byQueue "
            "permission type, you must also specify one or more sourceQueueArns values.");
    }

    Json canonical = Json::object();
    canonical["redrivePermission"] = permissionName;
    if (byQueue)
        canonical["sourceQueueArns"] = policy.sourceQueueArns;
    config.redriveAllowPolicyJson = dumpJson(canonical);
    config.redriveAllowPolicy = std::move(policy);
    return Done{};
}

Status setPolicy(QueueConfig& config, const std::string& value)
{
    if (!value.empty()) {
        const auto document = parseDocument(kPolicy, value);
        if (!document)
            return document.error();
        if (!document->is_object())
            return invalidAttributeValue(kPolicy);
    }
    config.policy = value;
    return Done{};
}

// ---- applying one attribute --------------------------------------------------------------------

Status applySqsAttribute(QueueConfig& config, std::string_view name, const std::string& value)
{
    const bool fifo = config.kind == QueueKind::Fifo;

    if (name == kVisibilityTimeout)
        return setRanged(config.visibilityTimeout, name, value, kVisibilityTimeoutRange);
    if (name == kDelaySeconds)
        return setRanged(config.delaySeconds, name, value, kDelaySecondsRange);
    if (name == kMessageRetentionPeriod)
        return setRanged(config.messageRetentionPeriod, name, value, kMessageRetentionPeriodRange);
    if (name == kMaximumMessageSize)
        return setRanged(config.maximumMessageSize, name, value, kMaximumMessageSizeRange);
    if (name == kReceiveMessageWaitTimeSeconds)
        return setRanged(config.receiveMessageWaitTimeSeconds, name, value,
                         kReceiveMessageWaitTimeRange);
    if (name == kPolicy)
        return setPolicy(config, value);
    if (name == kRedrivePolicy)
        return setRedrivePolicy(config, value);
    if (name == kRedriveAllowPolicy)
        return setRedriveAllowPolicy(config, value);
    if (name == kKmsMasterKeyId) {
        config.kmsMasterKeyId = value;
        // A KMS key replaces SQS-managed encryption: only one kind of SSE is active at a time.
        if (!value.empty())
            config.sqsManagedSseEnabled = false;
        return Done{};
    }
    if (name == kKmsDataKeyReusePeriodSeconds) {
        std::int64_t seconds = 0;
        if (auto status = setRanged(seconds, name, value, kKmsDataKeyReusePeriodRange); !status)
            return status;
        config.kmsDataKeyReusePeriodSeconds = seconds;
        return Done{};
    }
    if (name == kSqsManagedSseEnabled) {
        if (auto status = setBoolean(config.sqsManagedSseEnabled, name, value); !status)
            return status;
        if (config.sqsManagedSseEnabled)
            config.kmsMasterKeyId.clear();
        return Done{};
    }
    if (name == kFifoQueue) {
        if (!fifo)
            return unknownAttribute(name);
        if (!isTrue(value))
            return invalidAttributeValue(name, "Modifying queue type is not supported.");
        return Done{};
    }
    if (name == kContentBasedDeduplication) {
        if (!fifo)
            return unknownAttribute(name);
        return setBoolean(config.contentBasedDeduplication, name, value);
    }
    if (name == kDeduplicationScope) {
        if (!fifo)
            return fifoOnlyAttribute(name);
        if (value == "queue") {
            config.deduplicationScope = DeduplicationScope::Queue;
        } else if (value == "messageGroup") {
            config.deduplicationScope = DeduplicationScope::MessageGroup;
        } else {
            return invalidAttributeValue(name);
        }
        return Done{};
    }
    if (name == kFifoThroughputLimit) {
        if (!fifo)
            return fifoOnlyAttribute(name);
        if (value == "perQueue") {
            config.fifoThroughputLimit = FifoThroughputLimit::PerQueue;
        } else if (value == "perMessageGroupId") {
            config.fifoThroughputLimit = FifoThroughputLimit::PerMessageGroupId;
        } else {
            return invalidAttributeValue(name);
        }
        return Done{};
    }
    // Everything else, including the read-only names GetQueueAttributes shows (QueueArn,
    // Approximate*, CreatedTimestamp, LastModifiedTimestamp), cannot be given.
    return unknownAttribute(name);
}

Status applyOciAttribute(QueueConfig& config, std::string_view name, const std::string& value,
                         bool creating)
{
    if (name == kOciVisibility)
        return setRanged(config.visibilityTimeout, name, value, kOciVisibilityRange);
    if (name == kOciTimeout)
        return setRanged(config.receiveMessageWaitTimeSeconds, name, value, kOciTimeoutRange);
    if (name == kOciDeliveryCount)
        return setRanged(config.deadLetterQueueDeliveryCount, name, value, kOciDeliveryCountRange);
    if (name == kOciChannelConsumptionLimit)
        return setRanged(config.channelConsumptionLimit, name, value, kOciChannelConsumptionRange);
    if (name == kOciMaxMessageSize)
        return setRanged(config.maximumMessageSize, name, value, kOciMaxMessageSizeRange);
    if (name == kOciRetention) {
        // UpdateQueueDetails has no retention field: it is fixed when the queue is created.
        if (!creating) {
            return makeError(
                ErrorCode::InvalidAttributeName,
                "The attribute retentionInSeconds can only be set when the queue is created.",
                std::string(name));
        }
        return setRanged(config.messageRetentionPeriod, name, value, kOciRetentionRange);
    }
    return unknownAttribute(name);
}

Status applyAttribute(QueueConfig& config, std::string_view name, const std::string& value,
                      bool creating)
{
    if (config.kind == QueueKind::Oci)
        return applyOciAttribute(config, name, value, creating);
    return applySqsAttribute(config, name, value);
}

// ---- rules across attributes -------------------------------------------------------------------

// Only the request itself can conflict: a KMS key given alone switches SQS-managed SSE off.
Status checkEncryptionRequest(const StringMap& attributes)
{
    const auto key = attributes.find(std::string(kKmsMasterKeyId));
    const auto sqsManaged = attributes.find(std::string(kSqsManagedSseEnabled));
    if (key != attributes.end() && !key->second.empty() && sqsManaged != attributes.end()
        && isTrue(sqsManaged->second)) {
        return makeError(
            ErrorCode::InvalidAttributeName,
            "You can use one type of server-side encryption (SSE) at one time. You can "
            "either enable KMS SSE or SQS SSE.",
            std::string(kKmsMasterKeyId));
    }
    return Done{};
}

Status checkThroughput(const QueueConfig& config)
{
    if (config.kind == QueueKind::Fifo
        && config.fifoThroughputLimit == FifoThroughputLimit::PerMessageGroupId
        && config.deduplicationScope != DeduplicationScope::MessageGroup) {
        return invalidAttributeValue(kFifoThroughputLimit,
                                     "The perMessageGroupId value is allowed only when "
                                     "the value for DeduplicationScope is messageGroup.");
    }
    return Done{};
}

Result<QueueConfig> applyAll(QueueConfig config, const StringMap& attributes, bool creating)
{
    for (const auto& [name, value] : attributes) {
        if (auto status = applyAttribute(config, name, value, creating); !status)
            return status.error();
    }
    if (config.kind != QueueKind::Oci) {
        if (auto status = checkEncryptionRequest(attributes); !status)
            return status.error();
        if (auto status = checkThroughput(config); !status)
            return status.error();
    }
    return config;
}

// formatAttributes, but with the values that compare equal made textually equal: the policy
// document without its layout, and the reuse period AWS applies when none was set.
StringMap comparableAttributes(const QueueConfig& config)
{
    StringMap attributes = formatAttributes(config);
    if (config.kind == QueueKind::Oci)
        return attributes;
    if (!config.policy.empty())
        attributes[std::string(kPolicy)] = dumpJson(parseJson(config.policy));
    attributes[std::string(kKmsDataKeyReusePeriodSeconds)] = std::to_string(
        config.kmsDataKeyReusePeriodSeconds.value_or(kDefaultKmsDataKeyReusePeriod));
    return attributes;
}

bool isQueueNameCharacter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
        || c == '_';
}

bool isQueueNameBody(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), isQueueNameCharacter);
}

std::string_view boolText(bool value)
{
    return value ? "true" : "false";
}

} // namespace

Status validateQueueName(std::string_view name, QueueKind kind)
{
    if (kind == QueueKind::Fifo) {
        const bool valid = name.size() <= kMaxQueueNameLength && name.ends_with(kFifoSuffix)
            && isQueueNameBody(name.substr(0, name.size() - kFifoSuffix.size()));
        if (!valid) {
            return makeError(
                ErrorCode::InvalidParameterValue,
                "The name of a FIFO queue can only include alphanumeric characters, hyphens, or "
                "underscores, must end with .fifo suffix and be 1 to 80 in length",
                "QueueName");
        }
        return Done{};
    }
    // A standard (or OCI) name ending in ".fifo" fails here too: '.' is not a name character.
    if (name.size() > kMaxQueueNameLength || !isQueueNameBody(name)) {
        return makeError(
            ErrorCode::InvalidParameterValue,
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
            "QueueName");
    }
    return Done{};
}

Result<QueueConfig> configForCreate(const StringMap& attributes, bool oci,
                                    const BrokerOptions& options)
{
    QueueConfig config;
    if (oci) {
        config.kind = QueueKind::Oci;
        config.messageRetentionPeriod = options.ociDefaultRetentionSeconds;
        config.maximumMessageSize = options.ociMaxMessageSize;
        config.receiveMessageWaitTimeSeconds = kOciDefaultTimeout;
        return applyAll(std::move(config), attributes, /*creating=*/true);
    }

    // The type is chosen once, here; FifoQueue is then validated like any attribute, which makes
    // "true" a no-op on the FIFO queue and anything else an unknown name on a standard one.
    const auto fifoQueue = attributes.find(std::string(kFifoQueue));
    if (fifoQueue != attributes.end() && isTrue(fifoQueue->second))
        config.kind = QueueKind::Fifo;
    return applyAll(std::move(config), attributes, /*creating=*/true);
}

Result<QueueConfig> applyAttributes(const QueueConfig& current, const StringMap& attributes)
{
    return applyAll(current, attributes, /*creating=*/false);
}

StringMap formatAttributes(const QueueConfig& config)
{
    StringMap attributes;
    const auto put = [&](std::string_view name, std::string value) {
        attributes.emplace(std::string(name), std::move(value));
    };

    if (config.kind == QueueKind::Oci) {
        put(kOciRetention, std::to_string(config.messageRetentionPeriod));
        put(kOciVisibility, std::to_string(config.visibilityTimeout));
        put(kOciTimeout, std::to_string(config.receiveMessageWaitTimeSeconds));
        put(kOciDeliveryCount, std::to_string(config.deadLetterQueueDeliveryCount));
        put(kOciChannelConsumptionLimit, std::to_string(config.channelConsumptionLimit));
        put(kOciMaxMessageSize, std::to_string(config.maximumMessageSize));
        return attributes;
    }

    put(kDelaySeconds, std::to_string(config.delaySeconds));
    put(kMaximumMessageSize, std::to_string(config.maximumMessageSize));
    put(kMessageRetentionPeriod, std::to_string(config.messageRetentionPeriod));
    put(kReceiveMessageWaitTimeSeconds, std::to_string(config.receiveMessageWaitTimeSeconds));
    put(kSqsManagedSseEnabled, std::string(boolText(config.sqsManagedSseEnabled)));
    put(kVisibilityTimeout, std::to_string(config.visibilityTimeout));

    if (config.kind == QueueKind::Fifo) {
        put(kFifoQueue, "true");
        put(kContentBasedDeduplication, std::string(boolText(config.contentBasedDeduplication)));
        put(kDeduplicationScope,
            config.deduplicationScope == DeduplicationScope::MessageGroup ? "messageGroup"
                                                                          : "queue");
        put(kFifoThroughputLimit,
            config.fifoThroughputLimit == FifoThroughputLimit::PerMessageGroupId
                ? "perMessageGroupId"
                : "perQueue");
    }

    if (!config.policy.empty())
        put(kPolicy, config.policy);
    if (config.redrivePolicy)
        put(kRedrivePolicy, config.redrivePolicyJson);
    if (config.redriveAllowPolicy)
        put(kRedriveAllowPolicy, config.redriveAllowPolicyJson);
    if (!config.kmsMasterKeyId.empty())
        put(kKmsMasterKeyId, config.kmsMasterKeyId);
    if (config.kmsDataKeyReusePeriodSeconds)
        put(kKmsDataKeyReusePeriodSeconds, std::to_string(*config.kmsDataKeyReusePeriodSeconds));
    return attributes;
}

std::optional<std::string> firstDifferingAttribute(const QueueConfig& current,
                                                   const StringMap& attributes)
{
    // Each value is normalised the way CreateQueue would store it, so equal meanings compare equal
    // whatever their spelling; a value that would not even be accepted differs by definition.
    const StringMap before = comparableAttributes(current);
    for (const auto& [name, value] : attributes) {
        QueueConfig candidate = current;
        if (!applyAttribute(candidate, name, value, /*creating=*/true)
            || comparableAttributes(candidate) != before)
            return name;
    }
    return std::nullopt;
}

std::optional<std::string> queueNameFromArn(std::string_view arn)
{
    // arn:<partition>:sqs:<region>:<account-id>:<queue-name>, every part non-empty.
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t colon = arn.find(':', start);
        parts.push_back(arn.substr(
            start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos)
            break;
        start = colon + 1;
    }
    if (parts.size() != 6 || parts[0] != "arn" || parts[2] != "sqs")
        return std::nullopt;
    if (std::any_of(parts.begin(), parts.end(), [](std::string_view part) { return part.empty(); }))
        return std::nullopt;
    return std::string(parts[5]);
}

} // namespace inflight::engine
