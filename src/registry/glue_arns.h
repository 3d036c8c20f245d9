// ARNs and names of Glue Schema Registry resources (docs/msk-channel-api-notes.md §14).
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace st::registry {

// arn:aws:glue:<region>:<account>:registry/<registry>
std::string RegistryArn(std::string_view region, std::string_view account_id,
                        std::string_view registry_name);
// arn:aws:glue:<region>:<account>:schema/<registry>/<schema>
std::string SchemaArn(std::string_view region, std::string_view account_id,
                      std::string_view registry_name, std::string_view schema_name);

struct GlueArnParts {
  std::string region;
  std::string account_id;
  std::string registry_name;
  std::string schema_name;  // Empty for a registry ARN.
};
// Accepts arn:<partition>:glue:<region>:<account>:registry/<name>.
// Errors: InvalidArgument naming the ARN and the expected form.
Result<GlueArnParts> ParseRegistryArn(std::string_view arn);
// Accepts arn:<partition>:glue:<region>:<account>:schema/<registry>/<schema>.
Result<GlueArnParts> ParseSchemaArn(std::string_view arn);

// Registry and schema names: [a-zA-Z0-9-_$#.]{1,255}. Errors: InvalidArgument
// naming `what` ("registry name", "schema name") and the rule.
Status ValidateGlueName(std::string_view what, std::string_view name);

}  // namespace st::registry
