// Condition operators and policy variables: the parser validates policy
// values with ValidateConditionValue, the evaluator runs EvaluateCondition.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "auth/evaluator.h"
#include "auth/policy.h"

namespace st::auth {

// A description of why `value` cannot serve as a policy value of `op`
// (unparseable number, date, CIDR or boolean), or nullopt when it can.
// Values containing a policy variable ("${") are accepted unchecked.
std::optional<std::string> ValidateConditionValue(ConditionOperator op, std::string_view value);

// Replaces ${key} and ${key, 'default'} with the key's single value, and ${*},
// ${?}, ${$} with the literal character. nullopt when a referenced key is
// absent or multi-valued and there is no default: the element then matches
// nothing.
std::optional<std::string> SubstitutePolicyVariables(std::string_view text,
                                                     const ConditionKeys& keys);

// Whether `condition` holds for `keys`. `substitute` enables policy variables
// in the policy values (Version 2012-10-17 only).
bool EvaluateCondition(const Condition& condition, const ConditionKeys& keys, bool substitute);

}  // namespace st::auth
