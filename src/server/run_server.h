// `streamtables server`: the composition root. Builds the object graph
// (data dir, master key, auth hooks, routers with every API surface's route
// table, three HTTP endpoints), serves until SIGINT/SIGTERM, then shuts down gracefully.
#pragma once

namespace st::server {

// `argv[1..]` are the server flags (see ServerUsage()); the CLI passes its
// arguments after "server". Prints one machine-readable line to stdout once
// every endpoint listens (metrics=off when --metrics-listen off):
//   streamtables: listening api=http://127.0.0.1:8181 s3=http://127.0.0.1:9000
//   metrics=http://127.0.0.1:9464
// Returns 0 after a signal-initiated graceful shutdown, 2 for bad flags, 1
// when startup fails (the reason is logged to stderr). Blocks SIGINT and
// SIGTERM in the calling thread (and the threads it starts) to wait for them.
int RunServer(int argc, char** argv);

}  // namespace st::server
