// The service commands of `streamtables`: thin clients of a running server's
// HTTP APIs (S3 Tables control plane, the MSK channel API and the /admin API), signed
// with SigV4 using the admin key file by default (service_client.h).
//
//   bucket create|list|get|delete          namespace create|list|delete
//   table list|get|delete|metadata-location
//   policy put|get|delete --bucket B [--namespace N --table T] [--file F]
//   account create|get|list   user create|list|delete|attach-policy|detach-policy
//   role create|list|delete|attach-policy   key create|list|delete --user U | --role R
//   cluster register|list|get|delete
//   channel create|describe|list|update|pause|resume|delete --cluster NAME | --cluster-arn A
//
// Every command takes --data-dir, --endpoint, --profile, --region and --json.
// Exit codes: 0 success, 1 the server or transport refused (message on
// stderr), 2 bad usage (CLI11).
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>

namespace CLI {
class App;
}

namespace st::cli {

struct ServiceCommands;

// Registers the command groups on `app`; the returned state receives the
// parsed values and must live until RunServiceCommand.
std::shared_ptr<ServiceCommands> AddServiceCommands(CLI::App& app);

// Runs the command the parse selected; nullopt when it selected none of these.
std::optional<int> RunServiceCommand(const ServiceCommands& commands, std::ostream& out,
                                     std::ostream& err);

}  // namespace st::cli
