// What the Server calls. The Router is the production implementation; tests
// may plug in anything.
#pragma once

#include "http/http_error.h"
#include "http/request.h"
#include "http/response.h"

namespace st::http {

class Handler {
 public:
  virtual ~Handler() = default;
  // Serves one complete request. Called concurrently from the server's I/O
  // threads, so it must be thread-safe; it may block (it holds that I/O thread
  // meanwhile, so Server::Options::threads bounds concurrency). Must not throw:
  // the server answers an escaped exception with a bare 500 and logs it.
  virtual Response Handle(Request& request) = 0;
  // The response for a request the server refused before Handle: malformed
  // request (400), header section too large (431), body over the limit (413).
  // `error.http_status` is set; `request` holds whatever was parsed (method and
  // path may be empty). The connection is closed after this response.
  virtual Response Reject(const Request& request, const HttpError& error) = 0;
};

}  // namespace st::http
