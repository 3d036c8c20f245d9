#include "http/request.h"

namespace st::http {

Result<Request> MakeRequest(std::string method, std::string_view target, std::string body) {
  Request request;
  request.method = std::move(method);
  request.raw_target = std::string(target);
  ST_ASSIGN_OR_RETURN(request.target, ParseRequestTarget(target));
  request.body = std::move(body);
  return request;
}

}  // namespace st::http
