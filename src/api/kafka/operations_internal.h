// The handlers of the channel control plane and what they share.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "api/kafka/kafka_surface.h"
#include "catalog/arns.h"
#include "http/router.h"

namespace st::api::kafka {

using Ctx = http::RouteContext;
using Reply = Result<http::Response>;

std::string CallerAccount(const KafkaDeps& deps, const Ctx& context);
http::Response JsonResponse(const nlohmann::json& body, int status = 200);
// The error reply for `status` about the wire member or path label
// `parameter` (kafka_errors_internal.h ParameterError).
http::Response FailOn(const Ctx& context, const std::string& parameter, const Status& status);

// Channel operations (channel_operations.cc).
Reply CreateChannel(const KafkaDeps& deps, Ctx& context);
Reply DescribeChannel(const KafkaDeps& deps, Ctx& context);
Reply ListChannels(const KafkaDeps& deps, Ctx& context);
Reply UpdateChannel(const KafkaDeps& deps, Ctx& context);
Reply DeleteChannel(const KafkaDeps& deps, Ctx& context);
Reply PauseChannel(const KafkaDeps& deps, Ctx& context);
Reply ResumeChannel(const KafkaDeps& deps, Ctx& context);
// Tags and cluster operations (tag_operations.cc).
Reply TagResource(const KafkaDeps& deps, Ctx& context);
Reply UntagResource(const KafkaDeps& deps, Ctx& context);
Reply ListTagsForResource(const KafkaDeps& deps, Ctx& context);
Reply DescribeClusterOperationV2(const KafkaDeps& deps, Ctx& context);

}  // namespace st::api::kafka
