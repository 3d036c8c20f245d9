// Overloaded{lambda...}: one visitor for std::visit built from one lambda per
// alternative, so a missing alternative is a compile error at the call.
#pragma once

namespace st {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace st
