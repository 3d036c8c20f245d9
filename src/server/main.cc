// Standalone `streamtables-server`, until the CLI dispatches `streamtables server`.
#include "server/run_server.h"

int main(int argc, char** argv) { return st::server::RunServer(argc, argv); }
