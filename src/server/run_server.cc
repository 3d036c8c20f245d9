#include "server/run_server.h"

#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <memory>
#include <thread>

#include "common/clock.h"
#include "http/error_shapes.h"
#include "http/server.h"
#include "server/builtin_routes.h"
#include "server/data_dir.h"
#include "server/placeholder_auth.h"
#include "server/server_config.h"

namespace st::server {

namespace {

std::string Url(const http::Server& server) { return "http://" + server.endpoint(); }

}  // namespace

int RunServer(int argc, char** argv) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  Result<ServerConfig> parsed = ParseServerFlags(args);
  if (!parsed.has_value()) {
    std::fprintf(stderr, "streamtables server: %s\n", parsed.error().message().c_str());
    return 2;
  }
  const ServerConfig& config = *parsed;
  if (config.help) {
    std::fputs(ServerUsage().c_str(), stdout);
    return 0;
  }

  // Block the stop signals before any thread starts, so they all inherit the
  // mask and only sigwait() below sees the signals.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  http::JsonLinesLogger logger(stderr, config.log_level, SystemClock::Default());
  auto fail = [&](const Status& status) {
    logger.Log(http::LogLevel::kError, "startup_failed", {{"error", status.ToString()}});
    return 1;
  };

  Result<DataDirLayout> layout =
      PrepareDataDir(config.data_dir, config.account_id, DefaultRandom::Default());
  if (!layout.has_value()) return fail(layout.error());

  AnonymousAuthenticator authenticator;
  DenyAllAuthorizer authorizer;

  http::Router api_router(authenticator, authorizer, logger);
  Status mounted = api_router.Mount(
      {"s3tables", "", std::make_shared<http::S3TablesErrorWriter>(), HealthRoutes()});
  if (mounted.ok()) {
    mounted = api_router.Mount({"iceberg", "/iceberg", std::make_shared<http::IcebergErrorWriter>(),
                                IcebergPlaceholderRoutes()});
  }
  http::Router s3_router(authenticator, authorizer, logger);
  if (mounted.ok()) {
    mounted = s3_router.Mount({"s3", "", std::make_shared<http::S3ErrorWriter>(), {}});
  }
  if (!mounted.ok()) return fail(mounted);

  http::Server::Options api_options;
  api_options.address = config.listen.host;
  api_options.port = config.listen.port;
  api_options.threads = config.threads;
  api_options.max_body_bytes = config.max_body_bytes;
  Result<std::unique_ptr<http::Server>> api = http::Server::Make(api_options, api_router, logger);
  if (!api.has_value()) return fail(api.error().WithContext("API endpoint (--listen)"));

  http::Server::Options s3_options = api_options;
  s3_options.address = config.s3_listen.host;
  s3_options.port = config.s3_listen.port;
  s3_options.max_body_bytes = config.s3_max_body_bytes;
  Result<std::unique_ptr<http::Server>> s3 = http::Server::Make(s3_options, s3_router, logger);
  if (!s3.has_value()) return fail(s3.error().WithContext("S3 endpoint (--s3-listen)"));

  logger.Log(http::LogLevel::kInfo, "started",
             {{"api", Url(**api)},
              {"s3", Url(**s3)},
              {"data_dir", layout->root},
              {"account_id", layout->account_id},
              {"region", config.region}});
  std::printf("streamtables: listening api=%s s3=%s\n", Url(**api).c_str(), Url(**s3).c_str());
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  logger.Log(http::LogLevel::kInfo, "shutdown",
             {{"signal", signal_number == SIGINT ? "SIGINT" : "SIGTERM"}});
  // Drain both endpoints at once so the grace period is not spent twice.
  std::thread s3_stop([&] { (*s3)->Shutdown(); });
  (*api)->Shutdown();
  s3_stop.join();
  logger.Log(
      http::LogLevel::kInfo, "stopped",
      {{"api_requests", (*api)->requests_served()}, {"s3_requests", (*s3)->requests_served()}});
  return 0;
}

}  // namespace st::server
